import DarkModeKit
import DarkModeKitTestSupport
import Foundation
import Testing

@testable import DarkModeKitLinux

#if canImport(Glibc)
  import Glibc
#endif

/// What reaches the program's input after the query: read in raw mode for `milliseconds`, the
/// terminal's settings put back after.
func leftInInput(_ pty: PseudoTerminal, milliseconds: Int = 200) -> [UInt8] {
  guard var saved = TerminalQuery.enterRawMode(pty.terminal) else { return [] }
  defer { _ = tcsetattr(pty.terminal, TCSANOW, &saved) }
  var left: [UInt8] = []
  let deadline = TerminalQuery.deadline(inMilliseconds: milliseconds)
  while let bytes = TerminalQuery.readSome(pty.terminal, until: deadline) { left += bytes }
  return left
}

/// Terminals that answer late, out of order, behind other input, or not at all; output that does
/// not drain; variables that lie. Nothing may be left in the user's input, and no answer is better
/// than a wrong one.
///
/// One at a time among the tests of process-wide state, as every test that puts a terminal in raw
/// mode: `restoreTerminal()`, which one of them calls, puts back every terminal in the process.
@Suite(.globalState) struct TerminalHazardsTests {
  /// A reply after the timeout (SSH with a slow round trip) is waited for a while longer, used,
  /// and not left in the input to reach the shell.
  @Test func aReplyAfterTheTimeoutIsUsedAndNotLeftInTheInput() async throws {
    let pty = try PseudoTerminal()
    // Late by 300 ms; the wait ends at twice the timeout, 700 ms after the reply.
    let (outcome, _, _) = await query(pty, timeout: 1_000) { _ in
      usleep(1_300_000)
      return "\u{1B}]11;rgb:ffff/ffff/ffff\u{07}\u{1B}[?64;1c"
    }
    guard case .reply(let reply) = outcome else {
      Issue.record("expected the late reply, got \(outcome)")
      return
    }
    #expect(TerminalBackground.color(fromOSC11Reply: reply)?.hexString == "#FFFFFF")
    #expect(leftInInput(pty).isEmpty)
  }

  /// Why bytes cannot be given back to a terminal here, or `nil` when they can: `TIOCSTI` on a
  /// terminal that is not the process's controlling one needs `CAP_SYS_ADMIN` (CI runs as root),
  /// and Linux 6.2 and later can turn it off.
  static let givingBackRefused: String? = {
    guard let pty = try? PseudoTerminal() else { return "no pseudo-terminal" }
    var byte = UInt8(ascii: "\n")
    return ioctl(pty.terminal, UInt(TIOCSTI), &byte) == 0
      ? nil : "TIOCSTI is refused: \(String(cString: strerror(errno)))"
  }()

  /// Thousands of bytes of other input before the reply (keys, a paste): the reply is found, and
  /// the other bytes are given back to the input, in order.
  @Test(.enabled(if: givingBackRefused == nil, "needs TIOCSTI (CAP_SYS_ADMIN on a test terminal)"))
  func inputBeforeTheReplyIsGivenBackAndTheReplyIsFound() async throws {
    let pty = try PseudoTerminal()
    // More than the 4 KB a query once read; fewer than the 4,095 bytes a line holds in the
    // terminal's own (canonical) mode, where the bytes given back go, as if typed.
    let typed = String(repeating: "k", count: 3_000)
    let (outcome, _, _) = await query(pty, timeout: 1_000) { _ in
      typed + "\u{1B}]11;rgb:1e1e/1e1e/2e2e\u{1B}\\\u{1B}[?62;c"
    }
    guard case .reply(let reply) = outcome else {
      Issue.record("expected the reply after the other input, got \(outcome)")
      return
    }
    #expect(TerminalBackground.color(fromOSC11Reply: reply)?.hexString == "#1E1E2E")
    #expect(String(decoding: leftInInput(pty), as: UTF8.self) == typed)
  }

