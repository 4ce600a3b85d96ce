import DarkModeKitTestSupport
import Foundation
import Testing

@testable import DarkModeKit
@testable import DarkModeKitLinux

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a background query on a thread of its own while `answer` plays the terminal: given what
/// the program asked, it returns the terminal's reply, or `nil` for none. Returns the outcome,
/// what was asked and how long the query took.
func query(_ pty: PseudoTerminal, timeout: Int = 1_000, answer: @escaping @Sendable ([UInt8]) -> String?)
  async
  -> (TerminalQuery.Outcome, [UInt8], Duration)
{
  await queryAnsweringBytes(pty, timeout: timeout) { asked in answer(asked).map { Array($0.utf8) } }
}

/// `query(_:timeout:answer:)` answered with bytes that need not be UTF-8.
func queryAnsweringBytes(
  _ pty: PseudoTerminal, timeout: Int = 1_000, answer: @escaping @Sendable ([UInt8]) -> [UInt8]?
)
  async
  -> (TerminalQuery.Outcome, [UInt8], Duration)
{
  // Timed on the querying thread itself, so that a busy task pool does not count.
  let result = await onOwnThread {
    let clock = ContinuousClock()
    let start = clock.now
    let outcome = TerminalQuery.backgroundReply(
      input: pty.terminal, output: pty.terminal, timeoutMilliseconds: timeout)
    return (outcome, clock.now - start)
  } whileDoing: {
    let asked = pty.readFromProgram(atLeast: TerminalQuery.request.count)
    if let reply = answer(asked) { pty.sendToProgram(reply) }
    return asked
  }
  return (result.0.0, result.1, result.0.1)
}

@Suite struct TerminalBackgroundTests {
  @Test(arguments: [
    ("15;0", DMUserInterfaceStyle.dark), ("0;15", .light), ("15;default;8", .dark), ("0;7", .light),
    ("12;4", .dark), ("1;11", .light),
  ])
  func colorFGBGGivesTheStyleOfItsLastField(_ value: String, _ style: DMUserInterfaceStyle) {
    #expect(TerminalBackground.style(fromColorFGBG: value) == style)
  }

  @Test(arguments: ["", "15;default", "15;16", "light", "0;-1"])
  func unusableColorFGBGGivesNothing(_ value: String) {
    #expect(TerminalBackground.style(fromColorFGBG: value) == nil)
  }

  @Test(arguments: [
    ("\u{1B}]11;rgb:0000/0000/0000\u{07}", DMColor(rgb: 0x000000)),
    ("\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\", DMColor(rgb: 0xFFFFFF)),
    ("\u{1B}]11;rgb:28/2c/34\u{07}", DMColor(rgb: 0x282C34)),
    ("\u{1B}]11;rgb:f/f/f\u{07}", DMColor(rgb: 0xFFFFFF)),
    ("\u{1B}]11;rgba:1e1e/1e1e/1e1e/ffff\u{07}", DMColor(rgb: 0x1E1E1E)),
    ("\u{1B}]11;#fdf6e3\u{07}", DMColor(rgb: 0xFDF6E3)),
  ])
  func osc11RepliesParse(_ reply: String, _ expected: DMColor) throws {
    let color = try #require(TerminalBackground.color(fromOSC11Reply: Array(reply.utf8)))
    #expect(color.hexString == expected.hexString)
  }

  @Test(arguments: [
    "", "\u{1B}]11;rgb:00/00\u{07}", "\u{1B}]11;rgb:zz/00/00\u{07}", "\u{1B}]10;rgb:0/0/0\u{07}",
    "\u{1B}]11;rgb:00000/0/0\u{07}",
    // Cut short: the last component has fewer digits than the others.
    "\u{1B}]11;rgb:ffff/ffff/0\u{1B}",
  ])
  func malformedRepliesGiveNothing(_ reply: String) {
    #expect(TerminalBackground.color(fromOSC11Reply: Array(reply.utf8)) == nil)
  }

  @Test func darkBackgroundsAreDarkerThanMidGrey() throws {
    #expect(TerminalBackground.style(forBackground: DMColor(rgb: 0x282C34)) == .dark)
    #expect(TerminalBackground.style(forBackground: DMColor(rgb: 0x002B36)) == .dark)
    #expect(TerminalBackground.style(forBackground: DMColor(rgb: 0xFDF6E3)) == .light)
    #expect(TerminalBackground.style(forBackground: DMColor(rgb: 0x808080)) == .light)
    #expect(TerminalBackground.style(forBackground: DMColor(rgb: 0x606060)) == .dark)
  }
}

@Suite(.globalState) struct TerminalQueryTests {
  @Test func aTerminalThatReportsItsBackgroundIsRead() async throws {
    let pty = try PseudoTerminal()
    let before = pty.settings
    let (outcome, asked, _) = await query(pty) { _ in "\u{1B}]11;rgb:2828/2c2c/3434\u{07}\u{1B}[?62;c" }
    #expect(asked == TerminalQuery.request)
    guard case .reply(let reply) = outcome else {
      Issue.record("expected a reply, got \(outcome)")
      return
    }
    #expect(TerminalBackground.color(fromOSC11Reply: reply)?.hexString == "#282C34")
    let after = pty.settings
    #expect(after.c_lflag == before.c_lflag)
  }

