import DarkModeKit

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

  /// Creates export options.
  /// - Parameters:
  ///   - sourceName: The name of the file the table was read from, for the comment at the top of
  ///     CSS and Swift output, or `nil`.
  ///   - accessLevel: The access level of the constants in Swift output.
  ///   - namespace: The enum that holds the constants in Swift output, or `nil` for an extension
  ///     of `DMDynamicColor`.
  ///   - tableName: The table the Swift constants read, or `nil` for `DMColorTable.shared`.
  public init(
    sourceName: String? = nil, accessLevel: AccessLevel = .public, namespace: String? = nil,
    tableName: String? = nil
  ) {
    self.sourceName = sourceName
    self.accessLevel = accessLevel
    self.namespace = namespace
    self.tableName = tableName
  }
}

extension DMColorTableExportOptions {
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
  /// Colours are written in lower-case hexadecimal, `#rrggbb`, or `#rrggbbaa` when the alpha is
  /// below 1. Keys keep their file order and get the names that
  /// ``DMColorTableExportFormat/identifiers(forKeys:)`` gives them.
  ///
  /// ```swift
  /// let table = try DMColorTable(string: "NORMAL NIGHT\n#ffffff #343434 BG\n")
  /// print(table.exported(as: .css))
  /// // :root {
  /// //   --bg: #ffffff;
  /// // }
  /// // …
  /// ```
  ///
  /// - ``DMColorTableExportFormat/css``: the default theme on `:root`: its light side (`NORMAL`,
  ///   or the first light column), and its dark side (`NIGHT`, `DARK` or the first dark column)
  ///   inside `@media (prefers-color-scheme: dark)`; then each theme on `[data-theme="name"]`, the
  ///   theme's name as ``DMColorTableExportFormat/identifier(forKey:)`` writes it for CSS (`NIGHT`
  ///   → `night`, `High_Contrast` → `high-contrast`): a theme with one side shows it whatever the
  ///   system's setting, a theme with both follows `prefers-color-scheme` as `:root` does. A
  ///   high-contrast column is set inside `@media (prefers-contrast: more)` (and the side's
  ///   `prefers-color-scheme` when the selector has both sides). The theme rules come last, so
  ///   that a `data-theme` attribute on the root element wins over the system's setting. Each rule
  ///   sets `color-scheme` too, so that form controls and scroll bars follow: `light dark` where
  ///   the selector follows the system, else its side.
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
    let contents = contents
    switch format {
    case .css: return Self.css(contents, options: options)
    case .json: return Self.designTokens(contents, options: options)
    case .text: return Self.text(contents, options: options)
    case .swift: return Self.swift(contents, options: options, columnNames: Self.columnNames(contents))
    }
  }

  // MARK: - CSS

  private static func css(_ contents: Contents, options: DMColorTableExportOptions) -> String {
    let names = DMColorTableExportFormat.css.identifiers(forKeys: contents.keys)
    func declarations(column: Int, indent: String) -> String {
      contents.keys.indices.map { row in
        "\(indent)--\(names[row]): \(contents.color(row: row, column: column).cssHex);\n"
      }.joined()
    }
    var text = ""
    if let sourceName = options.sourceName {
      text += "/* Generated by dmkit from \(Self.commentText(sourceName)). */\n\n"
    }
    guard !contents.variants.isEmpty else { return text + ":root {\n}\n" }
    /// One selector's rules: its first side on the selector, its other side (if it has both) in
    /// a `prefers-color-scheme` query, and each high-contrast column in a `prefers-contrast` one.
    func rules(_ selector: String, theme: DMTheme?, sides: [DMUserInterfaceStyle], separated: Bool) -> String
    {
      var text = ""
      // Only the first rule sets `color-scheme`: the queries change colours, not the scheme.
      func rule(_ condition: String?, _ side: DMUserInterfaceStyle, _ column: Int) {
        if !text.isEmpty || separated { text += "\n" }
        if let condition {
          text += "@media \(condition) {\n  \(selector) {\n"
          text += declarations(column: column, indent: "    ") + "  }\n}\n"
        } else {
          let scheme = sides.count == 2 ? "light dark" : "\(side)"
          text +=
            "\(selector) {\n  color-scheme: \(scheme);\n\(declarations(column: column, indent: "  "))}\n"
        }
      }
      func column(_ side: DMUserInterfaceStyle, _ contrast: DMAccessibilityContrast) -> Int {
        contents.column(
          for: DMTraitCollection(userInterfaceStyle: side, accessibilityContrast: contrast, theme: theme))
      }
      for (index, side) in sides.enumerated() {
        rule(index == 0 ? nil : "(prefers-color-scheme: \(side))", side, column(side, .normal))
      }
      for side in sides where column(side, .high) != column(side, .normal) {
        let scheme = sides.count == 2 ? " and (prefers-color-scheme: \(side))" : ""
        rule("(prefers-contrast: more)\(scheme)", side, column(side, .high))
      }
      return text
    }
    let rootSides: [DMUserInterfaceStyle] =
      contents.defaultTheme(for: .dark) != nil
      ? (contents.defaultTheme(for: .light) != nil ? [.light, .dark] : [.dark]) : [.light]
    text += rules(":root", theme: nil, sides: rootSides, separated: false)
    let themeNames = DMColorTableExportFormat.css.identifiers(forKeys: contents.themes.map(\.rawValue))
    for (theme, name) in zip(contents.themes, themeNames) {
      let sides = contents.sides(of: theme)
      text += rules(
        "[data-theme=\"\(name)\"]", theme: theme,
        sides: sides == .dark ? [.dark] : sides == .light ? [.light] : [.light, .dark], separated: true)
    }
    return text
  }

  // MARK: - Text

  private static func text(_ contents: Contents, options: DMColorTableExportOptions) -> String {
    var text = options.sourceName.map { "// Generated by dmkit from \(Self.commentText($0)).\n" } ?? ""
    let names = columnNames(contents)
    guard !names.isEmpty else { return text }
    let colors = contents.keys.indices.map { row in
      names.indices.map { contents.color(row: row, column: $0).cssHex }
    }
    let widths = names.indices.map { column in
      colors.reduce(names[column].count) { max($0, $1[column].count) }
    }
    func line(_ cells: [String], _ last: String) -> String {
      zip(cells, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) + "  " }.joined() + last
    }
    text += line(names.dropLast() + [names[names.count - 1]], "").trimmingTrailingSpaces + "\n"
    for (row, key) in contents.keys.enumerated() {
      text += line(colors[row], key) + "\n"
    }
    return text
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
    _ contents: Contents, options: DMColorTableExportOptions, columnNames: [String]
  ) -> String {
    let names = DMColorTableExportFormat.swift.identifiers(forKeys: contents.keys)
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
    for (row, key) in contents.keys.enumerated() {
      let colors = contents.variants.indices.map { column in
        "\(columnNames[column]) \(contents.color(row: row, column: column).cssHex)"
      }
      if row > 0 { text += "\n" }
      text += "  /// `\(key)`: \(colors.joined(separator: ", ")).\n"
      text +=
        "  \(modifier)static let \(names[row]) = DMDynamicColor(key: \(swiftString(key))\(tableArgument))\n"
    }
    return text + "}\n"
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

extension DMColor {
  /// `#rrggbb`, or `#rrggbbaa` when alpha < 1: `hexString` in lower case, as CSS and design
  /// tokens usually write it.
  var cssHex: String { hexString.lowercased() }
}

extension String {
  /// The text without the spaces at its end.
  fileprivate var trimmingTrailingSpaces: String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