  /// A program that reads its terminal itself (`readsInput: false`, `dmkit demo`) gets back the
  /// keys typed while the follower asked whether the terminal announces changes.
  @Test(.enabled(if: givingBackRefused == nil, "needs TIOCSTI (CAP_SYS_ADMIN on a test terminal)"))
  func keysTypedWhileTheFollowerStartsReachTheProgram() async throws {
    let pty = try PseudoTerminal()
    let (begun, _) = await onOwnThread {
      TerminalFollower.begin(
        input: pty.terminal, output: pty.terminal, timeoutMilliseconds: 5_000, givesBackInput: true)
    } whileDoing: {
      _ = pty.readFromProgram(atLeast: TerminalReports.colorSchemeQuery.count)
      pty.sendToProgram("jk\u{1B}[?997;1n\u{1B}[?62;c")
    }
    let follower = try #require(begun?.0)
    defer { follower.stop(isRunning: false) }
    #expect(begun?.1 == .dark)
    // The follower's raw mode is on: what the program would read now.
    let left = leftInInput(pty)
    #expect(String(decoding: left, as: UTF8.self).hasPrefix("jk"), "\(left)")
  }

  /// A flood larger than a line: the reply after 5,000 bytes is still found, and none of it is
  /// left in the input, where only the flood's own bytes are (as many as a line holds).
  @Test func aReplyBehindFiveThousandBytesIsFound() async throws {
    let pty = try PseudoTerminal()
    let (outcome, _, _) = await query(pty, timeout: 1_000) { _ in
      String(repeating: "x", count: 5_000) + "\u{1B}]11;rgb:0000/0000/0000\u{07}\u{1B}[?62;c"
    }
    guard case .reply = outcome else {
      Issue.record("expected the reply, got \(outcome)")
      return
    }
    #expect(leftInInput(pty).allSatisfy { $0 == UInt8(ascii: "x") })
  }

  /// More input before the reply than a query keeps (a long paste, a flood): the wait reads on,
  /// finds the reply, and leaves none of it in the input, where only the flood's first bytes are
  /// given back (as many as the terminal's input holds).
  @Test func aReplyBehindSeventyThousandBytesIsFoundAndNotLeftInTheInput() async throws {
    let pty = try PseudoTerminal()
    let (outcome, _, _) = await query(pty, timeout: 2_000) { _ in
      String(repeating: "x", count: 70_000) + "\u{1B}]11;rgb:fdfd/f6f6/e3e3\u{07}\u{1B}[?62;c"
    }
    guard case .reply(let reply) = outcome else {
      Issue.record("expected the reply behind the flood, got \(outcome)")
      return
    }
    #expect(TerminalBackground.color(fromOSC11Reply: reply)?.hexString == "#FDF6E3")
    let left = leftInInput(pty)
    #expect(left.allSatisfy { $0 == UInt8(ascii: "x") }, "left in the input: \(left.suffix(40))")
    #expect(left.count <= TerminalQuery.maximumKeptInput)
  }

  /// A terminal that answers in 8-bit controls' style, ending the reply with the one-byte ST
  /// (0x9C): the colour is read.
  @Test func aReplyEndedByTheEightBitSTIsRead() async throws {
    let pty = try PseudoTerminal()
    let (outcome, _, _) = await queryAnsweringBytes(pty) { _ in
      Array("\u{1B}]11;rgb:fdfd/f6f6/e3e3".utf8) + [0x9C] + Array("\u{1B}[?62;c".utf8)
    }
    guard case .reply(let reply) = outcome else {
      Issue.record("expected a reply, got \(outcome)")
      return
    }
    #expect(TerminalBackground.color(fromOSC11Reply: reply)?.hexString == "#FDF6E3")
    #expect(leftInInput(pty).isEmpty)
  }

