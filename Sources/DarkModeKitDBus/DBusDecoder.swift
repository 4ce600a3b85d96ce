import DarkModeKitText

/// Unmarshals values from the D-Bus wire format, in either byte order.
///
/// The decoder reads `bytes[position..<end]` and reports every problem as
/// ``DBusError/malformedMessage(offset:reason:)`` with the offset in `bytes`. Alignment is computed
/// from the start of `bytes`, which must be the start of the message. Lengths are checked against
/// the input that remains before anything is sliced or allocated, padding must be zero, strings must
/// be valid UTF-8 without NUL, booleans must be 0 or 1, and containers (variants included) nest at
/// most 64 deep.
struct DBusDecoder {
  let bytes: [UInt8]
  let bigEndian: Bool
  private(set) var position: Int
  let end: Int
  private var depth = 0

  /// Creates a decoder over `bytes[position..<end]`.
  init(bytes: [UInt8], bigEndian: Bool, position: Int = 0, end: Int? = nil) {
    self.bytes = bytes
    self.bigEndian = bigEndian
    self.position = position
    self.end = min(end ?? bytes.count, bytes.count)
  }

  var remaining: Int { end - position }

  func fail(_ reason: String, at offset: Int? = nil) -> DBusError {
    DBusError.malformedMessage(offset: offset ?? position, reason: reason)
  }

  /// Skips the padding up to the next multiple of `alignment`, which must be zero bytes.
  mutating func align(to alignment: Int) throws {
    let padded = (position + alignment - 1) / alignment * alignment
    guard padded <= end else {
      throw fail("the message ends inside the padding to a \(alignment)-byte boundary")
    }
    while position < padded {
      guard bytes[position] == 0 else { throw fail("padding byte is \(bytes[position]), not 0") }
      position += 1
    }
  }

  /// Reads one value of `type`.
  mutating func decode(_ type: DBusType) throws -> DBusValue {
    switch type {
    case .byte: return .byte(try readByte())
    case .bool:
      let start = (position + 3) & ~3
      let raw: UInt32 = try readInteger()
      guard raw <= 1 else { throw fail("boolean is \(raw), not 0 or 1", at: start) }
      return .bool(raw == 1)
    case .int16: return .int16(Int16(bitPattern: try readInteger()))
    case .uint16: return .uint16(try readInteger())
    case .int32: return .int32(Int32(bitPattern: try readInteger()))
    case .uint32: return .uint32(try readInteger())
    case .unixFD: return .unixFD(try readInteger())
    case .int64: return .int64(Int64(bitPattern: try readInteger()))
    case .uint64: return .uint64(try readInteger())
    case .double: return .double(Double(bitPattern: try readInteger()))
    case .string: return .string(try readString(what: "string"))
    case .objectPath:
      let start = (position + 3) & ~3
      let path = try readString(what: "object path")
      if let problem = DBusNames.objectPathProblem(path) { throw fail(problem, at: start) }
      return .objectPath(path)
    case .signature: return .signature(try readSignature())
    case .variant:
      try enterContainer()
      defer { depth -= 1 }
      let start = position
      let signature = try readSignature()
      guard signature.types.count == 1 else {
        throw fail(
          "variant signature \"\(signature)\" must hold exactly one complete type", at: start)
      }
      return .variant(try decode(signature.types[0]))
    case .array(.byte):
      try enterContainer()
      defer { depth -= 1 }
      return .bytes(try readByteArray())
    case .array(let element):
      try enterContainer()
      defer { depth -= 1 }
      return .array(element: element, try readArray(of: element))
    case .struct(let fields):
      try enterContainer()
      defer { depth -= 1 }
      try align(to: 8)
      var values: [DBusValue] = []
      for field in fields { values.append(try decode(field)) }
      return .struct(values)
    case .dictEntry(let keyType, let valueType):
      try enterContainer()
      defer { depth -= 1 }
      try align(to: 8)
      let key = try decode(keyType)
      return .dictEntry(key, try decode(valueType))
    }
  }

