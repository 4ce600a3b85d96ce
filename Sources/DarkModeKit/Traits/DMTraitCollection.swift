/// The traits that decide how an interface looks: style, contrast, level and named theme.
///
/// A trait collection is a plain value. Any trait may be left unspecified (`.unspecified`, or
/// `nil` for the theme); merging collections with ``init(traitsFrom:)`` fills the unspecified
/// traits from the collections before it.
///
/// ```swift
/// let dark = DMTraitCollection(userInterfaceStyle: .dark)
/// let merged = DMTraitCollection(traitsFrom: [dark, DMTraitCollection(accessibilityContrast: .high)])
/// // merged.userInterfaceStyle == .dark, merged.accessibilityContrast == .high
/// ```
///
/// A theme with one side chooses the style too (see <doc:ThemesAndSides>).
public struct DMTraitCollection: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Light or dark.
  public var userInterfaceStyle: DMUserInterfaceStyle
  /// Normal or increased contrast.
  public var accessibilityContrast: DMAccessibilityContrast
  /// Base or elevated content.
  public var userInterfaceLevel: DMUserInterfaceLevel
  /// The named theme, or `nil` when none is chosen.
  public var theme: DMTheme?

  /// Creates a collection with every trait unspecified.
  public init() {
    userInterfaceStyle = .unspecified
    accessibilityContrast = .unspecified
    userInterfaceLevel = .unspecified
    theme = nil
  }

  /// Creates a collection that specifies only the style.
  /// - Parameter userInterfaceStyle: The style.
  public init(userInterfaceStyle: DMUserInterfaceStyle) {
    self.init()
    self.userInterfaceStyle = userInterfaceStyle
  }

  /// Creates a collection that specifies only the contrast.
  /// - Parameter accessibilityContrast: The contrast.
  public init(accessibilityContrast: DMAccessibilityContrast) {
    self.init()
    self.accessibilityContrast = accessibilityContrast
  }

  /// Creates a collection that specifies only the level.
  /// - Parameter userInterfaceLevel: The level.
  public init(userInterfaceLevel: DMUserInterfaceLevel) {
    self.init()
    self.userInterfaceLevel = userInterfaceLevel
  }

  /// Creates a collection that specifies only the named theme.
  /// - Parameter theme: The theme.
  public init(theme: DMTheme?) {
    self.init()
    self.theme = theme
  }

  /// Creates a collection that specifies the traits given; the others stay unspecified.
  ///
  /// When `theme` has one side only and `userInterfaceStyle` is `.unspecified`, the theme's side
  /// is the style wherever this collection is merged (as an override, an environment's override).
  /// A style given with it wins: the theme then shows that side if it has it, else the default
  /// theme's. A theme with both sides shows the side of the style (see <doc:ThemesAndSides>).
  ///
  /// ```swift
  /// // The user picked the dark style and the SOLARIZED theme.
  /// DMTraitCollection.setOverride(
  ///   DMTraitCollection(userInterfaceStyle: .dark, theme: "SOLARIZED"), animated: true)
  /// ```
  /// - Parameters:
  ///   - userInterfaceStyle: The style.
  ///   - accessibilityContrast: The contrast.
  ///   - userInterfaceLevel: The level.
  ///   - theme: The named theme.
  public init(
    userInterfaceStyle: DMUserInterfaceStyle = .unspecified,
    accessibilityContrast: DMAccessibilityContrast = .unspecified,
    userInterfaceLevel: DMUserInterfaceLevel = .unspecified, theme: DMTheme? = nil
  ) {
    self.userInterfaceStyle = userInterfaceStyle
    self.accessibilityContrast = accessibilityContrast
    self.userInterfaceLevel = userInterfaceLevel
    self.theme = theme
  }

  /// Merges collections: for each trait, the last collection that specifies it wins.
  ///
  /// A trait is specified when it is not `.unspecified` (for the theme: not `nil`). Traits that no
  /// collection specifies stay unspecified. A theme with one side specifies the style too, unless
  /// its collection specifies a style itself: merging a collection with `SEPIA`, a theme that has
  /// only a light side, over a dark one gives `SEPIA` and the light style (see
  /// <doc:ThemesAndSides>).
  /// - Parameter traitCollections: The collections to merge, weakest first.
  public init(traitsFrom traitCollections: [DMTraitCollection]) {
    self.init()
    for traits in traitCollections {
      self = self.overlaid(with: traits)
    }
  }

  /// Whether two collections have the same style, contrast, level and theme.
  /// - Parameters:
  ///   - lhs: A collection.
  ///   - rhs: Another collection.
  /// - Returns: `true` when every trait is the same.
  @inlinable
  public static func == (lhs: DMTraitCollection, rhs: DMTraitCollection) -> Bool {
    lhs.userInterfaceStyle == rhs.userInterfaceStyle && lhs.accessibilityContrast == rhs.accessibilityContrast
      && lhs.userInterfaceLevel == rhs.userInterfaceLevel && lhs.theme == rhs.theme
  }

  /// Hashes every trait.
  /// - Parameter hasher: The hasher to feed.
  @inlinable
  public func hash(into hasher: inout Hasher) {
    hasher.combine(userInterfaceStyle)
    hasher.combine(accessibilityContrast)
    hasher.combine(userInterfaceLevel)
    hasher.combine(theme)
  }

  /// Tells whether colours resolved for `traitCollection` may differ from colours resolved for
  /// this collection.
  /// - Parameter traitCollection: The collection to compare with; `nil` always differs.
  /// - Returns: `true` when the style, contrast, level or theme differ, or for `nil`.
  public func hasDifferentColorAppearance(comparedTo traitCollection: DMTraitCollection?) -> Bool {
    guard let traitCollection else { return true }
    return self != traitCollection
  }

  /// A readable summary, for example `DMTraitCollection(style: dark, contrast: normal, level: base,
  /// theme: nil)`.
  public var description: String {
    "DMTraitCollection(style: \(userInterfaceStyle), contrast: \(accessibilityContrast), "
      + "level: \(userInterfaceLevel), theme: \(theme.map { "\"\($0.rawValue)\"" } ?? "nil"))"
  }
}

