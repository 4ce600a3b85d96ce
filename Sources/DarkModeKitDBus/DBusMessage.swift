/// The kind of a D-Bus message.
public enum DBusMessageType: UInt8, Sendable, Hashable {
  /// A method call, which expects a reply unless flagged otherwise.
  case methodCall = 1
  /// A successful reply to a method call.
  case methodReturn = 2
  /// An error reply to a method call.
  case error = 3
  /// A signal broadcast by its sender.
  case signal = 4
}

/// The flags of a D-Bus message header.
public struct DBusMessageFlags: OptionSet, Sendable, Hashable {
  /// The raw flag bits.
  public let rawValue: UInt8

  /// Creates flags from their raw bits.
  ///
  /// - Parameter rawValue: The flag bits.
  public init(rawValue: UInt8) {
    self.rawValue = rawValue
  }

  /// The caller does not want a reply.
  public static let noReplyExpected = DBusMessageFlags(rawValue: 0x1)
  /// The bus must not start a service to deliver this message.
  public static let noAutoStart = DBusMessageFlags(rawValue: 0x2)
  /// The caller is prepared to wait for interactive authorization.
  public static let allowInteractiveAuthorization = DBusMessageFlags(rawValue: 0x4)
}

/// A D-Bus message: a header with routing fields, and a body of values.
///
/// Signal streams deliver these; read ``member``, ``interface``, ``path``, ``sender`` and ``body``.
public struct DBusMessage: Sendable, Hashable {
  /// The largest message the specification allows, header and body together.
  package static let maximumLength = 128 * 1024 * 1024
  /// The size of the fixed part of the header including the header-field array length.
  package static let fixedHeaderLength = 16

  /// The kind of message.
  public package(set) var type: DBusMessageType
  /// The header flags.
  public package(set) var flags: DBusMessageFlags
  /// The sender-assigned serial number (non-zero once sent).
  public package(set) var serial: UInt32
  /// The object path: required for method calls and signals.
  public package(set) var path: String?
  /// The interface: required for signals.
  public package(set) var interface: String?
  /// The method or signal name: required for method calls and signals.
  public package(set) var member: String?
  /// The error name: required for errors.
  public package(set) var errorName: String?
  /// The serial of the call being answered: required for method returns and errors.
  public package(set) var replySerial: UInt32?
  /// The bus name the message is addressed to.
  public package(set) var destination: String?
  /// The unique bus name of the sender, filled in by the bus.
  public package(set) var sender: String?
  /// The number of file descriptors that accompany the message.
  public package(set) var unixFDs: UInt32?
  /// The arguments.
  public package(set) var body: [DBusValue]

  /// The signature of ``body``, such as `sv`.
  public var signature: String { body.map(\.type.description).joined() }

  /// Creates a message; routing fields are checked when it is encoded.
  package init(
    type: DBusMessageType, flags: DBusMessageFlags = [], serial: UInt32 = 0, path: String? = nil,
    interface: String? = nil, member: String? = nil, errorName: String? = nil,
    replySerial: UInt32? = nil, destination: String? = nil, sender: String? = nil,
    unixFDs: UInt32? = nil, body: [DBusValue] = []
  ) {
    self.type = type
    self.flags = flags
    self.serial = serial
    self.path = path
    self.interface = interface
    self.member = member
    self.errorName = errorName
    self.replySerial = replySerial
    self.destination = destination
    self.sender = sender
    self.unixFDs = unixFDs
    self.body = body
  }

  /// A short name for messages in errors, such as `call org.freedesktop.DBus.GetId`.
  var operationName: String {
    let name = [interface, member].compactMap { $0 }.joined(separator: ".")
    switch type {
    case .methodCall: return "call \(name)"
    case .signal: return "signal \(name)"
    case .methodReturn: return "reply to \(replySerial ?? 0)"
    case .error: return "error \(errorName ?? "")"
    }
  }
}

// MARK: - Header fields

