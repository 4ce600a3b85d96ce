import DarkModeKitText

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The synchronous start of a connection: SASL `EXTERNAL` authentication, then `Hello`.
///
/// Runs on the connecting thread before the reader thread exists; every read is bounded by the
/// deadline, and every line and message by a size limit.
struct DBusHandshake {
  /// The longest SASL line accepted from the server.
  static let maximumLineLength = 16 * 1024

  let fd: Int32
  let address: String
  let deadline: ContinuousClock.Instant
  /// Bytes received but not yet consumed; the connection's reader takes over what is left.
  var buffer = DBusReadBuffer()

  /// Authenticates with the uid of this process, hex-encoded, and sends `BEGIN`.
  ///
  /// - Returns: The server GUID from its `OK` line.
  mutating func authenticate() throws -> String {
    let uid = String(getuid())
    let hexUID = uid.utf8.map { byte in
      let hex = String(byte, radix: 16)
      return hex.count == 1 ? "0" + hex : hex
    }.joined()
    try sendRaw([0] + Array("AUTH EXTERNAL \(hexUID)\r\n".utf8), what: "AUTH")
    let reply = try readLine()
    if reply.hasPrefix("OK ") || reply == "OK" {
      try sendRaw(Array("BEGIN\r\n".utf8), what: "BEGIN")
      return String(reply.dropFirst(3))
    }
    if reply.hasPrefix("REJECTED") {
      throw DBusError.authenticationFailed(
        reason: "the bus rejected EXTERNAL for uid \(uid); it offers: "
          + reply.dropFirst(8).drop(while: { $0 == " " }))
    }
    throw DBusError.authenticationFailed(
      reason: "unexpected reply \(ShownText.quoted(reply.prefix(200))) to AUTH")
  }

  /// Sends `Hello` with serial 1 and waits for its reply.
  ///
  /// - Returns: The unique name the bus assigned.
  mutating func hello() throws -> String {
    let message = DBusMessage(
      type: .methodCall, serial: 1, path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
      member: "Hello", destination: "org.freedesktop.DBus")
    try sendRaw(try message.encoded(), what: "Hello")
    while true {
      let reply = try readMessage(what: "Hello")
      guard reply.replySerial == 1 else { continue }  // signals sent before the reply are dropped
      if reply.type == .error {
        throw DBusError.remote(name: reply.errorName ?? "", message: reply.body.first?.stringValue)
      }
      guard reply.type == .methodReturn, let name = reply.body.first?.stringValue else {
        throw DBusError.malformedMessage(offset: 0, reason: "the reply to Hello holds no name")
      }
      return name
    }
  }

  private func sendRaw(_ bytes: [UInt8], what: String) throws {
    let sent = try DBusSocket.sendAll(fd, bytes, deadline: deadline) { false }
    guard sent == bytes.count else { throw DBusError.timedOut(operation: "sending \(what)") }
  }

  private mutating func fill(what: String) throws {
    while true {
      switch try buffer.receive(from: fd) {
      case .data: return
      case .endOfFile:
        throw DBusError.disconnected(reason: "the bus closed the connection during \(what)")
      case .wouldBlock:
        guard try DBusSocket.wait(fd, for: Int16(POLLIN), deadline: deadline) else {
          throw DBusError.timedOut(operation: what)
        }
      }
    }
  }

  private mutating func readLine() throws -> String {
    while true {
      if let line = try buffer.takeLine() {
        guard let text = validatedUTF8(line), text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
          throw DBusError.authenticationFailed(reason: "the server's line is not printable ASCII")
        }
        return text
      }
      guard buffer.unreadCount <= Self.maximumLineLength else {
        throw DBusError.authenticationFailed(
          reason: "the server's line is longer than \(Self.maximumLineLength) bytes")
      }
      try fill(what: "authentication")
    }
  }

  private mutating func readMessage(what: String) throws -> DBusMessage {
    while true {
      switch try buffer.takeMessage() {
      case .message(let bytes): return try DBusMessage(decoding: bytes)
      case .tooLarge(_, let length):
        throw DBusError.messageTooLarge(length: length, limit: DBusMessage.maximumLength)
      case nil: break
      }
      try fill(what: what)
    }
  }
}
