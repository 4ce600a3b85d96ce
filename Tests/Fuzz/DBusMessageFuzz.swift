// Fuzz target: the D-Bus wire decoder, `DBusMessage(decoding:)` and `DBusDecoder`.
//
// An input that starts with a byte-order mark (`l` or `B`) is decoded as a whole message. Any
// other input is a value test: the first byte's high bit chooses big-endian, its low 5 bits give
// the length of the signature that follows, and the rest holds the values.
//
// Properties (AddressSanitizer checks that nothing is read past the input):
// - a decoded message encodes, and the encoding decodes to an equal message that encodes to the
//   same bytes;
// - values decoded for a signature encode, and decode again to equal values.

import Foundation

func fuzzSeeds() -> [[UInt8]] {
  let messages = [
    DBusMessage(
      type: .methodCall, serial: 7, path: "/a", member: "M", body: [.uint32(0x0102_0304)]),
    DBusMessage(
      type: .methodCall, serial: 1, path: "/org/freedesktop/portal/desktop",
      interface: "org.freedesktop.portal.Settings", member: "ReadOne",
      destination: "org.freedesktop.portal.Desktop",
      body: ["org.freedesktop.appearance", "color-scheme"]),
    DBusMessage(
      type: .signal, serial: 42, path: "/org/freedesktop/portal/desktop",
      interface: "org.freedesktop.portal.Settings", member: "SettingChanged", sender: ":1.5",
      body: [
        "org.freedesktop.appearance", "color-scheme", .variant(.uint32(1)),
        .struct([.byte(1), .bool(true), .int16(-2), .uint16(3), .int32(-4), .int64(-5), .uint64(6)]),
        .double(0.5), .objectPath("/a/b"), .signature(try! DBusSignature("a{sv}")),
        .dictionary(
          key: .string, value: .variant, [("k", .variant(.array(element: .int32, [.int32(9)])))]),
        .array(element: .string, []), .unixFD(0),
      ]),
    DBusMessage(type: .methodReturn, serial: 3, replySerial: 1, body: [.variant(.variant(.uint32(2)))]),
    DBusMessage(
      type: .error, flags: [.noAutoStart], serial: 9, errorName: "org.freedesktop.DBus.Error.Failed",
      replySerial: 3, destination: ":1.2", unixFDs: 0, body: ["boom"]),
    DBusMessage(
      type: .signal, flags: [.noReplyExpected], serial: 2, path: "/org/freedesktop/DBus",
      interface: "org.freedesktop.DBus", member: "NameAcquired", body: [":1.7"]),
  ]
  var seeds = messages.map { try! $0.encoded() }
  // Value tests: signature length, signature, values.
  func values(_ signature: String, _ values: [DBusValue]) -> [UInt8] {
    var encoder = DBusEncoder()
    try! encoder.encode(values)
    return [UInt8(signature.utf8.count)] + Array(signature.utf8) + encoder.bytes
  }
  seeds.append(values("a{sv}", [.dictionary(key: .string, value: .variant, [("a", .variant(.bool(true)))])]))
  seeds.append(values("(yt)d", [.struct([.byte(1), .uint64(2)]), .double(-1.25)]))
  seeds.append(
    values(
      "aasvg",
      [
        .array(element: .array(.string), [.array(element: .string, ["a", "b"])]), .variant("s"),
        .signature(.empty),
      ]))
  return seeds
}

/// libFuzzer calls this with each input; a broken property aborts the run.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = fuzzBytes(data, size)
  guard let first = bytes.first else { return 0 }
  if first == UInt8(ascii: "l") || first == UInt8(ascii: "B") {
    checkMessage(bytes)
  } else {
    checkValues(bytes)
  }
  return 0
}

private func checkMessage(_ bytes: [UInt8]) {
  guard let message = try? DBusMessage(decoding: bytes) else { return }
  do {
    let encoded = try message.encoded()
    let again = try DBusMessage(decoding: encoded)
    require(
      again == message || (containsNaN(message.body) && again.body.count == message.body.count),
      "the message decodes differently after encoding: \(message) became \(again)")
    require(try again.encoded() == encoded, "the message encodes differently the second time")
  } catch {
    require(false, "a decoded message does not survive encoding and decoding: \(error)\n\(message)")
  }
}

private func checkValues(_ bytes: [UInt8]) {
  let signatureLength = Int(bytes[0] & 0x1F)
  guard bytes.count > signatureLength else { return }
  let bigEndian = bytes[0] & 0x80 != 0
  guard let signature = try? DBusSignature(bytes: bytes[1..<1 + signatureLength]) else { return }
  let payload = Array(bytes[(1 + signatureLength)...])
  var decoder = DBusDecoder(bytes: payload, bigEndian: bigEndian)
  var values: [DBusValue] = []
  for type in signature.types {
    guard let value = try? decoder.decode(type) else { return }
    require(decoder.position <= payload.count, "the decoder moved past the input")
    values.append(value)
  }
  do {
    var encoder = DBusEncoder()
    try encoder.encode(values)
    var second = DBusDecoder(bytes: encoder.bytes, bigEndian: false)
    let again = try signature.types.map { try second.decode($0) }
    require(second.position == encoder.bytes.count, "bytes remain after decoding the encoded values")
    require(
      again == values || containsNaN(values),
      "values decode differently after encoding: \(values) became \(again)")
  } catch {
    require(false, "decoded values do not survive encoding and decoding: \(error)\n\(values)")
  }
}

/// Whether a value holds a NaN, which is not equal to itself.
private func containsNaN(_ values: [DBusValue]) -> Bool {
  values.contains { value in
    switch value {
    case .double(let number): number.isNaN
    case .variant(let inner): containsNaN([inner])
    case .array(_, let elements), .struct(let elements): containsNaN(elements)
    case .dictEntry(let key, let inner): containsNaN([key, inner])
    default: false
    }
  }
}