  @Test func aTerminalWithoutOSC11IsRecognisedWithoutWaitingForTheTimeout() async throws {
    let pty = try PseudoTerminal()
    let (outcome, _, elapsed) = await query(pty, timeout: 30_000) { _ in "\u{1B}[?1;2c" }
    #expect(outcome == .unsupported)
    #expect(elapsed < .seconds(15))  // far below the timeout, even on a loaded machine
  }

  /// A timeout counts from the moment, not from the last whole millisecond: a wait of 150 ms
  /// never ends after 149.
  @Test func aWaitInWholeMillisecondsNeverEndsBeforeItsDeadline() {
    let start = 1_999_999  // 1.999999 ms
    let deadline = TerminalQuery.deadline(inMilliseconds: 150, from: start)
    #expect(deadline == 151_999_999)
    #expect(TerminalQuery.millisecondsLeft(until: deadline, from: start) == 150)
    #expect(TerminalQuery.millisecondsLeft(until: deadline, from: 151_000_000) == 1)
    #expect(TerminalQuery.millisecondsLeft(until: deadline, from: 151_999_998) == 1)
    #expect(TerminalQuery.millisecondsLeft(until: deadline, from: 151_999_999) == 0)
    #expect(TerminalQuery.millisecondsLeft(until: deadline, from: 200_000_000) == 0)
    #expect(TerminalQuery.deadline(inMilliseconds: Int.max, from: start) == Int.max)
    #expect(TerminalQuery.deadline(inMilliseconds: -5, from: start) == start)
  }

  /// A timeout too long to count in nanoseconds (or for `poll`) waits for the reply.
  @Test func aTimeoutTooLongToCountWaitsForTheReply() async throws {
    let pty = try PseudoTerminal()
    let (outcome, _, _) = await query(pty, timeout: Int.max) { _ in
      "\u{1B}]11;rgb:2828/2c2c/3434\u{07}\u{1B}[?62;c"
    }
    guard case .reply(let reply) = outcome else {
      Issue.record("expected a reply, got \(outcome)")
      return
    }
    #expect(TerminalBackground.color(fromOSC11Reply: reply)?.hexString == "#282C34")
  }

  @Test func aSilentTerminalTimesOutAndIsRestored() async throws {
    let pty = try PseudoTerminal()
    let before = pty.settings
    let (outcome, _, elapsed) = await query(pty, timeout: 150) { _ in nil }
    #expect(outcome == .timedOut)
    #expect(elapsed >= .milliseconds(150))
    #expect(pty.settings.c_lflag == before.c_lflag)
    #expect(pty.settings.c_lflag & tcflag_t(ICANON) != 0)
  }

  @Test func pipesAreNotTerminals() throws {
    var descriptors: [Int32] = [0, 0]
    #expect(pipe(&descriptors) == 0)
    defer {
      close(descriptors[0])
      close(descriptors[1])
    }
    let outcome = TerminalQuery.backgroundReply(
      input: descriptors[0], output: descriptors[1], timeoutMilliseconds: 100)
    #expect(outcome == .notATerminal)
  }

