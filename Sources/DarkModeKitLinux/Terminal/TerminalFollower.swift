import DarkModeKit
import DarkModeKitDBus
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
///
/// It is registered for `restoreAll(withinMilliseconds:)` (and the process's exit) before it changes anything, so a
/// signal or an exit at any moment finds it.
final class TerminalFollower: @unchecked Sendable {
  // Safe: `input`, `output` and the pipe are set once in init; `state` is behind its lock, held
  // while the terminal is changed or put back, so that two callers never interleave.
  private let input: Int32
  private let output: Int32
  /// Written to by `stop()` and `restoreAll(withinMilliseconds:)`; the reading loop polls it with the input.
  /// Wakes `run` to end it; close-on-exec, so programs the app starts do not inherit it.
  let wakeUp: (read: Int32, write: Int32)

  private struct State {
    /// The settings to put back; `nil` until the terminal was changed.
    var saved: termios?
    /// Whether mode 2031 was turned on.
    var isEnabled = false
    var isRestored = false
  }
  private let state = Locked(State())

  private init(input: Int32, output: Int32, wakeUp: (Int32, Int32)) {
    self.input = input
    self.output = output
    self.wakeUp = wakeUp
  }

  /// Every follower that has not restored its terminal yet, for `restoreAll(withinMilliseconds:)`.
  private static let active = Locked<[TerminalFollower]>([])
  private static let exitHandlerIsInstalled: Void = {
    atexit { TerminalFollower.restoreAll(withinMilliseconds: 1_000) }
  }()

  /// Asks the terminal whether it announces changes. When it does, turns the announcements on and
  /// returns a follower with the scheme the terminal reported; otherwise puts the terminal back
  /// and returns `nil`. Waits at most twice `timeoutMilliseconds` (a late answer is read, not left
  /// in the input), and ends at once when the terminal answers the device-attributes request
  /// without a colour-scheme report. Other input that came meanwhile (keys typed) is given back to
  /// the terminal when the follower is not started, and when `givesBackInput` (for a program that
  /// reads the terminal itself); a follower that reads the input keeps only the reports.
  static func begin(input: Int32, output: Int32, timeoutMilliseconds: Int, givesBackInput: Bool = false) -> (
    TerminalFollower, DMUserInterfaceStyle
  )? {
    guard isatty(input) == 1, isatty(output) == 1 else { return nil }
    guard let wakeUp = try? DBusSocket.makeWakePipe() else { return nil }
    let follower = TerminalFollower(input: input, output: output, wakeUp: wakeUp)
    Self.exitHandlerIsInstalled
    active.withLock { $0.append(follower) }
    // Counted until the keys are given back, as a background query is (`RawModes`).
    return RawModes.whileAsking {
      guard follower.enterRawMode() else {
        follower.restore()
        return nil
      }
      var answer = TerminalQuery.Answer()
      if TerminalQuery.writeAll(TerminalReports.colorSchemeQuery, to: output) {
        answer = TerminalQuery.readAnswer(from: input, timeoutMilliseconds: timeoutMilliseconds) { report in
          report.scheme != nil || report == .deviceAttributes
        }
      }
      guard let style = answer.reports.compactMap(\.scheme).first, follower.enableNotifications() else {
        // A terminal that did not take the write that turns announcements on is not drained
        // either: the one that turns them off again gets as long, not a second.
        follower.restore(withinMilliseconds: 100)
        TerminalQuery.giveBack(answer.otherInput, to: input)
        return nil
      }
      if givesBackInput { TerminalQuery.giveBack(answer.otherInput, to: input) }
      return (follower, style)
    }
  }

  /// Saves the terminal's settings and enters non-canonical mode without echo, unless the
  /// follower was already put back.
  private func enterRawMode() -> Bool {
    state.withLock { state in
      guard !state.isRestored, let saved = TerminalQuery.enterRawMode(input) else { return false }
      state.saved = saved
      return true
    }
  }

  /// Turns the announcements on, unless the follower was already put back.
  private func enableNotifications() -> Bool {
    state.withLock { state in
      guard !state.isRestored else { return false }
      state.isEnabled = true
      return TerminalQuery.writeAll(TerminalReports.enableNotifications, to: output)
    }
  }

