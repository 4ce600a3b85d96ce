import Testing

@testable import DarkModeKitDBus

#if canImport(Glibc)
  import Glibc
#endif

/// Encodes `values` and decodes them again with their own types.
private func roundTrip(_ values: [DBusValue]) throws -> [DBusValue] {
  var encoder = DBusEncoder()
  try encoder.encode(values)
  var decoder = DBusDecoder(bytes: encoder.bytes, bigEndian: false)
  let decoded = try values.map { try decoder.decode($0.type) }
  #expect(decoder.remaining == 0)
  return decoded
}

/// Decodes one value of `signature` from hand-written bytes.
private func decode(_ signature: String, _ bytes: [UInt8], bigEndian: Bool = false) throws -> DBusValue {
  var decoder = DBusDecoder(bytes: bytes, bigEndian: bigEndian)
  let value = try decoder.decode(try DBusSignature(signature).types[0])
  #expect(decoder.remaining == 0)
  return value
}

/// The error `body` throws, as a `DBusError`.
private func dbusError(_ body: () throws -> Void) -> DBusError? {
  do {
    try body()
    return nil
  } catch let error as DBusError {
    return error
  } catch {
    Issue.record("unexpected error \(error)")
    return nil
  }
}

/// A method call to `/a` member `M` with body `u` 0x01020304, serial 7, laid out by hand from the
/// specification (fixed header, `a(yv)` fields each 8-aligned, header padded to 8, then the body).
private func handWrittenCall(bigEndian: Bool) -> [UInt8] {
  func u32(_ value: UInt32) -> [UInt8] {
    let bytes = [
      UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF),
    ]
    return bigEndian ? bytes : bytes.reversed()
  }
  var bytes: [UInt8] = [bigEndian ? 0x42 : 0x6C, 1, 0, 1]  // 'B' or 'l', METHOD_CALL, flags, version
  bytes += u32(4) + u32(7) + u32(39)  // body length, serial, header field array length
  bytes += [1, 1, 0x6F, 0] + u32(2) + [0x2F, 0x61, 0]  // PATH, 'o', "/a"      offsets 16..<27
  bytes += [0, 0, 0, 0, 0]  // pad to 32
  bytes += [3, 1, 0x73, 0] + u32(1) + [0x4D, 0]  // MEMBER, 's', "M"          offsets 32..<42
  bytes += [0, 0, 0, 0, 0, 0]  // pad to 48
  bytes += [8, 1, 0x67, 0, 1, 0x75, 0]  // SIGNATURE, 'g', "u"                offsets 48..<55
  bytes += [0]  // pad the header to 56
  bytes += u32(0x0102_0304)  // the body
  return bytes
}

/// A message that uses every type, for the truncation tests.
private func richMessage() throws -> [UInt8] {
  let message = DBusMessage(
    type: .signal, serial: 42, path: "/org/freedesktop/portal/desktop",
    interface: "org.freedesktop.portal.Settings", member: "SettingChanged",
    body: [
      "org.freedesktop.appearance", "color-scheme", .variant(.uint32(1)),
      .struct([.byte(1), .bool(true), .int16(-2), .uint16(3), .int32(-4), .int64(-5), .uint64(6)]),
      .double(0.5), .objectPath("/a/b"), .signature(try DBusSignature("a{sv}")),
      .dictionary(key: .string, value: .variant, [("k", .variant(.array(element: .int32, [.int32(9)])))]),
      .array(element: .string, []),
    ])
  return try message.encoded()
}

@Suite struct DBusWireTests {
  // MARK: Round trips

  static let everyType: [DBusValue] = [
    .byte(0xAB), .bool(true), .bool(false), .int16(-12345), .uint16(54321), .int32(-7),
    .uint32(.max), .int64(.min), .uint64(.max), .double(-1.25), .double(.infinity), "",
    "héllo wörld ✓", .objectPath("/"), .objectPath("/org/freedesktop/portal/desktop"),
    .signature(.empty), .unixFD(3), .variant(.string("v")), .variant(.variant(.uint32(1))),
    .array(element: .int64, []), .bytes([1, 2]), .bytes([]),
    .array(element: .array(.string), [.array(element: .string, ["a", "b"]), .array(element: .string, [])]),
    .struct([.byte(1), .uint64(2)]), .struct([.struct([.string("x")]), .variant(.int16(5))]),
    .dictionary(key: .string, value: .variant, [("a", .variant(.bool(true))), ("b", .variant("s"))]),
    .dictionary(key: .uint32, value: .array(.byte), []),
  ]