private enum HeaderField: UInt8 {
  case path = 1
  case interface = 2
  case member = 3
  case errorName = 4
  case replySerial = 5
  case destination = 6
  case sender = 7
  case signature = 8
  case unixFDs = 9

  var name: String {
    switch self {
    case .path: "PATH"
    case .interface: "INTERFACE"
    case .member: "MEMBER"
    case .errorName: "ERROR_NAME"
    case .replySerial: "REPLY_SERIAL"
    case .destination: "DESTINATION"
    case .sender: "SENDER"
    case .signature: "SIGNATURE"
    case .unixFDs: "UNIX_FDS"
    }
  }

  var type: DBusType {
    switch self {
    case .path: .objectPath
    case .interface, .member, .errorName, .destination, .sender: .string
    case .replySerial, .unixFDs: .uint32
    case .signature: .signature
    }
  }
}

// MARK: - Encoding

extension DBusMessage {
  /// Marshals the message, little-endian, checking its routing fields and body.
  ///
  /// - Throws: ``DBusError/invalidValue(_:)`` naming the bad field or value.
  package func encoded() throws -> [UInt8] {
    try validateFields()
    guard serial != 0 else { throw DBusError.invalidValue("message serial must not be 0") }
    var bodyEncoder = DBusEncoder()
    try bodyEncoder.encode(body)
    let bodySignature = try DBusSignature(types: body.map(\.type))

    var fields: [DBusValue] = []
    func add(_ field: HeaderField, _ value: DBusValue?) {
      guard let value else { return }
      fields.append(.struct([.byte(field.rawValue), .variant(value)]))
    }
    add(.path, path.map(DBusValue.objectPath))
    add(.interface, interface.map(DBusValue.string))
    add(.member, member.map(DBusValue.string))
    add(.errorName, errorName.map(DBusValue.string))
    add(.replySerial, replySerial.map(DBusValue.uint32))
    add(.destination, destination.map(DBusValue.string))
    add(.sender, sender.map(DBusValue.string))
    add(.signature, body.isEmpty ? nil : .signature(bodySignature))
    add(.unixFDs, unixFDs.map(DBusValue.uint32))

    var header = DBusEncoder()
    try header.encode([
      .byte(UInt8(ascii: "l")), .byte(type.rawValue), .byte(flags.rawValue), .byte(1),
      .uint32(UInt32(bodyEncoder.bytes.count)), .uint32(serial),
      .array(element: .struct([.byte, .variant]), fields),
    ])
    header.pad(to: 8)
    let total = header.bytes.count + bodyEncoder.bytes.count
    guard total <= Self.maximumLength else {
      throw DBusError.invalidValue("message is \(total) bytes, over the limit of \(Self.maximumLength)")
    }
    return header.bytes + bodyEncoder.bytes
  }

  private func validateFields() throws {
    var problems: [String?] = []
    if let path { problems.append(DBusNames.objectPathProblem(path)) }
    if let interface { problems.append(DBusNames.interfaceProblem(interface)) }
    if let member { problems.append(DBusNames.memberProblem(member)) }
    if let errorName { problems.append(DBusNames.interfaceProblem(errorName, kind: "error name")) }
    if let destination { problems.append(DBusNames.busNameProblem(destination)) }
    if let sender { problems.append(DBusNames.busNameProblem(sender)) }
    if let problem = problems.compactMap({ $0 }).first { throw DBusError.invalidValue(problem) }
    if let missing = missingRequiredField() {
      throw DBusError.invalidValue("a \(type) message needs the \(missing.name) header field")
    }
  }

  private func missingRequiredField() -> HeaderField? {
    switch type {
    case .methodCall:
      if path == nil { return .path }
      if member == nil { return .member }
    case .signal:
      if path == nil { return .path }
      if interface == nil { return .interface }
      if member == nil { return .member }
    case .methodReturn:
      if replySerial == nil { return .replySerial }
    case .error:
      if errorName == nil { return .errorName }
      if replySerial == nil { return .replySerial }
    }
    return nil
  }
}