  /// Reads the terminal until `stop()` or the end of its input, reporting each announced change,
  /// and after each asks for the background again (``background(_:)`` gets it). After `stop()`, an
  /// answer still on its way is read (for at most `drainMilliseconds`) before the terminal is put
  /// back, so that it does not reach the program or the shell as typed text.
  func run(
    drainMilliseconds: Int, reporting report: (DMUserInterfaceStyle) -> Void,
    background: (DMColor) -> Void = { _ in }
  ) {
    defer { restore() }
    var scanner = TerminalReports()
    var buffer = [UInt8](repeating: 0, count: 512)
    var isAwaitingBackground = false
    var drainDeadline: Int?
    while true {
      var timeout: Int32 = -1
      if let drainDeadline {
        let remaining = TerminalQuery.millisecondsLeft(until: drainDeadline)
        guard isAwaitingBackground, remaining > 0 else { return }
        timeout = Int32(clamping: remaining)
      }
      var descriptors = [
        pollfd(fd: input, events: Int16(POLLIN), revents: 0),
        pollfd(fd: wakeUp.read, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&descriptors, 2, timeout)
      if ready < 0 && errno == EINTR { continue }
      guard ready >= 0 else { return }
      if descriptors[1].revents != 0, drainDeadline == nil {
        drainDeadline = TerminalQuery.deadline(inMilliseconds: drainMilliseconds)
      }
      if descriptors[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return }
      guard descriptors[0].revents & Int16(POLLIN) != 0 else { continue }
      let count = read(input, &buffer, buffer.count)
      if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
      guard count >= 0 else { return }
      // Zero bytes after POLLIN: another reader took them; the terminal is still there.
      guard count > 0 else { continue }
      for found in scanner.scan(buffer[0..<count]).reports {
        switch found {
        case .colorScheme(let style):
          guard drainDeadline == nil else { continue }
          report(style)
          isAwaitingBackground = TerminalQuery.writeAll(TerminalReports.backgroundQuery, to: output)
        case .background(let reply):
          isAwaitingBackground = false
          if let color = TerminalBackground.color(fromOSC11Reply: reply) { background(color) }
        case .deviceAttributes:
          continue
        }
      }
    }
  }

  /// Ends `run(drainMilliseconds:reporting:background:)`, which puts the terminal back once an
  /// answer on its way has come; a follower that does not run is put back at once.
  func stop(isRunning: Bool) {
    var byte: UInt8 = 1
    _ = write(wakeUp.write, &byte, 1)
    if !isRunning { restore() }
  }

  /// Turns the announcements off and restores the terminal's settings, once; a second caller
  /// waits until the first is done. The write that turns them off gives up after `milliseconds`:
  /// a second on a normal stop or exit, so that a busy link still gets it; 50 ms when a signal
  /// ends the program, which ends within 100 ms whatever the terminal does.
  private func restore(withinMilliseconds milliseconds: Int = 1_000) {
    state.withLock { state in
      guard !state.isRestored else { return }
      state.isRestored = true
      // The settings first: once the terminal sees mode 2031 turned off, everything is back.
      if var saved = state.saved { _ = tcsetattr(input, TCSANOW, &saved) }
      if state.isEnabled {
        _ = TerminalQuery.writeAll(
          TerminalReports.disableNotifications, to: output, withinMilliseconds: milliseconds)
      }
    }
    Self.active.withLock { $0.removeAll { $0 === self } }
  }

  /// Puts back every terminal a follower changed, at once, and ends their reading; for the
  /// program's exit and its signal handling, each write giving up after `milliseconds`.
  static func restoreAll(withinMilliseconds milliseconds: Int) {
    for follower in active.withLock({ $0 }) {
      follower.restore(withinMilliseconds: milliseconds)
      var byte: UInt8 = 1
      _ = write(follower.wakeUp.write, &byte, 1)
    }
  }

  deinit {
    close(wakeUp.read)
    close(wakeUp.write)
  }

}
