/// The traits that decide how an interface looks: style, contrast, level, named theme, motion,
/// accent colour, and the traits the app defines (``DMTraitDefinition``).
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
  /// The style, contrast, level and motion, a byte each (`0` for unspecified), and the theme's
  /// number plus one (`0` for none) in the upper half: a collection compares and copies as two
  /// integers and a reference that is almost always `nil`, which a pass does for every
  /// environment.
  @usableFromInline
  var traitBits: UInt64
  /// The accent colour, 16 bits per component, packed so that the collection stays small; see
  /// ``accentColor``. `0` for none.
  @usableFromInline
  var accentBits: UInt64
  /// The custom trait values this collection sets, shared with its copies; `nil` for none, the
  /// case of almost every collection. See `CustomTraits`.
  @usableFromInline
  var custom: CustomTraitValues?

  /// Light or dark.
  @inlinable
  public var userInterfaceStyle: DMUserInterfaceStyle {
    get { DMUserInterfaceStyle(rawValue: byte(Self.styleShift)) ?? .unspecified }
    set { setByte(Self.styleShift, to: newValue.rawValue) }
  }
  /// Normal or increased contrast.
  @inlinable
  public var accessibilityContrast: DMAccessibilityContrast {
    get { DMAccessibilityContrast(rawValue: byte(Self.contrastShift) - 1) ?? .unspecified }
    set { setByte(Self.contrastShift, to: newValue.rawValue + 1) }
  }
  /// Base or elevated content.
  @inlinable
  public var userInterfaceLevel: DMUserInterfaceLevel {
    get { DMUserInterfaceLevel(rawValue: byte(Self.levelShift) - 1) ?? .unspecified }
    set { setByte(Self.levelShift, to: newValue.rawValue + 1) }
  }
  /// The named theme, or `nil` when none is chosen.
  @inlinable
  public var theme: DMTheme? {
    get {
      let stored = UInt32(truncatingIfNeeded: traitBits >> Self.themeShift)
      return stored == 0 ? nil : DMTheme(id: stored &- 1)
    }
    set {
      let stored = newValue.map { UInt64($0.id &+ 1) } ?? 0
      traitBits = traitBits & (1 << Self.themeShift - 1) | stored << Self.themeShift
    }
  }
  /// Normal or reduced motion.
  @inlinable
  public var accessibilityMotion: DMAccessibilityMotion {
    get { DMAccessibilityMotion(rawValue: byte(Self.motionShift) - 1) ?? .unspecified }
    set { setByte(Self.motionShift, to: newValue.rawValue + 1) }
  }

  @usableFromInline static let styleShift: UInt64 = 0
  @usableFromInline static let contrastShift: UInt64 = 8
  @usableFromInline static let levelShift: UInt64 = 16
  @usableFromInline static let motionShift: UInt64 = 24
  @usableFromInline static let themeShift: UInt64 = 32

  @inlinable @inline(__always)
  func byte(_ shift: UInt64) -> Int {
    Int(truncatingIfNeeded: (traitBits >> shift) & 0xFF)
  }

  @inlinable @inline(__always)
  mutating func setByte(_ shift: UInt64, to value: Int) {
    traitBits = traitBits & ~(0xFF << shift) | UInt64(truncatingIfNeeded: value & 0xFF) << shift
  }

  /// The system's accent colour (the colour the user picked for highlights), or `nil` when none
  /// is known; `nil` inherits when collections are merged.
  ///
  /// Kept to 16 bits per component, opaque. A dynamic value uses the accent through a provider:
  ///
  /// ```swift
  /// let tint = DMDynamicColor { traits in traits.accentColor ?? DMColor(rgb: 0x0A60D0) }
  /// ```
  public var accentColor: DMColor? {
    get {
      guard accentBits != 0 else { return nil }
      func component(_ shift: UInt64) -> Double { Double((accentBits >> shift) & 0xFFFF) / 65_535 }
      return DMColor(red: component(32), green: component(16), blue: component(0))
    }
    set {
      guard let color = newValue else {
        accentBits = 0
        return
      }
      // NaN counts as 0, as in `DMColor`.
      func component(_ value: Double) -> UInt64 {
        value.isNaN ? 0 : UInt64((min(max(value, 0), 1) * 65_535).rounded())
      }
      accentBits = 1 << 63 | component(color.red) << 32 | component(color.green) << 16 | component(color.blue)
    }
  }

  /// Creates a collection with every trait unspecified.
  public init() {
    traitBits = 0
    accentBits = 0
    custom = nil
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
  ///   - accessibilityMotion: Normal or reduced motion.
  ///   - accentColor: The accent colour.
  public init(
    userInterfaceStyle: DMUserInterfaceStyle = .unspecified,
    accessibilityContrast: DMAccessibilityContrast = .unspecified,
    userInterfaceLevel: DMUserInterfaceLevel = .unspecified, theme: DMTheme? = nil,
    accessibilityMotion: DMAccessibilityMotion = .unspecified, accentColor: DMColor? = nil
  ) {
    self.init()
    self.userInterfaceStyle = userInterfaceStyle
    self.accessibilityContrast = accessibilityContrast
    self.userInterfaceLevel = userInterfaceLevel
    self.theme = theme
    self.accessibilityMotion = accessibilityMotion
    self.accentColor = accentColor
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
      overlay(with: traits)
    }
  }

  /// Whether two collections have the same style, contrast, level, theme, motion, accent and
  /// custom traits.
  /// - Parameters:
  ///   - lhs: A collection.
  ///   - rhs: Another collection.
  /// - Returns: `true` when every trait is the same.
  @inlinable @inline(__always)
  public static func == (lhs: DMTraitCollection, rhs: DMTraitCollection) -> Bool {
    lhs.traitBits == rhs.traitBits && lhs.accentBits == rhs.accentBits
      && (lhs.custom === rhs.custom || CustomTraits.equal(lhs.custom, rhs.custom))
  }

  /// Hashes every trait.
  /// - Parameter hasher: The hasher to feed.
  @inlinable
  public func hash(into hasher: inout Hasher) {
    hasher.combine(traitBits)
    hasher.combine(accentBits)
    CustomTraits.hash(custom, into: &hasher)
  }

  private enum CodingKeys: String, CodingKey {
    case userInterfaceStyle, accessibilityContrast, userInterfaceLevel, theme, accessibilityMotion,
      accentColor
  }

  /// Decodes a collection; traits missing from the data (as in data written before they existed)
  /// are unspecified.
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: A `DecodingError` when a trait has a value of the wrong kind.
  public init(from decoder: any Decoder) throws {
    self.init()
    let container = try decoder.container(keyedBy: CodingKeys.self)
    userInterfaceStyle = try container.decode(DMUserInterfaceStyle.self, forKey: .userInterfaceStyle)
    accessibilityContrast = try container.decode(DMAccessibilityContrast.self, forKey: .accessibilityContrast)
    userInterfaceLevel = try container.decode(DMUserInterfaceLevel.self, forKey: .userInterfaceLevel)
    theme = try container.decodeIfPresent(DMTheme.self, forKey: .theme)
    accessibilityMotion =
      try container.decodeIfPresent(DMAccessibilityMotion.self, forKey: .accessibilityMotion) ?? .unspecified
    accentColor = try container.decodeIfPresent(DMColor.self, forKey: .accentColor)
  }

  /// Encodes every built-in trait; an unspecified theme or accent is left out, and so are custom
  /// traits, whose values need not be encodable.
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: An `EncodingError` when the encoder rejects a value.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(userInterfaceStyle, forKey: .userInterfaceStyle)
    try container.encode(accessibilityContrast, forKey: .accessibilityContrast)
    try container.encode(userInterfaceLevel, forKey: .userInterfaceLevel)
    try container.encodeIfPresent(theme, forKey: .theme)
    try container.encode(accessibilityMotion, forKey: .accessibilityMotion)
    try container.encodeIfPresent(accentColor, forKey: .accentColor)
  }

  /// Tells whether colours resolved for `traitCollection` may differ from colours resolved for
  /// this collection.
  /// - Parameter traitCollection: The collection to compare with; `nil` always differs.
  /// - Returns: `true` when the style, contrast, level, theme, accent or a custom trait that
  ///   affects colours differ, or for `nil`; the motion, and custom traits defined with
  ///   ``DMTraitDefinition/affectsColorAppearance`` `false`, do not change colours.
  public func hasDifferentColorAppearance(comparedTo traitCollection: DMTraitCollection?) -> Bool {
    guard let other = traitCollection else { return true }
    return builtInColorsDiffer(from: other) || CustomTraits.colorsDiffer(custom, other.custom)
  }

  /// Whether a built-in trait that affects colours differs: any but the motion.
  @inline(__always)
  func builtInColorsDiffer(from other: DMTraitCollection) -> Bool {
    Self.builtInColorsDiffer(traitBits, accentBits, other.traitBits, other.accentBits)
  }

  /// Whether built-in traits stored as `bits` and `accent` differ, in a trait that affects colours
  /// (any but the motion), from those stored as `otherBits` and `otherAccent`; for callers that
  /// read the fields in place rather than copy a collection.
  @inline(__always)
  static func builtInColorsDiffer(
    _ bits: UInt64, _ accent: UInt64, _ otherBits: UInt64, _ otherAccent: UInt64
  )
    -> Bool
  {
    let motion: UInt64 = 0xFF << motionShift
    return bits & ~motion != otherBits & ~motion || accent != otherAccent
  }

  /// A readable summary, for example `DMTraitCollection(style: dark, contrast: normal, level: base,
  /// theme: nil, motion: normal)`; the motion, the accent and custom traits are shown when they
  /// are specified.
  public var description: String {
    var text =
      "DMTraitCollection(style: \(userInterfaceStyle), contrast: \(accessibilityContrast), "
      + "level: \(userInterfaceLevel), theme: \(theme.map { "\"\($0.rawValue)\"" } ?? "nil")"
    if accessibilityMotion != .unspecified { text += ", motion: \(accessibilityMotion)" }
    if let accentColor { text += ", accent: \(accentColor.hexString)" }
    for custom in CustomTraits.describe(custom) { text += ", \(custom)" }
    return text + ")"
  }
}

