import DarkModeKitText

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Thin wrappers over the POSIX socket calls the connection needs, each bounded by a deadline.
package enum DBusSocket {
  typealias Instant = ContinuousClock.Instant

  /// Milliseconds from now until `deadline`, rounded up, for `poll`; 0 once it has passed.
  static func milliseconds(until deadline: Instant) -> Int32 {
    let left = ContinuousClock.now.duration(to: deadline)
    guard left > .zero else { return 0 }
    let (seconds, attoseconds) = left.components
    let millis = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    return Int32(clamping: millis)
  }

  /// The message for an `errno` value.
  static func describe(_ code: Int32) -> String {
    switch code {
    case ECONNREFUSED: "connection refused (nothing is listening there)"
    case ENOENT: "no such socket"
    case EACCES: "permission denied"
    default: String(cString: strerror(code))
    }
  }

  /// Connects a non-blocking, close-on-exec stream socket to a `unix:path=` or `unix:abstract=`
  /// address before `deadline`.
  static func connect(to address: DBusAddress, text: String, deadline: Instant) throws -> Int32 {
    guard address.transport == "unix" else {
      throw DBusError.connectionFailed(
        address: text,
        reason: "transport \(ShownText.quoted(address.transport)) is not supported, only \"unix\"")
    }
    var name: [UInt8]
    if let path = address.parameters["path"] {
      name = Array(path.utf8)
    } else if let abstract = address.parameters["abstract"] {
      #if os(Linux) || os(Android)
        name = [0] + Array(abstract.utf8)
      #else
        throw DBusError.connectionFailed(
          address: text,
          reason: "abstract sockets exist only on Linux (abstract=\(ShownText.quoted(abstract)))")
      #endif
    } else {
      throw DBusError.connectionFailed(
        address: text, reason: "a unix address needs \"path\" or \"abstract\" to connect")
    }

    var storage = sockaddr_un()
    let capacity = MemoryLayout.size(ofValue: storage.sun_path)
    guard name.count < capacity, name.count > 0 else {
      throw DBusError.connectionFailed(
        address: text, reason: "the socket name is \(name.count) bytes, the limit is \(capacity - 1)")
    }
    storage.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &storage.sun_path) { raw in
      for (index, byte) in name.enumerated() { raw[index] = byte }
    }
    let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2
    // Abstract names are exactly their bytes; paths are NUL-terminated.
    let length = socklen_t(pathOffset + name.count + (name.first == 0 ? 0 : 1))
    #if canImport(Darwin)
      storage.sun_len = UInt8(length)
    #endif

    let fd = try makeSocket(text: text)
    do {
      try setSendTimeout(fd, deadline: deadline)
      let result = withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemConnect(fd, $0, length) }
      }
      if result != 0 {
        let code = errno
        let reason = code == EAGAIN || code == EINPROGRESS ? "timed out" : describe(code)
        throw DBusError.connectionFailed(address: text, reason: reason)
      }
      try setNonBlocking(fd, text: text)
      return fd
    } catch {
      _ = close(fd)
      throw error
    }
  }

  private static func makeSocket(text: String) throws -> Int32 {
    #if canImport(Glibc) || canImport(Musl)
      let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #else
      let fd = socket(AF_UNIX, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else {
      throw DBusError.connectionFailed(address: text, reason: "socket: \(describe(errno))")
    }
    #if canImport(Darwin)
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      var on: Int32 = 1
      _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
    #endif
    return fd
  }

  private static func setSendTimeout(_ fd: Int32, deadline: Instant) throws {
    let millis = max(1, Int(milliseconds(until: deadline)))
    var value = timeval()
    value.tv_sec = .init(millis / 1000)
    value.tv_usec = .init(millis % 1000 * 1000)
    _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
  }

  private static func systemConnect(
    _ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t
  ) -> Int32 {
    #if canImport(Glibc)
      Glibc.connect(fd, address, length)
    #elseif canImport(Musl)
      Musl.connect(fd, address, length)
    #else
      Darwin.connect(fd, address, length)
    #endif
  }

  /// Makes `fd` non-blocking.
  static func setNonBlocking(_ fd: Int32, text: String) throws {
    let flags = fcntl(fd, F_GETFL, 0)
    guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else {
      throw DBusError.connectionFailed(address: text, reason: "fcntl: \(describe(errno))")
    }
  }

  /// Creates a pair of connected descriptors that wake a thread polling the first: a byte written
  /// to `write` makes `read` readable. Both are non-blocking, so a write to a full pair (which
  /// already means "wake up") returns at once, even in a signal handler.
  ///
  /// Both are close-on-exec from the start: a program that another thread starts at the same
  /// moment does not inherit them.
  package static func makeWakePipe() throws -> (read: Int32, write: Int32) {
    var fds: [Int32] = [-1, -1]
    #if canImport(Glibc) || canImport(Musl)
      let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
      guard socketpair(AF_UNIX, type, 0, &fds) == 0 else {
        throw DBusError.connectionFailed(address: "wake pipe", reason: describe(errno))
      }
    #else
      guard pipe(&fds) == 0 else {
        throw DBusError.connectionFailed(address: "wake pipe", reason: describe(errno))
      }
      for fd in fds {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK)
      }
    #endif
    return (fds[0], fds[1])
  }

  /// Waits until `fd` has `events` (or an error), or `deadline` passes.
  ///
  /// - Returns: `false` on timeout.
  static func wait(
    _ fd: Int32, for events: Int16, deadline: Instant, interval: Int32 = .max
  ) throws -> Bool {
    var entry = pollfd(fd: fd, events: events, revents: 0)
    while true {
      let timeout = min(milliseconds(until: deadline), interval)
      let result = poll(&entry, 1, timeout)
      if result > 0 { return true }
      if result == 0 { return false }
      guard errno == EINTR else { throw DBusError.disconnected(reason: "poll: \(describe(errno))") }
    }
  }

  /// Sends all of `bytes`, waiting for buffer space until `deadline`.
  ///
  /// `shouldStop` is checked between waits, at least every 100 ms, so a closed connection does not
  /// leave a writer stuck.
  ///
  /// - Returns: The number of bytes written; fewer than `bytes.count` only on timeout or stop.
  /// - Throws: ``DBusError/disconnected(reason:)`` when the socket fails.
  static func sendAll(
    _ fd: Int32, _ bytes: [UInt8], deadline: Instant, shouldStop: () -> Bool
  ) throws -> Int {
    var sent = 0
    while sent < bytes.count {
      if shouldStop() { return sent }
      let result = bytes.withUnsafeBytes { raw in
        #if canImport(Glibc) || canImport(Musl)
          send(fd, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
        #else
          send(fd, raw.baseAddress! + sent, raw.count - sent, 0)
        #endif
      }
      if result > 0 {
        sent += result
        continue
      }
      let code = errno
      if result < 0 && code == EINTR { continue }
      guard result < 0 && (code == EAGAIN || code == EWOULDBLOCK) else {
        throw DBusError.disconnected(reason: "send: \(describe(code))")
      }
      if ContinuousClock.now >= deadline { return sent }
      _ = try wait(fd, for: Int16(POLLOUT), deadline: deadline, interval: 100)
    }
    return sent
  }

  /// The outcome of one non-blocking read.
  enum ReadResult {
    case data
    case wouldBlock
    case endOfFile
  }

  /// Appends whatever is available (up to 64 KiB) to `buffer`.
  static func receive(_ fd: Int32, into buffer: inout [UInt8]) throws -> ReadResult {
    try withUnsafeTemporaryAllocation(byteCount: 64 * 1024, alignment: 16) { chunk in
      while true {
        let result = recv(fd, chunk.baseAddress, chunk.count, 0)
        if result > 0 {
          buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[..<result]))
          return .data
        }
        let code = errno
        if result < 0 && code == EINTR { continue }
        // A bus that ends while data it has not read waits for it resets the connection instead
        // of closing it: either way, the bus closed the connection.
        if result == 0 || code == ECONNRESET { return .endOfFile }
        if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
        throw DBusError.disconnected(reason: "recv: \(describe(code))")
      }
    }
  }
}
