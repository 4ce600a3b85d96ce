import DarkModeKitTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `dmkit watch` in real terminals from Debian's packages, on a private X display: what each says,
/// and that nothing of the terminal's answer is left in the input afterwards.
///
/// The terminal runs `script`, which records what watch prints (a terminal program between the
/// two, as a multiplexer or SSH would be), then reads what is left in its input.
@Suite(.serialized) struct RealTerminalTests {
  static let programs = ["/usr/bin/xterm", "/usr/bin/urxvt", "/usr/bin/screen", "/usr/bin/script"]

  /// Why the real terminals cannot run here, or `nil`; printed when they skip.
  static let missing: String? = {
    let absent = programs.filter { access($0, X_OK) != 0 }
    if let reason = DesktopSession.missing { return reason }
    guard absent.isEmpty else {
      let reason =
        "Skipping real-terminal tests: \(absent.joined(separator: ", ")) not installed "
        + "(.ci/install-dependencies installs them)"
      print(reason)
      return reason
    }
    return nil
  }()

  /// A terminal set-up, its background, and what watch must say in it.
  struct Case: Sendable, CustomTestStringConvertible {
    let terminal: String
    let background: String
    let expected: String
    var testDescription: String { "\(terminal), background \(background)" }

    /// The terminal's command line, running `inner`.
    func command(running inner: String) -> [String] {
      switch terminal {
      case "xterm":
        ["/usr/bin/xterm", "-fn", "fixed", "-bg", background, "-fg", "grey", "-e", "sh", "-c", inner]
      case "urxvt": ["/usr/bin/urxvt", "-bg", background, "-fg", "grey", "-e", "sh", "-c", inner]
      default:  // screen inside xterm
        ["/usr/bin/xterm", "-fn", "fixed", "-bg", background, "-e", "/usr/bin/screen", "sh", "-c", inner]
      }
    }
  }

  static let cases: [Case] = [
    Case(terminal: "xterm", background: "#1e1e2e", expected: "source=terminal style=dark"),
    Case(terminal: "xterm", background: "#fdf6e3", expected: "source=terminal style=light"),
    // urxvt 9.30 does not answer OSC 11, and sets COLORFGBG to no index for a background given
    // as a colour: no answer, not a wrong one.
    Case(terminal: "urxvt", background: "#1e1e2e", expected: "source=none style=no-preference"),
    Case(terminal: "urxvt", background: "#fdf6e3", expected: "source=none style=no-preference"),
    // screen answers for the terminal out of order: not asked.
    Case(terminal: "screen", background: "#1e1e2e", expected: "source=none style=no-preference"),
    Case(terminal: "screen", background: "#fdf6e3", expected: "source=none style=no-preference"),
  ]

  /// One desktop session for every case, one case at a time: a session is a display, a bus and a
  /// portal, and the other tests that start sessions run meanwhile.
  @Test(.enabled(if: missing == nil, "needs xterm, urxvt, screen and a desktop session"))
  @MainActor func watchInRealTerminalsAnswersRightAndLeavesNothingInTheInput() async throws {
    let session = try DesktopSession()
    defer { session.stop() }
    for setup in Self.cases { try await check(setup, in: session) }
  }

  @MainActor func check(_ setup: Case, in session: DesktopSession) async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let log = folder.file("watch.log").path
    let left = folder.file("left").path
    // No desktop portal: the terminal is the source. After watch, what is left in the input is
    // read for half a second, without waiting for a line.
    let inner =
      "DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent script -q -c 'timeout --foreground -s TERM 3 \(DMKit.path) watch' \(log); "
      + "stty -icanon -echo min 0 time 5; head -c 256 > \(left); echo done >> \(left).end"
    let terminal = try session.start(
      setup.command(running: inner)[0], Array(setup.command(running: inner).dropFirst()))
    defer { terminal.stop() }
    let finished = await eventually(30) { FileManager.default.fileExists(atPath: left + ".end") }
    #expect(finished, "the terminal did not run watch to its end")
    let shown = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    let answer = shown.range(of: #"source=[a-z]+ style=[a-z-]+"#, options: .regularExpression).map {
      String(shown[$0])
    }
    print("dmkit watch in \(setup.testDescription): \(answer ?? "nothing")")
    #expect(answer == setup.expected, "\(shown.debugDescription) \(terminal.errorOutput)")
    let leftOver = (try? Data(contentsOf: URL(fileURLWithPath: left))) ?? Data()
    #expect(
      leftOver.isEmpty, "left in the input: \(String(decoding: leftOver, as: UTF8.self).debugDescription)")
  }
}