extension DMTraitCollection {
  /// This collection with every trait that `top` specifies taken from `top`, and the style that
  /// `top`'s theme makes when the theme has one side only and `top` chooses no style.
  @inline(__always)
  func overlaid(with top: DMTraitCollection) -> DMTraitCollection {
    var result = self
    result.overlay(with: top)
    return result
  }

  /// Takes every trait that `top` specifies from `top`, as ``overlaid(with:)`` does, in place: a
  /// collection that merges many others in turn changes its own custom values rather than copy
  /// them each time.
  @inline(__always)
  mutating func overlay(with top: DMTraitCollection) {
    if top.userInterfaceStyle != .unspecified { userInterfaceStyle = top.userInterfaceStyle }
    if top.accessibilityContrast != .unspecified { accessibilityContrast = top.accessibilityContrast }
    if top.userInterfaceLevel != .unspecified { userInterfaceLevel = top.userInterfaceLevel }
    if top.accessibilityMotion != .unspecified { accessibilityMotion = top.accessibilityMotion }
    if top.accentBits != 0 { accentBits = top.accentBits }
    if top.custom != nil { CustomTraits.overlay(&custom, with: top.custom) }
    if let theme = top.theme {
      self.theme = theme
      if let side = top.styleChosenByTheme { userInterfaceStyle = side }
    }
  }

