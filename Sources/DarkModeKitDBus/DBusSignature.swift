/// A validated D-Bus type signature: a list of zero or more complete types.
///
/// A signature is at most 255 bytes long and nests at most 32 arrays, 32 structs (dictionary
/// entries count as structs) and 64 containers in total, as the D-Bus specification requires.
///
/// ```swift
/// let signature = try DBusSignature("a{sv}")
/// print(signature.types.count)  // 1: an array of dictionary entries, string to variant
/// ```
public struct DBusSignature: Sendable, Hashable, CustomStringConvertible {
  /// The longest signature the specification allows, in bytes.
  public static let maximumLength = 255
  /// The deepest nesting of arrays the specification allows.
  public static let maximumArrayDepth = 32
  /// The deepest nesting of structs and dictionary entries the specification allows.
  public static let maximumStructDepth = 32
  /// The deepest nesting of containers in total, variants in values included.
  public static let maximumTotalDepth = 64

  /// The empty signature, for a message without arguments.
  public static let empty = DBusSignature(validatedTypes: [], text: "")

  /// The complete types, in order.
  public let types: [DBusType]
  /// The signature text, such as `sa{sv}`.
  public let rawValue: String

  /// The signature text.
  public var description: String { rawValue }

  /// Parses and validates signature text.
  ///
  /// - Parameter text: The signature, such as `"ss"` or `"a{sv}"`.
  /// - Throws: ``DBusError/invalidSignature(_:reason:)`` naming the offending position.
  public init(_ text: String) throws {
    var parser = SignatureParser(bytes: Array(text.utf8), text: text)
    types = try parser.parseAll()
    rawValue = text
  }

  /// Builds the signature of a list of types, validating the same rules as parsing.
  ///
  /// - Parameter types: The complete types, in order.
  /// - Throws: ``DBusError/invalidSignature(_:reason:)`` when the result is too long, too deep, or
  ///   uses a dictionary entry outside an array, a non-basic dictionary key or an empty struct.
  public init(types: [DBusType]) throws {
    try self.init(types.map(\.description).joined())
  }

  private init(validatedTypes: [DBusType], text: String) {
    types = validatedTypes
    rawValue = text
  }

  /// Parses signature bytes straight from the wire.
  init(bytes: ArraySlice<UInt8>) throws {
    let array = Array(bytes)
    guard let text = validatedUTF8(bytes) else {
      throw DBusError.invalidSignature(
        String(decoding: array, as: UTF8.self), reason: "it is not valid UTF-8")
    }
    var parser = SignatureParser(bytes: array, text: text)
    types = try parser.parseAll()
    rawValue = text
  }

  /// Parses a signature that must hold exactly one complete type, as in a variant.
  static func singleType(_ bytes: ArraySlice<UInt8>) throws -> DBusType {
    let signature = try DBusSignature(bytes: bytes)
    guard signature.types.count == 1 else {
      throw DBusError.invalidSignature(
        signature.rawValue,
        reason: "a variant must hold exactly one complete type, found \(signature.types.count)")
    }
    return signature.types[0]
  }
}

/// A recursive-descent parser with depth limits; it never recurses deeper than 64 levels.
private struct SignatureParser {
  let bytes: [UInt8]
  let text: String
  var position = 0
  var arrayDepth = 0
  var structDepth = 0

  init(bytes: [UInt8], text: String) {
    self.bytes = bytes
    self.text = text
  }

  mutating func parseAll() throws -> [DBusType] {
    guard bytes.count <= DBusSignature.maximumLength else {
      throw fail("it is \(bytes.count) bytes long, the limit is \(DBusSignature.maximumLength)")
    }
    var types: [DBusType] = []
    while position < bytes.count {
      types.append(try parseOne())
    }
    return types
  }

  private func fail(_ reason: String) -> DBusError {
    DBusError.invalidSignature(text, reason: reason)
  }

  private mutating func parseOne() throws -> DBusType {
    guard position < bytes.count else {
      throw fail("it ends in the middle of a type at offset \(position)")
    }
    let code = bytes[position]
    let start = position
    position += 1
    if let basic = DBusType(code: code) { return basic }
    switch code {
    case UInt8(ascii: "a"):
      arrayDepth += 1
      defer { arrayDepth -= 1 }
      try checkDepth(at: start)
      return .array(try parseOne(allowingDictEntry: true))
    case UInt8(ascii: "("):
      structDepth += 1
      defer { structDepth -= 1 }
      try checkDepth(at: start)
      var fields: [DBusType] = []
      while true {
        guard position < bytes.count else {
          throw fail("the struct opened at offset \(start) is not closed")
        }
        if bytes[position] == UInt8(ascii: ")") {
          position += 1
          break
        }
        fields.append(try parseOne())
      }
      guard !fields.isEmpty else { throw fail("empty struct at offset \(start)") }
      return .struct(fields)
    case UInt8(ascii: "{"):
      throw fail("dictionary entry at offset \(start) is not the element type of an array")
    default:
      let shown = code >= 0x20 && code < 0x7F ? "\"\(Character(Unicode.Scalar(code)))\"" : "byte \(code)"
      throw fail("unknown type code \(shown) at offset \(start)")
    }
  }

  private mutating func parseOne(allowingDictEntry: Bool) throws -> DBusType {
    guard allowingDictEntry, position < bytes.count, bytes[position] == UInt8(ascii: "{") else {
      return try parseOne()
    }
    let start = position
    position += 1
    structDepth += 1
    defer { structDepth -= 1 }
    try checkDepth(at: start)
    guard position < bytes.count else {
      throw fail("the dictionary entry opened at offset \(start) is not closed")
    }
    let key = try parseOne()
    guard key.isBasic else {
      throw fail("dictionary key at offset \(start + 1) is \"\(key)\", which is not a basic type")
    }
    guard position < bytes.count, bytes[position] != UInt8(ascii: "}") else {
      throw fail("the dictionary entry at offset \(start) has no value type")
    }
    let value = try parseOne()
    guard position < bytes.count, bytes[position] == UInt8(ascii: "}") else {
      throw fail("the dictionary entry opened at offset \(start) must hold exactly two types")
    }
    position += 1
    return .dictEntry(key: key, value: value)
  }

  private func checkDepth(at offset: Int) throws {
    if arrayDepth > DBusSignature.maximumArrayDepth {
      throw fail("more than \(DBusSignature.maximumArrayDepth) nested arrays at offset \(offset)")
    }
    if structDepth > DBusSignature.maximumStructDepth {
      throw fail("more than \(DBusSignature.maximumStructDepth) nested structs at offset \(offset)")
    }
    if arrayDepth + structDepth > DBusSignature.maximumTotalDepth {
      throw fail("more than \(DBusSignature.maximumTotalDepth) nested containers at offset \(offset)")
    }
  }
}
