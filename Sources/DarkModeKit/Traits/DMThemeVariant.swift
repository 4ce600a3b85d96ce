import DarkModeKitText

/// One side of a named theme, light or dark, in normal or high contrast: a column of a colour
/// table, a key of a theme map, an image of a by-name ``DMDynamicImage``.
///
/// It is written `NAME`, `NAME:light` or `NAME:dark`, with `:high` after it for the high-contrast
/// variant: `SEPIA`, `SOLARIZED:dark`, `NIGHT:high`, `SOLARIZED:dark:high`. A bare name is the
/// theme's light side, except `NIGHT` and `DARK`, which are dark: `NORMAL` and `NIGHT` are the
/// light and the dark side of the default theme, as in a DKNightVersion table.
///
/// ```swift
/// let variant: DMThemeVariant = "SOLARIZED:dark:high"
/// print(variant.theme)                  // SOLARIZED
/// print(variant.userInterfaceStyle)     // dark
/// print(variant.accessibilityContrast)  // high
/// ```
///
/// Which variant applies to a trait collection, and how a theme's sides decide the style, is
/// described in <doc:ThemesAndSides>.
public struct DMThemeVariant: Sendable, Hashable, Codable, CustomStringConvertible, LosslessStringConvertible,
  ExpressibleByStringLiteral
{
  /// The theme.
  public let theme: DMTheme
  /// The side: `.light` or `.dark`, never `.unspecified`.
  public let userInterfaceStyle: DMUserInterfaceStyle
  /// The contrast: `.normal` or `.high`, never `.unspecified`.
  public let accessibilityContrast: DMAccessibilityContrast

  /// A variant of a theme.
  /// - Parameters:
  ///   - theme: The theme.
  ///   - userInterfaceStyle: The side; `.unspecified`, the default, is the side a bare name has:
  ///     dark for `NIGHT` and `DARK`, light for any other theme. `NORMAL`, `NIGHT` and `DARK` are
  ///     sides of the default theme and always have their own side, whatever this says.
  ///   - accessibilityContrast: `.high` for the high-contrast variant; `.unspecified` is `.normal`.
  public init(
    _ theme: DMTheme, userInterfaceStyle: DMUserInterfaceStyle = .unspecified,
    accessibilityContrast: DMAccessibilityContrast = .normal
  ) {
    self.theme = theme
    self.userInterfaceStyle =
      userInterfaceStyle == .unspecified || Self.isDefaultSide(theme)
      ? Self.bareSide(of: theme) : userInterfaceStyle
    self.accessibilityContrast = accessibilityContrast == .high ? .high : .normal
  }

  /// Reads a variant written as `NAME[:light|:dark][:high]`, or fails when the text is not one.
  ///
  /// The name follows the rule of colour-table theme names (ASCII letters, digits, `_`, `.` and
  /// `-`, starting with a letter or `_`). ``DMColorTable`` says what is wrong in its errors.
  /// - Parameter description: The variant, such as `"SOLARIZED:dark"`.
  public init?(_ description: String) {
    guard case .success(let column) = ThemeColumn.parse(Array(description.utf8)[...]) else { return nil }
    self.init(column)
  }

  /// A variant written as a literal, such as `"SOLARIZED:dark"`.
  ///
  /// The literal must be a variant (see ``init(_:)-(String)``); anything else stops the program
  /// with the reason, as a bad literal is a mistake in the code.
  /// - Parameter value: The variant.
  public init(stringLiteral value: String) {
    switch ThemeColumn.parse(Array(value.utf8)[...]) {
    case .success(let column): self.init(column)
    case .failure(let problem):
      preconditionFailure("\(ShownText.quoted(value)) is not a theme variant: \(problem.reason)")
    }
  }

  /// Decodes a variant from its written form.
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: A `DecodingError` when the value is not a string or not a variant.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    switch ThemeColumn.parse(Array(text.utf8)[...]) {
    case .success(let column): self.init(column)
    case .failure(let problem):
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "\(ShownText.quoted(text)) is not a theme variant: \(problem.reason)"
      )
    }
  }

  /// Encodes the variant as its written form.
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: An `EncodingError` when the encoder rejects the value.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  /// The shortest written form: `SEPIA`, `SOLARIZED:dark`, `NIGHT:high`.
  public var description: String { ThemeColumn(self).description }

  /// The default theme's light side, `NORMAL`.
  public static let normal = DMThemeVariant(.normal)
  /// The default theme's dark side, `NIGHT`.
  public static let night = DMThemeVariant(.night)
}

extension DMThemeVariant {
  /// The variant of theme number `id`, whose side is one ``ThemeColumn`` allows: for the catalog,
  /// which must not make `DMTheme` constants under its lock.
  init(id: UInt32, userInterfaceStyle: DMUserInterfaceStyle, accessibilityContrast: DMAccessibilityContrast) {
    theme = DMTheme(id: id)
    self.userInterfaceStyle = userInterfaceStyle
    self.accessibilityContrast = accessibilityContrast
  }

  /// The variant a column names, its theme's name kept for the life of the process.
  init(_ column: ThemeColumn) {
    self.init(
      DMTheme(rawValue: column.themeName), userInterfaceStyle: column.userInterfaceStyle,
      accessibilityContrast: column.accessibilityContrast)
  }

  /// Whether a theme is a side of the default theme by its name: `NORMAL`, `NIGHT` or `DARK`.
  static func isDefaultSide(_ theme: DMTheme) -> Bool {
    theme == .normal || theme == .night || theme == .darkName
  }

  /// The variant a theme map's key stands for: the variant it is written as (`SOLARIZED:dark`),
  /// else the theme's bare variant.
  init(bareOrWritten theme: DMTheme) {
    let name = theme.rawValue
    self =
      name.utf8.contains(UInt8(ascii: ":"))
      ? DMThemeVariant(name) ?? DMThemeVariant(theme) : DMThemeVariant(theme)
  }

  /// The side a bare name has: dark for `NIGHT` and `DARK`, light for any other theme.
  static func bareSide(of theme: DMTheme) -> DMUserInterfaceStyle {
    theme == .night || theme == .darkName ? .dark : .light
  }

  /// How a variant is written, for error messages.
  static let syntax =
    "a theme column is NAME, NAME:light or NAME:dark, with \":high\" after it for high contrast"

  /// The longest theme name a column may have, in bytes: exports repeat a column's name for
  /// each key (GTK's named colours, Swift's constants), so a long one would multiply a small
  /// table into gigabytes.
  public static let maximumThemeNameLength = 64

  /// Why `description` is not a variant, as a colour table's error says it; `nil` for a variant.
  package static func problem(in description: String) -> String? {
    guard case .failure(let problem) = ThemeColumn.parse(Array(description.utf8)[...]) else { return nil }
    return problem.reason
  }
}
