import DarkModeKitText

/// A variant as written in a table's header or a token file (`SOLARIZED:dark`), with its theme's
/// name as text: reading one keeps no name for the life of the process, as a ``DMTheme`` does.
///
/// A table's columns become ``DMThemeVariant`` values only while the table holds them (see
/// `ThemeCatalog.lease(_:)`), so that a name only a table used goes with the table.
package struct ThemeColumn: Hashable, Sendable, CustomStringConvertible {
  /// The theme's name.
  package let themeName: String
  /// The side: `.light` or `.dark`, never `.unspecified`.
  package let userInterfaceStyle: DMUserInterfaceStyle
  /// The contrast: `.normal` or `.high`.
  package let accessibilityContrast: DMAccessibilityContrast

  /// Why a written variant is not one: the sentence that follows `bad theme name "…": ` in a
  /// colour table's error.
  struct Problem: Error {
    var reason: String
  }

  /// A column of the theme named `themeName`; `.unspecified`, and any side given to `NORMAL`,
  /// `NIGHT` or `DARK`, is the side the bare name has, as ``DMThemeVariant`` has it.
  package init(
    themeName: String, userInterfaceStyle: DMUserInterfaceStyle = .unspecified,
    accessibilityContrast: DMAccessibilityContrast = .normal
  ) {
    self.themeName = themeName
    self.userInterfaceStyle =
      userInterfaceStyle == .unspecified || Self.isDefaultSide(themeName)
      ? Self.bareSide(of: themeName) : userInterfaceStyle
    self.accessibilityContrast = accessibilityContrast == .high ? .high : .normal
  }

  /// The column a variant is.
  package init(_ variant: DMThemeVariant) {
    self.init(
      themeName: variant.theme.rawValue, userInterfaceStyle: variant.userInterfaceStyle,
      accessibilityContrast: variant.accessibilityContrast)
  }

  /// Reads a column written as `NAME[:light|:dark][:high]`, or `nil` when the text is not one.
  package init?(_ description: String) {
    guard case .success(let column) = Self.parse(Array(description.utf8)[...]) else { return nil }
    self = column
  }

  /// The shortest written form, as ``DMThemeVariant/description`` has it.
  package var description: String {
    var text = themeName
    if userInterfaceStyle != Self.bareSide(of: themeName) { text += ":\(userInterfaceStyle)" }
    if accessibilityContrast == .high { text += ":high" }
    return text
  }

  /// Whether a name is a side of the default theme: `NORMAL`, `NIGHT` or `DARK`.
  package static func isDefaultSide(_ name: String) -> Bool {
    name == "NORMAL" || name == "NIGHT" || name == "DARK"
  }

  /// The side a bare name has: dark for `NIGHT` and `DARK`, light for any other theme.
  static func bareSide(of name: String) -> DMUserInterfaceStyle {
    name == "NIGHT" || name == "DARK" ? .dark : .light
  }

  /// Reads `NAME[:light|:dark][:high]` from UTF-8 bytes.
  static func parse(_ bytes: ArraySlice<UInt8>) -> Result<ThemeColumn, Problem> {
    let colon = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.endIndex
    if let problem = NameRule.problem(bytes[..<colon], noun: "theme name") {
      return .failure(Problem(reason: "\(problem); \(NameRule.text)"))
    }
    let length = bytes.distance(from: bytes.startIndex, to: colon)
    let limit = DMThemeVariant.maximumThemeNameLength
    guard length <= limit else {
      return .failure(Problem(reason: "the theme name is \(length) bytes long, more than \(limit)"))
    }
    let name = String(decoding: bytes[..<colon], as: UTF8.self)
    var side = DMUserInterfaceStyle.unspecified
    var contrast = DMAccessibilityContrast.normal
    var start = colon
    while start < bytes.endIndex {
      let end = bytes[(start + 1)...].firstIndex(of: UInt8(ascii: ":")) ?? bytes.endIndex
      let word = String(decoding: bytes[(start + 1)..<end], as: UTF8.self)
      switch word {
      case "light", "dark":
        if contrast == .high {
          return .failure(
            Problem(
              reason: "\":\(word)\" comes after \":high\"; the side comes first, as in \"NAME:\(word):high\"")
          )
        }
        if side != .unspecified {
          return .failure(Problem(reason: "it names two sides; \(DMThemeVariant.syntax)"))
        }
        side = word == "dark" ? .dark : .light
      case "high":
        if contrast == .high { return .failure(Problem(reason: "\":high\" is written twice")) }
        contrast = .high
      case "":
        return .failure(
          Problem(reason: "\":\" must be followed by light, dark or high; \(DMThemeVariant.syntax)"))
      default:
        return .failure(
          Problem(
            reason:
              "\(ShownText.quoted(":" + word, limit: 64)) is not a side or a contrast; \(DMThemeVariant.syntax)"
          ))
      }
      start = end
    }
    if side != .unspecified, side != bareSide(of: name), isDefaultSide(name) {
      return .failure(
        Problem(
          reason: name == "NORMAL"
            ? "NORMAL names the light side of the default theme, whose dark side is NIGHT"
            : "\(name) names a dark side; write \(name) or \(name):high"))
    }
    return .success(ThemeColumn(themeName: name, userInterfaceStyle: side, accessibilityContrast: contrast))
  }
}
