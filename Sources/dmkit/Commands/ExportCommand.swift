import DarkModeKit
import DarkModeKitTools
import Foundation

/// `dmkit export FILE --format css|gtk|json|swift|text [--output PATH] [--access LEVEL]
/// [--namespace NAME] [--table NAME] [--nested] [--no-themes] [--column NAME] [--with FILE]...
/// [--allow-outside]`: the table (or design tokens) as CSS custom
/// properties, a GTK stylesheet, Design Tokens JSON, Swift constants, or a colour table.
@MainActor
enum ExportCommand {
  static let spec = CommandSpec(
    name: "export",
    summary: "Write a colour table (or design tokens) as CSS, GTK CSS, Design Tokens, Swift, or a table.",
    usage: """
      USAGE: dmkit export FILE --format css|gtk|json|swift|text [--output PATH] [--access LEVEL]
                          [--namespace NAME] [--table NAME] [--nested] [--no-themes]
                          [--column NAME] [--with FILE]... [--allow-outside]

      Writes the colour table in another format, to standard output or to a file. FILE may be
      design tokens (named *.json or *.tokens), which are read as a table first.
        css    custom properties: the default theme on :root, every theme under
               [data-theme="name"] (the theme's name in lower case, _ as -), each with its
               color-scheme; light-dark(light, dark) where both sides differ, high contrast
               under @media (prefers-contrast: more), and the same with
               prefers-color-scheme queries for browsers without light-dark()
        gtk    a GTK 4 stylesheet: named colours @dm_COLUMN_KEY, and the classes
               dm-bg-KEY, dm-fg-KEY, dm-border-KEY inside a column's class dm-column-COLUMN
        json   Design Tokens 2025.10: a resolver document whose modifiers theme,
               color-scheme and contrast choose every variant of each key's colour token
        swift  one DMDynamicColor constant per key, so the compiler checks the keys you use,
               and one DMTheme constant per theme
        text   the colour table's own format

      OPTIONS:
        --format FORMAT   css, gtk, json, swift or text (required).
        --output PATH     Write to PATH instead of standard output: a file is replaced at once
                          and keeps its permissions (through a link, the file it points to);
                          a FIFO or a device is written to; a directory is refused.
        --access LEVEL    The access level of the Swift constants: public (default), package
                          or internal.
        --namespace NAME  Put the Swift constants in `enum NAME` instead of an extension of
                          DMDynamicColor; give each table exported into one module its own.
        --table NAME      The table the Swift constants read, such as Tables.brand
                          (default: DMColorTable.shared).
        --nested          Nest the Swift constants of keys in a group in enums: Text.Primary
                          is Text.primary instead of textPrimary.
        --no-themes       Leave out the DMTheme constants of the table's themes (for a
                          second export without a namespace that shares a theme).
        --column NAME     GTK only: write one column (NIGHT, SOLARIZED:dark), its colours in
                          the classes outside any column's class, for a stylesheet the app
                          swaps when the style changes; for tables too big for one GTK
                          stylesheet of every column (60,000 selectors: six per key and
                          column).
      \(TableLoading.tokenOptionsUsage)

      Exit status: 0 on success, 1 for a bad table or an unwritable output, 2 for a bad command
      line.

      """,
    flags: ["--nested", "--no-themes", "--allow-outside"],
    options: ["--format", "--output", "--access", "--namespace", "--table", "--column", "--with"],
    positionals: 1...1)

  static func run(_ arguments: ParsedArguments, console: Console) -> Int32 {
    let formats = DMColorTableExportFormat.allCases.map(\.rawValue).joined(separator: ", ")
    guard let formatName = arguments.value("--format") else {
      console.error("error: 'export' needs --format (one of \(formats))\n")
      return 2
    }
    guard let format = DMColorTableExportFormat(rawValue: formatName) else {
      console.error(
        "error: unknown format '\(ShownText.escaped(formatName, limit: 64))'; use one of \(formats)\n")
      return 2
    }
    var options = DMColorTableExportOptions()
    for option in ["--access", "--namespace", "--table", "--nested", "--no-themes"]
    where format != .swift && (arguments.value(option) != nil || arguments.flags.contains(option)) {
      console.error("error: \(option) applies only to --format swift\n")
      return 2
    }
    if format != .gtk, arguments.value("--column") != nil {
      console.error("error: --column applies only to --format gtk\n")
      return 2
    }
    options.column = arguments.value("--column")
    options.namespace = arguments.value("--namespace")
    options.tableName = arguments.value("--table")
    options.nestsGroups = arguments.flags.contains("--nested")
    options.namesThemes = !arguments.flags.contains("--no-themes")
    if let access = arguments.value("--access") {
      guard let level = DMColorTableExportOptions.AccessLevel(rawValue: access) else {
        let levels = DMColorTableExportOptions.AccessLevel.allCases.map(\.rawValue).joined(separator: ", ")
        console.error(
          "error: unknown access level '\(ShownText.escaped(access, limit: 64))'; use one of \(levels)\n")
        return 2
      }
      options.accessLevel = level
    }
    let path = arguments.positionals[0]
    guard let table = TableLoading.load(path, console: console, options: TableLoading.tokenOptions(arguments))
    else {
      return 1
    }
    // Problems with the options say what to change, as a bad command line does.
    func refuse(_ problems: [String]) -> Bool {
      for problem in problems { console.error("error: \(problem)\n") }
      return !problems.isEmpty
    }
    if format == .swift, refuse(options.swiftProblems(for: table)) { return 2 }
    options.sourceName = URL(fileURLWithPath: path).lastPathComponent
    if let refusal = Self.sizeRefusal(for: table, as: format) {
      console.error(refusal)
      return 1
    }
    if format == .gtk, refuse(options.gtkProblems(for: table)) { return 2 }
    let text = table.exported(as: format, options: options)
    if format == .json, let warning = Self.tokensSizeWarning(byteCount: text.utf8.count) {
      console.error(warning)
    }
    guard let output = arguments.value("--output") else {
      console.out(text)
      return 0
    }
    do {
      try OutputFile.write(text, to: output)
    } catch {
      console.error("error: cannot write \(ShownText.quoted(output, limit: nil)): \(error.reason)\n")
      return 1
    }
    return 0
  }