  @Test(arguments: everyType)
  func everyTypeSurvivesARoundTrip(_ value: DBusValue) throws {
    #expect(try roundTrip([.byte(1), value]) == [.byte(1), value])
  }

  @Test func anArrayOfByteValuesIsReadBackAsBytes() throws {
    #expect(try roundTrip([.array(element: .byte, [.byte(1), .byte(2)])]) == [.bytes([1, 2])])
    #expect(DBusValue.bytes([7]).type == .array(.byte))
    #expect(DBusValue.bytes([7]).arrayValue == [.byte(7)])
    #expect(DBusValue.array(element: .byte, [.byte(7)]).bytesValue == [7])
  }

  @Test func signatureValueRoundTrips() throws {
    let value = DBusValue.signature(try DBusSignature("a{sv}(ii)"))
    #expect(try roundTrip([value]) == [value])
  }

  @Test func emptyArrayKeepsItsElementType() throws {
    let decoded = try roundTrip([.array(element: .dictEntry(key: .string, value: .variant), [])])
    #expect(decoded[0].type.description == "a{sv}")
  }

  @Test func messageRoundTripsWithAllHeaderFields() throws {
    let message = DBusMessage(
      type: .error, flags: [.noAutoStart], serial: 9, path: "/p", interface: "a.b", member: "M",
      errorName: "org.example.Error.Failed", replySerial: 3, destination: ":1.2", sender: "org.example.S",
      unixFDs: 0, body: ["boom", .uint32(1)])
    let decoded = try DBusMessage(decoding: try message.encoded())
    #expect(decoded == message)
    #expect(decoded.signature == "su")
  }

  // MARK: Hand-written bytes, both byte orders

  @Test(arguments: [false, true])
  func handWrittenMethodCallDecodes(bigEndian: Bool) throws {
    let message = try DBusMessage(decoding: handWrittenCall(bigEndian: bigEndian))
    #expect(message.type == .methodCall)
    #expect(message.serial == 7)
    #expect(message.path == "/a")
    #expect(message.member == "M")
    #expect(message.interface == nil)
    #expect(message.body == [.uint32(0x0102_0304)])
  }

  @Test func encoderProducesTheHandWrittenLittleEndianBytes() throws {
    let message = DBusMessage(
      type: .methodCall, serial: 7, path: "/a", member: "M", body: [.uint32(0x0102_0304)])
    #expect(try message.encoded() == handWrittenCall(bigEndian: false))
  }

  @Test func integersDecodeInBothByteOrders() throws {
    #expect(try decode("n", [0xFE, 0xFF]) == .int16(-2))
    #expect(try decode("n", [0xFF, 0xFE], bigEndian: true) == .int16(-2))
    #expect(try decode("q", [0x01, 0x02], bigEndian: true) == .uint16(0x0102))
    #expect(try decode("i", [0x01, 0x02, 0x03, 0x04]) == .int32(0x0403_0201))
    #expect(try decode("u", [0x01, 0x02, 0x03, 0x04], bigEndian: true) == .uint32(0x0102_0304))
    #expect(try decode("x", [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]) == .int64(.max))
    #expect(try decode("t", [1, 2, 3, 4, 5, 6, 7, 8], bigEndian: true) == .uint64(0x0102_0304_0506_0708))
    #expect(try decode("d", [0, 0, 0, 0, 0, 0, 0xF0, 0x3F]) == .double(1))
    #expect(try decode("d", [0x3F, 0xF0, 0, 0, 0, 0, 0, 0], bigEndian: true) == .double(1))
    #expect(try decode("b", [0, 0, 0, 1], bigEndian: true) == .bool(true))
    #expect(try decode("h", [2, 0, 0, 0]) == .unixFD(2))
  }

