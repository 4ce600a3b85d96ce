import DarkModeKit
import DarkModeKitText

/// How ``DarkModeKit/DMColorTable/exported(as:options:)`` writes a table, beyond the format.
public struct DMColorTableExportOptions: Hashable, Sendable {
  /// The access level of the constants in a Swift export.
  public enum AccessLevel: String, CaseIterable, Hashable, Sendable {
    /// `public static let`: for a library that exports its colours.
    case `public`
    /// `package static let`: for the other modules of the same package.
    case `package`
    /// `internal static let` (written without a modifier): for the module that holds the file.
    case `internal`
  }

  /// The name of the file the table was read from, named in the comment at the top of CSS and
  /// Swift output; `nil` leaves the name out.
  public var sourceName: String?

  /// The access level of the constants in Swift output; ``AccessLevel/public`` by default.
  public var accessLevel: AccessLevel

  /// The caseless enum that holds the constants in Swift output, such as `BrandColors`; `nil`, the
  /// default, puts them in an extension of `DMDynamicColor`, so that `.bg` can be written
  /// wherever a `DMDynamicColor` is expected.
  ///
  /// Give each table exported into one module its own namespace: two exports without one declare
  /// the same constants twice. A name that is not a Swift identifier is made one by the rules for
  /// keys (``DMColorTableExportFormat/identifier(forKey:)``).
  public var namespace: String?

  /// The table the constants of a Swift export look their keys up in, as Swift names joined by
  /// dots, such as `Tables.brand` (a static property the app declares); `nil`, the default,
  /// for `DMColorTable.shared`.
  ///
  /// Each part that is not a Swift identifier is made one by the rules for keys.
  public var tableName: String?

  /// Whether a Swift export nests the constants of keys that share a group, the part of the key
  /// before its last dot, in enums named after the group's parts: `Text.Primary` is
  /// `Text.primary`, and `Text.Link.Hover` is `Text.Link.hover`; `false`, the default, gives every
  /// key a constant of its own at the top (`textPrimary`). A key with no dot, or with a part that
  /// has no letter or digit, stays at the top. Names follow
  /// ``DMColorTableExportFormat/identifier(forKey:)``, each constant made unique within its enum;
  /// an enum whose name a constant beside it has gets `Group` appended.
  public var nestsGroups: Bool

  /// Whether a Swift export names the table's themes (other than `NORMAL` and `NIGHT`) with
  /// `DMTheme` constants: in an extension of `DMTheme` (`DMTheme.solarized`), or in the enum
  /// `Themes` of the ``namespace`` (`BrandColors.Themes.solarized`); `true` by default. Two
  /// exports without a namespace into one module, with a theme in common, need it off in one.
  public var namesThemes: Bool

  /// The one column a GTK export writes, named as in ``DarkModeKit/DMColorTable/columnNames``
  /// (`NIGHT`, `SOLARIZED:dark`): its named colours, and its colours in the classes outside any
  /// column's class, as a stylesheet an app loads for that style, and swaps for another's; `nil`,
  /// the default, writes every column, and so does a name the table does not have (which
  /// ``gtkProblems(for:)`` reports). A table of many keys and columns fits in one GTK 4.8
  /// stylesheet only a column at a time (see ``gtkProblems(for:)``).
  public var column: String?

  /// Creates export options.
  /// - Parameters:
  ///   - sourceName: The name of the file the table was read from, for the comment at the top of
  ///     CSS and Swift output, or `nil`.
  ///   - accessLevel: The access level of the constants in Swift output.
  ///   - namespace: The enum that holds the constants in Swift output, or `nil` for an extension
  ///     of `DMDynamicColor`.
  ///   - tableName: The table the Swift constants read, or `nil` for `DMColorTable.shared`.
  ///   - nestsGroups: Whether the Swift constants of keys in a group are nested in an enum.
  ///   - namesThemes: Whether a Swift export has a `DMTheme` constant per theme.
  ///   - column: The one column a GTK export writes, or `nil` for all.
  public init(
    sourceName: String? = nil, accessLevel: AccessLevel = .public, namespace: String? = nil,
    tableName: String? = nil, nestsGroups: Bool = false, namesThemes: Bool = true, column: String? = nil
  ) {
    self.column = column
    self.namesThemes = namesThemes
    self.sourceName = sourceName
    self.accessLevel = accessLevel
    self.namespace = namespace
    self.tableName = tableName
    self.nestsGroups = nestsGroups
  }
}