  /// The most bytes an export of a table may come to, as ``estimatedSize(of:as:)`` counts them:
  /// building it holds several times its size in memory, and a table of a few megabytes with
  /// hundreds of themes makes hundreds of megabytes of tokens.
  static let maximumExportSize = 128 << 20

  /// At least the size of a table's tokens: each key has a token in each column, four in each
  /// theme context (the default theme's and each named theme's: light and dark, normal and more
  /// contrast) and six more; each token takes at most 120 bytes and three times its key, and each
  /// group its parts open (`Text` and `Text.Primary` for `Text.Primary.Hover`), once for all the
  /// keys in it, a line indented by its depth.
  static func estimatedTokensSize(of table: DMColorTable) -> Int {
    let tokensPerKey = table.columnNames.count + 4 * (table.themes.count + 1) + 6
    var groups: Set<Substring> = []
    var perContext = 0
    for key in table.keys {
      perContext += 120 + 3 * key.utf8.count
      // Each prefix ending before a dot is a group; the key itself is its token's line.
      var depth = 0
      for index in key.indices where key[index] == "." {
        depth += 1
        if groups.insert(key[..<index]).inserted { perContext += 8 * depth + 52 }
      }
      perContext += 8 * (depth + 1) + 52
    }
    let (size, overflow) = tokensPerKey.multipliedReportingOverflow(by: perContext)
    return overflow ? .max : size
  }

  /// At least the size of a table exported as `format`, other than JSON: each format writes
  /// each key once per column (GTK's named colour and three classes, CSS's custom property in
  /// its rules, a line of Swift's documentation), and Swift a constant per key. A colour table of
  /// a few hundred kilobytes with long keys and hundreds of themes makes a gigabyte of GTK CSS.
  static func estimatedSize(of table: DMColorTable, as format: DMColorTableExportFormat) -> Int {
    let keys = table.keys.count
    let keyBytes = table.keys.reduce(0) { $0 + $1.utf8.count }
    let columns = table.columnNames.count
    let nameBytes = table.columnNames.reduce(0) { $0 + $1.utf8.count }
    // Sums and products of counts each below 2^31 (a table is at most 64 MiB of text): in
    // floating point, they cannot overflow.
    let size: Double =
      switch format {
      case .json: Double(estimatedTokensSize(of: table))
      case .gtk: Double(columns) * Double(12 * keyBytes + 600 * keys) + Double(keys) * Double(8 * nameBytes)
      case .css: Double(columns) * Double(4 * keyBytes + 120 * keys) + Double(keys) * Double(2 * nameBytes)
      case .swift: Double(4 * keyBytes + 200 * keys) + Double(keys) * Double(40 * columns + 2 * nameBytes)
      case .text: Double(keyBytes + 50 * keys) + Double(keys) * Double(42 * columns) + Double(2 * nameBytes)
      }
    // The comments and rules each format writes once.
    let total = size + 8_192
    return total >= Double(Int.max) ? .max : Int(total)
  }

  /// The error for a table whose export as `format` could take more than ``maximumExportSize``.
  static func sizeRefusal(for table: DMColorTable, as format: DMColorTableExportFormat) -> String? {
    let size = estimatedSize(of: table, as: format)
    guard size > maximumExportSize else { return nil }
    guard format == .json else {
      return "error: the \(format.rawValue) export of this table could take \(size >> 20) MiB, more than the "
        + "\(maximumExportSize >> 20) MiB dmkit writes (each key written once per column); shorten the keys "
        + "or split the themes between tables\n"
    }
    return "error: the tokens of this table could take \(size >> 20) MiB, more than the "
      + "\(maximumExportSize >> 20) MiB dmkit writes (a token for each key in each column, and four "
      + "in each theme); export it --format text, css, gtk or swift\n"
  }

  /// The warning for tokens of `byteCount` bytes, when dmkit would not read them back: tokens of
  /// every variant weigh about fifty times the table's text.
  static func tokensSizeWarning(byteCount: Int) -> String? {
    guard byteCount > DMColorTable.defaultMaximumFileSize else { return nil }
    return "warning: the tokens take \(byteCount >> 20) MiB, more than the "
      + "\(DMColorTable.defaultMaximumFileSize >> 20) MiB dmkit reads; keep the table (or --format text) "
      + "to read it back\n"
  }
}