// MARK: - Decoding

extension DBusMessage {
  /// The total length of the message that starts `bytes`, from its fixed header.
  ///
  /// - Returns: `nil` when fewer than 16 bytes are available.
  /// - Throws: ``DBusError/malformedMessage(offset:reason:)`` for a bad byte-order mark or lengths
  ///   over the limits, before anything is allocated.
  package static func frameLength(_ bytes: [UInt8], from start: Int = 0) throws -> Int? {
    try frameLengths(bytes, from: start)?.total
  }

  /// The lengths of the message that starts `bytes` at `start`: of its header, padding included
  /// (where its body starts), and of the whole; see ``frameLength(_:from:)``.
  package static func frameLengths(_ bytes: [UInt8], from start: Int = 0) throws -> (header: Int, total: Int)?
  {
    guard bytes.count - start >= fixedHeaderLength else { return nil }
    let bigEndian = try byteOrder(bytes[start], offset: 0)
    func word(_ offset: Int) -> Int {
      var value = 0
      for index in 0..<4 {
        let byte = Int(bytes[start + offset + (bigEndian ? index : 3 - index)])
        value = value << 8 | byte
      }
      return value
    }
    let bodyLength = word(4)
    let fieldsLength = word(12)
    guard fieldsLength <= DBusEncoder.maximumArrayLength else {
      throw DBusError.malformedMessage(
        offset: 12,
        reason: "header field array length \(fieldsLength) is over the limit of "
          + "\(DBusEncoder.maximumArrayLength) bytes")
    }
    guard bodyLength <= maximumLength else {
      throw DBusError.malformedMessage(
        offset: 4, reason: "body length \(bodyLength) is over the limit of \(maximumLength) bytes")
    }
    let headerLength = (fixedHeaderLength + fieldsLength + 7) & ~7
    let total = headerLength + bodyLength
    guard total <= maximumLength else {
      throw DBusError.malformedMessage(
        offset: 4, reason: "message length \(total) is over the limit of \(maximumLength) bytes")
    }
    return (headerLength, total)
  }

  private static func byteOrder(_ mark: UInt8, offset: Int) throws -> Bool {
    switch mark {
    case UInt8(ascii: "l"): return false
    case UInt8(ascii: "B"): return true
    default:
      throw DBusError.malformedMessage(
        offset: offset, reason: "byte-order mark is \(mark), not \"l\" or \"B\"")
    }
  }

  /// Unmarshals one complete message, in either byte order.
  ///
  /// - Parameter bytes: Exactly one message.
  /// - Throws: ``DBusError/malformedMessage(offset:reason:)`` naming the offset and field.
  package init(decoding bytes: [UInt8]) throws {
    guard let total = try Self.frameLength(bytes) else {
      throw DBusError.malformedMessage(
        offset: bytes.count,
        reason: "the message ends inside its \(Self.fixedHeaderLength)-byte fixed header")
    }
    guard total == bytes.count else {
      throw DBusError.malformedMessage(
        offset: min(total, bytes.count),
        reason: "the header announces \(total) bytes but \(bytes.count) were given")
    }
    let body: Body
    (self, body) = try Self.decodingHeader(of: bytes)
    try decodeBody(body, of: bytes)
  }

  /// Where a message's body is and how to read it, as its header says.
  package struct Body: Sendable {
    let signature: DBusSignature
    let start: Int
    let length: Int
    let bigEndian: Bool
  }