extension DMColorTableExportOptions {
  /// What keeps these options from giving a GTK export of `table` that GTK 4.8 loads: one sentence
  /// per problem, empty when there is none.
  ///
  /// ``column`` must be one of the table's columns; and the stylesheet may hold at most
  /// ``DMGTKStyleRules/selectorLimit`` selectors, three per key outside any column's class and
  /// the seven of its button's feedback (``DMGTKStyleRules/feedbackRules(forKey:)``), and six per
  /// key in each column's class: past that, GTK 4.8 overflows its stack while loading it.
  /// Such a table is exported a column at a time.
  /// - Parameter table: The table to export.
  /// - Returns: The problems, such as `the table has no column "DUSK" (its columns: NORMAL, NIGHT)`.
  public func gtkProblems(for table: DMColorTable) -> [String] {
    let names = table.columnNames
    if let column, !names.contains(column) {
      return [
        "the table has no column \(ShownText.quoted(column)) (its columns: \(names.joined(separator: ", ")))"
      ]
    }
    let count = DMColorTable.gtkSelectorCount(
      keys: table.keys.count, scopedColumns: column == nil ? names.count : 0)
    guard count.selectors > DMGTKStyleRules.selectorLimit else { return [] }
    let one = DMColorTable.gtkSelectorCount(keys: table.keys.count, scopedColumns: 0).selectors
    let advice =
      one <= DMGTKStyleRules.selectorLimit
      ? "; export it a column at a time (--column NAME, \(one) selectors each)"
      : "; split the table into smaller ones"
    return [
      "a GTK stylesheet of \(table.keys.count) keys in \(column == nil ? names.count : 1) columns holds "
        + "\(count.selectors) selectors, more than the \(DMGTKStyleRules.selectorLimit) that GTK 4.8 loads"
        + advice
    ]
  }

  /// What keeps these options from giving a Swift export of `table` that compiles: one sentence
  /// per problem, empty when there is none.
  ///
  /// ``namespace`` and each part of ``tableName`` must be Swift names
  /// (``DMColorTableExportFormat/isSwiftIdentifier(_:)``); the namespace may not hide DarkModeKit's
  /// own names (`DarkModeKit`, or a name starting with `DM`); and the table name may not start with
  /// the namespace or with the name of one of the generated constants, which would hide it inside
  /// the generated code. ``DarkModeKit/DMColorTable/exported(as:options:)`` turns a name that is not a Swift
  /// name into one, but the code it writes for the other problems does not compile.
  /// - Parameter table: The table to export.
  /// - Returns: The problems, such as `the namespace "my-colors" is not a Swift name (…)`.
  public func swiftProblems(for table: DMColorTable) -> [String] {
    let rule = " (ASCII letters, digits and _, not starting with a digit, and not a keyword)"
    var problems: [String] = []
    if let namespace {
      if !DMColorTableExportFormat.isSwiftIdentifier(namespace) {
        problems.append("the namespace \(ShownText.quoted(namespace)) is not a Swift name\(rule)")
      } else if namespace == "DarkModeKit" || namespace.hasPrefix("DM") {
        problems.append(
          "the namespace \(namespace.debugDescription) would hide DarkModeKit's own names "
            + "(it may not be DarkModeKit or start with DM)")
      }
    }
    if let tableName {
      let parts = tableName.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
      let constants = DMColorTableExportFormat.swift.identifiers(forKeys: table.keys)
      if !parts.allSatisfy(DMColorTableExportFormat.isSwiftIdentifier) {
        problems.append("the table \(ShownText.quoted(tableName)) is not Swift names joined by dots\(rule)")
      } else if parts[0] == namespace {
        problems.append(
          "the table \(tableName.debugDescription) starts with the namespace, which the generated enum "
            + "would hide")
      } else if namespace != nil, namesThemes, parts[0] == "Themes",
        table.contents.themes.contains(where: { $0 != .normal && $0 != .night })
      {
        problems.append(
          "the table \(tableName.debugDescription) starts with Themes, the enum of the table's themes, "
            + "which would hide it in the generated code")
      } else if nestsGroups {
        var hidden: (key: String, isEnum: Bool)?
        SwiftGroup(keys: table.keys, nested: true).forEachName { name, key, isEnum in
          if hidden == nil, name == parts[0] { hidden = (key, isEnum) }
        }
        if let hidden {
          let what =
            hidden.isEnum
            ? "the enum of the keys \(hidden.key.debugDescription)…"
            : "the constant for the key \(hidden.key.debugDescription)"
          problems.append(
            "the table \(tableName.debugDescription) starts with \(parts[0]), \(what), which would hide "
              + "it in the generated code")
        }
      } else if let row = constants.firstIndex(of: parts[0]) {
        problems.append(
          "the table \(tableName.debugDescription) starts with \(parts[0]), the constant for the key "
            + "\(table.keys[row].debugDescription), which would hide it in the generated code")
      }
    }
    return problems
  }
}

