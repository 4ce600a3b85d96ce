import DarkModeKit

/// A format that ``DarkModeKit/DMColorTable/exported(as:options:)`` writes a colour table in.
///
/// - ``css``: CSS custom properties, for the web.
/// - ``gtk``: a GTK 4 stylesheet of named colours and classes, for GTK apps.
/// - ``json``: Design Tokens (the W3C Design Tokens Community Group format 2025.10), for design
///   tools.
/// - ``swift``: a Swift source file with one `DMDynamicColor` constant per key, so that the
///   compiler checks every key an app uses.
/// - ``text``: the colour table's own text format, for a table read from design tokens.
///
/// Each format turns the table's keys into names of its own with ``identifiers(forKeys:)``;
/// `Docs/dmkit.md` describes the rules.
public enum DMColorTableExportFormat: String, CaseIterable, Hashable, Sendable {
  /// CSS custom properties: the default theme on `:root`, every theme under
  /// `[data-theme="name"]` (its name in lower case), each with its `color-scheme`, colours with
  /// both sides as `light-dark(light, dark)`, high-contrast columns under
  /// `@media (prefers-contrast: more)`, and the same rules with `prefers-color-scheme` queries
  /// for browsers without `light-dark()`.
  case css
  /// A GTK 4 stylesheet: each column's colours as named colours (`@dm_night_bg`) and as the
  /// classes `dm-bg-KEY`, `dm-fg-KEY` and `dm-border-KEY` inside a column's class
  /// (`dm-column-night`), with the default theme's light side outside any; the same rules that
  /// DarkModeKitGTK loads (``DMGTKStyleRules``).
  case gtk
  /// A Design Tokens resolver document (format 2025.10): one colour token per key, named by the
  /// key's parts between dots, under three modifiers, `theme`, `color-scheme` (light, dark) and
  /// `contrast` (normal, more), so that a tool that reads the format gets every variant.
  case json
  /// A Swift source file: `extension DMDynamicColor { public static let bg =
  /// DMDynamicColor(key: "BG") }`, one constant per key; or, with a namespace and a table,
  /// `public enum BrandColors { public static let bg = DMDynamicColor(key: "BG", in: Tables.brand) }`.
  case swift
  /// The colour table's own text format (`Docs/ColorTableFormat.md`): the header, then one row
  /// per key, the colours aligned in columns.
  case text

  /// The name a key gets in this format, on its own, without making it unique among other keys.
  ///
  /// - ``css`` and ``gtk``: the key in lower case, with every character other than an ASCII
  ///   letter, a digit or `-` turned into `-`: `Text.Primary` → `text-primary`, `BG` → `bg`. The
  ///   CSS custom property is this name after `--`; the GTK named colour is this name after
  ///   `dm_COLUMN_` (the column's name by the same rule). GTK's classes hold the key as it is.
  /// - ``json`` and ``text``: the key as it is; in JSON, its parts between dots are nested groups
  ///   (`Text.Primary` is the token `Primary` in the group `Text`).
  /// - ``swift``: lowerCamelCase words, split at `.`, `_`, `-` and any other character that is
  ///   not an ASCII letter or digit: `Text.Primary` → `textPrimary`, `BG` → `bg`,
  ///   `URLColor.Hover` → `urlColorHover`. A name that would start with a digit gets a leading
  ///   `_`, a key with no letters or digits becomes `key`, and a Swift keyword such as `default`
  ///   is escaped with backticks; `self`, `init`, `deinit`, `subscript`, `super`, `Type`,
  ///   `Protocol` and `_`, which cannot name a static property, get `Key` appended (`selfKey`).
  ///
  /// - Parameter key: A colour-table key, such as `Text.Primary`.
  /// - Returns: The name for the key in this format.
  public func identifier(forKey key: String) -> String {
    switch self {
    case .css, .gtk: Self.tokenName(forKey: key)
    case .json, .text: key
    case .swift: Self.swiftName(forKey: key)
    }
  }