  @Test func theSourcePrefersTheTerminalsAnswerAndFallsBackToColorFGBG() async throws {
    let pty = try PseudoTerminal()
    let source = DMTerminalAppearanceSource(
      environment: ["TERM": "xterm-256color", "COLORFGBG": "0;15"], input: pty.terminal, output: pty.terminal,
      timeoutMilliseconds: 1_000)
    let (detection, _) = await onOwnThread {
      source.detect()
    } whileDoing: {
      _ = pty.readFromProgram(atLeast: TerminalQuery.request.count)
      pty.sendToProgram("\u{1B}]11;rgb:0000/0000/0000\u{1B}\\")
    }
    #expect(detection?.style == .dark)
    #expect(detection?.method == .backgroundQuery)
    let dumb = DMTerminalAppearanceSource(
      environment: ["TERM": "rxvt-unicode", "COLORFGBG": "0;15"], input: -1, output: -1)
    #expect(dumb.detect() == .init(style: .light, method: .colorFGBG, background: nil))
    let nothing = DMTerminalAppearanceSource(
      environment: ["TERM": "dumb"], input: pty.terminal, output: pty.terminal)
    #expect(nothing.detect() == nil)
  }
}

@Suite struct EnvironmentSourceTests {
  @Test func variablesGiveStyleAndContrast() {
    let source = DMVariablesAppearanceSource(environment: [
      "DM_COLOR_SCHEME": "Dark", "DM_CONTRAST": "high",
    ])
    var expected = DMTraitCollection(userInterfaceStyle: .dark)
    expected.accessibilityContrast = .high
    #expect(source.traitCollection == expected)
    #expect(source.problems.isEmpty)
  }

  @Test func unsetOrEmptyVariablesGiveNothing() {
    #expect(DMVariablesAppearanceSource(environment: [:]).traitCollection == nil)
    #expect(DMVariablesAppearanceSource(environment: ["DM_COLOR_SCHEME": " "]).traitCollection == nil)
  }

  @Test func badValuesAreNamedAndIgnored() {
    let source = DMVariablesAppearanceSource(environment: [
      "DM_COLOR_SCHEME": "purple", "DM_CONTRAST": "normal",
    ])
    #expect(source.traitCollection == DMTraitCollection(accessibilityContrast: .normal))
    #expect(source.problems == ["DM_COLOR_SCHEME=purple is not \"light\" or \"dark\"; it is ignored"])
    let hostile = DMVariablesAppearanceSource(environment: [
      "DM_COLOR_SCHEME": "\u{1B}[2Jdark\u{07}", "DM_CONTRAST": String(repeating: "x", count: 100_000),
    ])
    #expect(
      hostile.problems == [
        "DM_COLOR_SCHEME=\\u{1B}[2Jdark\\u{7} is not \"light\" or \"dark\"; it is ignored",
        "DM_CONTRAST=\(String(repeating: "x", count: 64))… is not \"normal\" or \"high\"; it is ignored",
      ])
  }
}

/// Terminals that announce changes of their colour scheme (DEC mode 2031), played by the test on a
/// pseudo-terminal.
@Suite(.serialized, .globalState) struct TerminalNotificationTests {
  static let escape = "\u{1B}"

  @Test func reportsAreFoundInInputAndEverythingElsePassesThrough() {
    var scanner = TerminalReports()
    let e = Self.escape
    var (reports, passed) = scanner.scan(Array("a\(e)[?997;1nb\(e)[A\(e)xc\(e)[?997;2n\(e)[?62;22c".utf8))
    #expect(reports == [.colorScheme(.dark), .colorScheme(.light), .deviceAttributes])
    #expect(passed == Array("ab\(e)[A\(e)xc".utf8))
    // Split anywhere, even inside a report.
    let text = Array("\(e)]11;rgb:ffff/0000/0000\(e)\\k\(e)[?997;1n".utf8)
    var found: [TerminalReports.Report] = []
    var rest: [UInt8] = []
    for byte in text {
      (reports, passed) = scanner.scan([byte])
      found += reports
      rest += passed
    }
    #expect(found == [.background(Array("\(e)]11;rgb:ffff/0000/0000\(e)\\".utf8)), .colorScheme(.dark)])
    #expect(rest == Array("k".utf8))
    // Not ours: another scheme number, another report.
    (reports, passed) = scanner.scan(Array("\(e)[?997;3n\(e)[?6n".utf8))
    #expect(reports.isEmpty)
    #expect(passed == Array("\(e)[?997;3n\(e)[?6n".utf8))
  }