extension DMColorTable {
  /// The table as CSS, Design Tokens JSON or Swift source.
  ///
  /// Colours are written in upper-case hexadecimal, `#RRGGBB`, or `#RRGGBBAA` when the alpha is
  /// below 1. Keys keep their file order and get the names that
  /// ``DMColorTableExportFormat/identifiers(forKeys:)`` gives them.
  ///
  /// ```swift
  /// let table = try DMColorTable(string: "NORMAL NIGHT\n#ffffff #343434 BG\n")
  /// print(table.exported(as: .css))
  /// // :root {
  /// //   color-scheme: light dark;
  /// //   --bg: light-dark(#FFFFFF, #343434);
  /// // }
  /// // …
  /// ```
  ///
  /// - ``DMColorTableExportFormat/css``: the default theme on `:root`, then each theme on
  ///   `[data-theme="name"]`, the theme's name as ``DMColorTableExportFormat/identifier(forKey:)``
  ///   writes it for CSS (`NIGHT` → `night`, `High_Contrast` → `high-contrast`). The theme rules
  ///   come last, so that a `data-theme` attribute on the root element wins over the system's
  ///   setting. Each rule sets `color-scheme`: `light dark` where the selector follows the system
  ///   (the default theme with its light side, `NORMAL` or the first light column, and its dark
  ///   side, `NIGHT`, `DARK` or the first dark column; a theme with both sides), else its one side
  ///   (a light-only or dark-only theme shows it whatever the system's setting). Where a selector
  ///   has both sides, each colour that differs is `light-dark(light, dark)`, so that it follows
  ///   the `color-scheme` in force where it is used. A high-contrast column is set inside
  ///   `@media (prefers-contrast: more)`. After the rules of each selector with both sides come,
  ///   inside `@supports not (color: light-dark(#000, #FFF))`, the same for browsers without
  ///   `light-dark()`: the first side on the selector, the other in
  ///   `@media (prefers-color-scheme: dark)` (or `light`).
  /// - ``DMColorTableExportFormat/json``: a Design Tokens resolver document (format 2025.10).
  ///   Each key is a colour token, named by its parts between dots (`Text.Primary` is `Primary` in
  ///   the group `Text`), resolved through three modifiers in turn: `theme` (`default`, or a
  ///   theme's name), `color-scheme` (`light`, `dark`) and `contrast` (`normal`, `more`). Colours
  ///   are sRGB colour objects with their hex fallback. The theme modifier's `$extensions` keep
  ///   the table's columns, so that the import gives the same table back.
  /// - ``DMColorTableExportFormat/text``: the table's own format, the header (``columnNames``)
  ///   and one row per key, colours aligned.
  /// - ``DMColorTableExportFormat/swift``: `import DarkModeKit`, then one
  ///   `static let name = DMDynamicColor(key: "KEY")` per key in an extension of
  ///   `DMDynamicColor` (or in the enum that ``DMColorTableExportOptions/namespace`` names), each
  ///   with a comment listing its colours. The constants look their key up in
  ///   `DMColorTable.shared`, or in the table that ``DMColorTableExportOptions/tableName`` names.
  ///
  /// An empty table (never loaded) gives an export with no keys.
  /// - Parameters:
  ///   - format: The format to write.
  ///   - options: The source file's name, and for Swift the access level, namespace and table.
  /// - Returns: The text, ending with a newline.
  public func exported(
    as format: DMColorTableExportFormat, options: DMColorTableExportOptions = DMColorTableExportOptions()
  ) -> String {
    // Without a limit, nothing is too big: the error cannot come.
    (try? Self.export(contents, as: format, options: options, budget: .unlimited(format))) ?? ""
  }