  /// A program that ends on a signal while the terminal is asked puts it back
  /// (`restoreTerminal()`), after 40 ms at most, not leaving it without echo.
  @Test func aSignalDuringTheQueryFindsTheTerminalToPutBack() async throws {
    let pty = try PseudoTerminal()
    let before = pty.settings
    let (outcome, _) = await onOwnThread {
      TerminalQuery.backgroundReply(input: pty.terminal, output: pty.terminal, timeoutMilliseconds: 1_000)
    } whileDoing: {
      _ = pty.readFromProgram(atLeast: TerminalQuery.request.count)
      // Asked, in raw mode: what a signal handler's thread does.
      let raw = pty.settings.c_lflag & tcflag_t(ICANON) == 0
      DMTerminalAppearanceSource.restoreTerminal()
      let restored = pty.settings.c_lflag == before.c_lflag && pty.settings.c_iflag == before.c_iflag
      #expect(raw)
      #expect(restored)
    }
    #expect(outcome == .timedOut)
    #expect(pty.settings.c_lflag == before.c_lflag)
  }

  /// An Esc key pressed right after the terminal's answer, alone in the input, is a key like any
  /// other: given back, not dropped as the start of a reply.
  @Test(.enabled(if: givingBackRefused == nil, "needs TIOCSTI (CAP_SYS_ADMIN on a test terminal)"))
  func aLoneEscAfterTheAnswerIsGivenBack() async throws {
    let pty = try PseudoTerminal()
    let (outcome, _, _) = await query(pty) { _ in "\u{1B}[?62;c\u{1B}" }
    #expect(outcome == .unsupported)
    #expect(leftInInput(pty) == [0x1B])
  }

  /// A program that starts to end (a signal) just before the terminal's answer comes waits for
  /// it a little: the answer is read, not left to reach the shell after the program has ended.
  /// (`restoreTerminal()` waits 40 ms; here the wait is long enough for a loaded machine.)
  @Test func anAnswerThatComesAsTheProgramEndsIsReadNotLeftInTheInput() async throws {
    let pty = try PseudoTerminal()
    let (outcome, _) = await onOwnThread {
      TerminalQuery.backgroundReply(input: pty.terminal, output: pty.terminal, timeoutMilliseconds: 1_000)
    } whileDoing: {
      _ = pty.readFromProgram(atLeast: TerminalQuery.request.count)
      Thread {
        usleep(15_000)
        pty.sendToProgram("\u{1B}]11;rgb:1e1e/1e1e/2e2e\u{07}\u{1B}[?62;c")
      }.start()
      // What the thread that handles a signal does, the answer 15 ms away.
      RawModes.restoreAll(waitingMilliseconds: 2_000)
    }
    guard case .reply(let reply) = outcome else {
      Issue.record("expected the answer that came as the program ended, got \(outcome)")
      return
    }
    #expect(TerminalBackground.color(fromOSC11Reply: reply)?.hexString == "#1E1E2E")
    #expect(leftInInput(pty).isEmpty)
  }

  /// urxvt 9.31 and later end the reply with a bare ESC: it is read, and the device attributes
  /// after it still end the wait.
  @Test func aReplyEndedByABareESCIsRead() async throws {
    let pty = try PseudoTerminal()
    let (outcome, asked, _) = await query(pty, timeout: 1_000) { _ in
      "\u{1B}]11;rgb:fdfd/f6f6/e3e3\u{1B}\u{1B}[?1;2c"
    }
    // Asked with BEL, which every terminal reads and answers in kind.
    #expect(asked == Array("\u{1B}]11;?\u{07}\u{1B}[c".utf8))
    guard case .reply(let reply) = outcome else {
      Issue.record("expected a reply, got \(outcome)")
      return
    }
    #expect(TerminalBackground.color(fromOSC11Reply: reply)?.hexString == "#FDF6E3")
    #expect(leftInInput(pty).isEmpty)
  }