  /// Unmarshals the header of the message that starts `bytes`, leaving the body unread: a receiver
  /// decides from the header whether anyone wants the body. `bytes` may end after the header.
  ///
  /// - Returns: The message with an empty body, and where its body is.
  /// - Throws: ``DBusError/malformedMessage(offset:reason:)`` naming the offset and field.
  package static func decodingHeader(of bytes: [UInt8]) throws -> (DBusMessage, Body) {
    let bigEndian = try byteOrder(bytes[0], offset: 0)
    var decoder = DBusDecoder(bytes: bytes, bigEndian: bigEndian)
    _ = try decoder.readByte()
    let rawType = try decoder.readByte()
    guard let type = DBusMessageType(rawValue: rawType) else {
      throw DBusError.malformedMessage(offset: 1, reason: "unknown message type \(rawType)")
    }
    let flags = DBusMessageFlags(rawValue: try decoder.readByte())
    let version = try decoder.readByte()
    guard version == 1 else {
      throw DBusError.malformedMessage(offset: 3, reason: "protocol version is \(version), not 1")
    }
    let bodyLength = Int(try decoder.readInteger() as UInt32)
    let serial: UInt32 = try decoder.readInteger()
    guard serial != 0 else {
      throw DBusError.malformedMessage(offset: 8, reason: "message serial is 0")
    }
    var message = DBusMessage(type: type, flags: flags, serial: serial)

    let fields = try decoder.readArray(of: .struct([.byte, .variant]))
    var seen = Set<UInt8>()
    var bodySignature = DBusSignature.empty
    for case .struct(let pair) in fields {
      guard case .byte(let code) = pair[0], case .variant(let value) = pair[1] else { continue }
      guard let field = HeaderField(rawValue: code) else { continue }  // unknown fields are ignored
      guard seen.insert(code).inserted else {
        throw DBusError.malformedMessage(
          offset: 16, reason: "header field \(field.name) appears more than once")
      }
      guard value.type == field.type else {
        throw DBusError.malformedMessage(
          offset: 16,
          reason: "header field \(field.name) has type \"\(value.type)\", expected \"\(field.type)\"")
      }
      switch (field, value) {
      case (.path, .objectPath(let text)): message.path = text
      case (.interface, .string(let text)): message.interface = text
      case (.member, .string(let text)): message.member = text
      case (.errorName, .string(let text)): message.errorName = text
      case (.replySerial, .uint32(let number)): message.replySerial = number
      case (.destination, .string(let text)): message.destination = text
      case (.sender, .string(let text)): message.sender = text
      case (.signature, .signature(let signature)): bodySignature = signature
      case (.unixFDs, .uint32(let number)): message.unixFDs = number
      default: break
      }
    }
    do {
      try message.validateFields()
    } catch DBusError.invalidValue(let reason) {
      throw DBusError.malformedMessage(offset: 16, reason: reason)
    }
    if message.replySerial == 0 {
      throw DBusError.malformedMessage(offset: 16, reason: "header field REPLY_SERIAL is 0")
    }
    try decoder.align(to: 8)
    let bodyStart = decoder.position
    if bodyLength > 0 && bodySignature.types.isEmpty {
      throw DBusError.malformedMessage(
        offset: bodyStart, reason: "the body is \(bodyLength) bytes but there is no SIGNATURE field")
    }
    return (
      message, Body(signature: bodySignature, start: bodyStart, length: bodyLength, bigEndian: bigEndian)
    )
  }

  /// Unmarshals the body of a message whose header ``decodingHeader(of:)`` read.
  ///
  /// - Parameters:
  ///   - body: Where the body is, from the header.
  ///   - bytes: The whole message.
  /// - Throws: ``DBusError/malformedMessage(offset:reason:)`` naming the offset.
  package mutating func decodeBody(_ body: Body, of bytes: [UInt8]) throws {
    guard body.start + body.length == bytes.count else {
      throw DBusError.malformedMessage(
        offset: body.start, reason: "the body does not start where the header lengths say")
    }
    var decoder = DBusDecoder(bytes: bytes, bigEndian: body.bigEndian, position: body.start)
    var values: [DBusValue] = []
    for valueType in body.signature.types {
      values.append(try decoder.decode(valueType))
    }
    guard decoder.position == bytes.count else {
      throw DBusError.malformedMessage(
        offset: decoder.position,
        reason: "\(bytes.count - decoder.position) bytes remain after the body \"\(body.signature)\"")
    }
    self.body = values
  }

}