  /// Reads an array of bytes whose length word comes next, as bytes.
  mutating func readByteArray() throws -> [UInt8] {
    let (start, length) = try readArrayLength(alignment: 1)
    position = start + length
    return Array(bytes[start..<position])
  }

  /// Reads the length word of an array and the padding before its first element.
  /// - Returns: Where the elements start, and their length in bytes, checked against the limit
  ///   and against what remains.
  private mutating func readArrayLength(alignment: Int) throws -> (start: Int, length: Int) {
    try align(to: 4)
    let lengthOffset = position
    let length = Int(try readInteger() as UInt32)
    guard length <= DBusEncoder.maximumArrayLength else {
      throw fail(
        "array length \(length) is over the limit of \(DBusEncoder.maximumArrayLength) bytes",
        at: lengthOffset)
    }
    try align(to: alignment)
    guard length <= remaining else {
      throw fail(
        "array length \(length) is more than the \(remaining) bytes that remain", at: lengthOffset)
    }
    return (position, length)
  }

  /// Reads the elements of an array whose length word comes next.
  mutating func readArray(of element: DBusType) throws -> [DBusValue] {
    let lengthOffset = (position + 3) & ~3
    let (start, length) = try readArrayLength(alignment: element.alignment)
    let arrayEnd = start + length
    var values: [DBusValue] = []
    while position < arrayEnd {
      // Every element takes at least one byte, so this loop runs at most `length` times.
      values.append(try decode(element))
    }
    guard position == arrayEnd else {
      throw fail("the last array element runs past the array length \(length)", at: lengthOffset)
    }
    return values
  }

  mutating func readByte() throws -> UInt8 {
    guard position < end else { throw fail("the message ends where a byte was expected") }
    defer { position += 1 }
    return bytes[position]
  }

  mutating func readInteger<T: FixedWidthInteger>() throws -> T {
    let size = MemoryLayout<T>.size
    try align(to: size)
    guard size <= remaining else {
      throw fail("the message ends inside a \(size)-byte integer")
    }
    var value = T.zero
    for index in 0..<size {
      let byte = T(bytes[position + (bigEndian ? index : size - 1 - index)])
      value = size == 1 ? byte : (value << 8) | byte
    }
    position += size
    return value
  }

  private mutating func readString(what: String) throws -> String {
    let lengthOffset = (position + 3) & ~3
    let length = Int(try readInteger() as UInt32)
    guard length < remaining else {
      throw fail(
        "\(what) length \(length) is more than the \(remaining) bytes that remain", at: lengthOffset)
    }
    let start = position
    let content = bytes[start..<start + length]
    if let nul = content.firstIndex(of: 0) {
      throw fail("\(what) contains a NUL character", at: nul)
    }
    guard bytes[start + length] == 0 else {
      throw fail("\(what) is not terminated by a NUL byte", at: start + length)
    }
    guard let string = validatedUTF8(content) else {
      throw fail("\(what) is not valid UTF-8", at: start)
    }
    position = start + length + 1
    return string
  }

  private mutating func readSignature() throws -> DBusSignature {
    let lengthOffset = position
    let length = Int(try readByte())
    guard length < remaining else {
      throw fail(
        "signature length \(length) is more than the \(remaining) bytes that remain", at: lengthOffset)
    }
    let start = position
    guard bytes[start + length] == 0 else {
      throw fail("signature is not terminated by a NUL byte", at: start + length)
    }
    do {
      let signature = try DBusSignature(bytes: bytes[start..<start + length])
      position = start + length + 1
      return signature
    } catch let error as DBusError {
      guard case .invalidSignature(let text, let reason) = error else { throw error }
      throw fail("invalid signature \(ShownText.quoted(text)): \(reason)", at: start)
    }
  }

  private mutating func enterContainer() throws {
    depth += 1
    guard depth <= DBusSignature.maximumTotalDepth else {
      throw fail("values nest more than \(DBusSignature.maximumTotalDepth) containers deep")
    }
  }
}