extension DMTraitCollection {
  /// This collection with every trait that `top` specifies taken from `top`, and the style that
  /// `top`'s theme makes when the theme has one side only and `top` chooses no style.
  @inline(__always)
  func overlaid(with top: DMTraitCollection) -> DMTraitCollection {
    var result = self
    if top.userInterfaceStyle != .unspecified { result.userInterfaceStyle = top.userInterfaceStyle }
    if top.accessibilityContrast != .unspecified { result.accessibilityContrast = top.accessibilityContrast }
    if top.userInterfaceLevel != .unspecified { result.userInterfaceLevel = top.userInterfaceLevel }
    if let theme = top.theme {
      result.theme = theme
      if let side = top.styleChosenByTheme { result.userInterfaceStyle = side }
    }
    return result
  }

  /// The rule of themes and sides: a theme with one side is a choice of that style, unless the
  /// same collection chooses a style itself. The style the theme chooses, or `nil`.
  @usableFromInline
  var styleChosenByTheme: DMUserInterfaceStyle? {
    guard userInterfaceStyle == .unspecified, let theme else { return nil }
    return ThemeCatalog.onlySide(of: theme)
  }

  /// Whether values resolve to their dark side: the dark style, or no style and a theme with only
  /// a dark side. A resolved collection always has a style, so only a collection made by hand
  /// reaches the theme's sides here.
  @inlinable
  var resolvesDarkSide: Bool {
    switch userInterfaceStyle {
    case .dark: true
    case .light: false
    case .unspecified: styleChosenByTheme == .dark
    }
  }

  /// This collection with the global defaults filled in: style `.light`, contrast `.normal`,
  /// level `.base`.
  var withDefaults: DMTraitCollection {
    var result = self
    if result.userInterfaceStyle == .unspecified { result.userInterfaceStyle = .light }
    if result.accessibilityContrast == .unspecified { result.accessibilityContrast = .normal }
    if result.userInterfaceLevel == .unspecified { result.userInterfaceLevel = .base }
    return result
  }

  /// Whether every trait is unspecified.
  var isUnspecified: Bool {
    self == DMTraitCollection()
  }
}
