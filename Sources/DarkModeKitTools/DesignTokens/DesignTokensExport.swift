import DarkModeKit
import DarkModeKitText

/// The names design-tokens files use for DarkModeKit's variants, shared by the export and the
/// import.
enum DesignTokens {
  /// The format version the export writes and the import reads.
  static let version = "2025.10"
  static let schema = "https://www.designtokens.org/schemas/2025.10/resolver.json"
  /// The vendor key of DarkModeKit's `$extensions`.
  static let vendor = "org.darkmodekit"
  /// The modifiers, in resolution order.
  static let themeModifier = "theme"
  static let schemeModifier = "color-scheme"
  static let contrastModifier = "contrast"
  /// The theme context of the table's default theme (no theme chosen), unless a theme has that
  /// name.
  static let defaultThemeContext = "default"
  /// The groups that hold each theme's colours and each side's, between the contexts. Their
  /// names hold a space, which no key can, so they never meet a key's token.
  static let columnsGroup = "DarkModeKit columns"
  /// The set that holds `columnsGroup`; its name goes into a `$ref`, so it has no space.
  static let columnsSet = "columns"
  static let variantsGroup = "DarkModeKit variants"
  static let schemeGroup = "DarkModeKit scheme"
  /// The groups a table's keys are not in.
  static let helperGroups: Set<String> = [columnsGroup, variantsGroup, schemeGroup]
  /// The group of one column in `columnsGroup`, by its place in the header.
  static func columnGroup(_ column: Int) -> String { "column \(column + 1)" }
  /// The contexts of the two other modifiers.
  static let sides: [(context: String, style: DMUserInterfaceStyle)] = [("light", .light), ("dark", .dark)]
  static let contrasts: [(context: String, contrast: DMAccessibilityContrast)] = [
    ("normal", .normal), ("more", .high),
  ]

  /// The most parts of a key that become nested groups: the document's own nesting around them
  /// stays well within `JSONReader.maximumDepth`.
  static let maximumParts = 32

  /// The token path of each key: its parts between dots, a key that is also a group getting
  /// `$root` (`Text` beside `Text.Primary`). A key with an empty part (`A..B`), more than
  /// `maximumParts` parts, or parts or a path longer than the reader takes (with the groups of the
  /// export around it) gets a name of its own and keeps its key in `$extensions`.
  static func paths(forKeys keys: [String]) -> [(path: [String], keepsKey: Bool)] {
    // Split scalar by scalar, as the reader checks names: a dot followed by a combining mark is
    // one character but still a dot.
    let split = keys.map {
      $0.unicodeScalars.split(separator: ".", omittingEmptySubsequences: false).map { String($0) }
    }
    var groups: Set<[String]> = []
    /// A key nested deeper than this gets a name of its own: the reader bounds nesting.
    func isNested(_ parts: [String]) -> Bool {
      !parts.contains("") && parts.count <= maximumParts && parts.allSatisfy(isTokenName)
        && parts.allSatisfy { $0.utf8.count <= TokenTree.maximumPathLength / 4 }
        && parts.reduce(parts.count, { $0 + $1.utf8.count }) <= TokenTree.maximumPathLength - pathAllowance
    }
    for parts in split where isNested(parts) {
      for length in 1..<max(parts.count, 1) { groups.insert(Array(parts.prefix(length))) }
    }
    let singleNames = Set(split.filter { $0.count == 1 }.map { $0[0] })
    var taken: Set<[String]> = []
    /// The next suffix to try for each base name, so that many keys of one base cost one step each.
    var nextSuffix: [String: Int] = [:]
    var result: [(path: [String], keepsKey: Bool)] = []
    for parts in split {
      if isNested(parts) {
        let path = groups.contains(parts) ? parts + ["$root"] : parts
        taken.insert(path)
        // A key the reader would not read back from its path alone (`所有`, `1BG`, `a/b`, which it
        // reads as `__`, `_1BG`, `a_b`) keeps itself in `$extensions`.
        result.append((path, DMDesignTokens.key(path: path, given: nil) != parts.joined(separator: ".")))
        continue
      }
      // A name of its own at the top: the parts joined with `_` (its start, for a long key),
      // made a name a token can have and unique.
      var base = ""
      for (index, scalar) in parts.joined(separator: "_").unicodeScalars.enumerated() {
        guard base.utf8.count + UTF8.width(scalar) <= ownNameLength else { break }
        base.unicodeScalars.append(
          scalar == "{" || scalar == "}" || (index == 0 && scalar == "$") ? "_" : scalar)
      }
      var name = base
      var suffix = nextSuffix[base] ?? 2
      while taken.contains([name]) || groups.contains([name]) || singleNames.contains(name) {
        name = base + "-" + String(suffix)
        suffix += 1
      }
      nextSuffix[base] = suffix
      taken.insert([name])
      result.append(([name], true))
    }
    return result
  }