  /// The names a list of keys get in this format, unique and in the same order.
  ///
  /// Each key gets ``identifier(forKey:)``. When several keys get the same name, the first in
  /// the list keeps it, and each later one gets the smallest suffix from 2 up that makes a name no
  /// other key has: `2`, `3`, … in Swift (`textPrimary2`), `-2`, `-3`, … in CSS and JSON
  /// (`text-primary-2`). The result depends only on the keys and their order, so it is stable
  /// from one run to the next.
  ///
  /// ```swift
  /// print(DMColorTableExportFormat.css.identifiers(forKeys: ["Text.Primary", "Text_Primary", "BG"]))
  /// // ["text-primary", "text-primary-2", "bg"]
  /// ```
  /// - Parameter keys: Colour-table keys, in file order.
  /// - Returns: One name per key, in the same order, no two alike.
  public func identifiers(forKeys keys: [String]) -> [String] {
    Self.uniqueNames(keys.map(identifier(forKey:)), separator: self == .swift ? "" : "-")
  }

  /// `natural` made unique, in order: each name keeps its place, the first of several alike keeps
  /// the name, and each later one gets the smallest suffix from 2 up (after `separator`) that makes
  /// a name none of `natural` or `reserved` has. A name in `reserved` gets a suffix too. Swift
  /// names compare without their backticks: `default` and default are the same name.
  static func uniqueNames(_ natural: [String], separator: String, reserved: Set<String> = []) -> [String] {
    let bare = natural.map { $0.trimmingBackticks }
    let taken = Set(bare).union(reserved)
    var assigned = reserved
    // The next suffix to try for each name, so that many keys with one name do not each try
    // every suffix the earlier ones took.
    var nextSuffix: [String: Int] = [:]
    var result: [String] = []
    result.reserveCapacity(natural.count)
    for (index, name) in natural.enumerated() {
      if assigned.insert(bare[index]).inserted {
        result.append(name)
        continue
      }
      var suffix = nextSuffix[bare[index]] ?? 2
      while taken.contains(bare[index] + separator + String(suffix))
        || assigned.contains(bare[index] + separator + String(suffix))
      {
        suffix += 1
      }
      nextSuffix[bare[index]] = suffix + 1
      let unique = bare[index] + separator + String(suffix)
      assigned.insert(unique)
      result.append(unique)
    }
    return result
  }

  /// Whether `text` can name a namespace or a table in a Swift export as it is: ASCII letters,
  /// digits and `_`, not starting with a digit, and not a Swift keyword or a name such as `self`.
  ///
  /// `dmkit export` checks `--namespace` and each part of `--table` with it.
  /// - Parameter text: The name to check.
  /// - Returns: `true` for a name such as `BrandColors` or `_table2`.
  public static func isSwiftIdentifier(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
    return text.unicodeScalars.allSatisfy { $0.isASCIILetterOrDigit || $0 == "_" }
      && !keywords.contains(text) && !unusableMemberNames.contains(text)
  }

  /// The name of the enum that holds a group of keys in a Swift export with
  /// ``DMColorTableExportOptions/nestsGroups``, before it is made unique: the group's name by the
  /// rules for keys, in UpperCamelCase (`text` → `Text`, `url-color` → `UrlColor`).
  static func swiftTypeName(forGroup group: String) -> String {
    let name = swiftName(forKey: group).trimmingBackticks
    return name.prefix(1).uppercased() + name.dropFirst()
  }

  /// Whether an enum may not be named `name`: a keyword, `Type`, `Protocol` or `Self`, or a name
  /// that hides DarkModeKit's own (`DarkModeKit`, a name starting with `DM`).
  static func isUnusableTypeName(_ name: String) -> Bool {
    name == "DarkModeKit" || name.hasPrefix("DM") || keywords.contains(name)
      || unusableMemberNames.contains(name)
  }

  /// `text` as it is when it is an identifier, else made one by the rules for keys.
  static func swiftIdentifier(_ text: String) -> String {
    isSwiftIdentifier(text) ? text : swiftName(forKey: text)
  }

  // MARK: - Naming rules

  private static func tokenName(forKey key: String) -> String {
    let scalars = key.unicodeScalars.map { scalar -> Character in
      switch scalar {
      case "a"..."z", "0"..."9", "-": Character(scalar)
      case "A"..."Z": Character(Unicode.Scalar(scalar.value + 32)!)
      // CSS (and GTK) names may hold any letter or digit beyond ASCII as it is: `--所有背景`.
      case _ where scalar.value >= 0x80 && scalar.isLetterOrDigit: Character(scalar)
      default: "-"
      }
    }
    return scalars.isEmpty ? "key" : String(scalars)
  }