  @Test func aSequenceThatNeverEndsIsPassedOnAtItsLimit() {
    var scanner = TerminalReports()
    let endless = Array("\(Self.escape)]11;".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 10_000)
    let (reports, passed) = scanner.scan(endless)
    #expect(reports.isEmpty)
    // Whatever is kept is at most one sequence's limit.
    #expect(passed.count >= endless.count - TerminalReports.maximumSequenceLength)
  }

  /// Starts following on a thread of its own while the test answers the colour-scheme query.
  func begin(_ pty: PseudoTerminal, answer: String?) async -> (
    (TerminalFollower, DMUserInterfaceStyle)?, [UInt8], Duration
  ) {
    let ((begun, elapsed), asked) = await onOwnThread {
      let clock = ContinuousClock()
      let start = clock.now
      let begun = TerminalFollower.begin(
        input: pty.terminal, output: pty.terminal, timeoutMilliseconds: 20_000)
      return (begun, clock.now - start)
    } whileDoing: {
      let asked = pty.readFromProgram(atLeast: TerminalReports.colorSchemeQuery.count)
      if let answer { pty.sendToProgram(answer) }
      return asked
    }
    return (begun, asked, elapsed)
  }

  /// A program the app starts while it follows its terminal does not inherit the follower's own
  /// descriptors: they are close-on-exec.
  @Test func aProgramStartedWhileFollowingDoesNotInheritTheFollowersDescriptors() async throws {
    let pty = try PseudoTerminal()
    let e = Self.escape
    let (begun, _, _) = await begin(pty, answer: "\(e)[?997;1n\(e)[?62;c")
    let (follower, _) = try #require(begun)
    for fd in [follower.wakeUp.read, follower.wakeUp.write] {
      #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0, "descriptor \(fd) would reach a child")
    }
    follower.stop(isRunning: false)
  }

