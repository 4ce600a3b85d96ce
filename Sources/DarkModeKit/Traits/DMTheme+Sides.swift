extension DMTheme {
  /// Which sides a theme has: light, dark or both.
  public struct Sides: OptionSet, Sendable, Hashable {
    /// The sides as bits.
    public let rawValue: UInt8

    /// Sides from bits.
    /// - Parameter rawValue: Bit 0 for light, bit 1 for dark.
    public init(rawValue: UInt8) {
      self.rawValue = rawValue & 3
    }

    /// A light side.
    public static let light = Sides(rawValue: 1)
    /// A dark side.
    public static let dark = Sides(rawValue: 2)
  }

  /// The sides this theme has, as the process's colour tables (those that still have the column),
  /// theme maps, images by name and ``declare(_:)`` declared them; empty for a theme nothing
  /// declared.
  ///
  /// `NORMAL` is light, and `NIGHT` and `DARK` are dark, from the start. A theme with one side
  /// makes that side's style when it is chosen; see <doc:ThemesAndSides>.
  public var sides: Sides {
    Sides(rawValue: ThemeCatalog.sideBits(of: self))
  }

  /// Declares the sides of themes whose colours come from somewhere DarkModeKit does not see,
  /// such as a ``DMDynamic/init(dynamicProvider:)`` closure.
  ///
  /// Tables, theme maps and images by name declare their variants themselves: a table while it
  /// has the column, maps and images for good. What this declares is declared for good; a theme
  /// that gets a second side follows the style from then on, and every resolved collection is
  /// brought up to date.
  ///
  /// ```swift
  /// DMTheme.declare(["SEPIA", "BLACK:dark", "SOLARIZED:light", "SOLARIZED:dark"])
  /// ```
  /// - Parameter variants: The variants the app has colours for.
  public static func declare(_ variants: [DMThemeVariant]) {
    ThemeCatalog.declare(variants)
  }
}
