/// One D-Bus value of any type: the arguments of method calls and signals.
///
/// Arrays carry their element type, so an empty array still has a signature. An array of bytes
/// (`ay`) is held as its bytes, ``bytes(_:)``: the decoder always gives that form, and the encoder
/// takes either. Dictionaries are arrays of ``dictEntry(_:_:)`` values;
/// ``dictionary(key:value:_:)`` builds one.
///
/// ```swift
/// let arguments: [DBusValue] = [.string("org.freedesktop.appearance"), .string("color-scheme")]
/// let options = DBusValue.dictionary(key: .string, value: .variant, [
///   (.string("handle_token"), .variant(.string("t1")))
/// ])
/// ```
public enum DBusValue: Sendable, Hashable {
  /// `y`: an unsigned 8-bit integer.
  case byte(UInt8)
  /// `b`: a boolean.
  case bool(Bool)
  /// `n`: a signed 16-bit integer.
  case int16(Int16)
  /// `q`: an unsigned 16-bit integer.
  case uint16(UInt16)
  /// `i`: a signed 32-bit integer.
  case int32(Int32)
  /// `u`: an unsigned 32-bit integer.
  case uint32(UInt32)
  /// `x`: a signed 64-bit integer.
  case int64(Int64)
  /// `t`: an unsigned 64-bit integer.
  case uint64(UInt64)
  /// `d`: an IEEE 754 double.
  case double(Double)
  /// `s`: a UTF-8 string without NUL characters.
  case string(String)
  /// `o`: an object path such as `/org/freedesktop/portal/desktop`.
  case objectPath(String)
  /// `g`: a type signature.
  case signature(DBusSignature)
  /// `h`: an index into the file descriptors sent with the message (file descriptors themselves
  /// are not transferred by this client).
  case unixFD(UInt32)
  /// `v`: a value together with its type.
  indirect case variant(DBusValue)
  /// `a…`: an array whose elements all have type `element`.
  case array(element: DBusType, [DBusValue])
  /// `ay`: an array of bytes, held as bytes (one byte each, not one value each).
  case bytes([UInt8])
  /// `(…)`: a struct with one or more fields.
  case `struct`([DBusValue])
  /// `{…}`: a dictionary entry; valid only as an element of an array.
  indirect case dictEntry(DBusValue, DBusValue)

  /// The type of this value.
  public var type: DBusType {
    switch self {
    case .byte: .byte
    case .bool: .bool
    case .int16: .int16
    case .uint16: .uint16
    case .int32: .int32
    case .uint32: .uint32
    case .int64: .int64
    case .uint64: .uint64
    case .double: .double
    case .string: .string
    case .objectPath: .objectPath
    case .signature: .signature
    case .unixFD: .unixFD
    case .variant: .variant
    case .array(let element, _): .array(element)
    case .bytes: .array(.byte)
    case .struct(let fields): .struct(fields.map(\.type))
    case .dictEntry(let key, let value): .dictEntry(key: key.type, value: value.type)
    }
  }

  /// Builds an array of dictionary entries, the D-Bus form of a dictionary (`a{kv}`).
  ///
  /// - Parameters:
  ///   - key: The key type; must be a basic type.
  ///   - value: The value type.
  ///   - entries: The entries, in order.
  /// - Returns: An `.array` of `.dictEntry` values.
  public static func dictionary(
    key: DBusType, value: DBusType, _ entries: [(DBusValue, DBusValue)]
  ) -> DBusValue {
    .array(element: .dictEntry(key: key, value: value), entries.map { .dictEntry($0.0, $0.1) })
  }
}

extension DBusValue: ExpressibleByStringLiteral {
  /// Creates a `.string` value from a literal.
  ///
  /// - Parameter value: The string.
  public init(stringLiteral value: String) {
    self = .string(value)
  }
}

extension DBusValue: ExpressibleByBooleanLiteral {
  /// Creates a `.bool` value from a literal.
  ///
  /// - Parameter value: The boolean.
  public init(booleanLiteral value: Bool) {
    self = .bool(value)
  }
}

extension DBusValue {
  /// The value inside any number of variants: `.variant(.variant(.uint32(1)))` gives `.uint32(1)`.
  public var unwrappingVariants: DBusValue {
    var value = self
    while case .variant(let inner) = value { value = inner }
    return value
  }

  /// The payload of a `.bool`, else `nil`.
  public var boolValue: Bool? {
    if case .bool(let value) = self { value } else { nil }
  }

  /// The payload of a `.string`, `.objectPath` or `.signature`, else `nil`.
  public var stringValue: String? {
    switch self {
    case .string(let value), .objectPath(let value): value
    case .signature(let value): value.rawValue
    default: nil
    }
  }

  /// The value of any integer case (`byte` through `uint64`) when it fits in `Int64`, else `nil`.
  ///
  /// Lets callers accept `u`, `i` or `y` alike, as portal implementations differ.
  public var integerValue: Int64? {
    switch self {
    case .byte(let value): Int64(value)
    case .int16(let value): Int64(value)
    case .uint16(let value): Int64(value)
    case .int32(let value): Int64(value)
    case .uint32(let value): Int64(value)
    case .int64(let value): value
    case .uint64(let value): Int64(exactly: value)
    default: nil
    }
  }

  /// The payload of a `.double`, else `nil`.
  public var doubleValue: Double? {
    if case .double(let value) = self { value } else { nil }
  }

  /// The elements of an `.array`, or of `.bytes` as `.byte` values, else `nil`.
  public var arrayValue: [DBusValue]? {
    switch self {
    case .array(_, let elements): elements
    case .bytes(let bytes): bytes.map { .byte($0) }
    default: nil
    }
  }

  /// The bytes of `.bytes`, or of an `.array` of `.byte` values, else `nil`.
  public var bytesValue: [UInt8]? {
    switch self {
    case .bytes(let bytes): return bytes
    case .array(.byte, let elements):
      return elements.map { if case .byte(let byte) = $0 { byte } else { 0 } }
    default: return nil
    }
  }

  /// The fields of a `.struct`, else `nil`.
  public var structValue: [DBusValue]? {
    if case .struct(let fields) = self { fields } else { nil }
  }

  /// The entries of an array of dictionary entries as a Swift dictionary, else `nil`.
  ///
  /// When a key repeats, the last entry wins.
  public var dictionaryValue: [DBusValue: DBusValue]? {
    guard case .array(.dictEntry, let entries) = self else { return nil }
    var result: [DBusValue: DBusValue] = [:]
    for case .dictEntry(let key, let value) in entries { result[key] = value }
    return result
  }
}
