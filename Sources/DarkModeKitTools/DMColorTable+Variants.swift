import DarkModeKit

extension DMColorTable {
  /// Each column's name as `dmkit` shows it: as the header may write it, with `:light` spelled
  /// out for a theme that has both sides, so that the pair reads as one (`SOLARIZED:light`,
  /// `SOLARIZED:dark`).
  public var columnNames: [String] {
    let contents = contents
    return contents.variants.map { variant in
      guard variant.userInterfaceStyle == .light, contents.sides(of: variant.theme) == [.light, .dark] else {
        return variant.description
      }
      return "\(variant.theme.rawValue):light" + (variant.accessibilityContrast == .high ? ":high" : "")
    }
  }

  /// One sentence per column saying which side, in which contrast, of which theme it is, and what
  /// choosing the theme does, as `dmkit lint --verbose` prints them.
  ///
  /// ```
  /// column 1, NORMAL: the light side of the default theme
  /// column 3, SEPIA: the light side of SEPIA (light only: choosing it makes the style light)
  /// column 5, SOLARIZED:dark: the dark side of SOLARIZED (both sides: it follows the style)
  /// column 6, NIGHT:high: the dark side of the default theme, in high contrast
  /// ```
  public var columnNotes: [String] {
    let contents = contents
    return zip(contents.variants, columnNames).enumerated().map { index, pair in
      let (variant, name) = pair
      let side = "the \(variant.userInterfaceStyle) side"
      let contrast = variant.accessibilityContrast == .high ? ", in high contrast" : ""
      let theme: String
      if Self.isDefaultTheme(variant.theme) {
        theme = "of the default theme"
      } else if contents.sides(of: variant.theme) == [.light, .dark] {
        theme = "of \(variant.theme.rawValue) (both sides: it follows the style)"
      } else {
        let only = variant.userInterfaceStyle
        theme = "of \(variant.theme.rawValue) (\(only) only: choosing it makes the style \(only))"
      }
      return "column \(index + 1), \(name): \(side) \(theme)\(contrast)"
    }
  }

  /// The variants a theme lacks that its other variants lead one to expect, one sentence each:
  /// a high-contrast variant of one side of a theme (or of the default theme) but not of the
  /// other, or a high-contrast variant without the normal one.
  ///
  /// ```
  /// NIGHT has no high-contrast variant, while the light side of the default theme has one
  /// (NORMAL:high): with high contrast the dark side shows NIGHT
  /// ```
  public var variantWarnings: [String] {
    let contents = contents
    let names = Dictionary(zip(contents.variants, columnNames), uniquingKeysWith: { first, _ in first })
    // The default theme's sides count as one theme, as the other themes' sides do.
    var groups: [(name: String, variants: [DMThemeVariant])] = []
    let defaults = contents.variants.filter { Self.isDefaultTheme($0.theme) }
    if !defaults.isEmpty { groups.append(("the default theme", defaults)) }
    for theme in contents.themes where !Self.isDefaultTheme(theme) {
      groups.append((theme.rawValue, contents.variants.filter { $0.theme == theme }))
    }
    var warnings: [String] = []
    for (name, variants) in groups {
      let sides = Set(variants.map(\.userInterfaceStyle))
      func normal(_ side: DMUserInterfaceStyle) -> DMThemeVariant? {
        variants.first { $0.userInterfaceStyle == side && $0.accessibilityContrast == .normal }
      }
      func high(_ side: DMUserInterfaceStyle) -> DMThemeVariant? {
        variants.first { $0.userInterfaceStyle == side && $0.accessibilityContrast == .high }
      }
      for side in [DMUserInterfaceStyle.light, .dark] where sides.contains(side) {
        if let high = high(side), normal(side) == nil {
          warnings.append(
            "\(names[high] ?? high.description) has no normal-contrast column of the \(side) side of \(name): with normal contrast that "
              + "side shows the default theme's")
        }
        let other: DMUserInterfaceStyle = side == .light ? .dark : .light
        if let shown = normal(side), high(side) == nil, let otherHigh = high(other) {
          warnings.append(
            "\(names[shown] ?? shown.description) has no high-contrast variant, while the \(other) side of "
              + "\(name) has one (\(names[otherHigh] ?? otherHigh.description)): with high contrast the \(side) "
              + "side shows \(names[shown] ?? shown.description)")
        }
      }
    }
    return warnings
  }

  private static func isDefaultTheme(_ theme: DMTheme) -> Bool {
    theme == .normal || theme == .night || theme.rawValue == "DARK"
  }
}