  @Test func aTerminalThatAnnouncesChangesIsFollowedAndPutBackWhenTheFollowingStops() async throws {
    let pty = try PseudoTerminal()
    let before = pty.settings
    let e = Self.escape
    let (begun, asked, _) = await begin(pty, answer: "\(e)[?997;1n\(e)[?62;c")
    #expect(asked == TerminalReports.colorSchemeQuery)
    let (follower, style) = try #require(begun)
    #expect(style == .dark)
    #expect(
      pty.readFromProgram(atLeast: TerminalReports.enableNotifications.count)
        == TerminalReports.enableNotifications)
    #expect(pty.settings.c_lflag & tcflag_t(ICANON | ECHO) == 0, "non-canonical, no echo while following")
    let reports = Locked<[DMUserInterfaceStyle]>([])
    let backgrounds = Locked<[String]>([])
    let finished = DispatchSemaphore(value: 0)
    Thread {
      follower.run(drainMilliseconds: 2_000) { style in
        reports.withLock { $0.append(style) }
      } background: { color in
        backgrounds.withLock { $0.append(color.hexString) }
      }
      finished.signal()
    }.start()
    pty.sendToProgram("typed keys\(e)[A\(e)[?997;2n")
    // After a change the source asks for the background again, and keeps it; the style is the
    // terminal's own word.
    #expect(
      pty.readFromProgram(atLeast: TerminalReports.backgroundQuery.count) == TerminalReports.backgroundQuery)
    pty.sendToProgram("\(e)]11;rgb:8080/8080/8080\u{07}")
    #expect(await eventually { backgrounds.withLock { $0 } == ["#808080"] })
    #expect(reports.withLock { $0 } == [.light])
    pty.sendToProgram("\(e)[?997;1n")
    #expect(await eventually { reports.withLock { $0 } == [.light, .dark] })
    _ = pty.readFromProgram(atLeast: TerminalReports.backgroundQuery.count)
    // Stopped with the background's answer on its way: the answer is read before the terminal is
    // put back, so that it never reaches the program as typed text.
    follower.stop(isRunning: true)
    pty.sendToProgram("\(e)]11;rgb:0000/0000/0000\u{1B}\\")
    #expect(finished.wait(timeout: .now() + 10) == .success)
    #expect(
      pty.readFromProgram(atLeast: TerminalReports.disableNotifications.count)
        == TerminalReports.disableNotifications)
    #expect(pty.settings.c_lflag == before.c_lflag)
    #expect(pendingInput(pty) == 0, "the answer was read, not left for the program")
    follower.stop(isRunning: true)
    #expect(pty.readFromProgram(atLeast: 1).isEmpty, "put back once")
  }

  /// How many bytes wait to be read on the program's side.
  func pendingInput(_ pty: PseudoTerminal) -> Int32 {
    var count: Int32 = 0
    _ = ioctl(pty.terminal, UInt(FIONREAD), &count)
    return count
  }

  @Test func theBackgroundQueryReadsItsWholeAnswerEvenWhenItComesInPieces() async throws {
    let pty = try PseudoTerminal()
    let e = Self.escape
    let ((outcome, _), _) = await onOwnThread {
      (
        TerminalQuery.backgroundReply(input: pty.terminal, output: pty.terminal, timeoutMilliseconds: 20_000),
        0
      )
    } whileDoing: {
      _ = pty.readFromProgram(atLeast: TerminalQuery.request.count)
      pty.sendToProgram("\(e)]11;rgb:0000/0000/0000\u{07}")
      usleep(100_000)
      pty.sendToProgram("\(e)[?62;c")
    }
    guard case .reply = outcome else {
      Issue.record("expected a reply, got \(outcome)")
      return
    }
    #expect(pendingInput(pty) == 0, "the attributes answer that came later was read too")
  }

  @Test func reportsAreFoundAfterAnOSCThatEndsOddly() {
    var scanner = TerminalReports()
    let e = Self.escape
    // Ended by the 8-bit string terminator.
    var (reports, passed) = scanner.scan(Array("\(e)]11;rgb:ffff/ffff/ffff".utf8) + [0x9C])
    #expect(reports.count == 1)
    // A bare ESC then a key: the ESC ended the reply, the key is the user's own (not Alt and it).
    (reports, passed) = scanner.scan(Array("\(e)]11;rgb:ffff/ffff/ffff\(e)x".utf8))
    #expect(reports == [.background(Array("\(e)]11;rgb:ffff/ffff/ffff\(e)".utf8))])
    #expect(passed == Array("x".utf8))
    // Ended by a bare ESC that starts another report: both are found, nothing is left over.
    (reports, passed) = scanner.scan(Array("\(e)]11;rgb:00\(e)[?997;2n".utf8))
    #expect(reports == [.background(Array("\(e)]11;rgb:00\(e)".utf8)), .colorScheme(.light)])
    #expect(passed.isEmpty)
    // urxvt 9.31 and later: the reply ended by a bare ESC, then the device attributes.
    (reports, passed) = scanner.scan(Array("\(e)]11;rgb:fdfd/f6f6/e3e3\(e)\(e)[?1;2cq".utf8))
    #expect(reports == [.background(Array("\(e)]11;rgb:fdfd/f6f6/e3e3\(e)".utf8)), .deviceAttributes])
    #expect(passed == Array("q".utf8))
    if case .background(let reply) = reports.first {
      #expect(TerminalBackground.color(fromOSC11Reply: reply)?.hexString == "#FDF6E3")
    }
    // Cancelled by CAN.
    (reports, passed) = scanner.scan(Array("\(e)]11;rgb".utf8) + [0x18] + Array("\(e)[?997;1n".utf8))
    #expect(reports == [.colorScheme(.dark)])
    #expect(passed == Array("\(e)]11;rgb".utf8) + [0x18])
  }

  @Test func aTerminalWithoutAnnouncementsIsLeftAsItWasAtOnce() async throws {
    let pty = try PseudoTerminal()
    let before = pty.settings
    let (begun, _, elapsed) = await begin(pty, answer: "\(Self.escape)[?1;2c")
    #expect(begun == nil)
    #expect(elapsed < .seconds(15), "far below the timeout")
    #expect(pty.settings.c_lflag == before.c_lflag)
    #expect(pty.readFromProgram(atLeast: 1).isEmpty, "mode 2031 is never turned on")
  }

  // Alone among the tests of process-wide state: it puts back every follower in the process,
  // those of the followed-terminal tests too.
  @Test(.globalState) func restoringEveryTerminalPutsAFollowedOneBack() async throws {
    let pty = try PseudoTerminal()
    let before = pty.settings
    let (begun, _, _) = await begin(pty, answer: "\(Self.escape)[?997;2n")
    let (follower, style) = try #require(begun)
    #expect(style == .light)
    _ = pty.readFromProgram(atLeast: TerminalReports.enableNotifications.count)
    DMTerminalAppearanceSource.restoreTerminal()
    #expect(
      pty.readFromProgram(atLeast: TerminalReports.disableNotifications.count)
        == TerminalReports.disableNotifications)
    #expect(pty.settings.c_lflag == before.c_lflag)
    follower.stop(isRunning: false)
    #expect(pty.readFromProgram(atLeast: 1).isEmpty)
  }
}

