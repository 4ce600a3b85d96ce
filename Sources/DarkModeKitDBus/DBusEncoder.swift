/// Marshals values into the D-Bus wire format, little-endian.
///
/// Offsets are relative to the start of the buffer, which must itself sit on an 8-byte boundary of
/// the message (true for both the header and the body). Every value is checked before it is
/// written: strings have no NUL, object paths and signatures are valid, array elements match the
/// element type, and containers nest at most 64 deep.
struct DBusEncoder {
  /// The largest array the specification allows, in bytes of elements.
  static let maximumArrayLength = 64 * 1024 * 1024

  private(set) var bytes: [UInt8] = []
  private var depth = 0

  /// Appends values of a body or header, checking that their signature is valid.
  mutating func encode(_ values: [DBusValue]) throws {
    _ = try DBusSignature(types: values.map(\.type))
    for value in values { try encode(value) }
  }

  /// Appends zero bytes up to the next multiple of `alignment`.
  mutating func pad(to alignment: Int) {
    while bytes.count % alignment != 0 { bytes.append(0) }
  }

  /// Appends one value.
  mutating func encode(_ value: DBusValue) throws {
    switch value {
    case .byte(let value): bytes.append(value)
    case .bool(let value): appendInteger(UInt32(value ? 1 : 0))
    case .int16(let value): appendInteger(UInt16(bitPattern: value))
    case .uint16(let value): appendInteger(value)
    case .int32(let value): appendInteger(UInt32(bitPattern: value))
    case .uint32(let value), .unixFD(let value): appendInteger(value)
    case .int64(let value): appendInteger(UInt64(bitPattern: value))
    case .uint64(let value): appendInteger(value)
    case .double(let value): appendInteger(value.bitPattern)
    case .string(let value): try appendString(value, what: "string")
    case .objectPath(let value):
      if let problem = DBusNames.objectPathProblem(value) { throw DBusError.invalidValue(problem) }
      try appendString(value, what: "object path")
    case .signature(let value): appendSignature(value)
    case .variant(let inner):
      try enterContainer()
      defer { depth -= 1 }
      appendSignature(try DBusSignature(types: [inner.type]))
      try encode(inner)
    case .array(let element, let elements):
      try enterContainer()
      defer { depth -= 1 }
      try appendArray(element: element, elements)
    case .bytes(let elements):
      guard elements.count <= Self.maximumArrayLength else {
        throw DBusError.invalidValue("array is longer than \(Self.maximumArrayLength) bytes")
      }
      appendInteger(UInt32(elements.count))
      bytes.append(contentsOf: elements)
    case .struct(let fields):
      guard !fields.isEmpty else { throw DBusError.invalidValue("a struct needs at least one field") }
      try enterContainer()
      defer { depth -= 1 }
      pad(to: 8)
      for field in fields { try encode(field) }
    case .dictEntry(let key, let value):
      guard key.type.isBasic else {
        throw DBusError.invalidValue("dictionary key of type \"\(key.type)\" is not a basic type")
      }
      try enterContainer()
      defer { depth -= 1 }
      pad(to: 8)
      try encode(key)
      try encode(value)
    }
  }

  private mutating func appendArray(element: DBusType, _ elements: [DBusValue]) throws {
    pad(to: 4)
    let lengthOffset = bytes.count
    appendInteger(UInt32(0))
    pad(to: element.alignment)
    let start = bytes.count
    for (index, value) in elements.enumerated() {
      guard value.type == element else {
        throw DBusError.invalidValue(
          "array element \(index) has type \"\(value.type)\", the array holds \"\(element)\"")
      }
      try encode(value)
      guard bytes.count - start <= Self.maximumArrayLength else {
        throw DBusError.invalidValue("array is longer than \(Self.maximumArrayLength) bytes")
      }
    }
    let length = UInt32(bytes.count - start)
    withUnsafeBytes(of: length.littleEndian) { raw in
      for index in 0..<4 { bytes[lengthOffset + index] = raw[index] }
    }
  }

  private mutating func enterContainer() throws {
    depth += 1
    guard depth <= DBusSignature.maximumTotalDepth else {
      throw DBusError.invalidValue(
        "values nest more than \(DBusSignature.maximumTotalDepth) containers deep")
    }
  }

  private mutating func appendInteger<T: FixedWidthInteger>(_ value: T) {
    pad(to: MemoryLayout<T>.size)
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  private mutating func appendString(_ value: String, what: String) throws {
    let utf8 = value.utf8
    guard !utf8.contains(0) else { throw DBusError.invalidValue("\(what) contains a NUL character") }
    guard let length = UInt32(exactly: utf8.count) else {
      throw DBusError.invalidValue("\(what) is too long")
    }
    appendInteger(length)
    bytes.append(contentsOf: utf8)
    bytes.append(0)
  }

  private mutating func appendSignature(_ signature: DBusSignature) {
    let utf8 = signature.rawValue.utf8
    bytes.append(UInt8(utf8.count))  // at most 255, checked when the signature was made
    bytes.append(contentsOf: utf8)
    bytes.append(0)
  }
}