  @Test func containersDecodeInBothByteOrders() throws {
    // "s": length 3, "abc", NUL.
    #expect(try decode("s", [3, 0, 0, 0, 0x61, 0x62, 0x63, 0]) == "abc")
    #expect(try decode("s", [0, 0, 0, 3, 0x61, 0x62, 0x63, 0], bigEndian: true) == "abc")
    // "g": one length byte, no alignment.
    #expect(try decode("g", [2, 0x61, 0x79, 0]) == .signature(try DBusSignature("ay")))
    // "v" holding "u" 5, big-endian: signature "u" at 0, then the integer aligned to 4.
    #expect(try decode("v", [1, 0x75, 0, 0, 0, 0, 0, 5], bigEndian: true) == .variant(.uint32(5)))
    // "at": length 16, padding to 8 from offset 4, two elements.
    let array: [UInt8] = [0, 0, 0, 16, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 2]
    #expect(try decode("at", array, bigEndian: true) == .array(element: .uint64, [.uint64(1), .uint64(2)]))
    // "a{yy}": length 10 (entry at 8, pad to 16, entry at 16 … wait: entries are 2 bytes each).
    let dict: [UInt8] = [10, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 0, 3, 4]
    #expect(
      try decode("a{yy}", dict)
        == .dictionary(key: .byte, value: .byte, [(.byte(1), .byte(2)), (.byte(3), .byte(4))]))
  }

  // MARK: Alignment and padding

  @Test func valuesAreAlignedToTheirSize() throws {
    var encoder = DBusEncoder()
    try encoder.encode([.byte(1), .uint64(2)])
    #expect(encoder.bytes == [1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0])
    encoder = DBusEncoder()
    try encoder.encode([.byte(1), .int16(2), .byte(3), .int32(4)])
    #expect(encoder.bytes == [1, 0, 2, 0, 3, 0, 0, 0, 4, 0, 0, 0])
  }

  @Test func emptyArrayStillPadsToItsElementAlignment() throws {
    var encoder = DBusEncoder()
    try encoder.encode([.byte(1), .array(element: .uint64, [])])
    // byte, pad to 4, length 0, pad to 8 for the (absent) first element.
    #expect(encoder.bytes == [1, 0, 0, 0, 0, 0, 0, 0])
    var decoder = DBusDecoder(bytes: encoder.bytes, bigEndian: false)
    _ = try decoder.decode(.byte)
    #expect(try decoder.decode(.array(.uint64)) == .array(element: .uint64, []))
    #expect(decoder.remaining == 0)
  }

  @Test func nonZeroPaddingIsRejectedWithItsOffset() {
    var bytes = handWrittenCall(bigEndian: false)
    bytes[29] = 0xFF  // padding between the PATH and MEMBER fields
    let error = dbusError { _ = try DBusMessage(decoding: bytes) }
    #expect(error == .malformedMessage(offset: 29, reason: "padding byte is 255, not 0"))
    // What an app that shows `localizedDescription` prints.
    let shown = error.map { ($0 as any Error).localizedDescription }
    #expect(shown == error?.description)
    #expect(shown?.contains("padding byte is 255, not 0") == true)
  }

  /// A peer's error name and text reach an app's diagnostics handler and `localizedDescription`
  /// escaped, so that they cannot act on a terminal (colour, title, a forged second line).
  @Test func aPeersErrorTextIsEscapedAndQuoted() {
    let error = DBusError.remote(
      name: "org.example.Error\u{1B}[31m", message: "bad\u{1B}]0;title\u{7}\nforged: error: line\u{202E}")
    #expect(
      error.description
        == #"org.example.Error\u{1B}[31m: "bad\u{1B}]0;title\u{7}\u{A}forged: error: line\u{202E}""#)
    #expect((error as any Error).localizedDescription == error.description)
    #expect(DBusError.remote(name: "org.example.Plain", message: nil).description == "org.example.Plain")
  }

  @Test func paddingThatRunsPastTheEndIsRejected() {
    let error = dbusError { _ = try decode("(yt)", [1, 0, 0]) }
    #expect(error?.description.contains("ends inside the padding to a 8-byte boundary") == true)
  }

  // MARK: Truncated and oversized input

  @Test func everyPrefixOfARealMessageThrows() throws {
    let bytes = try richMessage()
    #expect(try DBusMessage(decoding: bytes).member == "SettingChanged")
    for length in 0..<bytes.count {
      let prefix = Array(bytes[..<length])
      #expect(throws: DBusError.self, "prefix of \(length) bytes") { try DBusMessage(decoding: prefix) }
    }
  }

  @Test func everyPrefixOfTheBodyThrowsInTheDecoder() throws {
    let bytes = try richMessage()
    let message = try DBusMessage(decoding: bytes)
    var encoder = DBusEncoder()
    try encoder.encode(message.body)
    for length in 0..<encoder.bytes.count {
      var decoder = DBusDecoder(bytes: Array(encoder.bytes[..<length]), bigEndian: false)
      #expect(throws: DBusError.self, "prefix of \(length) bytes") {
        for value in message.body { _ = try decoder.decode(value.type) }
      }
    }
  }

  @Test func hugeStringLengthIsRejectedBeforeAllocating() {
    let error = dbusError { _ = try decode("s", [0xF0, 0xFF, 0xFF, 0xFF, 0x61, 0]) }
    #expect(
      error
        == .malformedMessage(
          offset: 0, reason: "string length 4294967280 is more than the 2 bytes that remain"))
  }

  @Test func arrayLengthOverTheSpecLimitIsRejected() {
    let error = dbusError { _ = try decode("ay", [0x01, 0x00, 0x00, 0x04, 1]) }  // 64 MiB + 1
    #expect(
      error
        == .malformedMessage(offset: 0, reason: "array length 67108865 is over the limit of 67108864 bytes"))
  }

  @Test func arrayLengthBeyondTheInputIsRejected() {
    let error = dbusError { _ = try decode("ay", [100, 0, 0, 0, 1, 2]) }
    #expect(
      error == .malformedMessage(offset: 0, reason: "array length 100 is more than the 2 bytes that remain"))
  }

  @Test func arrayElementsMustEndExactlyAtTheArrayLength() {
    let error = dbusError { _ = try decode("au", [2, 0, 0, 0, 1, 0, 0, 0]) }
    #expect(error?.description.contains("runs past the array length 2") == true)
  }

  @Test func messageLengthsOverTheSpecLimitAreRejected() {
    var header = handWrittenCall(bigEndian: false)
    header[4...7] = [0x01, 0x00, 0x00, 0x08]  // body length 128 MiB + 1
    #expect(
      dbusError { _ = try DBusMessage.frameLength(header) }
        == .malformedMessage(offset: 4, reason: "body length 134217729 is over the limit of 134217728 bytes"))
    header[4...7] = [0, 0, 0, 0x08]
    #expect(
      dbusError { _ = try DBusMessage.frameLength(header) }
        == .malformedMessage(
          offset: 4, reason: "message length 134217784 is over the limit of 134217728 bytes"))
    header = handWrittenCall(bigEndian: false)
    header[12...15] = [0xFF, 0xFF, 0xFF, 0xFF]
    #expect(
      dbusError { _ = try DBusMessage.frameLength(header) }?.description.contains(
        "header field array length 4294967295") == true)
  }

  @Test func frameLengthNeedsSixteenBytes() throws {
    let bytes = handWrittenCall(bigEndian: true)
    #expect(try DBusMessage.frameLength(Array(bytes[..<15])) == nil)
    #expect(try DBusMessage.frameLength(Array(bytes[..<16])) == 60)
  }

  // MARK: Bad values

  @Test func invalidUTF8IsRejected() {
    let error = dbusError { _ = try decode("s", [2, 0, 0, 0, 0xC3, 0x28, 0]) }
    #expect(error == .malformedMessage(offset: 4, reason: "string is not valid UTF-8"))
    // An overlong encoding of "/" and an encoded surrogate are invalid too.
    #expect(dbusError { _ = try decode("s", [2, 0, 0, 0, 0xC0, 0xAF, 0]) } != nil)
    #expect(dbusError { _ = try decode("s", [3, 0, 0, 0, 0xED, 0xA0, 0x80, 0]) } != nil)
  }

  @Test func stringsNeedATerminatingNulAndNoInteriorNul() {
    #expect(
      dbusError { _ = try decode("s", [2, 0, 0, 0, 0x61, 0x62, 0x63]) }
        == .malformedMessage(offset: 6, reason: "string is not terminated by a NUL byte"))
    #expect(
      dbusError { _ = try decode("s", [2, 0, 0, 0, 0x61, 0, 0]) }
        == .malformedMessage(offset: 5, reason: "string contains a NUL character"))
    #expect(
      dbusError { _ = try decode("g", [1, 0x79, 0x79]) }
        == .malformedMessage(offset: 2, reason: "signature is not terminated by a NUL byte"))
    #expect(
      dbusError {
        var encoder = DBusEncoder(); try encoder.encode(.string("a\u{0}b"))
      }
        == .invalidValue("string contains a NUL character"))
  }

  @Test func booleansMustBeZeroOrOne() {
    #expect(
      dbusError { _ = try decode("b", [2, 0, 0, 0]) }
        == .malformedMessage(offset: 0, reason: "boolean is 2, not 0 or 1"))
    #expect(dbusError { _ = try decode("b", [1, 0, 0, 0], bigEndian: true) } != nil)
  }

  @Test func objectPathsAreValidated() {
    #expect(
      dbusError { _ = try decode("o", [3, 0, 0, 0, 0x2F, 0x61, 0x2F, 0]) }
        == .malformedMessage(offset: 0, reason: "object path \"/a/\" ends with \"/\""))
    #expect(
      dbusError {
        var encoder = DBusEncoder(); try encoder.encode(.objectPath("a//b"))
      }
        == .invalidValue("object path \"a//b\" does not start with \"/\""))
    #expect(
      dbusError {
        var encoder = DBusEncoder(); try encoder.encode(.objectPath("/a//b"))
      }
        == .invalidValue("object path \"/a//b\" has an empty element"))
  }

  @Test func variantMustHoldOneCompleteType() {
    #expect(
      dbusError { _ = try decode("v", [2, 0x79, 0x79, 0, 1, 2]) }
        == .malformedMessage(
          offset: 0, reason: "variant signature \"yy\" must hold exactly one complete type"))
    #expect(
      dbusError { _ = try decode("v", [0, 0]) }?.description.contains("exactly one complete type") == true)
  }

  @Test func arrayElementsMustMatchTheElementType() {
    let error = dbusError {
      var encoder = DBusEncoder()
      try encoder.encode(.array(element: .string, ["a", .uint32(1)]))
    }
    #expect(error == .invalidValue("array element 1 has type \"u\", the array holds \"s\""))
  }

  @Test func emptyStructsAndLooseDictEntriesCannotBeSent() {
    #expect(
      dbusError {
        var encoder = DBusEncoder(); try encoder.encode([.struct([])])
      } != nil)
    #expect(
      dbusError {
        var encoder = DBusEncoder(); try encoder.encode([.dictEntry("a", "b")])
      }
        == .invalidSignature(
          "{ss}", reason: "dictionary entry at offset 0 is not the element type of an array"))
  }

  // MARK: Signatures

  @Test(arguments: [
    ("a", "it ends in the middle of a type at offset 1"),
    ("(", "the struct opened at offset 0 is not closed"),
    ("(i", "the struct opened at offset 0 is not closed"),
    ("()", "empty struct at offset 0"),
    (")", "unknown type code \")\" at offset 0"),
    ("z", "unknown type code \"z\" at offset 0"),
    ("{sv}", "dictionary entry at offset 0 is not the element type of an array"),
    ("a{vs}", "dictionary key at offset 2 is \"v\", which is not a basic type"),
    ("a{s}", "the dictionary entry at offset 1 has no value type"),
    ("a{sss}", "the dictionary entry opened at offset 1 must hold exactly two types"),
    ("a{sv", "the dictionary entry opened at offset 1 must hold exactly two types"),
    ("a{(s)v}", "dictionary key at offset 2 is \"(s)\", which is not a basic type"),
  ])
  func badSignaturesAreRejected(signature: String, reason: String) {
    #expect(dbusError { _ = try DBusSignature(signature) } == .invalidSignature(signature, reason: reason))
  }

  @Test func signaturesParseToTypes() throws {
    let signature = try DBusSignature("sa{sv}(iad)hv")
    #expect(
      signature.types == [
        .string, .array(.dictEntry(key: .string, value: .variant)), .struct([.int32, .array(.double)]),
        .unixFD, .variant,
      ])
    #expect(try DBusSignature(types: signature.types) == signature)
    #expect(try DBusSignature("").types.isEmpty)
  }

  @Test func signatureLengthIsLimitedTo255() throws {
    _ = try DBusSignature(String(repeating: "y", count: 255))
    #expect(
      dbusError { _ = try DBusSignature(String(repeating: "y", count: 256)) }
        == .invalidSignature(
          String(repeating: "y", count: 256), reason: "it is 256 bytes long, the limit is 255"))
  }

  @Test func nestingDepthLimitsFollowTheSpecification() throws {
    _ = try DBusSignature(String(repeating: "a", count: 32) + "y")
    #expect(
      dbusError { _ = try DBusSignature(String(repeating: "a", count: 33) + "y") }?.description
        .contains("more than 32 nested arrays at offset 32") == true)
    _ = try DBusSignature(String(repeating: "(", count: 32) + "y" + String(repeating: ")", count: 32))
    #expect(
      dbusError {
        _ = try DBusSignature(String(repeating: "(", count: 33) + "y" + String(repeating: ")", count: 33))
      }?.description.contains("more than 32 nested structs at offset 32") == true)
    // 32 arrays around 32 structs is 64 in total, which is allowed; dict entries count as structs.
    _ = try DBusSignature(String(repeating: "a(", count: 32) + "y" + String(repeating: ")", count: 32))
    _ = try DBusSignature(String(repeating: "a{y", count: 32) + "y" + String(repeating: "}", count: 32))
    _ = try DBusSignature(String(repeating: "(", count: 31) + "a{yy}" + String(repeating: ")", count: 31))
    #expect(
      dbusError {
        _ = try DBusSignature(String(repeating: "(", count: 32) + "a{yy}" + String(repeating: ")", count: 32))
      }?.description.contains("more than 32 nested structs at offset 33") == true)
  }

  @Test func variantNestingCountsTowardsTheTotalDepth() throws {
    var value = DBusValue.byte(1)
    for _ in 0..<64 { value = .variant(value) }
    #expect(try roundTrip([value]) == [value])
    let tooDeep = DBusValue.variant(value)
    #expect(
      dbusError {
        var encoder = DBusEncoder(); try encoder.encode([tooDeep])
      }
        == .invalidValue("values nest more than 64 containers deep"))
    // The same depth, hand-built, is refused by the decoder: 65 variants of "v", then "y".
    var bytes: [UInt8] = []
    for _ in 0..<65 { bytes += [1, 0x76, 0] }
    bytes += [1, 0x79, 0, 7]
    var decoder = DBusDecoder(bytes: bytes, bigEndian: false)
    #expect(
      dbusError { _ = try decoder.decode(.variant) }
        == .malformedMessage(offset: 192, reason: "values nest more than 64 containers deep"))
  }

  // MARK: Headers

  @Test func headerProblemsAreNamed() throws {
    var bytes = handWrittenCall(bigEndian: false)
    bytes[0] = 0x58
    #expect(
      dbusError { _ = try DBusMessage(decoding: bytes) }
        == .malformedMessage(offset: 0, reason: "byte-order mark is 88, not \"l\" or \"B\""))
    bytes = handWrittenCall(bigEndian: false)
    bytes[1] = 9
    #expect(
      dbusError { _ = try DBusMessage(decoding: bytes) }
        == .malformedMessage(offset: 1, reason: "unknown message type 9"))
    bytes = handWrittenCall(bigEndian: false)
    bytes[3] = 2
    #expect(
      dbusError { _ = try DBusMessage(decoding: bytes) }
        == .malformedMessage(offset: 3, reason: "protocol version is 2, not 1"))
    bytes = handWrittenCall(bigEndian: false)
    bytes[8] = 0
    #expect(
      dbusError { _ = try DBusMessage(decoding: bytes) }
        == .malformedMessage(offset: 8, reason: "message serial is 0"))
    bytes = handWrittenCall(bigEndian: false)
    bytes[34] = 0x6F  // MEMBER declared as an object path
    #expect(
      dbusError { _ = try DBusMessage(decoding: bytes) }
        == .malformedMessage(offset: 36, reason: "object path \"M\" does not start with \"/\""))
    bytes = handWrittenCall(bigEndian: false)
    bytes[50] = 0x75  // SIGNATURE declared as a uint32 ("u"), which runs past the field array
    #expect(
      dbusError { _ = try DBusMessage(decoding: bytes) }
        == .malformedMessage(offset: 12, reason: "the last array element runs past the array length 39"))
    bytes = handWrittenCall(bigEndian: false)
    bytes[18] = 0x73  // PATH declared as a string
    #expect(
      dbusError { _ = try DBusMessage(decoding: bytes) }
        == .malformedMessage(offset: 16, reason: "header field PATH has type \"s\", expected \"o\""))
    bytes = handWrittenCall(bigEndian: false)
    bytes[32] = 1  // MEMBER field relabelled as a second PATH
    #expect(
      dbusError { _ = try DBusMessage(decoding: bytes) }
        == .malformedMessage(offset: 16, reason: "header field PATH appears more than once"))
    bytes = handWrittenCall(bigEndian: false)
    bytes[32] = 2  // MEMBER relabelled INTERFACE: the call has no member now, and "M" is no interface
    #expect(
      dbusError { _ = try DBusMessage(decoding: bytes) }
        == .malformedMessage(offset: 16, reason: "interface name \"M\" needs at least two elements"))
    bytes = handWrittenCall(bigEndian: false)
    bytes[32] = 200  // unknown fields are ignored, but then MEMBER is missing
    #expect(
      dbusError { _ = try DBusMessage(decoding: bytes) }
        == .malformedMessage(offset: 16, reason: "a methodCall message needs the MEMBER header field"))
  }

  @Test func bodyMustMatchItsLengthAndSignature() throws {
    var bytes = handWrittenCall(bigEndian: false)
    bytes[4] = 8  // announce a longer body than the signature uses
    bytes += [0, 0, 0, 0]
    #expect(
      dbusError { _ = try DBusMessage(decoding: bytes) }
        == .malformedMessage(offset: 60, reason: "4 bytes remain after the body \"u\""))
    bytes = handWrittenCall(bigEndian: false)
    #expect(
      dbusError { _ = try DBusMessage(decoding: bytes + [0]) }
        == .malformedMessage(offset: 60, reason: "the header announces 60 bytes but 61 were given"))
  }

  @Test func messagesToSendAreChecked() {
    let noPath = DBusMessage(type: .methodCall, serial: 1, member: "M")
    #expect(
      dbusError { _ = try noPath.encoded() }
        == .invalidValue("a methodCall message needs the PATH header field"))
    let badMember = DBusMessage(type: .methodCall, serial: 1, path: "/", member: "1x")
    #expect(
      dbusError { _ = try badMember.encoded() }
        == .invalidValue("member name \"1x\" must be [A-Za-z_][A-Za-z0-9_]*"))
    let badDestination = DBusMessage(
      type: .methodCall, serial: 1, path: "/", member: "M", destination: "nodots")
    #expect(
      dbusError { _ = try badDestination.encoded() }
        == .invalidValue("bus name \"nodots\" needs at least two elements"))
  }

  // MARK: Addresses and rules

  @Test func addressesAreParsedWithEscapes() throws {
    let addresses = try DBusAddress.parseList("unix:path=/tmp/a%20b%2cc,guid=01ab;;unix:abstract=/x")
    #expect(
      addresses == [
        DBusAddress(transport: "unix", parameters: ["path": "/tmp/a b,c", "guid": "01ab"]),
        DBusAddress(transport: "unix", parameters: ["abstract": "/x"]),
      ])
    #expect(DBusAddress.escape("/tmp/a b") == "/tmp/a%20b")
  }

  @Test(arguments: [
    ("", "invalid D-Bus address \"\": it is empty"),
    ("path=/x", "invalid D-Bus address \"path=/x\": it has no \"transport:\" prefix"),
    ("unix:path", "invalid D-Bus address \"unix:path\": parameter \"path\" is not key=value"),
    (
      "unix:path=/a,path=/b",
      "invalid D-Bus address \"unix:path=/a,path=/b\": parameter \"path\" appears twice"
    ),
    (
      "unix:path=/a%2",
      "invalid D-Bus address \"unix:path=/a%2\": \"%\" in \"/a%2\" is not followed by two hex digits"
    ),
  ])
  func badAddressesAreRejected(address: String, message: String) {
    #expect(dbusError { _ = try DBusAddress.parseList(address) }?.description == message)
  }

  /// A session address with its GUID is longer than most quoted values: an error shows it whole.
  @Test func aLongAddressIsShownWholeInItsError() {
    let address = "unix:path=/run/user/1000/bus,guid=0123456789abcdef0123456789abcdef,oops"
    #expect(
      dbusError { _ = try DBusAddress.parseList(address) }?.description
        == "invalid D-Bus address \"\(address)\": parameter \"oops\" is not key=value")
  }

  @Test func matchRulesQuoteTheirValues() {
    let rule = DBusMatchRule(
      interface: "org.freedesktop.portal.Settings", member: "SettingChanged", arguments: [0: "it's"])
    #expect(
      rule.description
        == "type='signal',interface='org.freedesktop.portal.Settings',member='SettingChanged',arg0='it'\\''s'"
    )
  }

  @Test func matchRulesFilterSignalsLocally() {
    let rule = DBusMatchRule(sender: ":1.5", interface: "a.b", member: "C", arguments: [1: "x"])
    var signal = DBusMessage(
      type: .signal, path: "/", interface: "a.b", member: "C", sender: ":1.5", body: ["w", "x"])
    #expect(rule.matches(signal))
    signal.sender = ":1.6"
    #expect(!rule.matches(signal))
    signal.sender = ":1.5"
    signal.body = ["w"]
    #expect(!rule.matches(signal))
    // A well-known sender name is left to the bus: signals carry unique names.
    #expect(DBusMatchRule(sender: "org.example.Name").matches(signal))
  }

  @Test func valueAccessorsUnwrapPortalReplies() {
    let read = DBusValue.variant(.variant(.uint32(1)))
    #expect(read.unwrappingVariants.integerValue == 1)
    #expect(
      DBusValue.dictionary(key: .string, value: .variant, [("a", .variant(true))]).dictionaryValue
        == ["a": .variant(true)])
    #expect(DBusValue.string("s").stringValue == "s")
    #expect(DBusValue.uint64(.max).integerValue == nil)
  }
}