  /// The table in another format, as ``exported(as:options:)`` writes it, when that comes to at
  /// most `maximumSize` bytes of UTF-8.
  ///
  /// The export stops as soon as it has passed the limit, so that a table whose export would
  /// take gigabytes (long keys, hundreds of themes) fails early and within about the limit's
  /// memory. A GTK export of keys full of characters that CSS escapes, or a JSON export of a
  /// table with many themes, comes to many times the table's own size.
  ///
  /// ```swift
  /// let css = try table.exported(as: .css, maximumSize: 128 << 20)
  /// ```
  /// - Parameters:
  ///   - format: The format to write.
  ///   - options: The source file's name, and for Swift the access level, namespace and table.
  ///   - maximumSize: The most bytes the text may come to.
  /// - Returns: The text, ending with a newline, of at most `maximumSize` bytes.
  /// - Throws: ``DMColorTableExportSizeError`` when the text would come to more.
  public func exported(
    as format: DMColorTableExportFormat, options: DMColorTableExportOptions = DMColorTableExportOptions(),
    maximumSize: Int
  ) throws(DMColorTableExportSizeError) -> String {
    try Self.export(
      contents, as: format, options: options, budget: ExportBudget(format: format, limit: maximumSize))
  }

  private static func export(
    _ contents: Contents, as format: DMColorTableExportFormat, options: DMColorTableExportOptions,
    budget: ExportBudget
  ) throws(DMColorTableExportSizeError) -> String {
    let text =
      switch format {
      case .css: try css(contents, options: options, budget: budget)
      case .gtk: try gtk(contents, options: options, budget: budget)
      case .json: try designTokens(contents, options: options, budget: budget)
      case .text: try text(contents, options: options, budget: budget)
      case .swift: try swift(contents, options: options, columnNames: columnNames(contents), budget: budget)
      }
    return try budget.finished(text)
  }

  // MARK: - CSS

  private static func css(_ contents: Contents, options: DMColorTableExportOptions, budget: ExportBudget)
    throws(DMColorTableExportSizeError) -> String
  {
    var text = ""
    if let sourceName = options.sourceName {
      text += "/* Generated by dmkit from \(Self.commentText(sourceName)). */\n\n"
    }
    guard !contents.variants.isEmpty else { return text + ":root {\n}\n" }
    return text + (try CSSRules(contents).text(budget: budget))
  }

  // MARK: - GTK

  private static func gtk(_ contents: Contents, options: DMColorTableExportOptions, budget: ExportBudget)
    throws(DMColorTableExportSizeError) -> String
  {
    var text = ""
    if let sourceName = options.sourceName {
      text += "/* Generated by dmkit from \(Self.commentText(sourceName)). */\n\n"
    }
    guard !contents.variants.isEmpty else { return text }
    let columnNames = Self.columnNames(contents)
    let columns = DMColorTableExportFormat.gtk.identifiers(forKeys: columnNames)
    let keys = DMColorTableExportFormat.gtk.identifiers(forKeys: contents.keys)
    // One column: its colours outside any column's class. All: the default light side outside,
    // and each column inside its class.
    let one = options.column.flatMap { columnNames.firstIndex(of: $0) }
    let shown =
      one
      ?? contents.column(for: DMTraitCollection(userInterfaceStyle: .light, accessibilityContrast: .normal))
    let scoped = one == nil ? Array(columns.indices) : []
    if one == nil {
      text += """
        /* Each column's colours as named colours, @dm_COLUMN_KEY. The classes dm-bg-KEY (background),
           dm-fg-KEY (text) and dm-border-KEY (border) take the colours of the column whose class,
           dm-column-COLUMN, the widget or its window has; without one, those of \(commentText(columnNames[shown])). */


        """
    } else {
      text += """
        /* The colours of \(commentText(columnNames[shown])) as named colours, @dm_COLUMN_KEY, and in the classes
           dm-bg-KEY (background), dm-fg-KEY (text) and dm-border-KEY (border). */


        """
    }
    for column in one.map({ [$0] }) ?? Array(columns.indices) {
      for row in keys.indices {
        let color = DMGTKStyleRules.color(contents.color(row: row, column: column))
        let note =
          contents.origin(row: row, column: column).map { " /* from \($0.text), outside sRGB */" } ?? ""
        try budget.append("@define-color dm_\(columns[column])_\(keys[row]) \(color);\(note)\n", to: &text)
      }
    }
    let count = Self.gtkSelectorCount(keys: keys.count, scopedColumns: scoped.count)
    var writer = DMGTKStyleRules.Writer(ruleCount: count.rules, selectorCount: count.selectors)
    writer.append(text: text)
    if count.selectors > DMGTKStyleRules.groupingThreshold {
      writer.append(
        text: """

          /* The :not(.dm-g…) parts match every widget: they keep GTK 4.8's tree of this many selectors
             shallow enough for its stack. */

          """)
    }
    writer.append(text: "\n/* Outside any column's class: \(commentText(columnNames[shown])). */\n")
    for (row, key) in contents.keys.enumerated() {
      for rule in DMGTKStyleRules.ruleList(
        forKey: key, color: contents.color(row: row, column: shown), scope: nil)
      {
        try budget.spend(rule.text.utf8.count)
        writer.append(rule)
      }
    }
    writer.append(
      text:
        "\n/* A button with a class dm-bg-KEY keeps its feedback: shaded when hovered, pressed, checked or "
        + "disabled. */\n")
    for key in contents.keys {
      for rule in DMGTKStyleRules.feedbackRules(forKey: key) {
        try budget.spend(rule.text.utf8.count)
        writer.append(rule)
      }
    }
    for column in scoped {
      writer.append(
        text: "\n/* \(commentText(columnNames[column])): the class dm-column-\(columns[column]). */\n")
      for (row, key) in contents.keys.enumerated() {
        let rules = DMGTKStyleRules.ruleList(
          forKey: key, color: contents.color(row: row, column: column), scope: "dm-column-\(columns[column])")
        for rule in rules {
          try budget.spend(rule.text.utf8.count)
          writer.append(rule)
        }
      }
    }
    return writer.text
  }

