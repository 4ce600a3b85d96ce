/// Why a string is not a colour, as thrown by ``DMColor/init(hex:)``.
///
/// ```swift
/// do { _ = try DMColor(hex: "#12G") } catch let error as DMColorError {
///   print(error) // "#12G" is not a colour: "G" at offset 3 is not a hexadecimal digit
/// }
/// ```
public struct DMColorError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The text that was not a colour.
  public let token: String
  /// The 0-based offset, in characters, of the first character at fault within ``token``.
  public let offset: Int
  /// What is wrong, in a plain sentence without the token, for example
  /// `expected 3, 6 or 8 hexadecimal digits after "#", found 5`.
  public let reason: String

  /// The whole message: the token in quotes, then the reason.
  public var description: String {
    "\"\(token)\" is not a colour: \(reason)"
  }
}

extension DMColor {
  /// Parses a colour written as `#RGB`, `#RRGGBB`, `#RRGGBBAA`, `0xRRGGBB` or `0xRRGGBBAA`.
  ///
  /// Letters may be upper or lower case (`#FFF`, `#fff`, `0XFF00AA`). No spaces are allowed.
  /// - Parameter hex: The text to parse.
  /// - Throws: ``DMColorError`` naming the token and what is wrong with it.
  public init(hex: String) throws {
    let scalars = Array(hex.utf8)
    let digitsStart: Int
    let allowedCounts: [Int]
    let prefix: String
    if scalars.first == UInt8(ascii: "#") {
      digitsStart = 1
      allowedCounts = [3, 6, 8]
      prefix = "#"
    } else if scalars.count >= 2, scalars[0] == UInt8(ascii: "0"),
      scalars[1] == UInt8(ascii: "x") || scalars[1] == UInt8(ascii: "X")
    {
      digitsStart = 2
      allowedCounts = [6, 8]
      prefix = "0x"
    } else {
      throw DMColorError(
        token: hex, offset: 0,
        reason: hex.isEmpty ? "the text is empty" : "a colour starts with \"#\" or \"0x\"")
    }
    let count = scalars.count - digitsStart
    for (offset, character) in hex.dropFirst(digitsStart).enumerated()
    where !(character.isASCII && character.isHexDigit) {
      throw DMColorError(
        token: hex, offset: digitsStart + offset,
        reason: "\"\(character)\" at offset \(digitsStart + offset) is not a hexadecimal digit")
    }
    guard allowedCounts.contains(count) else {
      let expected = allowedCounts.count == 3 ? "3, 6 or 8" : "6 or 8"
      throw DMColorError(
        token: hex, offset: digitsStart,
        reason: "expected \(expected) hexadecimal digits after \"\(prefix)\", found \(count)")
    }
    var value: UInt64 = 0
    for byte in scalars[digitsStart...] {
      value = value << 4 | UInt64(Self.hexDigitValue(byte) ?? 0)
    }
    switch count {
    case 3:
      let r = (value >> 8) & 0xF
      let g = (value >> 4) & 0xF
      let b = value & 0xF
      self.init(red: Double(r * 17) / 255, green: Double(g * 17) / 255, blue: Double(b * 17) / 255)
    case 6:
      self.init(rgb: UInt32(value))
    default:
      self.init(rgb: UInt32(value >> 8), alpha: Double(value & 0xFF) / 255)
    }
  }

  @inline(__always)
  static func hexDigitValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
