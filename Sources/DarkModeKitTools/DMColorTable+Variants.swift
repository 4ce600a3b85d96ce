import DarkModeKit

extension DMColorTable {
  /// Each column's name as `dmkit` shows it: as the header may write it, with `:light` spelled
  /// out for a theme that has both sides, so that the pair reads as one (`SOLARIZED:light`,
  /// `SOLARIZED:dark`).
  public var columnNames: [String] {
    Self.columnNames(contents)
  }

  /// The column names of one version of the contents, so that a caller that also reads the
  /// colours reads them from the same version.
  static func columnNames(_ contents: Contents) -> [String] {
    contents.variants.map { variant in
      guard variant.userInterfaceStyle == .light, contents.sides(of: variant.theme) == [.light, .dark] else {
        return variant.description
      }
      return "\(variant.theme.rawValue):light" + (variant.accessibilityContrast == .high ? ":high" : "")
    }
  }

  /// One sentence per column saying which side, in which contrast, of which theme it is, and what
  /// choosing the theme does, as `dmkit lint --verbose` prints them.
  ///
  /// ```text
  /// column 1, NORMAL: the light side of the default theme
  /// column 3, SEPIA: the light side of SEPIA (light only: choosing it makes the style light)
  /// column 5, SOLARIZED:dark: the dark side of SOLARIZED (both sides: it follows the style)
  /// column 6, NIGHT:high: the dark side of the default theme, in high contrast
  /// ```
  public var columnNotes: [String] {
    let contents = contents
    let names = Self.columnNames(contents)
    return contents.variants.indices.map { column in
      let variant = contents.variants[column]
      let side = variant.userInterfaceStyle
      let contrast = variant.accessibilityContrast == .high ? ", in high contrast" : ""
      let isDefault = contents.defaultTheme(for: side) == variant.theme
      let theme: String
      if isDefault, Self.defaultNames.contains(variant.theme) {
        theme = "of the default theme"
      } else {
        let sides = contents.sides(of: variant.theme)
        let what =
          sides == [.light, .dark]
          ? "both sides: it follows the style" : "\(side) only: choosing it makes the style \(side)"
        theme =
          "of \(variant.theme.rawValue) (\(what))"
          + (isDefault
            ? "; also the default theme's \(side) side, as the table has no \(Self.defaultName(side))" : "")
      }
      return "column \(column + 1), \(names[column]): the \(side) side \(theme)\(contrast)"
    }
  }

  /// What the table lacks that its other columns lead one to expect, one sentence each: a side
  /// with no column at all (the style then shows the other side's colours), a high-contrast
  /// column of one side of a theme (or of the default theme) but not of the other, or a
  /// high-contrast column without the normal one.
  ///
  /// ```text
  /// the table has no dark column (NIGHT, DARK or NAME:dark): with the dark style it shows NORMAL
  /// NIGHT has no high-contrast variant, while the light side of the default theme has one
  /// (NORMAL:high): with high contrast the dark side shows NIGHT
  /// ```
  public var variantWarnings: [String] {
    var warnings: [String] = []
    forEachVariantWarning { warnings.append($0) }
    return warnings
  }

  /// Gives each of ``variantWarnings`` to `body` as it is found, without keeping them, so that a
  /// caller can print a bounded number of them whatever the table's size.
  /// - Parameter body: Called with each warning, in order.
  public func forEachVariantWarning(_ body: (String) -> Void) {
    let contents = contents
    guard !contents.variants.isEmpty else { return }
    let names = Self.columnNames(contents)
    for side in [DMUserInterfaceStyle.light, .dark] where contents.defaultTheme(for: side) == nil {
      let shown = names[contents.column(for: DMTraitCollection(userInterfaceStyle: side))]
      body(
        "the table has no \(side) column (\(side == .dark ? "NIGHT, DARK or NAME:dark" : "NORMAL or NAME")): "
          + "with the \(side) style it shows \(shown)")
    }
    // The columns of each theme, in one pass; the default theme's sides count as one theme.
    var groups: [(name: String, columns: [Int])] = []
    var groupOfTheme: [DMTheme: Int] = [:]
    for (column, variant) in contents.variants.enumerated() {
      let isDefault =
        contents.defaultTheme(for: variant.userInterfaceStyle) == variant.theme
        && Self.defaultNames.contains(variant.theme)
      let key: DMTheme = isDefault ? .normal : variant.theme
      if let group = groupOfTheme[key] {
        groups[group].columns.append(column)
      } else {
        groupOfTheme[key] = groups.count
        groups.append((isDefault ? "the default theme" : variant.theme.rawValue, [column]))
      }
    }
    for (name, columns) in groups {
      func column(_ side: DMUserInterfaceStyle, _ contrast: DMAccessibilityContrast) -> Int? {
        columns.first {
          contents.variants[$0].userInterfaceStyle == side
            && contents.variants[$0].accessibilityContrast == contrast
        }
      }
      for side in [DMUserInterfaceStyle.light, .dark] {
        let other: DMUserInterfaceStyle = side == .light ? .dark : .light
        if let high = column(side, .high), column(side, .normal) == nil {
          body(
            "\(names[high]) has no normal-contrast column of the \(side) side of \(name): with normal "
              + "contrast that side shows \(names[high]) too")
        }
        if let shown = column(side, .normal), column(side, .high) == nil, let otherHigh = column(other, .high)
        {
          body(
            "\(names[shown]) has no high-contrast variant, while the \(other) side of \(name) has one "
              + "(\(names[otherHigh])): with high contrast the \(side) side shows \(names[shown])")
        }
      }
    }
  }

  /// The names that make a column the default theme's when the table picks it as such.
  private static let defaultNames: Set<DMTheme> = [.normal, .night, "DARK"]

  private static func defaultName(_ side: DMUserInterfaceStyle) -> String {
    side == .dark ? "NIGHT or DARK" : "NORMAL"
  }
}
