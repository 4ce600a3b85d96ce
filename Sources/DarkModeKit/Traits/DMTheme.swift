/// A named theme, such as the `NORMAL` and `NIGHT` columns of a colour table.
///
/// Theme names are case-sensitive. Any string is a theme; colour tables restrict the names they
/// accept to ASCII letters, digits, `_`, `.` and `-`. A theme compares and hashes as a number,
/// and the process keeps the name of every theme made for its life; a name that only colour
/// tables used goes with them (see <doc:ThemesAndSides>).
///
/// ```swift
/// let red: DMTheme = "RED"
/// DMTraitCollection.setOverride(DMTraitCollection(theme: red), animated: false)
/// ```
public struct DMTheme: RawRepresentable, ExpressibleByStringLiteral, Sendable, Hashable, Codable,
  CustomStringConvertible
{
  /// The name's number in the process-wide list of theme names: themes compare, hash and copy as
  /// one integer, which keeps trait collections free of reference counting. A name a theme was
  /// made from is kept for the life of the process (see `ThemeCatalog`).
  @usableFromInline
  var id: UInt32

  /// The theme whose name has number `id`.
  @usableFromInline
  init(id: UInt32) {
    self.id = id
  }

  /// Whether two themes have the same name.
  /// - Parameters:
  ///   - lhs: A theme.
  ///   - rhs: Another theme.
  /// - Returns: `true` for the same name.
  @inlinable
  public static func == (lhs: DMTheme, rhs: DMTheme) -> Bool {
    lhs.id == rhs.id
  }

  /// Hashes the theme's name (by its number).
  /// - Parameter hasher: The hasher to feed.
  @inlinable
  public func hash(into hasher: inout Hasher) {
    hasher.combine(id)
  }

  /// The theme's name.
  public var rawValue: String {
    get { ThemeCatalog.name(of: id) }
    set { id = ThemeCatalog.id(of: newValue) }
  }

  /// Creates a theme with the given name.
  /// - Parameter rawValue: The theme's name, for example `"NIGHT"`.
  public init(rawValue: String) {
    id = ThemeCatalog.id(of: rawValue)
  }

  /// Creates a theme from a string literal.
  /// - Parameter value: The theme's name.
  public init(stringLiteral value: String) {
    self.init(rawValue: value)
  }

  /// Decodes a theme from a single string.
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: A `DecodingError` when the value is not a string.
  public init(from decoder: any Decoder) throws {
    self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
  }

  /// Encodes the theme as a single string.
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: An `EncodingError` when the encoder rejects the value.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  /// The theme's name.
  public var description: String { rawValue }

  /// `NORMAL`, the default theme's light side: the first column of a DKNightVersion colour table.
  ///
  /// Choosing it makes the style light (see <doc:ThemesAndSides>).
  public static let normal: DMTheme = "NORMAL"
  /// `NIGHT`, the default theme's dark side, shown for the dark style when the chosen theme has no
  /// dark side of its own.
  ///
  /// Choosing it makes the style dark (see <doc:ThemesAndSides>).
  public static let night: DMTheme = "NIGHT"

  /// `DARK`, the default theme's dark side in a table or map that has no `NIGHT`.
  static let darkName: DMTheme = "DARK"
}
