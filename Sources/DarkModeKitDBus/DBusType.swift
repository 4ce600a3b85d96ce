/// One complete D-Bus type, as written in a type signature.
///
/// ```swift
/// let dict: DBusType = .array(.dictEntry(key: .string, value: .variant))  // "a{sv}"
/// ```
public indirect enum DBusType: Sendable, Hashable, CustomStringConvertible {
  /// `y`: an unsigned 8-bit integer.
  case byte
  /// `b`: a boolean, 0 or 1 on the wire.
  case bool
  /// `n`: a signed 16-bit integer.
  case int16
  /// `q`: an unsigned 16-bit integer.
  case uint16
  /// `i`: a signed 32-bit integer.
  case int32
  /// `u`: an unsigned 32-bit integer.
  case uint32
  /// `x`: a signed 64-bit integer.
  case int64
  /// `t`: an unsigned 64-bit integer.
  case uint64
  /// `d`: an IEEE 754 double.
  case double
  /// `s`: a UTF-8 string.
  case string
  /// `o`: an object path.
  case objectPath
  /// `g`: a type signature.
  case signature
  /// `h`: an index into the file descriptors sent with the message.
  case unixFD
  /// `v`: a value that carries its own type.
  case variant
  /// `a…`: an array of one element type.
  case array(DBusType)
  /// `(…)`: a struct of one or more fields.
  case `struct`([DBusType])
  /// `{…}`: a dictionary entry; only valid as the element type of an array.
  case dictEntry(key: DBusType, value: DBusType)

  /// The signature text of this type, such as `a{sv}`.
  public var description: String {
    var text = ""
    append(to: &text)
    return text
  }

  /// Whether this is a basic type (every type except containers and variants).
  ///
  /// Only basic types can be dictionary keys.
  public var isBasic: Bool {
    switch self {
    case .variant, .array, .struct, .dictEntry: false
    default: true
    }
  }

  /// The boundary, in bytes, that values of this type start on.
  var alignment: Int {
    switch self {
    case .byte, .signature, .variant: 1
    case .int16, .uint16: 2
    case .bool, .int32, .uint32, .string, .objectPath, .unixFD, .array: 4
    case .int64, .uint64, .double, .struct, .dictEntry: 8
    }
  }

  /// The type code character for a basic type or a variant.
  var code: UInt8? {
    switch self {
    case .byte: UInt8(ascii: "y")
    case .bool: UInt8(ascii: "b")
    case .int16: UInt8(ascii: "n")
    case .uint16: UInt8(ascii: "q")
    case .int32: UInt8(ascii: "i")
    case .uint32: UInt8(ascii: "u")
    case .int64: UInt8(ascii: "x")
    case .uint64: UInt8(ascii: "t")
    case .double: UInt8(ascii: "d")
    case .string: UInt8(ascii: "s")
    case .objectPath: UInt8(ascii: "o")
    case .signature: UInt8(ascii: "g")
    case .unixFD: UInt8(ascii: "h")
    case .variant: UInt8(ascii: "v")
    case .array, .struct, .dictEntry: nil
    }
  }

  /// The basic type or variant for a type code character.
  init?(code: UInt8) {
    switch code {
    case UInt8(ascii: "y"): self = .byte
    case UInt8(ascii: "b"): self = .bool
    case UInt8(ascii: "n"): self = .int16
    case UInt8(ascii: "q"): self = .uint16
    case UInt8(ascii: "i"): self = .int32
    case UInt8(ascii: "u"): self = .uint32
    case UInt8(ascii: "x"): self = .int64
    case UInt8(ascii: "t"): self = .uint64
    case UInt8(ascii: "d"): self = .double
    case UInt8(ascii: "s"): self = .string
    case UInt8(ascii: "o"): self = .objectPath
    case UInt8(ascii: "g"): self = .signature
    case UInt8(ascii: "h"): self = .unixFD
    case UInt8(ascii: "v"): self = .variant
    default: return nil
    }
  }

  private func append(to text: inout String) {
    switch self {
    case .array(let element):
      text += "a"
      element.append(to: &text)
    case .struct(let fields):
      text += "("
      for field in fields { field.append(to: &text) }
      text += ")"
    case .dictEntry(let key, let value):
      text += "{"
      key.append(to: &text)
      value.append(to: &text)
      text += "}"
    default:
      text.unicodeScalars.append(Unicode.Scalar(code!))
    }
  }
}
