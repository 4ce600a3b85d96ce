// Fuzz target: a connection's reader, fed what a bus sends after the handshake.
//
// The first input byte picks the connection's message limit (64 bytes to 128 KiB) and a chunk
// size; the rest is the stream. Properties:
// - the read buffer splits the stream into the same frames whether the bytes come all at once
//   or a few at a time, and never holds much more than the limit;
// - a real connection reading the stream from a socket pair (with a call pending and a
//   subscriber for every signal) ends when the stream ends, within ten seconds, having completed
//   the pending call exactly once; AddressSanitizer checks that nothing is read out of bounds.

import Foundation

#if canImport(Glibc)
  import Glibc
#endif

func fuzzSeeds() -> [[UInt8]] {
  func message(_ message: DBusMessage) -> [UInt8] { try! message.encoded() }
  let reply = message(DBusMessage(type: .methodReturn, serial: 5, replySerial: 2, body: ["id"]))
  let signal = message(
    DBusMessage(
      type: .signal, serial: 6, path: "/org/freedesktop/portal/desktop",
      interface: "org.freedesktop.portal.Settings", member: "SettingChanged", sender: ":1.5",
      body: ["org.freedesktop.appearance", "color-scheme", .variant(.uint32(1))]))
  let call = message(
    DBusMessage(
      type: .methodCall, serial: 7, path: "/x", interface: "org.dmkit.Hostile", member: "Flood",
      destination: ":1.1", sender: ":1.9", body: [.bytes([UInt8](repeating: 7, count: 300))]))
  let large = message(
    DBusMessage(
      type: .signal, serial: 8, path: "/x", interface: "org.dmkit.Hostile", member: "Flood", sender: ":1.9",
      body: [.bytes([UInt8](repeating: 7, count: 200_000))]))
  return [
    [3] + reply, [0x21] + signal + reply, [0] + call + reply, [0xFF] + signal + call + signal,
    [11] + large + reply, [2] + Array(reply.prefix(20)),
  ]
}

/// libFuzzer calls this with each input; a broken property aborts the run.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = fuzzBytes(data, size)
  guard let first = bytes.first else { return 0 }
  let limit = 64 << (Int(first & 0x0F) % 12)
  let chunk = Int(first >> 4) * 7 + 1
  let stream = Array(bytes.dropFirst())
  checkChunking(stream, limit: limit, chunk: chunk)
  checkConnection(stream, limit: limit)
  return 0
}

/// The frames of `stream`, read `chunk` bytes at a time, until the end or a framing error.
private func frames(_ stream: [UInt8], limit: Int, chunk: Int) -> [DBusReadBuffer.Frame] {
  var buffer = DBusReadBuffer()
  var frames: [DBusReadBuffer.Frame] = []
  var offset = 0
  while offset < stream.count {
    let end = min(offset + chunk, stream.count)
    buffer.append(stream[offset..<end])
    offset = end
    do {
      while let frame = try buffer.takeMessage(limit: limit) { frames.append(frame) }
    } catch {
      return frames
    }
    require(buffer.unreadCount <= max(limit, 4096) + chunk, "the buffer holds \(buffer.unreadCount) bytes")
  }
  return frames
}

private func checkChunking(_ stream: [UInt8], limit: Int, chunk: Int) {
  let whole = frames(stream, limit: limit, chunk: max(stream.count, 1))
  let pieces = frames(stream, limit: limit, chunk: chunk)
  require(whole == pieces, "reading in chunks of \(chunk) gives other frames than reading at once")
}

private func checkConnection(_ stream: [UInt8], limit: Int) {
  var pair: [Int32] = [0, 0]
  guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else { return }
  guard
    let core = try? DBusConnectionCore(
      socket: pair[0], uniqueName: ":1.1", repliesToMethodCalls: true, maximumMessageLength: limit)
  else {
    close(pair[0])
    close(pair[1])
    return
  }
  let ended = DispatchSemaphore(value: 0)
  let completions = Locked(0)
  _ = try? core.subscribe(DBusMatchRule()) { event in
    if case .ended = event { ended.signal() }
  }
  core.start(buffered: DBusReadBuffer())
  core.call(
    DBusMessage(type: .methodCall, path: "/org/freedesktop/DBus", member: "GetId"), timeout: .seconds(30)
  ) { _ in completions.withLock { $0 += 1 } }
  // What the connection writes (the call, answers to method calls) is drained on the side, until
  // the connection closes its end.
  let peer = pair[1]
  let drained = DispatchSemaphore(value: 0)
  Thread {
    var scratch = [UInt8](repeating: 0, count: 4096)
    while scratch.withUnsafeMutableBytes({ read(peer, $0.baseAddress, $0.count) }) > 0 {}
    drained.signal()
  }.start()
  stream.withUnsafeBytes { raw in
    var sent = 0
    while sent < raw.count {
      let count = send(peer, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
      if count <= 0 { break }
      sent += count
    }
  }
  shutdown(peer, Int32(SHUT_WR))
  require(ended.wait(timeout: .now() + 10) == .success, "the connection did not end with its stream")
  require(completions.withLock { $0 } == 1, "the pending call completed \(completions.withLock { $0 }) times")
  require(drained.wait(timeout: .now() + 10) == .success, "the connection did not close its socket")
  close(peer)
}