  /// The rules and selectors of a GTK export of `keys` keys: three rules of one selector each
  /// outside any column's class, and three of two selectors for each column's class; and the
  /// feedback rules of each key's background class.
  static func gtkSelectorCount(keys: Int, scopedColumns: Int) -> (rules: Int, selectors: Int) {
    let feedback = DMGTKStyleRules.feedbackRules(forKey: "")
    return (
      rules: keys * (3 * (1 + scopedColumns) + feedback.count),
      selectors: keys * (3 * (1 + 2 * scopedColumns) + DMGTKStyleRules.feedbackSelectorsPerKey)
    )
  }

  // MARK: - Text

  /// The widest a column of the text export or the preview is padded to: a longer name or key
  /// stands out of line rather than making every row as wide.
  static let maximumAlignedWidth = 40

  private static func text(_ contents: Contents, options: DMColorTableExportOptions, budget: ExportBudget)
    throws(DMColorTableExportSizeError) -> String
  {
    var text = options.sourceName.map { "// Generated by dmkit from \(Self.commentText($0)).\n" } ?? ""
    let names = columnNames(contents)
    guard !names.isEmpty else { return text }
    let colors = contents.keys.indices.map { row in
      names.indices.map { contents.color(row: row, column: $0).hexString }
    }
    // Columns align up to a width: a long name pads its header cell alone, not every row.
    let widths = names.indices.map { column in
      colors.reduce(min(names[column].count, Self.maximumAlignedWidth)) { max($0, $1[column].count) }
    }
    func line(_ cells: [String], _ last: String) -> String {
      zip(cells, widths).map { $0 + String(repeating: " ", count: max($1 - $0.count, 0)) + "  " }.joined()
        + last
    }
    text += line(names.dropLast() + [names[names.count - 1]], "").trimmingTrailingSpaces + "\n"
    for (row, key) in contents.keys.enumerated() {
      try budget.append(
        line(colors[row], key) + originComment(contents, row: row, names: names) + "\n", to: &text)
    }
    return text
  }

  /// ` // NIGHT: color(display-p3 0 1 0), outside sRGB`: the colours of a row that came from a
  /// space wider than sRGB, each with its column, for a `//` comment at the end of the row's line;
  /// empty for a row with none.
  static func originComment(_ contents: Contents, row: Int, names: [String], opening: String = " // ")
    -> String
  {
    guard !contents.origins.isEmpty else { return "" }
    let notes = names.indices.compactMap { column in
      contents.origin(row: row, column: column).map { "\(names[column]): \($0.text)" }
    }
    return notes.isEmpty ? "" : opening + notes.joined(separator: "; ") + ", outside sRGB"
  }

  // MARK: - Swift

  /// A file name as the comment at the top of generated code shows it: control, format and
  /// separator characters escaped (no line break can end a `//` comment early, and nothing reaches a
  /// terminal that shows the file as a command), and `*/` broken so that it cannot end a `/* */`
  /// comment.
  static func commentText(_ name: String) -> String {
    ShownText.escaped(name).replacingOccurrences(of: "*/", with: "* /")
  }

