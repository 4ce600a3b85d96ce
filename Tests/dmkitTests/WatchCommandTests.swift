import DarkModeKit
import DarkModeKitTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The `dmkit` executable built beside the tests.
enum DMKit {
  static var path: String {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = folder.appendingPathComponent("dmkit").path
      if access(candidate, X_OK) == 0 { return candidate }
      folder = folder.deletingLastPathComponent()
    }
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
      "../../.build/debug/dmkit"
    )
    .standardizedFileURL.path
  }
}

@Suite struct WatchCommandTests {
  private let linePattern =
    #/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ source=(\w+) style=([\w-]+) contrast=([\w-]+) motion=([\w-]+) accent=([#\w]+)$/#

  @Test func watchPrintsTheEnvironmentsAppearanceAndEndsCleanlyOnSIGTERM() throws {
    let watch = try ChildProcess(
      DMKit.path, ["watch"], environment: ["DM_COLOR_SCHEME": "dark", "DM_CONTRAST": "high", "TERM": "dumb"],
      capturesOutput: true)
    let line = try #require(watch.readLine(seconds: 10))
    let match = try #require(line.wholeMatch(of: linePattern))
    #expect(match.output.1 == "variables")
    #expect(match.output.2 == "dark")
    #expect(match.output.3 == "high")
    watch.signal(SIGTERM)
    #expect(watch.wait(seconds: 5) == 0, "\(watch.errorOutput)")
  }

  @Test func watchEndsOnASignalSentTheMomentItPrints() throws {
    // A signal that came between ignoring it and listening for it used to be lost.
    for round in 0..<20 {
      let watch = try ChildProcess(
        DMKit.path, ["watch"], environment: ["DM_COLOR_SCHEME": "light", "TERM": "dumb"],
        capturesOutput: true)
      _ = try #require(watch.readLine(seconds: 10))
      watch.signal(round.isMultiple(of: 2) ? SIGTERM : SIGINT)
      #expect(watch.wait(seconds: 5) == 0, "round \(round): \(watch.errorOutput)")
    }
  }

  @Test func watchStartedWithSIGINTIgnoredKeepsIgnoringItAndEndsOnSIGTERM() throws {
    // A background job of a script starts with SIGINT ignored. Like any program, watch keeps it so,
    // whether the signal comes before it starts listening or after: it does not end on some runs
    // and go on for ever on others.
    let watch = try ChildProcess(
      "/bin/sh", ["-c", "trap '' INT; exec \"$0\" watch", DMKit.path],
      environment: ["DM_COLOR_SCHEME": "dark", "TERM": "dumb"], capturesOutput: true)
    _ = try #require(watch.readLine(seconds: 10))
    watch.signal(SIGINT)
    #expect(watch.wait(seconds: 1) == nil, "watch ended on an ignored SIGINT")
    watch.signal(SIGTERM)
    #expect(watch.wait(seconds: 5) == 0, "\(watch.errorOutput)")
  }

  @Test func watchWithNothingToAskSaysSoAndEndsOnSIGINT() throws {
    let watch = try ChildProcess(
      DMKit.path, ["watch"],
      environment: ["TERM": "dumb", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"],
      capturesOutput: true)
    let line = try #require(watch.readLine(seconds: 10))
    #expect(
      line.hasSuffix(
        "source=none style=no-preference contrast=no-preference motion=no-preference accent=none"))
    watch.signal(SIGINT)
    #expect(watch.wait(seconds: 5) == 0, "\(watch.errorOutput)")
  }