  /// Inside GNU screen, which answers the device attributes before the terminal's reply comes
  /// through, the terminal is not asked at all: nothing is written, no answer is given.
  @Test func insideGNUScreenTheTerminalIsNotAsked() async throws {
    let pty = try PseudoTerminal()
    let source = DMTerminalAppearanceSource(
      environment: ["TERM": "screen.xterm-256color", "STY": "4242.pts-0.host", "COLORFGBG": "15;0"],
      input: pty.terminal, output: pty.terminal, timeoutMilliseconds: 150)
    let (detection, written) = await onOwnThread {
      source.detect()
    } whileDoing: {
      pty.readFromProgram(atLeast: 1)
    }
    #expect(detection == nil)
    #expect(written.isEmpty)
  }

  @Test(arguments: [
    (["TERM": "rxvt-unicode-256color", "COLORFGBG": "0;default;15"], DMUserInterfaceStyle?.some(.light)),
    // Konsole answers OSC 11; its variables pass on to every program started from it, other
    // terminals included.
    (["TERM": "xterm-256color", "KONSOLE_VERSION": "230805", "COLORFGBG": "15;0"], nil),
    // screen's TERM without STY, as after sudo.
    (["TERM": "screen.rxvt", "COLORFGBG": "15;0"], nil),
    // QTerminal always says white on black, whatever its colours.
    (["TERM": "xterm-256color", "COLORFGBG": "15;0"], nil),
    // A pane of tmux or screen inherits the variable of the terminal the session began in.
    (["TERM": "rxvt-unicode", "TMUX": "/tmp/tmux-0/default,1,0", "COLORFGBG": "15;0"], nil),
    (["TERM": "dumb", "KONSOLE_VERSION": "230805", "STY": "1.pts", "COLORFGBG": "15;0"], nil),
  ])
  func colorFGBGIsReadOnlyFromTerminalsThatSetItTruthfully(
    _ environment: [String: String], _ style: DMUserInterfaceStyle?
  ) {
    // Not a terminal: only the variable can answer.
    let source = DMTerminalAppearanceSource(environment: environment, input: -1, output: -1)
    #expect(source.detect()?.style == style)
  }

  @Test func overSSHTheReplyIsGivenTimeForTheRoundTrip() {
    #expect(TerminalBackground.defaultTimeoutMilliseconds(in: [:]) == 250)
    #expect(TerminalBackground.defaultTimeoutMilliseconds(in: ["SSH_TTY": "/dev/pts/3"]) == 1_000)
    #expect(
      TerminalBackground.defaultTimeoutMilliseconds(in: ["SSH_CONNECTION": "10.0.0.2 5022 10.0.0.1 22"])
        == 1_000)
  }

  /// Ctrl-S and Ctrl-Q are read as bytes while the terminal is asked: they cannot pause the
  /// output, and the write that puts the terminal back cannot wait for Ctrl-Q.
  @Test func rawModeTurnsFlowControlOffAndPutsItBack() throws {
    let pty = try PseudoTerminal()
    var settings = pty.settings
    settings.c_iflag |= tcflag_t(IXON)
    tcsetattr(pty.terminal, TCSANOW, &settings)
    guard var saved = TerminalQuery.enterRawMode(pty.terminal) else {
      Issue.record("raw mode refused")
      return
    }
    #expect(pty.settings.c_iflag & tcflag_t(IXON) == 0)
    tcsetattr(pty.terminal, TCSANOW, &saved)
    #expect(pty.settings.c_iflag & tcflag_t(IXON) != 0)
  }

  /// A terminal whose output is paused (Ctrl-S before the program began, or a link that stopped
  /// draining) never holds a write for longer than its deadline.
  @Test func aWriteToAPausedTerminalGivesUpAtItsDeadline() throws {
    let pty = try PseudoTerminal()
    tcflow(pty.terminal, TCOOFF)
    defer { tcflow(pty.terminal, TCOON) }
    let clock = ContinuousClock()
    let start = clock.now
    // More than the terminal holds while paused.
    let written = TerminalQuery.writeAll(
      [UInt8](repeating: 0x41, count: 1 << 20), to: pty.terminal, withinMilliseconds: 100)
    let elapsed = clock.now - start
    #expect(!written)
    #expect(elapsed >= .milliseconds(100))
    #expect(elapsed < .seconds(5))
  }
}