  /// Whether a part of a key can name a token: names hold no `{`, `}` or `.`, and do not start
  /// with `$`.
  static func isTokenName(_ part: String) -> Bool {
    !part.unicodeScalars.starts(with: ["$"]) && !part.unicodeScalars.contains { $0 == "{" || $0 == "}" }
  }

  /// The bytes a token's path may need around its key's parts: the groups that hold it
  /// (`DarkModeKit variants.light.normal.`, `DarkModeKit columns.column 100000.`) and `.$root`.
  static let pathAllowance = 64

  /// The most bytes of a key that a name of its own starts with.
  static let ownNameLength = 200

  /// A reference to the token at `path`: `{a.b.c}`.
  static func reference(_ path: [String]) -> String {
    "{" + path.joined(separator: ".") + "}"
  }

  /// A colour as a 2025.10 colour value: sRGB components and alpha, and the hex fallback; or, for
  /// a colour that came from a space wider than sRGB, the components it was written with in that
  /// space, and as the fallback the sRGB colour the table shows (which a reader of the export shows
  /// where it cannot show the wider colour, as DarkModeKit does).
  static func colorValue(_ color: DMColor, origin: DMColorOrigin? = nil) -> JSONText {
    func number(_ value: Double) -> JSONText {
      let unit = value.isFinite ? min(max(value, 0), 1) : 0
      return .number(((unit * 10_000).rounded() / 10_000).formatted)
    }
    let hex = color.hexString.prefix(7)
    let components: JSONText =
      origin.map { .array($0.components.map { .number($0.formatted) }) }
      ?? .array([number(color.red), number(color.green), number(color.blue)])
    return .object([
      ("colorSpace", .string(origin?.space ?? "srgb")),
      ("components", components),
      ("alpha", number(color.alpha)),
      ("hex", .string(String(hex))),
    ])
  }

  /// Tokens placed at their paths, groups made on the way, in the order the paths come.
  static func tree(_ tokens: [(path: [String], token: JSONText)], type: String? = nil) -> JSONText {
    final class Group {
      var members: [(String, Either)] = []
      /// The groups among `members`, by name, so that placing a token costs no scan.
      var groups: [String: Group] = [:]
      enum Either {
        case token(JSONText)
        case group(Group)
      }
      func group(_ name: String) -> Group {
        if let existing = groups[name] { return existing }
        let group = Group()
        members.append((name, .group(group)))
        groups[name] = group
        return group
      }
      var json: JSONText {
        .object(
          members.map { name, member in
            switch member {
            case .token(let token): (name, token)
            case .group(let group): (name, group.json)
            }
          })
      }
    }
    let root = Group()
    for (path, token) in tokens {
      var group = root
      for name in path.dropLast() { group = group.group(name) }
      group.members.append((path[path.count - 1], .token(token)))
    }
    guard let type, case .object(let members) = root.json else { return root.json }
    return .object([("$type", .string(type))] + members)
  }
}

