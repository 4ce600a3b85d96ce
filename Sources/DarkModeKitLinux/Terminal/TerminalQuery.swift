import DarkModeKit

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
/// once instead of at the timeout. A terminal that has not answered by the timeout is given as
/// long again to finish (a reply late over a slow link, or behind a flood of other input), so that
/// no part of its answer reaches the program or the shell afterwards; a background that comes in
/// that time is used. What the terminal sends that is not part of the answer, such as keys typed
/// meanwhile, is given back to the terminal's input (`TIOCSTI`) where the system allows it. The
/// terminal's settings are restored before returning, whatever happens.
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

  /// OSC 11 ended by BEL, which every terminal reads (urxvt 9.31 and later answer a query ended by
  /// ST with a bare ESC), then the device attributes request.
  static let request: [UInt8] = Array("\u{1B}]11;?\u{07}\u{1B}[c".utf8)

  /// Sends the query on `output` and reads the reply from `input`.
  static func backgroundReply(input: Int32, output: Int32, timeoutMilliseconds: Int) -> Outcome {
    guard isatty(input) == 1, isatty(output) == 1 else { return .notATerminal }
    // Counted until the keys are given back: a program that ends meanwhile waits a little for the
    // answer (`RawModes.restoreAll(waitingMilliseconds:)`).
    return RawModes.whileAsking {
      guard let saved = enterRawMode(input) else { return .notATerminal }
      // A signal that ends the program meanwhile (`DMTerminalAppearanceSource.restoreTerminal()`)
      // finds the settings to put back.
      let registration = RawModes.register(input, saved)
      var answer = Answer()
      // Whatever else came is given back when the wait ends, however it ends, once the terminal
      // is in its own mode again, so that it reads as typed there.
      defer {
        RawModes.restore(registration)
        giveBack(answer.otherInput, to: input)
      }
      guard writeAll(request, to: output, withinMilliseconds: timeoutMilliseconds) else {
        return .notATerminal
      }
      // The device-attributes answer comes last: until it, so that no part of the answer is left
      // to reach the program (or the shell) after the terminal is put back.
      answer = readAnswer(from: input, timeoutMilliseconds: timeoutMilliseconds) { $0 == .deviceAttributes }
      let reply = answer.reports.compactMap(\.backgroundReply).last
      return reply.map(Outcome.reply) ?? (answer.isComplete ? .unsupported : .timedOut)
    }
  }

  /// What a query read from the terminal.
  struct Answer {
    /// The reports that came, up to the one that ended the wait (the last ``maximumReports``).
    var reports: [TerminalReports.Report] = []
    /// Whether that report came (else the wait ran out, or the input ended).
    var isComplete = false
    /// What came that is not a report, a sequence left unfinished included: keys typed
    /// meanwhile, to give back; at most ``maximumKeptInput`` bytes.
    var otherInput: [UInt8] = []
  }

  /// Reads a terminal's answer to a query just sent, until a report for which `isLast` is true,
  /// for at most twice `timeoutMilliseconds`: a terminal that has not answered by the timeout is
  /// given as long again, so that a late answer (over a slow link, or behind a flood of other
  /// input) is read rather than left in the input.
  ///
  /// However much other input comes first, the wait reads on, so that the answer behind it is not
  /// left to reach the shell; it keeps the first ``maximumKeptInput`` bytes of that input and the
  /// last ``maximumReports`` reports.
  static func readAnswer(
    from input: Int32, timeoutMilliseconds: Int, endingAt isLast: (TerminalReports.Report) -> Bool
  ) -> Answer {
    var answer = Answer()
    var scanner = TerminalReports()
    let deadline = deadline(inMilliseconds: 2 * min(max(0, timeoutMilliseconds), Int.max / 2))
    reading: while let bytes = readSome(input, until: deadline) {
      let (reports, passed) = scanner.scan(bytes)
      keep(passed, in: &answer)
      for report in reports {
        if answer.reports.count == maximumReports { answer.reports.removeFirst() }
        answer.reports.append(report)
        if isLast(report) {
          answer.isComplete = true
          break reading
        }
      }
    }
    // A sequence left unfinished (a lone Esc key) is input too.
    keep(scanner.unfinishedInput, in: &answer)
    return answer
  }

  /// Adds what fits of `bytes` to the input to give back.
  private static func keep(_ bytes: [UInt8], in answer: inout Answer) {
    answer.otherInput += bytes.prefix(max(0, maximumKeptInput - answer.otherInput.count))
  }

  /// The most of the other input that came during a query that is kept to give back: what a
  /// terminal's input holds (4,096 bytes, the end of a line included); more would be dropped as it
  /// is given back.
  static let maximumKeptInput = 4_095

  /// The most reports a query keeps (a terminal answers each query once).
  static let maximumReports = 16

  /// Puts `bytes` back in front of the terminal's input, as if typed, one by one with `TIOCSTI`;
  /// where the system forbids it (Linux 6.2 and later can turn it off, and a terminal that is not
  /// the process's controlling one needs `CAP_SYS_ADMIN`), they are lost. The terminal's input
  /// holds 4,095 bytes until the program reads them: more would be dropped without a word, as
  /// typed keys are when nothing reads them.
  static func giveBack(_ bytes: [UInt8], to input: Int32) {
    for var byte in bytes {
      guard ioctl(input, UInt(TIOCSTI), &byte) == 0 else { return }
    }
  }

  /// The bytes that arrive before `deadline` (see `deadline(inMilliseconds:from:)`), or `nil` when
  /// none do.
  static func readSome(_ input: Int32, until deadline: Int) -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: 4_096)
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
    // Ctrl-S and Ctrl-Q reach the program as bytes instead of pausing its output: a paused
    // terminal holds every write, the one that puts it back included.
    raw.c_iflag &= ~tcflag_t(IXON)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 0
      cc[Int(VTIME)] = 0
    }
    guard tcsetattr(input, TCSANOW, &raw) == 0 else { return nil }
    return saved
  }

  /// Writes `bytes` to a terminal, giving up after `milliseconds`: a terminal whose output is
  /// paused, or a link that no longer drains, never holds the program (its exit included).
  ///
  /// A terminal is written through a descriptor of its own, opened without blocking: a blocking
  /// write waits for room, and for the terminal's write lock, which another thread writing to the
  /// stalled terminal holds; the program's own descriptor keeps its flags.
  /// - Returns: Whether every byte was written in time.
  static func writeAll(_ bytes: [UInt8], to descriptor: Int32, withinMilliseconds milliseconds: Int = 100)
    -> Bool
  {
    let own = openWithoutBlocking(descriptor)
    defer { if own >= 0 { close(own) } }
    let target = own >= 0 ? own : descriptor
    let deadline = deadline(inMilliseconds: milliseconds)
    var offset = 0
    while offset < bytes.count {
      // Written when the terminal has room, so that a wait has the deadline.
      var descriptorState = pollfd(fd: target, events: Int16(POLLOUT), revents: 0)
      let remaining = millisecondsLeft(until: deadline)
      guard remaining > 0 else { return false }
      let ready = poll(&descriptorState, 1, Int32(clamping: remaining))
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0, descriptorState.revents & Int16(POLLOUT) != 0 else { return false }
      let written = bytes[offset...].withUnsafeBytes { write(target, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        return false
      }
      offset += written
    }
    return true
  }

  /// A new descriptor for the terminal `descriptor` is open on, for writing without blocking; -1
  /// when it is not a terminal or cannot be opened again.
  private static func openWithoutBlocking(_ descriptor: Int32) -> Int32 {
    var name = [CChar](repeating: 0, count: 256)
    guard isatty(descriptor) == 1, ttyname_r(descriptor, &name, name.count) == 0 else { return -1 }
    return open(name, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
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

/// The terminals a query has in raw mode, with the settings to put back: the query puts them back
/// when it ends, and `restoreAll()` (`DMTerminalAppearanceSource.restoreTerminal()`, called by a
/// program that ends on a signal) at once, so that no signal leaves a terminal without echo.
enum RawModes {
  private struct State {
    var next = 0
    var saved: [Int: (descriptor: Int32, settings: termios)] = [:]
    /// The queries waiting for a terminal's answer now.
    var asking = 0
  }
  private static let state = Locked(State())

  /// Runs `query`, which asks a terminal and waits for its answer, counted as asking until it
  /// returns, so that `restoreAll(waitingMilliseconds:)` can wait for it.
  static func whileAsking<Result>(_ query: () -> Result) -> Result {
    state.withLock { $0.asking += 1 }
    defer { state.withLock { $0.asking -= 1 } }
    return query()
  }

  /// Keeps `settings` to put back on `descriptor`; the number to restore them by.
  static func register(_ descriptor: Int32, _ settings: termios) -> Int {
    state.withLock { state in
      state.next += 1
      state.saved[state.next] = (descriptor, settings)
      return state.next
    }
  }

  /// Puts back the settings registered as `number`, unless `restoreAll()` already did.
  static func restore(_ number: Int) {
    guard var entry = state.withLock({ $0.saved.removeValue(forKey: number) }) else { return }
    _ = tcsetattr(entry.descriptor, TCSANOW, &entry.settings)
  }

  /// Puts back every terminal a query has in raw mode, after waiting at most `milliseconds` for
  /// the queries asking now to end by themselves: a terminal's answer that comes in that time is
  /// read, and keys typed meanwhile given back, instead of reaching the shell once the program
  /// has ended.
  static func restoreAll(waitingMilliseconds milliseconds: Int = 0) {
    let deadline = TerminalQuery.deadline(inMilliseconds: milliseconds)
    while state.withLock({ $0.asking > 0 }) && TerminalQuery.millisecondsLeft(until: deadline) > 0 {
      usleep(1_000)
    }
    for var entry in state.withLock({ state in
      defer { state.saved.removeAll() }; return Array(state.saved.values)
    }) {
      _ = tcsetattr(entry.descriptor, TCSANOW, &entry.settings)
    }
  }
}
