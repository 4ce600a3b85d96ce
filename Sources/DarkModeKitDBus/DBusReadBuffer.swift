/// Bytes received from a bus and not yet consumed, read from the front with an index.
///
/// The handshake takes its lines and the reply to `Hello` from here, then hands the buffer, with
/// whatever came after, to the connection's reader thread, which takes messages. Taking bytes
/// moves the index; the consumed front is dropped only when it is at least half of what is held,
/// before the next receive, so reading many messages that arrived together costs each message its
/// own bytes rather than a shift of everything behind it.
struct DBusReadBuffer {
  private var bytes: [UInt8] = []
  private var readIndex = 0

  /// How many bytes are held and not yet taken.
  var unreadCount: Int { bytes.count - readIndex }

  /// Appends what the socket has now (up to 64 KiB).
  mutating func receive(from fd: Int32) throws -> DBusSocket.ReadResult {
    if readIndex > 0 && readIndex >= bytes.count / 2 {
      bytes.removeSubrange(..<readIndex)
      readIndex = 0
    }
    return try DBusSocket.receive(fd, into: &bytes)
  }

  /// Takes the next line, which must end in CR LF; `nil` until all of it has arrived.
  /// - Returns: The line without its CR LF.
  /// - Throws: ``DBusError/authenticationFailed(reason:)`` when a line ends in LF alone.
  mutating func takeLine() throws -> ArraySlice<UInt8>? {
    guard let newline = bytes[readIndex...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
    guard newline > readIndex, bytes[newline - 1] == UInt8(ascii: "\r") else {
      throw DBusError.authenticationFailed(reason: "the server's line does not end in CR LF")
    }
    let line = bytes[readIndex..<(newline - 1)]
    readIndex = newline + 1
    return line
  }

  /// Takes the bytes of the next message; `nil` until all of them have arrived.
  /// - Throws: ``DBusError/malformedMessage(offset:reason:)`` when the message's header announces
  ///   a length over the limits.
  mutating func takeMessage() throws -> [UInt8]? {
    guard let length = try DBusMessage.frameLength(bytes, from: readIndex), unreadCount >= length else {
      return nil
    }
    defer { readIndex += length }
    return Array(bytes[readIndex..<(readIndex + length)])
  }
}
