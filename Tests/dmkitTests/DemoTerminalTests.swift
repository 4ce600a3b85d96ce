import DarkModeKit
import DarkModeKitTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `dmkit demo` in a real terminal: tmux types the keys and captures the screen, text and colours.
@Suite(.enabled(if: TmuxTerminal.missing == nil, "tmux is not installed"))
struct DemoTerminalTests {
  /// A folder with the script the session runs: the demo, then its exit status and the terminal
  /// settings once it ended, then a pause to keep the screen.
  final class Run: Sendable {
    let folder: URL
    let terminal: TmuxTerminal

    init(arguments: [String] = [], environment: [String: String]) throws {
      folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "dmkit-demo-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let script = """
        sh -c 'echo $$ > "$0"; exec "$@"' "$DEMO_PID_FILE" "$DMKIT" demo "$@"
        echo "exit=$?"
        stty -a | tr ' ;' '\\n\\n' | grep -x -e '-\\{0,1\\}icanon' -e '-\\{0,1\\}echo' | tr '\\n' ' '
        echo
        sleep 600

        """
      try script.write(to: folder.appendingPathComponent("run.sh"), atomically: true, encoding: .utf8)
      var variables = environment
      variables["DMKIT"] = DMKit.path
      variables["DEMO_PID_FILE"] = folder.appendingPathComponent("pid").path
      terminal = try TmuxTerminal(
        environment: variables, command: ["bash", folder.appendingPathComponent("run.sh").path] + arguments)
    }

    deinit {
      terminal.stop()
      try? FileManager.default.removeItem(at: folder)
    }

    /// The demo's process id, once it started.
    var pid: pid_t? {
      (try? String(contentsOf: folder.appendingPathComponent("pid"), encoding: .utf8))
        .flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Waits until the screen shows all of `texts`, and paints backgrounds with `colors` (`R;G;B`)
    /// and not with `notColors`; records an issue with the screen when it does not.
    @discardableResult
    func expectScreen(
      _ texts: String..., colors: [String] = [], notColors: [String] = [],
      sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
      let (matched, screen) = try terminal.waitForScreen { screen in texts.allSatisfy(screen.contains) }
      #expect(matched, "the screen does not show \(texts):\n\(screen)", sourceLocation: sourceLocation)
      if !colors.isEmpty || !notColors.isEmpty {
        let (colored, escaped) = try terminal.waitForScreen(escapes: true) { screen in
          colors.allSatisfy { Self.hasBackground($0, screen) }
            && !notColors.contains { Self.hasBackground($0, screen) }
        }
        #expect(
          colored, "the colours are not \(colors) without \(notColors):\n\(escaped)",
          sourceLocation: sourceLocation)
      }
      return screen
    }

    /// Whether a captured screen paints some cell's background with `components` (`R;G;B`).
    static func hasBackground(_ components: String, _ screen: String) -> Bool {
      screen.contains("48;2;\(components)m") || screen.contains("48;2;\(components);")
    }

    /// Checks that the demo ended with status 0 and gave the terminal back: main screen, cursor
    /// shown, line editing and echo on.
    func expectRestored(sourceLocation: SourceLocation = #_sourceLocation) throws {
      let screen = try expectScreen("exit=", "icanon", sourceLocation: sourceLocation)
      #expect(screen.contains("exit=0"), sourceLocation: sourceLocation)
      #expect(screen.contains("icanon echo"), "\(screen)", sourceLocation: sourceLocation)
      #expect(!screen.contains("Style:"), "the demo's screen is still shown", sourceLocation: sourceLocation)
      #expect(try terminal.pane("alternate_on") == "0", sourceLocation: sourceLocation)
      #expect(try terminal.pane("cursor_flag") == "1", sourceLocation: sourceLocation)
    }
  }

  // Background colours of Docs/Examples/Palette.txt as ANSI components.
  let normal = "255;255;255"
  let night = "28;28;30"
  let sepia = "244;236;216"
  let solarizedDark = "0;43;54"
  let solarizedLight = "253;246;227"

  @Test func keysSwitchTheStyleAndThemeAndQuitRestoresTheTerminal() throws {
    let run = try Run(environment: ["DM_COLOR_SCHEME": "light"])
    try run.expectScreen(
      "DarkModeKit — Palette.txt", "Style: light   Theme: NORMAL   Image: sun", "System: light (variables)",
      "followed", "[ Light ] [ Dark ] [ System ] [ Theme ]", colors: [normal], notColors: [night])
    #expect(try run.terminal.pane("alternate_on") == "1")
    #expect(try run.terminal.pane("cursor_flag") == "0")

    try run.terminal.sendKeys("d")
    try run.expectScreen(
      "Style: dark   Theme: NIGHT   Image: moon", "overridden", colors: [night], notColors: [normal])

    // SEPIA has a light side only: choosing it shows that side, never its colours in the dark.
    try run.terminal.sendKeys("t")
    try run.expectScreen(
      "Style: light   Theme: SEPIA   Image: sun", "[ Theme: SEPIA ]", colors: [sepia], notColors: [night])

    // SOLARIZED has both sides: it follows the style chosen.
    try run.terminal.sendKeys("t")
    try run.expectScreen(
      "Style: light   Theme: SOLARIZED   Image: sun", colors: [solarizedLight], notColors: [sepia])
    try run.terminal.sendKeys("d")
    try run.expectScreen(
      "Style: dark   Theme: SOLARIZED:dark   Image: moon", colors: [solarizedDark],
      notColors: [solarizedLight])

    try run.terminal.sendKeys("t")
    try run.expectScreen(
      "Style: light   Theme: NORMAL   Image: sun", colors: [normal], notColors: [solarizedDark])

    try run.terminal.sendKeys("t")
    try run.expectScreen("Style: dark   Theme: NIGHT   Image: moon", colors: [night], notColors: [normal])

    try run.terminal.sendKeys("s")
    try run.expectScreen(
      "Style: light   Theme: NORMAL   Image: sun", "followed", colors: [normal], notColors: [night])

    try run.terminal.sendKeys("q")
    try run.expectRestored()
  }

  @Test func ctrlCEndsTheDemoAndRestoresTheTerminal() throws {
    let run = try Run(environment: ["DM_COLOR_SCHEME": "dark"])
    try run.expectScreen(
      "Style: dark   Theme: NIGHT   Image: moon", "System: dark (variables)", colors: [night])
    try run.terminal.sendKeys("C-c")
    try run.expectRestored()
  }

  @Test func sigtermEndsTheDemoAndRestoresTheTerminal() throws {
    let run = try Run(environment: ["DM_COLOR_SCHEME": "dark"])
    try run.expectScreen("Style: dark   Theme: NIGHT")
    let pid = try #require(run.pid)
    kill(pid, SIGTERM)
    try run.expectRestored()
  }

  @Test func aTableFileIsShownAndItsThemesCycled() throws {
    let table = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../Docs/Examples/DKColorTable.txt").standardizedFileURL.path
    let run = try Run(arguments: [table], environment: ["DM_COLOR_SCHEME": "dark"])
    try run.expectScreen("DKColorTable.txt · NORMAL NIGHT RED", "Theme: NIGHT", colors: ["52;52;52"])
    try run.terminal.sendKeys("t")
    try run.expectScreen("Theme: RED", colors: ["250;250;250"], notColors: ["52;52;52"])
    try run.terminal.sendKeys("q")
    try run.expectRestored()
  }

  @Test func withNothingSetTheSourceIsChosenAndKeysStillWork() throws {
    let run = try Run(environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"])
    let screen = try run.expectScreen("System: ")
    #expect(screen.contains("System: "))
    // Keys are read once the source is chosen (the terminal source may read standard input).
    let (decided, decidedScreen) = try run.terminal.waitForScreen { !$0.contains("asking…") }
    #expect(decided, "\(decidedScreen)")
    try run.terminal.sendKeys("d")
    try run.expectScreen("Style: dark   Theme: NIGHT", colors: [night])
    try run.terminal.sendKeys("q")
    try run.expectRestored()
  }

  @Test func outsideATerminalTheDemoEndsWithStatus1() throws {
    let demo = try ChildProcess(DMKit.path, ["demo"], environment: ["TERM": "dumb"], capturesOutput: true)
    #expect(demo.wait(seconds: 10) == 1)
  }
}

/// `dmkit demo` in a terminal that announces changes of its colour scheme (DEC mode 2031), played
/// by the test on a pseudo-terminal.
@Suite struct DemoFollowsTheTerminalTests {
  @Test func theDemoFollowsATerminalThatAnnouncesChangesAndPutsItBackOnQuit() throws {
    let e = "\u{1B}"
    let demo = try ChildProcess(
      DMKit.path, ["demo"],
      environment: ["TERM": "xterm-256color", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"],
      outputIsTerminal: true)
    let output = OutputTranscript(demo)
    func read(until text: String) -> Bool { output.read(until: text) }
    // The background query, then the colour-scheme query; the terminal is dark.
    #expect(read(until: "\(e)]11;?\u{07}\(e)[c"), "the background query")
    demo.sendToTerminal("\(e)]11;rgb:0000/0000/0000\u{07}\(e)[?62;c")
    #expect(read(until: "\(e)[?996n\(e)[c"), "the colour-scheme query")
    demo.sendToTerminal("\(e)[?997;1n\(e)[?62;c")
    #expect(read(until: "\(e)[?2031h"), "announcements on")
    // Drawn when the background answered, before or after the following began.
    #expect(output.read(until: "Style: dark", anywhere: true), "the window follows the terminal")
    // The terminal switches to light while keys are typed around the announcement.
    demo.sendToTerminal("\(e)[?997;2n")
    #expect(read(until: "Style: light"), "the window follows the change")
    demo.sendToTerminal("d")
    #expect(read(until: "Style: dark"), "keys still work")
    demo.sendToTerminal("q")
    #expect(read(until: "\(e)[?2031l"), "announcements off on quit")
    #expect(demo.wait(seconds: 10) == 0, "\(demo.errorOutput)")
  }
}
