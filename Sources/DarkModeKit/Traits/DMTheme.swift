/// A named theme, such as the `NORMAL` and `NIGHT` columns of a colour table.
///
/// Theme names are case-sensitive. Any string is a theme; colour tables restrict the names they
/// accept to ASCII letters, digits, `_`, `.` and `-`.
///
/// ```swift
/// let red: DMTheme = "RED"
/// DMTraitCollection.setOverride(DMTraitCollection(theme: red), animated: false)
/// ```
public struct DMTheme: RawRepresentable, ExpressibleByStringLiteral, Sendable, Hashable, Codable,
  CustomStringConvertible
{
  /// The theme's name.
  public var rawValue: String

  /// Creates a theme with the given name.
  /// - Parameter rawValue: The theme's name, for example `"NIGHT"`.
  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  /// Creates a theme from a string literal.
  /// - Parameter value: The theme's name.
  public init(stringLiteral value: String) {
    self.rawValue = value
  }

  /// Decodes a theme from a single string.
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: A `DecodingError` when the value is not a string.
  public init(from decoder: any Decoder) throws {
    self.rawValue = try decoder.singleValueContainer().decode(String.self)
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

  /// The default theme, `NORMAL`: the first column of a DKNightVersion colour table.
  public static let normal: DMTheme = "NORMAL"
  /// The night theme, `NIGHT`, chosen for the dark style when a table has no column for the theme.
  public static let night: DMTheme = "NIGHT"
}