  private static func swiftName(forKey key: String) -> String {
    var words: [[Unicode.Scalar]] = [[]]
    for scalar in key.unicodeScalars {
      if scalar.isASCIILetterOrDigit || (scalar.isLetterOrDigit && scalar.isSwiftIdentifierHead) {
        words[words.count - 1].append(scalar)
      } else if !words[words.count - 1].isEmpty {
        words.append([])
      }
    }
    words.removeAll { $0.isEmpty }
    guard !words.isEmpty else { return "key" }
    var name = String(String.UnicodeScalarView(lowercasingLeadingCapitals(words[0])))
    for word in words.dropFirst() {
      name += String(String.UnicodeScalarView(word.prefix(1))).uppercased()
      name += String(String.UnicodeScalarView(word.dropFirst()))
    }
    if let first = name.unicodeScalars.first, ("0"..."9").contains(first) { name = "_" + name }
    if unusableMemberNames.contains(name) { return name + "Key" }
    if keywords.contains(name) { return "`\(name)`" }
    return name
  }

  /// `BG` → `bg`, `Text` → `text`, `URLColor` → `urlColor`: the leading run of capitals in lower
  /// case, except the last one when a lower-case letter follows it (the start of the next word).
  private static func lowercasingLeadingCapitals(_ word: [Unicode.Scalar]) -> [Unicode.Scalar] {
    let isUpper: (Unicode.Scalar) -> Bool = { ("A"..."Z").contains($0) }
    let run = word.prefix(while: isUpper).count
    var count = run
    if run > 1, run < word.count, ("a"..."z").contains(word[run]) { count = run - 1 }
    return word.enumerated().map { index, scalar in
      index < count ? Unicode.Scalar(scalar.value + 32)! : scalar
    }
  }

  /// Names that cannot be given to a static property, not even in backticks.
  private static let unusableMemberNames: Set<String> = [
    "self", "Self", "init", "deinit", "subscript", "super", "Type", "Protocol", "_",
  ]

  /// Swift's keywords (and the literals spelled like them), which need backticks as names.
  private static let keywords: Set<String> = [
    "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension",
    "fileprivate", "func", "import", "init", "inout", "internal", "let", "nonisolated", "open",
    "operator", "package", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
    "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default",
    "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw",
    "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "super", "throws",
    "true", "try", "each", "some", "any", "copy", "discard",
  ]
}

extension Unicode.Scalar {
  var isASCIILetterOrDigit: Bool {
    ("a"..."z").contains(self) || ("A"..."Z").contains(self) || ("0"..."9").contains(self)
  }

  /// A letter or a digit of any script.
  var isLetterOrDigit: Bool { properties.isAlphabetic || properties.numericType == .decimal }

  /// Whether Swift lets an identifier start with this character beyond ASCII (the ranges of the
  /// language reference's identifier-head), leaving out the invisible ones it allows (zero-width
  /// spaces, bidirectional controls, word joiners), which no generated name should hold.
  var isSwiftIdentifierHead: Bool {
    switch value {
    case 0xA8, 0xAA, 0xAD, 0xAF, 0xB2...0xB5, 0xB7...0xBA, 0xBC...0xBE, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0xFF,
      0x100...0x2FF, 0x370...0x167F, 0x1681...0x180D, 0x180F...0x1DBF, 0x1E00...0x1FFF, 0x203F...0x2040,
      0x2054,
      0x2070...0x20CF, 0x2100...0x218F, 0x2460...0x24FF, 0x2776...0x2793, 0x2C00...0x2DFF, 0x2E80...0x2FFF,
      0x3004...0x3007, 0x3021...0x302F, 0x3031...0x303F, 0x3040...0xD7FF, 0xF900...0xFD3D, 0xFD40...0xFDCF,
      0xFDF0...0xFE1F, 0xFE30...0xFE44, 0xFE47...0xFFFD, 0x10000...0x1FFFD, 0x20000...0x2FFFD,
      0x30000...0x3FFFD,
      0x40000...0x4FFFD, 0x50000...0x5FFFD, 0x60000...0x6FFFD, 0x70000...0x7FFFD, 0x80000...0x8FFFD,
      0x90000...0x9FFFD, 0xA0000...0xAFFFD, 0xB0000...0xBFFFD, 0xC0000...0xCFFFD, 0xD0000...0xDFFFD,
      0xE0000...0xEFFFD:
      true
    default: false
    }
  }
}

extension String {
  var trimmingBackticks: String {
    hasPrefix("`") ? String(dropFirst().dropLast()) : self
  }
}