  /// The theme variant this collection shows: its theme's variant of its side and contrast when
  /// the theme has that side, else the default theme's, `NORMAL` or `NIGHT`.
  ///
  /// It answers "which theme is on screen", DKNightVersion's `themeVersion`: after a switch to the
  /// dark style ``theme`` stays `nil` (no theme was chosen), while this is `NIGHT`, the column a
  /// table shows. In high contrast it is the `:high` variant (`NIGHT:high`) when a table, theme
  /// map or image declared one, and the other way round for a side that has only `:high` variants,
  /// as values choose. A table without `NORMAL` (or `NIGHT`) shows another column for the default
  /// theme; ``DMColorTable/variant(for:)`` names the exact column of one table.
  ///
  /// ```swift
  /// DMTraitCollection.setOverride(style: .dark, animated: false)
  /// print(DMTraitCollection.current.themeVariant.theme)  // NIGHT
  /// ```
  public var themeVariant: DMThemeVariant {
    let isDark = resolvesDarkSide
    let shown =
      theme.flatMap { $0.sides.contains(isDark ? .dark : .light) ? $0 : nil }
      ?? (isDark ? .night : .normal)
    let contrast = ThemeCatalog.contrastShown(of: shown, dark: isDark, high: isHighContrast)
    return DMThemeVariant(shown, userInterfaceStyle: isDark ? .dark : .light, accessibilityContrast: contrast)
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
    // The style's byte read as such: values resolve this for every environment.
    switch (traitBits >> Self.styleShift) & 0xFF {
    case UInt64(DMUserInterfaceStyle.dark.rawValue): true
    case UInt64(DMUserInterfaceStyle.light.rawValue): false
    default: styleChosenByTheme == .dark
    }
  }

  /// Whether the contrast is high, read from its byte.
  @inlinable
  var isHighContrast: Bool {
    (traitBits >> Self.contrastShift) & 0xFF == UInt64(DMAccessibilityContrast.high.rawValue + 1)
  }

  /// This collection with the global defaults filled in: style `.light`, contrast `.normal`,
  /// level `.base`, motion `.normal`, and custom traits that hold their default value dropped.
  var withDefaults: DMTraitCollection {
    var result = self
    result.custom = CustomTraits.withoutDefaults(custom)
    if result.userInterfaceStyle == .unspecified { result.userInterfaceStyle = .light }
    if result.accessibilityContrast == .unspecified { result.accessibilityContrast = .normal }
    if result.userInterfaceLevel == .unspecified { result.userInterfaceLevel = .base }
    if result.accessibilityMotion == .unspecified { result.accessibilityMotion = .normal }
    return result
  }

  /// An environment's resolved collection: this one, its parent's, with the environment's
  /// overrides on top; custom traits that hold their default value are dropped, so that a value
  /// set to the default reads, and compares, as not set.
  @inline(__always)
  func resolved(under overrides: DMTraitCollection) -> DMTraitCollection {
    var result = overlaid(with: overrides)
    if overrides.custom != nil { result.custom = CustomTraits.withoutDefaults(result.custom) }
    return result
  }

  /// Whether a built-in trait differs; custom traits are not compared.
  @inline(__always)
  func builtInTraitsDiffer(from other: DMTraitCollection) -> Bool {
    traitBits != other.traitBits || accentBits != other.accentBits
  }

  /// Whether every trait is unspecified.
  var isUnspecified: Bool {
    self == DMTraitCollection()
  }
}
