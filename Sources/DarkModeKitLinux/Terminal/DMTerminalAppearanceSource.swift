import DarkModeKit
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the system appearance from the terminal the program runs in: the background colour
/// reported by an OSC 11 query, else the `COLORFGBG` variable of the terminals known to set it.
///
/// The OSC 11 query runs only when standard input and output are both terminals, `TERM` is not
/// `dumb`, and the program does not run inside GNU screen (`STY` set), which answers for the
/// terminal out of order: there the source gives no answer rather than leave the terminal's late
/// reply in the input. It puts the terminal in raw mode (no echo, Ctrl-S and Ctrl-Q read as bytes)
/// for at most twice the timeout, and always restores its settings; input that is not the reply
/// is given back. `COLORFGBG` is read only in the rxvt family (`TERM` `rxvt…`), outside screen and
/// tmux. A background darker than mid grey means the dark style.
///
/// By default the source reports once, from a thread of its own. With `followsChanges`, a terminal
/// that announces changes of its colour scheme (DEC mode 2031: kitty, foot, Ghostty, Contour,
/// iTerm2, tmux 3.6 and others; asked with `ESC [ ? 996 n`) is followed live: the source turns the
/// announcements on, reports each change, asks for the background again after it (OSC 11, kept in
/// ``background``), and puts the terminal back (mode 2031 off, its settings restored) when it
/// stops, when the terminal's input ends, and when the process exits. A program
/// that ends on a signal calls ``restoreTerminal()`` first. While it follows, the source reads the
/// terminal's input in non-canonical mode without echo and keeps only the terminal's reports, so
/// it suits programs that do not read the terminal themselves. A terminal that does not announce
/// changes is asked once, as without `followsChanges`.
///
/// ```swift
/// DarkModeManager.setup(with: DMConfiguration(
///   systemAppearanceSource: DMTerminalAppearanceSource()))
/// ```
@MainActor
public final class DMTerminalAppearanceSource: DMSystemAppearanceSource {
  /// Where the answer came from.
  public enum Method: String, Sendable {
    /// The terminal reported its background colour.
    case backgroundQuery
    /// The `COLORFGBG` variable.
    case colorFGBG
  }

  /// What the terminal says: the style, how it was found, and the background colour if known.
  public struct Detection: Sendable, Hashable {
    /// The style the background implies.
    public let style: DMUserInterfaceStyle
    /// How it was found.
    public let method: Method
    /// The background colour, when the terminal reported it.
    public let background: DMColor?
  }

  private nonisolated let environment: [String: String]
  private nonisolated let input: Int32
  private nonisolated let output: Int32
  private nonisolated let timeoutMilliseconds: Int
  /// Whether the source follows a terminal that announces changes.
  public nonisolated let followsChanges: Bool
  /// Whether a following source reads the terminal's input itself; when `false`, the program
  /// reads it and passes it through ``takeInput(_:)``.
  public nonisolated let readsInput: Bool
  /// The following of the running start: which start it is, and its follower once the terminal
  /// said it announces changes.
  private struct Following {
    var session = 0
    var follower: TerminalFollower?
    /// For a source that does not read the input: where announcements found by ``takeInput(_:)``
    /// go, and what finds them.
    var reporter: DMAppearanceReporter?
    var scanner = TerminalReports()
  }
  private nonisolated let following = Locked(Following())
  private nonisolated let lastBackground = Locked<DMColor?>(nil)

  /// The background colour the terminal last reported while the source follows it (it is asked
  /// again after each announced change), or `nil`.
  public nonisolated var background: DMColor? {
    lastBackground.withLock { $0 }
  }

  /// Creates a source for a terminal.
  /// - Parameters:
  ///   - environment: The variables to read `TERM` and `COLORFGBG` from; the process's by default.
  ///   - input: The descriptor the terminal's replies arrive on; standard input by default.
  ///   - output: The descriptor queries are written to; standard output by default.
  ///   - timeoutMilliseconds: How long to wait for the terminal's reply; by default 250 ms, or
  ///     1,000 ms over SSH (`SSH_TTY` or `SSH_CONNECTION` set). A reply not in by then is given as
  ///     long again to finish, and used if it comes, so that none of it is left in the input.
  ///   - followsChanges: Whether to follow a terminal that announces changes of its colour scheme.
  ///   - readsInput: Whether a following source reads the terminal's input itself (`true`, for a
  ///     program that does not read it), or the program does and passes what it reads through
  ///     ``takeInput(_:)``.
  public nonisolated init(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, timeoutMilliseconds: Int? = nil,
    followsChanges: Bool = false, readsInput: Bool = true
  ) {
    self.readsInput = readsInput
    self.environment = environment
    self.input = input
    self.output = output
    self.timeoutMilliseconds =
      timeoutMilliseconds ?? TerminalBackground.defaultTimeoutMilliseconds(in: environment)
    self.followsChanges = followsChanges
  }