  private static func swift(
    _ contents: Contents, options: DMColorTableExportOptions, columnNames: [String], budget: ExportBudget
  ) throws(DMColorTableExportSizeError) -> String {
    let modifier =
      switch options.accessLevel {
      case .public: "public "
      case .package: "package "
      case .internal: ""
      }
    let source = options.sourceName.map { " from \(Self.commentText($0))" } ?? ""
    let table = options.tableName.map { name in
      name.split(separator: ".", omittingEmptySubsequences: false)
        .map { DMColorTableExportFormat.swiftIdentifier(String($0)) }.joined(separator: ".")
    }
    let container =
      options.namespace.map { "\(modifier)enum \(DMColorTableExportFormat.swiftIdentifier($0))" }
      ?? "extension DMDynamicColor"
    let tableArgument = table.map { ", in: \($0)" } ?? ""
    let tableText = table ?? "DMColorTable.shared"
    var text = """
      // Generated by dmkit\(source). Do not edit: change the table and export it again.
      //
      // One constant per key of the colour table; each looks its key up in \(tableText),
      // so load the table there (\(tableText).reload(contentsOf:)) before resolving them.

      import DarkModeKit

      \(container) {

      """
    /// One constant, with a comment listing its colours.
    func constant(row: Int, name: String, indent: String) throws(DMColorTableExportSizeError) -> String {
      let colors = contents.variants.indices.map { column in
        "\(columnNames[column]) \(contents.color(row: row, column: column).hexString)"
          + (contents.origin(row: row, column: column).map { " (from \($0.text), outside sRGB)" } ?? "")
      }
      let key = contents.keys[row]
      let text =
        "\(indent)/// `\(key)`: \(colors.joined(separator: ", ")).\n"
        + "\(indent)\(modifier)static let \(name) = DMDynamicColor(key: \(swiftString(key))\(tableArgument))\n"
      try budget.spend(text.utf8.count)
      return text
    }
    func body(_ group: SwiftGroup, indent: String) throws(DMColorTableExportSizeError) -> String {
      var parts: [String] = []
      for (row, name) in zip(group.rows, group.constantNames) {
        parts.append(try constant(row: row, name: name, indent: indent))
      }
      for nested in group.groups {
        let inner = try body(nested, indent: indent + "  ")
        parts.append("\(indent)\(modifier)enum \(nested.name) {\n\(inner)\(indent)}\n")
      }
      return parts.joined(separator: "\n")
    }
    let themes = options.namesThemes ? contents.themes.filter { $0 != .normal && $0 != .night } : []
    let reserved: Set<String> = options.namespace != nil && !themes.isEmpty ? ["Themes"] : []
    text += try body(
      SwiftGroup(keys: contents.keys, nested: options.nestsGroups, reserved: reserved), indent: "  ")
    text += "}\n"
    // The themes, by name, for `DMTraitCollection(theme: .solarized)`; DarkModeKit has NORMAL
    // and NIGHT already. A namespace keeps them apart from other tables' themes.
    guard !themes.isEmpty else { return text }
    let themeNames = Self.themeConstantNames(themes, inExtension: options.namespace == nil)
    text +=
      options.namespace == nil
      ? "\nextension DMTheme {\n"
      : "\nextension \(DMColorTableExportFormat.swiftIdentifier(options.namespace!)) {\n"
        + "  /// The table's themes, by name.\n  \(modifier)enum Themes {\n"
    let themeIndent = options.namespace == nil ? "  " : "    "
    for (index, (theme, name)) in zip(themes, themeNames).enumerated() {
      let variants = contents.variants.indices.filter { contents.variants[$0].theme == theme }
        .map { columnNames[$0] }
      if index > 0 { text += "\n" }
      let sides = contents.sides(of: theme)
      let what = sides == [.light, .dark] ? "light and dark" : sides == .dark ? "dark only" : "light only"
      try budget.append(
        "\(themeIndent)/// `\(theme.rawValue)`: \(what) (\(variants.joined(separator: ", "))).\n"
          + "\(themeIndent)\(modifier)static let \(name): DMTheme = \(swiftString(theme.rawValue))\n",
        to: &text)
    }
    return text + (options.namespace == nil ? "}\n" : "  }\n}\n")
  }

  /// The names of the theme constants: by the rules for keys, made unique; in an extension of
  /// `DMTheme`, a name it has already (`normal`, `night`, `declare`) gets `Theme` appended first.
  static func themeConstantNames(_ themes: [DMTheme], inExtension: Bool) -> [String] {
    let own: Set<String> = inExtension ? ["normal", "night", "declare"] : []
    let natural = themes.map { theme in
      let name = DMColorTableExportFormat.swift.identifier(forKey: theme.rawValue)
      return own.contains(name) ? name + "Theme" : name
    }
    return DMColorTableExportFormat.uniqueNames(natural, separator: "", reserved: own)
  }

