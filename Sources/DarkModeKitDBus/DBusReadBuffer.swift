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
    dropConsumedFront()
    return try DBusSocket.receive(fd, into: &bytes)
  }

  /// Appends bytes that came some other way (the stream fuzz target's input).
  mutating func append(_ chunk: ArraySlice<UInt8>) {
    dropConsumedFront()
    bytes.append(contentsOf: chunk)
  }

  private mutating func dropConsumedFront() {
    if readIndex > 0 && readIndex >= bytes.count / 2 {
      bytes.removeSubrange(..<readIndex)
      readIndex = 0
    }
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

  /// The next message taken from the buffer.
  enum Frame: Equatable {
    /// A whole message.
    case message([UInt8])
    /// A message over the limit, dropped as it arrives: its header when that fits in the limit
    /// (else empty), and its length.
    case tooLarge(header: [UInt8], length: Int)
  }

  /// Bytes of a message over the limit that are still to come, and are dropped as they do.
  private var bytesToDrop = 0

  /// Takes the bytes of the next message; `nil` until all of them have arrived.
  ///
  /// A message longer than `limit` is not kept: once its header is here it is reported as
  /// ``Frame/tooLarge(header:length:)``, and the rest of it is dropped as it arrives, so that
  /// the buffer never holds more than about `limit` bytes.
  /// - Throws: ``DBusError/malformedMessage(offset:reason:)`` when the message's header announces
  ///   a length over the specification's limits.
  mutating func takeMessage(limit: Int = DBusMessage.maximumLength) throws -> Frame? {
    dropWhatHasComeOfAMessageOverTheLimit()
    guard bytesToDrop == 0, let (headerLength, length) = try DBusMessage.frameLengths(bytes, from: readIndex)
    else { return nil }
    if length > limit {
      var header: [UInt8] = []
      if headerLength <= limit {
        guard unreadCount >= headerLength else { return nil }
        header = Array(bytes[readIndex..<(readIndex + headerLength)])
      }
      bytesToDrop = length
      dropWhatHasComeOfAMessageOverTheLimit()
      return .tooLarge(header: header, length: length)
    }
    guard unreadCount >= length else { return nil }
    defer { readIndex += length }
    return .message(Array(bytes[readIndex..<(readIndex + length)]))
  }

  private mutating func dropWhatHasComeOfAMessageOverTheLimit() {
    let dropped = min(bytesToDrop, unreadCount)
    readIndex += dropped
    bytesToDrop -= dropped
  }
}