  /// Asks the terminal now, blocking for at most twice the timeout: a terminal that has not
  /// answered by the timeout is given as long again, so that its late answer is not left in the
  /// input.
  /// - Returns: What the terminal says, or `nil` when it says nothing usable.
  public nonisolated func detect() -> Detection? {
    if TerminalBackground.asksTerminal(in: environment),
      case .reply(let reply) = TerminalQuery.backgroundReply(
        input: input, output: output, timeoutMilliseconds: timeoutMilliseconds),
      let background = TerminalBackground.color(fromOSC11Reply: reply)
    {
      return Detection(
        style: TerminalBackground.style(forBackground: background), method: .backgroundQuery,
        background: background)
    }
    if TerminalBackground.trustsColorFGBG(in: environment), let value = environment["COLORFGBG"],
      let style = TerminalBackground.style(fromColorFGBG: value)
    {
      return Detection(style: style, method: .colorFGBG, background: nil)
    }
    return nil
  }

  /// Asks the terminal on a thread of its own and reports the answer, if any; with
  /// ``followsChanges``, then follows a terminal that announces changes. Starting again stops the
  /// earlier start first.
  /// - Parameter reporter: Where the answers go.
  public func start(reporting reporter: DMAppearanceReporter) {
    let session = newSession()
    let thread = Thread { [self] in
      if followsChanges, follow(session: session, reporting: reporter) { return }
      if let detection = detect() {
        reporter.send(DMTraitCollection(userInterfaceStyle: detection.style))
      }
    }
    thread.name = "DarkModeKit terminal"
    thread.start()
  }

  /// Ends the following of any earlier start and returns the number of a new one, for
  /// ``follow(session:reporting:)``.
  nonisolated func newSession() -> Int {
    following.withLock { following in
      following.follower?.stop(isRunning: readsInput)
      following.follower = nil
      following.reporter = nil
      following.scanner = TerminalReports()
      following.session += 1
      return following.session
    }
  }

  /// On the calling thread: asks whether the terminal announces changes and, if it does, reports
  /// its colour scheme and then each change until ``stop()`` or a newer start. Returns `false` at
  /// once, with the terminal as it was, when it does not announce changes, and `true` when it
  /// followed (or was stopped meanwhile).
  nonisolated func follow(session: Int, reporting reporter: DMAppearanceReporter) -> Bool {
    guard TerminalBackground.asksTerminal(in: environment),
      let (follower, style) = TerminalFollower.begin(
        input: input, output: output, timeoutMilliseconds: timeoutMilliseconds, givesBackInput: !readsInput)
    else { return false }
    let isCurrent = following.withLock { following in
      guard following.session == session else { return false }
      following.follower = follower
      following.reporter = reporter
      return true
    }
    // Stopped, or started again, while the terminal was being asked: put it back at once.
    guard isCurrent else {
      follower.stop(isRunning: false)
      return true
    }
    reporter.send(DMTraitCollection(userInterfaceStyle: style))
    // The program reads the input and hands it to `takeInput(_:)`.
    guard readsInput else { return true }
    follower.run(drainMilliseconds: timeoutMilliseconds) {
      reporter.send(DMTraitCollection(userInterfaceStyle: $0))
    } background: { [lastBackground] color in
      lastBackground.withLock { $0 = color }
    }
    return true
  }

  /// Takes what the program read from the terminal, for a source made with `readsInput: false`:
  /// reports the colour-scheme announcements in it (and asks for the background after each, as a
  /// source that reads the input does), and returns everything else, such as keys, in order.
  ///
  /// A program that reads its terminal itself (a full-screen app, `dmkit demo`) passes each read
  /// through it. Before the source follows the terminal, or after it stops, it returns the bytes
  /// unchanged.
  /// - Parameter bytes: What the program read.
  /// - Returns: The bytes that are not the terminal's reports.
  public nonisolated func takeInput(_ bytes: [UInt8]) -> [UInt8] {
    following.withLock { following in
      guard following.follower != nil, let reporter = following.reporter else { return bytes }
      let (reports, passed) = following.scanner.scan(bytes)
      for report in reports {
        switch report {
        case .colorScheme(let style):
          reporter.send(DMTraitCollection(userInterfaceStyle: style))
          _ = TerminalQuery.writeAll(TerminalReports.backgroundQuery, to: output)
        case .background(let reply):
          if let color = TerminalBackground.color(fromOSC11Reply: reply) {
            lastBackground.withLock { $0 = color }
          }
        case .deviceAttributes:
          continue
        }
      }
      return passed
    }
  }

  /// Stops, and puts a followed terminal back as it was (once an answer it was waiting for has
  /// come, at most the timeout later). A report still on its way is ignored, as the reports of
  /// every stopped source are.
  public func stop() {
    _ = newSession()
  }

  /// Puts every terminal a source follows back as it was: change announcements off, settings
  /// restored. The process's exit does it by itself; a program that ends on a signal calls it
  /// first. Callable from any thread, and more than once.
  ///
  /// While the terminal is being asked, it first waits up to 40 ms for the answer, which a local
  /// terminal gives within a few milliseconds, so that the answer does not reach the shell once
  /// the program has ended. It returns within about 100 ms whatever the terminal does, and 250 ms
  /// at most when the terminal stops taking output just as a follower turns announcements on.
  public nonisolated static func restoreTerminal() {
    RawModes.restoreAll(waitingMilliseconds: 40)
    TerminalFollower.restoreAll(withinMilliseconds: 50)
  }
}
