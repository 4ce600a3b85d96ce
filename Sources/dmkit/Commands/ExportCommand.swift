import DarkModeKit
import DarkModeKitText
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
                          stylesheet of every column (60,000 selectors: ten per key,
                          and six per key and column).
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
      console.error("dmkit: error: \"export\" needs --format (one of \(formats))\n")
      return 2
    }
    guard let format = DMColorTableExportFormat(rawValue: formatName) else {
      console.error(
        "dmkit: error: unknown format \(ShownText.quoted(formatName)); use one of \(formats)\n")
      return 2
    }
    var options = DMColorTableExportOptions()
    for option in ["--access", "--namespace", "--table", "--nested", "--no-themes"]
    where format != .swift && (arguments.value(option) != nil || arguments.flags.contains(option)) {
      console.error("dmkit: error: \(option) applies only to --format swift\n")
      return 2
    }
    if format != .gtk, arguments.value("--column") != nil {
      console.error("dmkit: error: --column applies only to --format gtk\n")
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
          "dmkit: error: unknown access level \(ShownText.quoted(access)); use one of \(levels)\n")
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
      for problem in problems { console.error("dmkit: error: \(problem)\n") }
      return !problems.isEmpty
    }
    if format == .swift, refuse(options.swiftProblems(for: table)) { return 2 }
    options.sourceName = URL(fileURLWithPath: path).lastPathComponent
    if format == .gtk, refuse(options.gtkProblems(for: table)) { return 2 }
    let text: String
    do {
      text = try table.exported(as: format, options: options, maximumSize: Self.maximumExportSize)
    } catch {
      console.error(Self.sizeRefusal(error))
      return 1
    }
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
      console.error("dmkit: error: cannot write \(ShownText.quoted(output, limit: nil)): \(error.reason)\n")
      return 1
    }
    return 0
  }

  /// The most bytes an export may come to: more is refused, and nothing is written. A table of a
  /// few megabytes with long keys and hundreds of themes makes gigabytes of GTK CSS or tokens.
  static let maximumExportSize = 128 << 20

  /// The error for an export that passed ``maximumExportSize``.
  static func sizeRefusal(_ error: DMColorTableExportSizeError) -> String {
    let advice =
      switch error.format {
      case .json:
        "(a token for each key in each column, and four in each theme); export it in another format, "
          + "or split the themes between tables"
      case .text: "(a colour for each key in each column, padded to line up); split the themes between tables"
      default: "(each key written once per column); shorten the keys or split the themes between tables"
      }
    return "dmkit: error: the \(error.format.rawValue) export of this table comes to more than the "
      + "\(error.maximumSize >> 20) MiB dmkit writes \(advice); nothing was written\n"
  }

  /// The warning for tokens of `byteCount` bytes, when dmkit would not read them back: tokens of
  /// every variant weigh about fifty times the table's text.
  static func tokensSizeWarning(byteCount: Int) -> String? {
    guard byteCount > DMColorTable.defaultMaximumFileSize else { return nil }
    return "dmkit: warning: the tokens take \(byteCount >> 20) MiB, more than the "
      + "\(DMColorTable.defaultMaximumFileSize >> 20) MiB dmkit reads; keep the table (or --format text) "
      + "to read it back\n"
  }
}