extension GlobalStateTests {
  /// The terminal source following a terminal, as an app configures it.
  @Suite @MainActor struct FollowedTerminalSourceTests {
    init() { DarkModeManager.reset() }

    /// Configures a terminal source that follows the pseudo-terminal.
    func startFollowing(_ pty: PseudoTerminal) {
      let source = DMTerminalAppearanceSource(
        environment: ["TERM": "xterm-256color"], input: pty.terminal, output: pty.terminal,
        timeoutMilliseconds: 20_000, followsChanges: true)
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: source))
    }

    /// Checks that the announcements were turned off last and the settings are as they were.
    func expectPutBack(
      _ pty: PseudoTerminal, before: termios, written: [UInt8],
      sourceLocation: SourceLocation = #_sourceLocation
    ) {
      #expect(
        written.suffix(TerminalReports.disableNotifications.count).elementsEqual(
          TerminalReports.disableNotifications), sourceLocation: sourceLocation)
      #expect(pty.settings.c_lflag == before.c_lflag, sourceLocation: sourceLocation)
    }

    @Test func theSystemFollowsTheTerminalAndTheTerminalIsPutBackWhenTheSourceStops() async throws {
      let pty = try PseudoTerminal()
      let before = pty.settings
      let e = "\u{1B}"
      startFollowing(pty)
      defer { DarkModeManager.reset() }
      let asked = await onOwnThread { pty.readFromProgram(atLeast: TerminalReports.colorSchemeQuery.count) }
      #expect(asked == TerminalReports.colorSchemeQuery)
      pty.sendToProgram("\(e)[?997;2n")
      #expect(await eventually(10) { DMTraitCollection.system.userInterfaceStyle == .light })
      _ = await onOwnThread { pty.readFromProgram(atLeast: TerminalReports.enableNotifications.count) }
      pty.sendToProgram("\(e)[?997;1n")
      #expect(await eventually(10) { DMTraitCollection.system.userInterfaceStyle == .dark })
      DarkModeManager.setup(with: DMConfiguration())
      // The background's answer to the query after the change comes after the stop.
      pty.sendToProgram("\(e)]11;rgb:0000/0000/0000\u{07}")
      let rest = await onOwnThread {
        pty.readFromProgram(
          atLeast: TerminalReports.backgroundQuery.count + TerminalReports.disableNotifications.count)
      }
      expectPutBack(pty, before: before, written: rest)
    }

    @Test func aSourceStoppedWhileTheTerminalIsAskedPutsItBackAndReportsNothing() async throws {
      let pty = try PseudoTerminal()
      let before = pty.settings
      let e = "\u{1B}"
      startFollowing(pty)
      defer { DarkModeManager.reset() }
      _ = await onOwnThread { pty.readFromProgram(atLeast: TerminalReports.colorSchemeQuery.count) }
      // Stopped before the terminal answers; then it answers.
      DarkModeManager.setup(with: DMConfiguration())
      pty.sendToProgram("\(e)[?997;1n")
      let written = await onOwnThread {
        pty.readFromProgram(
          atLeast: TerminalReports.enableNotifications.count + TerminalReports.disableNotifications.count)
      }
      expectPutBack(pty, before: before, written: written)
      #expect(DMTraitCollection.system.userInterfaceStyle == .unspecified)
    }
  }
}
