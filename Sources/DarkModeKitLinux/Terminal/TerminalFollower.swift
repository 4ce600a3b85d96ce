import DarkModeKit
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Follows a terminal that announces changes of its colour scheme (DEC mode 2031): it asks whether
/// the terminal can (`ESC [ ? 996 n`), turns the announcements on, reads them as they come, and
/// puts the terminal back as it was (mode 2031 off, its settings restored) when it stops, when the
/// input ends, and when the process exits.
///
/// While it follows, it reads the terminal's input itself, in non-canonical mode without echo, and
/// keeps only the terminal's reports: it suits a program that does not read the terminal, such as
/// `dmkit watch`.
final class TerminalFollower: @unchecked Sendable {
  // Safe: `input`, `output`, `saved` and the pipe are set once in init; `isRestored` is behind its
  // lock, and everything else is touched only by the thread that runs `run(reporting:)`.
  private let input: Int32
  private let output: Int32
  private let saved: termios
  /// Written to by `stop()`; the reading loop polls it with the input.
  private let wakeUp: (read: Int32, write: Int32)
  private let isRestored = Locked(false)

  private init(input: Int32, output: Int32, saved: termios, wakeUp: (Int32, Int32)) {
    self.input = input
    self.output = output
    self.saved = saved
    self.wakeUp = wakeUp
  }

  /// Every follower that has not restored its terminal yet, for `restoreAll()`.
  private static let active = Locked<[TerminalFollower]>([])
  private static let exitHandlerIsInstalled: Void = {
    atexit { TerminalFollower.restoreAll() }
  }()

  /// Asks the terminal whether it announces changes. When it does, turns the announcements on and
  /// returns a follower with the scheme the terminal reported; otherwise puts the terminal back
  /// and returns `nil`. Waits at most `timeoutMilliseconds`, and ends at once when the terminal
  /// answers the device-attributes request without a colour-scheme report.
  static func begin(input: Int32, output: Int32, timeoutMilliseconds: Int) -> (
    TerminalFollower, DMUserInterfaceStyle
  )? {
    guard isatty(input) == 1, isatty(output) == 1, var saved = TerminalQuery.enterRawMode(input) else {
      return nil
    }
    var scanner = TerminalReports()
    var style: DMUserInterfaceStyle?
    if TerminalQuery.writeAll(TerminalReports.colorSchemeQuery, to: output) {
      let deadline = TerminalQuery.monotonicMilliseconds() + timeoutMilliseconds
      reading: while style == nil, let bytes = readSome(input, until: deadline) {
        for report in scanner.scan(bytes).reports {
          switch report {
          case .colorScheme(let reported): style = reported
          case .deviceAttributes: break reading
          case .background: continue
          }
        }
      }
    }
    var pipeEnds: [Int32] = [-1, -1]
    guard let style, pipe(&pipeEnds) == 0 else {
      _ = tcsetattr(input, TCSANOW, &saved)
      return nil
    }
    let follower = TerminalFollower(
      input: input, output: output, saved: saved, wakeUp: (pipeEnds[0], pipeEnds[1]))
    Self.exitHandlerIsInstalled
    active.withLock { $0.append(follower) }
    _ = TerminalQuery.writeAll(TerminalReports.enableNotifications, to: output)
    return (follower, style)
  }

  /// Reads the terminal until `stop()` or the end of its input, reporting each announced change;
  /// after each, asks for the background again and reports the style it gives. Restores the
  /// terminal before returning.
  func run(reporting report: (DMUserInterfaceStyle) -> Void) {
    defer { restore() }
    var scanner = TerminalReports()
    var buffer = [UInt8](repeating: 0, count: 512)
    while true {
      var descriptors = [
        pollfd(fd: input, events: Int16(POLLIN), revents: 0),
        pollfd(fd: wakeUp.read, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&descriptors, 2, -1)
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0, descriptors[1].revents == 0 else { return }
      let count = read(input, &buffer, buffer.count)
      if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
      guard count > 0 else { return }
      for found in scanner.scan(buffer[0..<count]).reports {
        switch found {
        case .colorScheme(let style):
          report(style)
          _ = TerminalQuery.writeAll(TerminalReports.backgroundQuery, to: output)
        case .background(let reply):
          if let color = TerminalBackground.color(fromOSC11Reply: reply) {
            report(TerminalBackground.style(forBackground: color))
          }
        case .deviceAttributes:
          continue
        }
      }
    }
  }

  /// Ends `run(reporting:)` and puts the terminal back, at once.
  func stop() {
    var byte: UInt8 = 1
    _ = write(wakeUp.write, &byte, 1)
    restore()
  }

  /// Turns the announcements off and restores the terminal's settings, once.
  private func restore() {
    let isFirst = isRestored.withLock { isRestored in
      defer { isRestored = true }
      return !isRestored
    }
    guard isFirst else { return }
    _ = TerminalQuery.writeAll(TerminalReports.disableNotifications, to: output)
    var saved = saved
    _ = tcsetattr(input, TCSANOW, &saved)
    Self.active.withLock { $0.removeAll { $0 === self } }
  }

  /// Puts back every terminal a follower changed; for the program's exit and its signal handling.
  static func restoreAll() {
    for follower in active.withLock({ $0 }) { follower.restore() }
  }

  deinit {
    close(wakeUp.read)
    close(wakeUp.write)
  }

  // MARK: - Descriptors

  /// The bytes that arrive before `deadline`, or `nil` when none do.
  private static func readSome(_ input: Int32, until deadline: Int) -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: 256)
    while true {
      let remaining = deadline - TerminalQuery.monotonicMilliseconds()
      guard remaining > 0 else { return nil }
      var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
      let ready = poll(&descriptor, 1, Int32(remaining))
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { return nil }
      let count = read(input, &buffer, buffer.count)
      if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
      guard count > 0 else { return nil }
      return Array(buffer[0..<count])
    }
  }
}