  @Test func watchNamesTheTerminalWhenItsBackgroundAnswers() throws {
    let watch = try ChildProcess(
      DMKit.path, ["watch"],
      environment: [
        "TERM": "rxvt-unicode-256color", "COLORFGBG": "15;0",
        "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus",
      ],
      capturesOutput: true)
    let line = try #require(watch.readLine(seconds: 10))
    #expect(
      line.hasSuffix("source=terminal style=dark contrast=no-preference motion=no-preference accent=none"),
      "\(line)")
    watch.signal(SIGTERM)
    #expect(watch.wait(seconds: 5) == 0, "\(watch.errorOutput)")
    #expect(
      watch.errorOutput.contains(
        "darkmodekit: warning: the desktop portal did not answer: cannot connect to D-Bus at \"unix:path=/nonexistent/bus\""
      ),
      "\(watch.errorOutput)")
  }

  /// `dmkit watch` in a terminal the test plays, with DEC mode 2031 and a black background: it
  /// answers the background query, then the colour-scheme query, and watch turns the
  /// announcements on.
  static func watchFollowingADarkTerminal() throws -> (ChildProcess, OutputTranscript) {
    let e = "\u{1B}"
    let watch = try ChildProcess(
      DMKit.path, ["watch"],
      environment: ["TERM": "xterm-256color", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"],
      outputIsTerminal: true)
    let output = OutputTranscript(watch)
    #expect(output.read(until: "\(e)[c"), "the background query")
    watch.sendToTerminal("\(e)]11;rgb:0000/0000/0000\u{07}\(e)[?62;c")
    #expect(output.read(until: "\(e)[?996n\(e)[c"), "the colour-scheme query: \(output.all.debugDescription)")
    watch.sendToTerminal("\(e)[?997;1n\(e)[?62;c")
    #expect(output.read(until: "\(e)[?2031h"), "announcements on")
    return (watch, output)
  }

  @Test func watchFollowsATerminalThatAnnouncesChangesAndPutsItBackOnSIGTERM() throws {
    let e = "\u{1B}"
    let (watch, output) = try Self.watchFollowingADarkTerminal()
    func read(until text: String) -> Bool { output.read(until: text) }
    // Printed when the background answered, before or after the following began.
    #expect(
      output.read(
        until: "source=terminal style=dark contrast=no-preference motion=no-preference accent=none\n",
        anywhere: true),
      "\(output.all.debugDescription)")
    // The terminal switches to light: watch prints it, and asks for the background again.
    watch.sendToTerminal("\(e)[?997;2n")
    #expect(
      read(until: "source=terminal style=light contrast=no-preference motion=no-preference accent=none\n"),
      "\(output.all.debugDescription)")
    watch.signal(SIGTERM)
    #expect(watch.readOutput(until: "\(e)[?2031l", seconds: 10) != nil, "announcements off before the end")
    #expect(watch.wait(seconds: 5) == 0, "\(watch.errorOutput)")
  }

  /// Ctrl-\ (SIGQUIT) and a hang-up (SIGHUP) end watch too, the terminal put back as on SIGTERM:
  /// its settings, and the announcements turned off, so that no later change types a report into
  /// the shell. The status says which signal ended it.
  @Test(arguments: [SIGHUP, SIGQUIT])
  func watchPutsTheTerminalBackOnSIGHUPAndSIGQUIT(_ number: Int32) throws {
    let (watch, _) = try Self.watchFollowingADarkTerminal()
    let terminal = try #require(watch.output)
    var before = termios()
    tcgetattr(terminal, &before)
    #expect(before.c_lflag & tcflag_t(ECHO) == 0, "raw mode while following")
    watch.signal(number)
    #expect(watch.readOutput(until: "\u{1B}[?2031l", seconds: 10) != nil, "announcements off before the end")
    #expect(watch.wait(seconds: 5) == 128 + number, "\(watch.errorOutput)")
    var after = termios()
    tcgetattr(terminal, &after)
    #expect(after.c_lflag & tcflag_t(ECHO | ICANON) == tcflag_t(ECHO | ICANON), "echo and line editing back")
  }

  /// In a real tmux (3.3a in Debian 12, which answers the device attributes but not OSC 11, nor
  /// the colour-scheme query): watch says nothing answered, and once it has ended on SIGTERM
  /// nothing of tmux's answers is left in the pane's input for the shell.
  @Test(.enabled(if: TmuxTerminal.missing == nil, "tmux is not installed"))
  func watchInsideTmuxSaysNothingAnsweredAndLeavesNothingInTheInput() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "dmkit-tmux-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let left = folder.appendingPathComponent("left")
    let script = """
      timeout --foreground --preserve-status -s TERM 5 \\
        env -u DM_COLOR_SCHEME -u DM_CONTRAST DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent/bus "$DMKIT" watch
      echo "exit=$?"
      stty raw -echo
      timeout 0.5 cat > "$LEFT"
      stty sane
      echo "left=$(od -An -c "$LEFT" | tr -d ' \\n')."
      sleep 600

      """
    try script.write(to: folder.appendingPathComponent("run.sh"), atomically: true, encoding: .utf8)
    let terminal = try TmuxTerminal(
      width: 200, environment: ["DMKIT": DMKit.path, "LEFT": left.path],
      command: ["bash", folder.appendingPathComponent("run.sh").path])
    defer { terminal.stop() }
    let (ended, screen) = try terminal.waitForScreen { $0.contains("left=") }
    #expect(ended, "\(screen)")
    // tmux 3.4 and later answer OSC 11 from the pane's colours: only 3.3 says nothing.
    if try terminal.version().hasPrefix("3.3") {
      #expect(
        screen.contains("source=none style=no-preference contrast=no-preference motion=no-preference"),
        "\(screen)")
    }
    #expect(screen.contains("exit=0"), "\(screen)")
    #expect(screen.contains("left=."), "left in the input: \(screen)")
  }

  /// A terminal that stops reading (a stalled SSH session, output paused) while watch has
  /// thousands of lines to print: SIGTERM still ends it at once, the terminal put back.
  @Test func watchEndsOnSIGTERMWhileItsOutputDoesNotDrain() throws {
    let e = "\u{1B}"
    let (watch, _) = try Self.watchFollowingADarkTerminal()
    // Thousands of changes, and nobody reads what watch prints: its output fills and stops.
    // Sent from a thread of its own: once watch's output is full it reads its input slowly.
    Thread {
      for _ in 0..<40 { watch.sendToTerminal(String(repeating: "\(e)[?997;1n\(e)[?997;2n", count: 50)) }
    }.start()
    usleep(1_000_000)
    // Watch's output is backed up: a terminal's worth of it waits to be read.
    var pending: Int32 = 0
    _ = ioctl(watch.output ?? -1, UInt(FIONREAD), &pending)
    #expect(pending >= 2_048, "only \(pending) bytes waiting: the output did not fill")
    let clock = ContinuousClock()
    let start = clock.now
    watch.signal(SIGTERM)
    let status = watch.wait(seconds: 10)
    let elapsed = clock.now - start
    print("watch ended \(elapsed) after SIGTERM, its output not draining")
    #expect(status == 0, "\(watch.errorOutput)")
    // Within 100 ms on an idle machine (62 ms measured); a loaded test machine gets some slack,
    // and a sanitizer's build, whose runtime does its own work at exit, more. Unbounded, the
    // write that puts the terminal back waits for ever: the 10 s above.
    let bound: Duration = Sanitizer.current == nil ? .seconds(1) : .seconds(5)
    #expect(elapsed < bound, "SIGTERM took \(elapsed)")
  }

  @Test func watchRejectsUnknownOptions() throws {
    let watch = try ChildProcess(DMKit.path, ["watch", "--bogus"], environment: [:])
    #expect(watch.wait(seconds: 10) == 2)
  }

  @Test(.enabled(if: DesktopSession.missing == nil))
  func watchFollowsTheDesktopPortalLineByLine() throws {
    let desktop = try DesktopSession()
    defer { desktop.stop() }
    try desktop.setColorScheme("prefer-dark")
    let watch = try desktop.start(DMKit.path, ["watch"], capturesOutput: true)
    defer { watch.stop() }
    let first = try #require(watch.readLine(seconds: 10))
    #expect(first.hasSuffix("source=portal style=dark contrast=normal motion=normal accent=none"))
    try desktop.setColorScheme("prefer-light")
    let second = try #require(watch.readLine(seconds: 10))
    #expect(second.hasSuffix("source=portal style=light contrast=normal motion=normal accent=none"))
    watch.signal(SIGTERM)
    #expect(watch.wait(seconds: 5) == 0, "\(watch.errorOutput)")
  }

  @Test(.enabled(if: DesktopSession.missing == nil))
  func watchPrintsAChangeThatLeavesTheResolvedStyleAsItWas() throws {
    // No preference resolves to light, the default: going to "prefer light" changes nothing the
    // app shows, but it is what the system now says.
    let desktop = try DesktopSession()
    defer { desktop.stop() }
    try desktop.setColorScheme("default")
    let watch = try desktop.start(DMKit.path, ["watch"], capturesOutput: true)
    defer { watch.stop() }
    let first = try #require(watch.readLine(seconds: 10))
    #expect(
      first.hasSuffix("source=portal style=no-preference contrast=normal motion=normal accent=none"),
      "\(first)")
    try desktop.setColorScheme("prefer-light")
    let second = try #require(watch.readLine(seconds: 10))
    #expect(
      second.hasSuffix("source=portal style=light contrast=normal motion=normal accent=none"), "\(second)")
    watch.signal(SIGTERM)
    #expect(watch.wait(seconds: 5) == 0, "\(watch.errorOutput)")
  }
}
