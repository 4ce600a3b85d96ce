#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Asks a terminal for its background colour with OSC 11, in raw mode, with a timeout.
///
/// The query is followed by a primary device attributes request (`ESC [ c`), which every terminal
/// answers: a terminal that answers that but not OSC 11 does not support it, and the wait ends at
/// once instead of at the timeout. The terminal's settings are restored before returning, whatever
/// happens.
enum TerminalQuery {
  enum Outcome: Equatable {
    /// The terminal reported its background.
    case reply([UInt8])
    /// The terminal answered the attributes request but not OSC 11.
    case unsupported
    /// Nothing came back in time.
    case timedOut
    /// The descriptors are not a terminal, or its settings could not be changed.
    case notATerminal
  }

  static let request: [UInt8] = Array("\u{1B}]11;?\u{1B}\\\u{1B}[c".utf8)

  /// Sends the query on `output` and reads the reply from `input`.
  static func backgroundReply(input: Int32, output: Int32, timeoutMilliseconds: Int) -> Outcome {
    guard isatty(input) == 1, isatty(output) == 1, var saved = enterRawMode(input) else {
      return .notATerminal
    }
    defer { _ = tcsetattr(input, TCSANOW, &saved) }

    guard writeAll(request, to: output) else { return .notATerminal }
    var scanner = TerminalReports()
    var reply: [UInt8]?
    var received = 0
    let deadline = Self.deadline(inMilliseconds: timeoutMilliseconds)
    // Until the device-attributes answer, which comes last, so that no part of the answer is left
    // to reach the program (or the shell) after the terminal is put back.
    while let bytes = readSome(input, until: deadline) {
      received += bytes.count
      // Bounded: a terminal that keeps sending without answering is cut off.
      if received > 4_096 { break }
      for report in scanner.scan(bytes).reports {
        switch report {
        case .background(let bytes): reply = bytes
        case .deviceAttributes: return reply.map(Outcome.reply) ?? .unsupported
        case .colorScheme: continue
        }
      }
    }
    return reply.map(Outcome.reply) ?? .timedOut
  }

  /// The bytes that arrive before `deadline` (see `deadline(inMilliseconds:from:)`), or `nil` when
  /// none do.
  static func readSome(_ input: Int32, until deadline: Int) -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: 256)
    while true {
      let remaining = millisecondsLeft(until: deadline)
      guard remaining > 0 else { return nil }
      var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
      let ready = poll(&descriptor, 1, Int32(clamping: remaining))
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { return nil }
      let count = read(input, &buffer, buffer.count)
      if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
      guard count > 0 else { return nil }
      return Array(buffer[0..<count])
    }
  }

  /// Puts a terminal in non-canonical mode without echo, reads not waiting for bytes; returns its
  /// settings before, to restore, or `nil` when they cannot be changed.
  static func enterRawMode(_ input: Int32) -> termios? {
    var saved = termios()
    guard tcgetattr(input, &saved) == 0 else { return nil }
    var raw = saved
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 0
      cc[Int(VTIME)] = 0
    }
    guard tcsetattr(input, TCSANOW, &raw) == 0 else { return nil }
    return saved
  }

  static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        return false
      }
      offset += written
    }
    return true
  }

  /// The monotonic clock, in nanoseconds.
  static func monotonicNanoseconds() -> Int {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int(now.tv_sec) * 1_000_000_000 + Int(now.tv_nsec)
  }

  /// The moment `milliseconds` from `now` on the monotonic clock, in nanoseconds; the clock's end
  /// for a wait too long to count.
  static func deadline(inMilliseconds milliseconds: Int, from now: Int = monotonicNanoseconds()) -> Int {
    let (wait, overflow) = max(0, milliseconds).multipliedReportingOverflow(by: 1_000_000)
    let (deadline, later) = now.addingReportingOverflow(wait)
    return overflow || later ? Int.max : deadline
  }

  /// The whole milliseconds from `now` to `deadline` (both in nanoseconds), rounded up, so that a
  /// wait of that long does not end before the deadline; 0 once it has passed.
  static func millisecondsLeft(until deadline: Int, from now: Int = monotonicNanoseconds()) -> Int {
    guard deadline > now else { return 0 }
    let left = deadline - now
    return left / 1_000_000 + (left % 1_000_000 == 0 ? 0 : 1)
  }
}