extension DMColorTable {
  /// The table as a Design Tokens resolver document (format 2025.10); see
  /// ``DMColorTableExportFormat/json``.
  ///
  /// The tokens are counted against `budget` as they are made, each by the least it can take once
  /// written, so that a table whose tokens would take far more than the limit stops before they
  /// are all in memory; the document is then written while it stays within the limit.
  static func designTokens(_ contents: Contents, options: DMColorTableExportOptions, budget: ExportBudget)
    throws(DMColorTableExportSizeError) -> String
  {
    let paths = DesignTokens.paths(forKeys: contents.keys)
    let names = columnNames(contents)
    // The contexts of the theme modifier: the default theme, then each theme.
    var themeContexts: [(name: String, theme: DMTheme?)] = []
    let themeNames = Set(contents.themes.map(\.rawValue))
    var defaultContext = DesignTokens.defaultThemeContext
    while themeNames.contains(defaultContext) { defaultContext = "(" + defaultContext + ")" }
    themeContexts.append((defaultContext, nil))
    themeContexts += contents.themes.map { ($0.rawValue, $0) }

    func keyTokens(_ value: (Int) -> JSONText) throws(DMColorTableExportSizeError) -> [(
      path: [String], token: JSONText
    )] {
      var tokens: [(path: [String], token: JSONText)] = []
      tokens.reserveCapacity(contents.keys.count)
      for row in contents.keys.indices {
        let tokenValue = value(row)
        var members: [(String, JSONText)] = [("$value", tokenValue)]
        if paths[row].keepsKey {
          members.append(
            ("$extensions", .object([(DesignTokens.vendor, .object([("key", .string(contents.keys[row]))]))]))
          )
        }
        // At least `"NAME": {"$value": VALUE}` and a line break.
        try budget.spend(paths[row].path[paths[row].path.count - 1].utf8.count + 17 + tokenValue.leastSize)
        tokens.append((paths[row].path, .object(members)))
      }
      return tokens
    }
    // Each column's colours once, in a set of their own; the contexts refer to them.
    var columns: [(String, JSONText)] = [("$type", .string("color"))]
    for column in names.indices {
      let tokens = try keyTokens { row in
        DesignTokens.colorValue(
          contents.color(row: row, column: column), origin: contents.origin(row: row, column: column))
      }
      guard case .object(let members) = DesignTokens.tree(tokens) else { continue }
      columns.append(
        (DesignTokens.columnGroup(column), .object([("$description", .string(names[column]))] + members)))
    }
    func variantsOf(_ theme: DMTheme?) throws(DMColorTableExportSizeError) -> JSONText {
      var tokens: [(path: [String], token: JSONText)] = []
      for (sideName, side) in DesignTokens.sides {
        for (contrastName, contrast) in DesignTokens.contrasts {
          let column = contents.column(
            for: DMTraitCollection(userInterfaceStyle: side, accessibilityContrast: contrast, theme: theme))
          tokens += try keyTokens { row in
            .string(
              DesignTokens.reference(
                [DesignTokens.columnsGroup, DesignTokens.columnGroup(column)] + paths[row].path))
          }.map { ([sideName, contrastName] + $0.path, $0.token) }
        }
      }
      return .object([(DesignTokens.variantsGroup, DesignTokens.tree(tokens))])
    }
    func scheme(_ side: String) throws(DMColorTableExportSizeError) -> JSONText {
      var tokens: [(path: [String], token: JSONText)] = []
      for (contrastName, _) in DesignTokens.contrasts {
        tokens += try keyTokens { row in
          .string(DesignTokens.reference([DesignTokens.variantsGroup, side, contrastName] + paths[row].path))
        }.map { ([contrastName] + $0.path, $0.token) }
      }
      return .object([(DesignTokens.schemeGroup, DesignTokens.tree(tokens))])
    }
    func contrast(_ name: String) throws(DMColorTableExportSizeError) -> JSONText {
      DesignTokens.tree(
        try keyTokens { row in
          .string(DesignTokens.reference([DesignTokens.schemeGroup, name] + paths[row].path))
        })
    }

    let source = options.sourceName.map { " from \(ShownText.escaped($0))" } ?? ""
    let header: [JSONText] = names.map { .string($0) }
    func document(_ body: [(String, JSONText)]) throws(DMColorTableExportSizeError) -> String {
      let text = JSONText.object(
        [
          ("$schema", .string(DesignTokens.schema)),
          ("version", .string(DesignTokens.version)),
          ("name", .string(options.sourceName.map(Self.baseName) ?? "colours")),
          (
            "description",
            .string(
              "Generated by dmkit\(source): one colour token per key of the colour table. Choose the "
                + "theme, the color-scheme and the contrast.")
          ),
        ] + body
      ).rendered(limit: budget.limit)
      guard let text else { throw budget.error }
      return text
    }
    // A table never loaded has no column: a document with one empty set.
    guard !contents.variants.isEmpty else {
      return try document([
        ("sets", .object([("colours", .object([("sources", .array([]))]))])),
        ("resolutionOrder", .array([.object([("$ref", .string("#/sets/colours"))])])),
      ])
    }
    // The order the tokens come in once grouped; the table's own order is kept when it differs.
    let keysInTreeOrder: [String] = {
      var groups: [[String]: Int] = [:]
      var order: [(position: [Int], row: Int)] = []
      for (row, path) in paths.enumerated() {
        var position: [Int] = []
        for length in 1...path.path.count {
          let prefix = Array(path.path.prefix(length))
          if groups[prefix] == nil { groups[prefix] = groups.count }
          position.append(groups[prefix]!)
        }
        order.append((position, row))
      }
      return order.sorted { $0.position.lexicographicallyPrecedes($1.position) }.map { contents.keys[$0.row] }
    }()
    var themeContextTokens: [(String, JSONText)] = []
    for context in themeContexts {
      themeContextTokens.append((context.name, .array([try variantsOf(context.theme)])))
    }
    var schemeContextTokens: [(String, JSONText)] = []
    for side in DesignTokens.sides {
      schemeContextTokens.append((side.context, .array([try scheme(side.context)])))
    }
    var contrastContextTokens: [(String, JSONText)] = []
    for level in DesignTokens.contrasts {
      contrastContextTokens.append((level.context, .array([try contrast(level.context)])))
    }
    let modifiers: JSONText = .object([
      (
        DesignTokens.themeModifier,
        .object([
          ("description", .string("The theme: the table's default theme, or one of its named themes.")),
          ("contexts", .object(themeContextTokens)),
          ("default", .string(defaultContext)),
          (
            "$extensions",
            .object([
              (
                DesignTokens.vendor,
                .object(
                  [("columns", .array(header)), ("defaultContext", .string(defaultContext))]
                    + (keysInTreeOrder == contents.keys
                      ? [] : [("keys", .array(contents.keys.map { JSONText.string($0) }))]))
              )
            ])
          ),
        ])
      ),
      (
        DesignTokens.schemeModifier,
        .object([
          ("description", .string("The side of the theme: light or dark.")),
          ("contexts", .object(schemeContextTokens)),
          ("default", .string("light")),
        ])
      ),
      (
        DesignTokens.contrastModifier,
        .object([
          ("description", .string("The contrast: normal, or more (the table's high-contrast columns).")),
          ("contexts", .object(contrastContextTokens)),
          ("default", .string("normal")),
        ])
      ),
    ])
    return try document([
      (
        "sets",
        .object([
          (
            DesignTokens.columnsSet,
            .object([
              ("description", .string("The colours of each column of the table, in the header's order.")),
              ("sources", .array([.object([(DesignTokens.columnsGroup, .object(columns))])])),
            ])
          )
        ])
      ),
      ("modifiers", modifiers),
      (
        "resolutionOrder",
        .array(
          [.object([("$ref", .string("#/sets/" + DesignTokens.columnsSet))])]
            + [DesignTokens.themeModifier, DesignTokens.schemeModifier, DesignTokens.contrastModifier].map {
              .object([("$ref", .string("#/modifiers/" + $0))])
            })
      ),
    ])
  }

  /// `Colors.txt` → `Colors`, `a/b.tokens.json` → `b.tokens`.
  private static func baseName(_ path: String) -> String {
    let file = path.split(separator: "/").last.map(String.init) ?? path
    guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
    return String(file[..<dot])
  }
}
