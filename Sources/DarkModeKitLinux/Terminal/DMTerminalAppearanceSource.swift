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
/// reported by an OSC 11 query, else the `COLORFGBG` variable.
///
/// The OSC 11 query runs only when standard input and output are both terminals and `TERM` is not
/// `dumb`. It puts the terminal in raw mode for at most the timeout, and always restores its
/// settings. A background darker than mid grey means the dark style.
///
/// Terminals do not announce changes, so the source reports once, from a thread of its own.
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

  /// Creates a source for a terminal.
  /// - Parameters:
  ///   - environment: The variables to read `TERM` and `COLORFGBG` from; the process's by default.
  ///   - input: The descriptor the terminal's replies arrive on; standard input by default.
  ///   - output: The descriptor queries are written to; standard output by default.
  ///   - timeoutMilliseconds: How long to wait for the terminal's reply.
  public nonisolated init(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, timeoutMilliseconds: Int = 250
  ) {
    self.environment = environment
    self.input = input
    self.output = output
    self.timeoutMilliseconds = timeoutMilliseconds
  }

  /// Asks the terminal now, blocking for at most the timeout.
  /// - Returns: What the terminal says, or `nil` when it says nothing usable.
  public nonisolated func detect() -> Detection? {
    if environment["TERM"] != "dumb",
      case .reply(let reply) = TerminalQuery.backgroundReply(
        input: input, output: output, timeoutMilliseconds: timeoutMilliseconds),
      let background = TerminalBackground.color(fromOSC11Reply: reply)
    {
      return Detection(
        style: TerminalBackground.style(forBackground: background), method: .backgroundQuery,
        background: background)
    }
    if let value = environment["COLORFGBG"], let style = TerminalBackground.style(fromColorFGBG: value) {
      return Detection(style: style, method: .colorFGBG, background: nil)
    }
    return nil
  }

  /// Asks the terminal on a thread of its own and reports the answer, if any.
  /// - Parameter reporter: Where the answer goes.
  public func start(reporting reporter: DMAppearanceReporter) {
    let thread = Thread { [self] in
      if let detection = detect() {
        reporter.send(DMTraitCollection(userInterfaceStyle: detection.style))
      }
    }
    thread.name = "DarkModeKit terminal query"
    thread.start()
  }

  /// Stops. A report still on its way is ignored, as the reports of every stopped source are.
  public func stop() {}
}