  /// A Swift string literal; keys are plain ASCII, but nothing else may break the file either.
  private static func swiftString(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        result += "\\u{\(String(scalar.value, radix: 16))}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}

/// The constants of a Swift export, and the enums that group them.
struct SwiftGroup {
  /// The enum's name; empty for the top.
  var name: String
  /// The rows of its keys, in table order, and each one's constant.
  var rows: [Int] = []
  var constantNames: [String] = []
  /// The key of each constant.
  var constantKeys: [String] = []
  var groups: [SwiftGroup] = []
  /// Its first key, for messages.
  var firstKey = ""

  /// The top of the export: with `nested`, the keys of a group in an enum of each part of the
  /// group; else every key at the top. Groups whose names come out alike share an enum. An enum
  /// named like a constant beside it, like one of `reserved` at the top, or with a name no enum
  /// may have (``DMColorTableExportFormat/isUnusableTypeName(_:)``), gets `Group` appended; then
  /// the enums of one scope are made unique, from each other and from its constants.
  init(keys: [String], nested: Bool, reserved: Set<String> = []) {
    final class Node {
      var rows: [Int] = []
      var leaves: [String] = []
      var children: [(name: String, node: Node)] = []
      var indexOfChild: [String: Int] = [:]
    }
    let root = Node()
    for (row, key) in keys.enumerated() {
      let parts = key.split(separator: ".", omittingEmptySubsequences: false)
      let grouped =
        nested && parts.count > 1
        && parts.allSatisfy { $0.unicodeScalars.contains(where: \.isASCIILetterOrDigit) }
      var node = root
      for part in grouped ? parts.dropLast() : [] {
        let name = DMColorTableExportFormat.swiftTypeName(forGroup: String(part))
        if let index = node.indexOfChild[name] {
          node = node.children[index].node
        } else {
          let child = Node()
          node.indexOfChild[name] = node.children.count
          node.children.append((name, child))
          node = child
        }
      }
      node.rows.append(row)
      node.leaves.append(grouped ? String(parts.last!) : key)
    }
    func group(_ node: Node, name: String, reserved: Set<String>) -> SwiftGroup {
      var result = SwiftGroup(name: name)
      result.rows = node.rows
      result.constantKeys = node.rows.map { keys[$0] }
      result.constantNames = DMColorTableExportFormat.swift.identifiers(forKeys: node.leaves)
      let taken = Set(result.constantNames.map(\.trimmingBackticks)).union(reserved)
      let natural = node.children.map { child in
        taken.contains(child.name) || DMColorTableExportFormat.isUnusableTypeName(child.name)
          ? child.name + "Group" : child.name
      }
      let names = DMColorTableExportFormat.uniqueNames(natural, separator: "", reserved: taken)
      result.groups = zip(node.children, names).map { group($0.node, name: $1, reserved: []) }
      result.firstKey = node.rows.first.map { keys[$0] } ?? result.groups.first?.firstKey ?? ""
      return result
    }
    self = group(root, name: "", reserved: reserved)
  }

  private init(name: String) { self.name = name }

  /// Every name the export declares in any enum, with the key it stands for (an enum's first)
  /// and whether it is an enum: a table name that starts with one of them is hidden where the
  /// name is in scope.
  func forEachName(_ body: (_ name: String, _ key: String, _ isEnum: Bool) -> Void) {
    for (name, key) in zip(constantNames, constantKeys) { body(name.trimmingBackticks, key, false) }
    for group in groups {
      body(group.name, group.firstKey, true)
      group.forEachName(body)
    }
  }
}

/// The CSS rules of a table, one selector at a time: `:root` for the default theme, then
/// `[data-theme="name"]` for each theme, so that an attribute on the root element wins over the
/// system's setting.
private struct CSSRules {
  struct Selector {
    var text: String
    /// The theme whose columns it shows, `nil` for the default theme.
    var theme: DMTheme?
    /// The sides it shows, light first: both when it follows the system.
    var sides: [DMUserInterfaceStyle]
  }

  let contents: DMColorTable.Contents
  /// Each key's custom property, without the leading `--`.
  let names: [String]
  let selectors: [Selector]

  init(_ contents: DMColorTable.Contents) {
    self.contents = contents
    names = DMColorTableExportFormat.css.identifiers(forKeys: contents.keys)
    let rootSides: [DMUserInterfaceStyle] =
      contents.defaultTheme(for: .dark) != nil
      ? (contents.defaultTheme(for: .light) != nil ? [.light, .dark] : [.dark]) : [.light]
    var selectors = [Selector(text: ":root", theme: nil, sides: rootSides)]
    let themeNames = DMColorTableExportFormat.css.identifiers(forKeys: contents.themes.map(\.rawValue))
    for (theme, name) in zip(contents.themes, themeNames) {
      let sides = contents.sides(of: theme)
      selectors.append(
        Selector(
          text: "[data-theme=\"\(name)\"]", theme: theme,
          sides: sides == .dark ? [.dark] : sides == .light ? [.light] : [.light, .dark]))
    }
    self.selectors = selectors
  }

  /// Every selector's rules in turn. A selector that shows both sides gives each colour as
  /// `light-dark(light, dark)`, which follows the `color-scheme` it sets, then the same for
  /// browsers without `light-dark()` inside `@supports not`: its first side on the selector and
  /// its other side in a `prefers-color-scheme` query. These come right after the selector's own
  /// rules, so that a later selector wins in every browser. A high-contrast column is set inside
  /// `prefers-contrast: more`.
  func text(budget: ExportBudget) throws(DMColorTableExportSizeError) -> String {
    var blocks: [String] = []
    var explained = false
    for selector in selectors {
      blocks += try self.blocks(of: selector, lightDark: true, indent: "", budget: budget)
      guard selector.sides.count == 2 else { continue }
      let comment = explained ? "" : "/* Browsers without light-dark(): each side in a rule of its own. */\n"
      explained = true
      let inner = try self.blocks(of: selector, lightDark: false, indent: "  ", budget: budget)
      blocks.append(
        comment + "@supports not (color: light-dark(#000, #FFF)) {\n" + inner.joined(separator: "\n") + "}\n")
    }
    return blocks.joined(separator: "\n")
  }

  private func blocks(of selector: Selector, lightDark: Bool, indent: String, budget: ExportBudget)
    throws(DMColorTableExportSizeError) -> [String]
  {
    func column(_ side: DMUserInterfaceStyle, _ contrast: DMAccessibilityContrast) -> Int {
      contents.column(
        for: DMTraitCollection(
          userInterfaceStyle: side, accessibilityContrast: contrast, theme: selector.theme))
    }
    // `columns` holds one column, or a light and a dark one for `light-dark()`.
    func rule(_ conditions: [String], scheme: String?, columns: [Int]) throws(DMColorTableExportSizeError)
      -> String
    {
      var text = ""
      var inner = indent
      if !conditions.isEmpty {
        text += "\(indent)@media \(conditions.joined(separator: " and ")) {\n"
        inner += "  "
      }
      text += "\(inner)\(selector.text) {\n"
      if let scheme { text += "\(inner)  color-scheme: \(scheme);\n" }
      for row in contents.keys.indices {
        let colors = columns.map { contents.color(row: row, column: $0).hexString }
        let value =
          colors.count == 2 && colors[0] != colors[1] ? "light-dark(\(colors[0]), \(colors[1]))" : colors[0]
        // Each side named when there are two.
        let origins = zip(["light: ", "dark: "], columns).compactMap { side, column in
          contents.origin(row: row, column: column).map { (columns.count == 2 ? side : "") + $0.text }
        }
        let note = origins.isEmpty ? "" : " /* from \(origins.joined(separator: "; ")), outside sRGB */"
        try budget.append("\(inner)  --\(names[row]): \(value);\(note)\n", to: &text)
      }
      text += "\(inner)}\n"
      if !conditions.isEmpty { text += "\(indent)}\n" }
      return text
    }
    let sides = selector.sides
    // Only the first rule sets `color-scheme`: the queries change colours, not the scheme.
    let scheme = sides.count == 2 ? "light dark" : "\(sides[0])"
    let normal = sides.map { column($0, .normal) }
    let high = sides.map { column($0, .high) }
    if lightDark {
      var blocks = [try rule([], scheme: scheme, columns: normal)]
      if high != normal { blocks.append(try rule(["(prefers-contrast: more)"], scheme: nil, columns: high)) }
      return blocks
    }
    var blocks: [String] = []
    for index in sides.indices {
      blocks.append(
        try rule(
          index == 0 ? [] : ["(prefers-color-scheme: \(sides[index]))"], scheme: index == 0 ? scheme : nil,
          columns: [normal[index]]))
    }
    for index in sides.indices where high[index] != normal[index] {
      let side = sides.count == 2 ? ["(prefers-color-scheme: \(sides[index]))"] : []
      blocks.append(try rule(["(prefers-contrast: more)"] + side, scheme: nil, columns: [high[index]]))
    }
    return blocks
  }
}

extension String {
  /// The text without the spaces at its end.
  fileprivate var trimmingTrailingSpaces: String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
