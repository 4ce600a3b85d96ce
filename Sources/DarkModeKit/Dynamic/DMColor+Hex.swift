import DarkModeKitText
import Foundation

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

  /// The whole message: the token in quotes, then the reason. Control characters in the token are
  /// escaped (`\u{1B}`), and a long token is cut after 64 characters.
  public var description: String {
    "\(ShownText.quoted(token)) is not a colour: \(reason)"
  }
}

extension DMColor {
  /// Parses a colour written as `#RGB`, `#RRGGBB`, `#RRGGBBAA`, `0xRRGGBB` or `0xRRGGBBAA`.
  ///
  /// Letters may be upper or lower case (`#FFF`, `#fff`, `0XFF00AA`). No spaces are allowed.
  /// - Parameter hex: The text to parse.
  /// - Throws: ``DMColorError`` naming the token and what is wrong with it.
  public init(hex: String) throws {
    if let color = hex.utf8.withContiguousStorageIfAvailable({ Self.parseHex($0[...]) })
      ?? Self.parseHex(Array(hex.utf8)[...])
    {
      self = color
      return
    }
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
    // Walk characters, not bytes, for the offset; a combining mark after the prefix joins the
    // prefix's last character, which then is the character at fault.
    var byteOffset = 0
    for (offset, character) in hex.enumerated() {
      let length = character.utf8.count
      defer { byteOffset += length }
      if byteOffset + length <= digitsStart, length == 1 { continue }
      if byteOffset >= digitsStart, character.isASCII, character.isHexDigit { continue }
      throw DMColorError(
        token: hex, offset: offset,
        reason: "\(ShownText.quoted(String(character))) at offset \(offset) is not a hexadecimal digit")
    }
    // Every character is in place, so what `parseHex` rejected is the number of digits.
    let expected = allowedCounts.count == 3 ? "3, 6 or 8" : "6 or 8"
    throw DMColorError(
      token: hex, offset: digitsStart,
      reason: "expected \(expected) hexadecimal digits after \"\(prefix)\", found \(count)")
  }

  /// The colour a valid `#RGB`, `#RRGGBB`, `#RRGGBBAA`, `0xRRGGBB` or `0xRRGGBBAA` spells, read
  /// straight from its bytes; `nil` for anything else (``init(hex:)`` then says what is wrong).
  static func parseHex<Bytes: RandomAccessCollection>(_ bytes: Bytes) -> DMColor?
  where Bytes.Element == UInt8, Bytes.Index == Int {
    var index = bytes.startIndex
    let count = bytes.count
    let digits: Int
    if count > 0, bytes[index] == UInt8(ascii: "#") {
      digits = count - 1
      guard digits == 3 || digits == 6 || digits == 8 else { return nil }
      index += 1
    } else if count > 1, bytes[index] == UInt8(ascii: "0"),
      bytes[index + 1] == UInt8(ascii: "x") || bytes[index + 1] == UInt8(ascii: "X")
    {
      digits = count - 2
      guard digits == 6 || digits == 8 else { return nil }
      index += 2
    } else {
      return nil
    }
    var value: UInt32 = 0
    for offset in 0..<digits {
      guard let digit = hexDigitValue(bytes[index + offset]) else { return nil }
      value = value << 4 | UInt32(digit)
    }
    switch digits {
    case 3:
      let r = (value >> 8) & 0xF
      let g = (value >> 4) & 0xF
      let b = value & 0xF
      return DMColor(red: Double(r * 17) / 255, green: Double(g * 17) / 255, blue: Double(b * 17) / 255)
    case 6:
      return DMColor(rgb: value)
    default:
      return DMColor(rgb: value >> 8, alpha: Double(value & 0xFF) / 255)
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

extension DMColorError: LocalizedError {
  /// The same text as ``description``, so that `localizedDescription` shows it.
  public var errorDescription: String? { description }
}