/// Reading from a bus that went away.
@Suite struct DBusSocketEndTests {
  /// A peer that closes with data of ours it has not read resets the connection (`ECONNRESET`),
  /// as a bus that crashes does: that is the end of the connection, as a clean close is.
  @Test func aResetConnectionEndsLikeAClosedOne() throws {
    var ends: [Int32] = [-1, -1]
    #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
    defer { close(ends[1]) }
    let message: [UInt8] = [1, 2, 3, 4]
    #expect(send(ends[1], message, message.count, 0) == message.count)
    close(ends[0])
    var buffer: [UInt8] = []
    #expect(try DBusSocket.receive(ends[1], into: &buffer) == .endOfFile)
  }

  /// The pair that wakes a connection's reader is close-on-exec, so a program the app starts does
  /// not inherit it, and non-blocking, so waking never blocks.
  @Test func theWakePipeIsCloseOnExecAndNonBlocking() throws {
    let (read, write) = try DBusSocket.makeWakePipe()
    defer {
      close(read)
      close(write)
    }
    for fd in [read, write] {
      #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
      #expect(fcntl(fd, F_GETFL) & O_NONBLOCK != 0)
    }
    var byte: UInt8 = 1
    #expect(Glibc.write(write, &byte, 1) == 1)
    var entry = pollfd(fd: read, events: Int16(POLLIN), revents: 0)
    #expect(poll(&entry, 1, 1000) == 1)
  }
}
