import DarkModeKit
import DarkModeKitTestSupport
import DarkModeKitTools
import Foundation
import Testing

/// GTK 4 windows that follow DarkModeKit, checked by the colours GTK paints.
@Suite(.serialized) struct GTKPixelTests {
  static let tableText = """
    NORMAL   NIGHT    SOLARIZED:light SOLARIZED:dark
    #ffffff  #1c1c1e  #fdf6e3  #002b36  BG
    #c6c6c8  #48484a  #eee8d5  #073642  Separator.Line
    #0a60d0  #5ea0ff  #268bd2  #2aa198  ACCENT
    """

  /// The table the probe loads, written to a file, and the images it shows by name.
  struct Files {
    let folder: URL
    var table: String { folder.appendingPathComponent("colors.txt").path }

    /// Removes the folder and everything in it, once the test is done with it.
    func remove() { try? FileManager.default.removeItem(at: folder) }

    init(table text: String = GTKPixelTests.tableText) throws {
      folder = FileManager.default.temporaryDirectory.appendingPathComponent("dmgtk-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try text.write(toFile: table, atomically: true, encoding: .utf8)
      for (name, color) in [("light.png", "#ff0000"), ("dark.png", "#0000ff")] {
        let convert = try ChildProcess(
          "/usr/bin/convert",
          ["-size", "16x16", "xc:\(color)", "PNG24:" + folder.appendingPathComponent(name).path],
          environment: [:])
        guard convert.wait(seconds: 30) == 0 else {
          throw ChildProcessError("convert failed: \(convert.errorOutput)")
        }
      }
    }
  }

  /// What the table says `key` is for `traits`.
  static func expected(_ key: String, _ traits: DMTraitCollection, table: String = tableText) throws
    -> DMColor?
  {
    try DMColorTable(string: table).color(forKey: key, traitCollection: traits)
  }

  static let light = DMTraitCollection(userInterfaceStyle: .light)
  static let dark = DMTraitCollection(userInterfaceStyle: .dark)

  /// Checks the parts that DarkModeKit colours in window `name` against the table for `traits`.
  static func expectTableColors(
    _ probe: GTKProbe, _ name: String, _ traits: DMTraitCollection, table: String = tableText,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    #expect(
      try probe.pixel(name, "bound") == expected("BG", traits, table: table), sourceLocation: sourceLocation)
    #expect(
      try probe.pixel(name, "accent") == expected("ACCENT", traits, table: table),
      sourceLocation: sourceLocation)
    #expect(
      try probe.pixel(name, "classed") == expected("Separator.Line", traits, table: table),
      sourceLocation: sourceLocation)
    #expect(
      try probe.pixel(name, "drawing") == expected("ACCENT", traits, table: table),
      sourceLocation: sourceLocation)
  }

  @Test(.enabled(if: GTKProbe.missing == nil)) func boundWidgetsShowTheTableColourOfEachChange() throws {
    let files = try Files()
    defer { files.remove() }
    let probe = try GTKProbe(["--table", files.table, "--images", files.folder.path])
    defer { probe.stop() }
    #expect(try probe.send("window A") == "ok")
    try Self.expectTableColors(probe, "A", Self.light)
    #expect(try probe.pixel("A", "picture") == DMColor(rgb: 0xFF0000))

    #expect(try probe.send("override dark -") == "ok")
    try Self.expectTableColors(probe, "A", Self.dark)
    #expect(try probe.pixel("A", "picture") == DMColor(rgb: 0x0000FF))

    #expect(try probe.send("override - SOLARIZED") == "ok")
    try Self.expectTableColors(probe, "A", DMTraitCollection(userInterfaceStyle: .light, theme: "SOLARIZED"))
    #expect(try probe.send("override dark SOLARIZED") == "ok")
    try Self.expectTableColors(probe, "A", DMTraitCollection(userInterfaceStyle: .dark, theme: "SOLARIZED"))

    let reloaded = Self.tableText.replacingOccurrences(of: "#002b36", with: "#123456")
      .replacingOccurrences(of: "#073642", with: "#654321").replacingOccurrences(
        of: "#2aa198", with: "#a1b2c3")
    try reloaded.write(toFile: files.table, atomically: true, encoding: .utf8)
    #expect(try probe.send("reload \(files.table)") == "ok")
    try Self.expectTableColors(
      probe, "A", DMTraitCollection(userInterfaceStyle: .dark, theme: "SOLARIZED"), table: reloaded)
    #expect(!probe.warnings.contains("CRITICAL"), "\(probe.warnings)")
  }

  @Test(.enabled(if: GTKProbe.missing == nil))
  func anAnimatedChangeShowsAtTheNextFrameAndReducedMotionStopsGTKsAnimations()
    throws
  {
    let files = try Files()
    defer { files.remove() }
    let probe = try GTKProbe(["--table", files.table, "--stock", "gtk"])
    defer { probe.stop() }
    #expect(try probe.send("window A") == "ok")
    // Answered 60 ms after the change: GTK does not animate stylesheet changes, so the new colour
    // is there, as in libadwaita apps.
    #expect(try probe.send("override dark - animated") == "ok")
    #expect(try probe.pixel("A", "bound") == Self.expected("BG", Self.dark))
    #expect(try probe.send("settings") == "settings prefer-dark=1 animations=1")
    #expect(try probe.send("override light - animated reduced") == "ok")
    #expect(try probe.pixel("A", "bound") == Self.expected("BG", Self.light))
    #expect(try probe.send("settings") == "settings prefer-dark=0 animations=0")
    #expect(try probe.send("override dark -") == "ok")
    #expect(try probe.send("settings") == "settings prefer-dark=1 animations=1")
  }

  /// A user who turned GTK's animations off in `settings.ini` keeps them off: reduced motion
  /// turns them off, and its end gives the user's setting back rather than turning them on.
  @Test(.enabled(if: GTKProbe.missing == nil)) func theUsersAnimationSettingIsKeptOutsideReducedMotion()
    throws
  {
    let files = try Files()
    defer { files.remove() }
    let config = files.folder.appendingPathComponent("config")
    try FileManager.default.createDirectory(
      at: config.appendingPathComponent("gtk-4.0"), withIntermediateDirectories: true)
    try "[Settings]\ngtk-enable-animations=false\n".write(
      to: config.appendingPathComponent("gtk-4.0/settings.ini"), atomically: true, encoding: .utf8)
    let probe = try GTKProbe(
      ["--table", files.table, "--stock", "gtk"],
      environment: ["XDG_CONFIG_HOME": config.path, "DM_COLOR_SCHEME": "light"])
    defer { probe.stop() }
    #expect(try probe.send("window A") == "ok")
    #expect(try probe.send("settings") == "settings prefer-dark=0 animations=0")
    #expect(try probe.send("override dark - reduced") == "ok")
    #expect(try probe.send("settings") == "settings prefer-dark=1 animations=0")
    #expect(try probe.send("override dark -") == "ok")
    #expect(try probe.send("settings") == "settings prefer-dark=1 animations=0")
  }

  @Test(.enabled(if: GTKProbe.missing == nil)) func stockWidgetsFollowTheStyle() throws {
    let files = try Files()
    defer { files.remove() }
    for (stock, light, dark): (String, UInt32, UInt32) in [
      ("libadwaita", 0xFAFAFA, 0x242424), ("gtk", 0xF6F5F4, 0x353535),
    ] {
      let probe = try GTKProbe(["--table", files.table, "--stock", stock])
      defer { probe.stop() }
      #expect(try probe.send("window A") == "ok")
      #expect(try probe.pixel("A", "plain") == DMColor(rgb: light), "\(stock)")
      #expect(try probe.send("override dark -") == "ok")
      #expect(try probe.pixel("A", "plain") == DMColor(rgb: dark), "\(stock)")
      #expect(try probe.send("override light -") == "ok")
      #expect(try probe.pixel("A", "plain") == DMColor(rgb: light), "\(stock)")
    }
  }

  @Test(.enabled(if: GTKProbe.missing == nil)) func twoWindowsShowTheirOwnOverridesAtOnce() throws {
    let files = try Files()
    defer { files.remove() }
    let probe = try GTKProbe(["--table", files.table])
    defer { probe.stop() }
    #expect(try probe.send("window A") == "ok")
    #expect(try probe.send("window B") == "ok")
    #expect(try probe.send("window-override B dark -") == "ok")
    try Self.expectTableColors(probe, "A", Self.light)
    try Self.expectTableColors(probe, "B", Self.dark)
    #expect(try probe.send("window-override A - SOLARIZED") == "ok")
    try Self.expectTableColors(probe, "A", DMTraitCollection(userInterfaceStyle: .light, theme: "SOLARIZED"))
    try Self.expectTableColors(probe, "B", Self.dark)
    #expect(try probe.send("override dark -") == "ok")
    try Self.expectTableColors(probe, "A", DMTraitCollection(userInterfaceStyle: .dark, theme: "SOLARIZED"))
  }

  @Test(.enabled(if: GTKProbe.missing == nil)) func theDesktopsSettingReachesTheWindowThroughTheRealPortal()
    throws
  {
    let files = try Files()
    defer { files.remove() }
    let session = try DesktopSession()
    try session.gsettings("set", "org.gnome.desktop.interface", "color-scheme", "prefer-light")
    let probe = try GTKProbe(["--table", files.table, "--follow-system"], session: session)
    defer { probe.stop() }
    #expect(try probe.send("window A") == "ok")
    #expect(try probe.send("wait-system light") == "ok")
    try Self.expectTableColors(probe, "A", Self.light)
    try session.gsettings("set", "org.gnome.desktop.interface", "color-scheme", "prefer-dark")
    #expect(try probe.send("wait-system dark") == "ok")
    try Self.expectTableColors(probe, "A", Self.dark)
    #expect(try probe.pixel("A", "plain") == DMColor(rgb: 0x242424))
  }

  /// A desktop portal that never answers, or answers a read with another shape than a variant
  /// holding a variant (a plain libadwaita app crashes on either), neither keeps an app that
  /// configures no source from starting nor crashes it: libadwaita, which reads the portal itself,
  /// is told to leave it alone, and the log says so once. The window shows the defaults (light)
  /// when the portal's settings could not be read, and the portal's style (dark) when they could;
  /// what was wrong with them is logged once too.
  @Test(
    .enabled(if: GTKProbe.missing == nil && DesktopSession.testPortalMissing == nil),
    arguments: [
      ("silent", "the desktop portal did not answer", false),
      ("malformed", "the desktop portal gave color-scheme as a value of type \"s\"", false),
      ("read-once-wrapped", "with \"v\", not a variant holding a variant", true),
    ])
  func aPortalThatDoesNotAnswerOrAnswersWithOtherTypesLetsTheAppStart(
    _ mode: String, _ logged: String, _ isDark: Bool
  ) throws {
    let files = try Files()
    defer { files.remove() }
    let session = try DesktopSession(forStandInPortal: true)
    defer { session.stop() }
    let portal = try session.start(
      "/usr/bin/python3", [TestFixtures.testPortal, "--mode", mode, "--color-scheme", "1"],
      capturesOutput: true)
    defer { portal.stop() }
    #expect(portal.readLine(seconds: 10) == "ready")
    let begun = Date()
    let probe = try GTKProbe(["--table", files.table, "--window-at-start", "A"], session: session)
    defer { probe.stopProgram() }
    // Half a second of waiting for the portal, and the start itself, on a machine that may be
    // busy: a start that waits for libadwaita's read never ends.
    #expect(
      Date().timeIntervalSince(begun) < 8, "the app took \(Date().timeIntervalSince(begun)) s to start")
    #expect(try probe.send("wait 100") == "ok")
    try Self.expectTableColors(probe, "A", isDark ? Self.dark : Self.light)
    #expect(try probe.pixel("A", "plain") == DMColor(rgb: isDark ? 0x242424 : 0xFAFAFA))
    // The decision in the background reports once the portal's own read has given up.
    var waited = 0
    while !probe.warnings.contains(logged), waited < 100 {
      _ = try probe.send("wait 100")
      waited += 1
    }
    #expect(probe.warnings.components(separatedBy: logged).count == 2, "\(probe.warnings)")
    #expect(
      probe.warnings.components(separatedBy: "libadwaita is told to leave the desktop portal alone").count
        == 2,
      "\(probe.warnings)")
  }

  /// An app that configures no source and shows its first window right after `DMGTK.start()`:
  /// the first frame GTK paints has the desktop's style, stock widgets and bound colours alike, in
  /// every start-up, and later changes of the desktop follow.
  @Test(.enabled(if: GTKProbe.missing == nil))
  func withNothingConfiguredTheFirstFrameHasTheDesktopsStyleAndChangesFollow() throws {
    let files = try Files()
    defer { files.remove() }
    let session = try DesktopSession()
    defer { session.stop() }
    for (scheme, traits, plain) in [
      ("prefer-dark", Self.dark, 0x242424), ("prefer-light", Self.light, 0xFAFAFA),
      ("prefer-dark", Self.dark, 0x242424), ("prefer-dark", Self.dark, 0x242424),
    ] {
      try session.gsettings("set", "org.gnome.desktop.interface", "color-scheme", scheme)
      let probe = try GTKProbe(["--table", files.table, "--window-at-start", "A"], session: session)
      defer { probe.stopProgram() }
      #expect(try probe.send("wait 100") == "ok")
      for (part, key) in [("bound", "BG"), ("classed", "Separator.Line"), ("accent", "ACCENT")] {
        #expect(
          try probe.send("first-frame A \(part)")
            == "pixel \(try Self.expected(key, traits)!.hexString.lowercased())", "\(scheme) \(part)")
      }
      #expect(
        try probe.send("first-frame A plain")
          == "pixel \(DMColor(rgb: UInt32(plain)).hexString.lowercased())", "\(scheme)")
      #expect(!probe.warnings.contains("did not answer"), "\(probe.warnings)")
    }
    // Changes of the desktop follow, with nothing configured.
    let probe = try GTKProbe(["--table", files.table, "--window-at-start", "A"], session: session)
    defer { probe.stopProgram() }
    #expect(try probe.send("wait 100") == "ok")
    try Self.expectTableColors(probe, "A", Self.dark)
    try session.gsettings("set", "org.gnome.desktop.interface", "color-scheme", "prefer-light")
    #expect(try probe.send("wait-system light") == "ok")
    try Self.expectTableColors(probe, "A", Self.light)
    #expect(try probe.pixel("A", "plain") == DMColor(rgb: 0xFAFAFA))
  }

  /// With no portal to ask, the app starts with the defaults and says once why.
  @Test(.enabled(if: GTKProbe.missing == nil)) func withNoPortalTheAppSaysOnceThatNoSourceAnswered() throws {
    let files = try Files()
    defer { files.remove() }
    let probe = try GTKProbe(
      ["--table", files.table, "--window-at-start", "A"],
      environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"])
    defer { probe.stop() }
    #expect(try probe.send("wait 3000", seconds: 10) == "ok")
    try Self.expectTableColors(probe, "A", Self.light)
    let reports = probe.warnings.components(separatedBy: "the desktop portal did not answer").count - 1
    #expect(reports == 1, "\(probe.warnings)")
    #expect(probe.warnings.contains("no other source answered, so the defaults apply"), "\(probe.warnings)")
  }

  @Test(.enabled(if: GTKProbe.missing == nil)) func mainActorWorkRunsWhileTheGLibLoopSleeps() throws {
    let files = try Files()
    defer { files.remove() }
    let probe = try GTKProbe(["--table", files.table, "--follow-system"])
    defer { probe.stop() }
    #expect(try probe.send("window A") == "ok")
    let answer = try probe.send("idle")
    #expect(answer.hasPrefix("idle ran=2 "), "\(answer)")
    let cpu = Int(answer.split(separator: "=").last ?? "") ?? .max
    #expect(cpu < 300, "a second of an idle loop took \(cpu) ms of CPU")
  }

  @Test(.enabled(if: GTKProbe.missing == nil)) func closingAWindowFreesItsObjectsAndAStormEndsInTheLastState()
    throws
  {
    let files = try Files()
    defer { files.remove() }
    let probe = try GTKProbe(["--table", files.table, "--images", files.folder.path])
    defer { probe.stop() }
    #expect(try probe.send("window A") == "ok")
    #expect(try probe.send("window B") == "ok")
    #expect(try probe.send("storm 400", seconds: 120) == "ok")
    try Self.expectTableColors(probe, "A", Self.light)
    try Self.expectTableColors(probe, "B", Self.light)
    // Each window has a button whose handler holds the window: closing frees them all the same.
    #expect(try probe.send("alive") == "alive windows=2 toplevels=2 objects=12/12 gobjects=12/12")
    #expect(try probe.send("close A") == "ok")
    #expect(try probe.send("alive") == "alive windows=1 toplevels=1 objects=6/12 gobjects=6/12")
    #expect(try probe.send("close B") == "ok")
    #expect(try probe.send("alive") == "alive windows=0 toplevels=0 objects=0/12 gobjects=0/12")
    #expect(!probe.warnings.contains("CRITICAL"), "\(probe.warnings)")
    #expect(!probe.warnings.contains("WARNING"), "\(probe.warnings)")
  }

  /// The number of CSS rules in DarkModeKit's stylesheet.
  static func rules(_ probe: GTKProbe) throws -> Int {
    let answer = try probe.send("rules")
    #expect(answer.hasPrefix("rules "), "\(answer)")
    return Int(answer.split(separator: " ").last ?? "") ?? -1
  }

  /// A widget's new colours beside a big table reload the widgets' own rules alone, not the
  /// table's: 20 new colours beside a table of 2,000 keys (about 60 providers of its rules) load
  /// at most two providers each.
  @Test(.enabled(if: GTKProbe.missing == nil)) func aWidgetsNewColoursBesideABigTableReloadLittle() throws {
    let files = try Files(table: Self.largeTable(keys: 2_000))
    defer { files.remove() }
    let probe = try GTKProbe(["--table", files.table])
    defer { probe.stop() }
    #expect(try probe.send("window A") == "ok")
    let loads = { () throws -> Int in Int(try probe.send("loads").split(separator: " ").last ?? "") ?? -1 }
    let before = try loads()
    #expect(before > 0)
    #expect(try probe.send("colors A 20", seconds: 120) == "ok")
    let after = try loads()
    #expect(after - before <= 2 * 20, "\(after - before) loads for 20 new colours")
    #expect(try probe.pixel("A", "swatch") == DMColor(rgb: UInt32(0x100000 + 19 * 0x10101)))
    #expect(try probe.pixel("A", "classed") == Self.expected("Separator.Line", Self.light))
  }

  // In use in window A: three widget rules (bound, accent, swatch) and the window's table, three
  // keys of three rules each: 12. Unused rules are kept up to as many again, plus 64.

  @Test(.enabled(if: GTKProbe.missing == nil)) func aWidgetGivenManyColoursKeepsTheStylesheetSmall() throws {
    let files = try Files()
    defer { files.remove() }
    let probe = try GTKProbe(["--table", files.table])
    defer { probe.stop() }
    #expect(try probe.send("window A") == "ok")
    #expect(try probe.send("colors A 300", seconds: 120) == "ok")
    #expect((12...(12 + 12 + 64 + 1)).contains(try Self.rules(probe)))
    #expect(try probe.pixel("A", "swatch") == DMColor(rgb: UInt32(0x100000 + 299 * 0x10101)))
    try Self.expectTableColors(probe, "A", Self.light)
    #expect(!probe.warnings.contains("CRITICAL"), "\(probe.warnings)")
  }

  @Test(.enabled(if: GTKProbe.missing == nil))
  func aTableReloadedWithNewColoursManyTimesKeepsTheStylesheetSmall()
    throws
  {
    let files = try Files()
    defer { files.remove() }
    let probe = try GTKProbe(["--table", files.table])
    defer { probe.stop() }
    #expect(try probe.send("window A") == "ok")
    var table = Self.tableText
    for index in 0..<60 {
      table = Self.tableText.replacingOccurrences(of: "#c6c6c8", with: String(format: "#c6%04x", index))
      try table.write(toFile: files.table, atomically: true, encoding: .utf8)
      #expect(try probe.send("reload \(files.table)") == "ok")
    }
    // Each reload leaves an unused table rule of nine CSS rules.
    #expect((12...(12 + 12 + 64 + 9)).contains(try Self.rules(probe)))
    try Self.expectTableColors(probe, "A", Self.light, table: table)
  }

  @Test(.enabled(if: GTKProbe.missing == nil)) func aHandlerOfTheClassChangeMayShowNewColoursAtOnce() throws {
    let files = try Files()
    defer { files.remove() }
    let probe = try GTKProbe(["--table", files.table])
    defer { probe.stop() }
    #expect(try probe.send("window A") == "ok")
    #expect(try probe.send("reentrant A") == "ok")
    // The swatch's first colour: its class change runs the handler, which sets another.
    #expect(try probe.send("colors A 1") == "ok")
    #expect(try probe.pixel("A", "swatch") == DMColor(rgb: 0x123456))
    #expect(try probe.send("colors A 2") == "ok")
    #expect(try probe.pixel("A", "swatch") == DMColor(rgb: 0x110101))
    #expect(try probe.send("override dark -") == "ok")
    try Self.expectTableColors(probe, "A", Self.dark)
    #expect(!probe.warnings.contains("CRITICAL"), "\(probe.warnings)")
  }

  /// Whether two colours differ by at most `tolerance` in each channel, of 255.
  static func near(_ color: DMColor?, _ expected: DMColor, tolerance: Double = 2) -> Bool {
    guard let color else { return false }
    return [
      (color.red, expected.red), (color.green, expected.green), (color.blue, expected.blue),
    ].allSatisfy { abs($0 - $1) * 255 <= tolerance }
  }

  /// `top` painted over `bottom` with `alpha`.
  static func over(_ top: DMColor, _ bottom: DMColor, alpha: Double) -> DMColor {
    DMColor(
      red: top.red * alpha + bottom.red * (1 - alpha), green: top.green * alpha + bottom.green * (1 - alpha),
      blue: top.blue * alpha + bottom.blue * (1 - alpha))
  }

  /// A button whose background is bound keeps its feedback: shaded when hovered and pressed as
  /// libadwaita shades its coloured buttons (its text colour at 10% over it, black at 20%), and
  /// half transparent when disabled. So does a stock button coloured by the table's classes.
  @Test(.enabled(if: GTKProbe.missing == nil)) func aButtonWithABoundBackgroundIsShadedInEachState() throws {
    let files = try Files()
    defer { files.remove() }
    let probe = try GTKProbe(["--table", files.table])
    defer { probe.stop() }
    #expect(try probe.send("window A") == "ok")
    // Reduced motion: GTK's transitions between states are off, and each state shows at once.
    #expect(try probe.send("override - - reduced") == "ok")
    try Self.expectFeedback(probe, "feedback", background: DMColor(rgb: 0x2060C0), text: .white)
    try Self.expectFeedback(probe, "table-button", background: DMColor(rgb: 0x0A60D0), text: .white)
  }

  /// A stock button with a `dm-bg-KEY` class of `dmkit export --format gtk`, loaded as an app's
  /// stylesheet, keeps its feedback, with and without a column's class.
  @Test(.enabled(if: GTKProbe.missing == nil)) func aButtonColouredByTheGTKExportIsShadedInEachState() throws
  {
    let table = try DMColorTable(string: Self.tableText)
    let files = try Files()
    defer { files.remove() }
    let stylesheet = files.folder.appendingPathComponent("colors.css").path
    try table.exported(as: .gtk).write(toFile: stylesheet, atomically: true, encoding: .utf8)
    let probe = try GTKProbe([])
    defer { probe.stop() }
    #expect(try probe.send("window A") == "ok")
    #expect(try probe.send("override - - reduced") == "ok")
    #expect(try probe.send("stylesheet \(stylesheet)") == "ok")
    try Self.expectFeedback(probe, "table-button", background: DMColor(rgb: 0x0A60D0), text: .white)
    #expect(try probe.send("class A window +dm-column-solarized-dark") == "ok")
    try Self.expectFeedback(
      probe, "table-button", background: DMColor(rgb: 0x2AA198), text: DMColor(rgb: 0x002B36))
  }

  /// A menu button and a drop-down show their bound background on their face, the inner button
  /// that would otherwise paint its own shade over it, and keep its feedback.
  @Test(.enabled(if: GTKProbe.missing == nil)) func aMenuButtonAndADropDownShowTheirBoundBackground() throws {
    let probe = try GTKProbe([])
    defer { probe.stop() }
    #expect(try probe.send("window A") == "ok")
    #expect(try probe.send("override - - reduced") == "ok")
    for part in ["bound-menu", "bound-dropdown"] {
      try Self.expectFeedback(probe, part, background: DMColor(rgb: 0x2060C0), text: .white)
    }
  }

  /// Any signal takes a closure: one whose handler has an argument (`notify::sensitive` passes
  /// the property's GParamSpec) runs it each time, and the app goes on.
  @Test(.enabled(if: GTKProbe.missing == nil)) func aSignalWithArgumentsRunsItsClosure() throws {
    let probe = try GTKProbe([])
    defer { probe.stop() }
    #expect(try probe.send("window A") == "ok")
    #expect(try probe.send("signal A notify::sensitive button") == "ok")
    #expect(try probe.send("state A button disabled") == "ok")
    #expect(try probe.send("state A button normal") == "ok")
    #expect(try probe.send("signals") == "signals 2")
    #expect(!probe.warnings.contains("CRITICAL"), "\(probe.warnings)")
  }

  /// A window that the app closes from its own trait callback while it is being shown is not
  /// shown: GTK is not asked to present a window it destroyed.
  @Test(.enabled(if: GTKProbe.missing == nil)) func aWindowClosedWhileItIsShownStaysClosed() throws {
    let probe = try GTKProbe([])
    defer { probe.stop() }
    #expect(try probe.send("self-closing") == "ok closed")
    #expect(try probe.send("alive").hasPrefix("alive windows=0 toplevels=0"))
    #expect(!probe.warnings.contains("CRITICAL"), "\(probe.warnings)")
  }

  /// Checks the part, a button of window A with `background` and `text` colours, in each state.
  static func expectFeedback(
    _ probe: GTKProbe, _ part: String, background: DMColor, text: DMColor,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let window = try #require(try probe.pixel("A", "plain"))
    #expect(try probe.pixel("A", part) == background, "\(part)", sourceLocation: sourceLocation)
    #expect(try probe.send("state A \(part) hover") == "ok")
    let hovered = try probe.pixel("A", part)
    #expect(
      near(hovered, over(text, background, alpha: 0.1)), "\(part) hovered: \(hovered?.hexString ?? "none")",
      sourceLocation: sourceLocation)
    #expect(try probe.send("state A \(part) active") == "ok")
    let pressed = try probe.pixel("A", part)
    #expect(
      near(pressed, over(.black, background, alpha: 0.2)), "\(part) pressed: \(pressed?.hexString ?? "none")",
      sourceLocation: sourceLocation)
    #expect(try probe.send("state A \(part) disabled") == "ok")
    let disabled = try probe.pixel("A", part)
    #expect(
      near(disabled, over(background, window, alpha: 0.5), tolerance: 3),
      "\(part) disabled: \(disabled?.hexString ?? "none")", sourceLocation: sourceLocation)
    #expect(try probe.send("state A \(part) normal") == "ok")
    #expect(try probe.pixel("A", part) == background, "\(part)", sourceLocation: sourceLocation)
  }

  /// The contrast ratio of a part's text against its background, as painted.
  static func contrast(_ probe: GTKProbe, _ window: String, _ part: String) throws -> Double {
    let answer = try probe.send("contrast \(window) \(part)")
    return Double(answer.split(separator: " ").dropFirst().first ?? "") ?? 0
  }

  /// A window overridden to the style the app does not show: its stock widgets look as they look
  /// in an app of that style, pixel for pixel at the centre of each (window background, text,
  /// button, entry, list, header bar, switch, a notebook's page, an action bar, and a popover, a
  /// surface of its own), with text as readable; both ways; and the display's style again when
  /// the override goes.
  @Test(.enabled(if: GTKProbe.missing == nil)) func stockWidgetsInAWindowOfTheOtherStyleAreReadable() throws {
    let files = try Files()
    defer { files.remove() }
    let probe = try GTKProbe(["--table", files.table])
    defer { probe.stop() }
    #expect(try probe.send("window A") == "ok")
    #expect(try probe.send("window B") == "ok")
    // Each window's popover, a surface of its own, shown.
    #expect(try probe.send("popup A") == "ok")
    #expect(try probe.send("popup B") == "ok")
    let parts = [
      "plain", "text", "button", "entry", "list", "header", "switch", "popover", "notebook", "actionbar",
    ]
    let texts = ["text", "button", "entry", "list", "header", "popover", "notebook", "actionbar"]
    for (app, window) in [("dark", "light"), ("light", "dark")] {
      // What an app of the window's style shows. Reduced motion: a class that changes a widget's
      // colours starts no transition, and the colours read are the last ones.
      #expect(try probe.send("override \(window) - reduced") == "ok")
      #expect(try probe.send("window-override B - -") == "ok")
      var native: [String: DMColor] = [:]
      for part in parts {
        native[part] = try probe.pixel("A", part)
        #expect(native[part] != nil, "\(part) of a \(window) app")
      }
      var nativeContrast: [String: Double] = [:]
      for part in texts { nativeContrast[part] = try Self.contrast(probe, "A", part) }

      #expect(try probe.send("override \(app) - reduced") == "ok")
      #expect(try probe.send("window-override B \(window) -") == "ok")
      #expect(try probe.pixel("A", "plain") != native["plain"], "the app's own window is \(app)")
      for part in parts {
        let shown = try probe.pixel("B", part)
        #expect(
          shown == native[part],
          "\(part) of a \(window) window in a \(app) app: \(shown?.hexString ?? "none")")
      }
      for part in texts {
        let ratio = try Self.contrast(probe, "B", part)
        #expect(ratio >= 4.5, "\(part) of a \(window) window in a \(app) app: \(ratio)")
        #expect(
          abs(ratio - (nativeContrast[part] ?? 0)) < 0.05,
          "\(part): \(ratio) against \(nativeContrast[part] ?? 0)")
      }
    }
    #expect(try probe.send("window-override B - -") == "ok")
    #expect(try probe.pixel("B", "plain") == DMColor(rgb: 0xFAFAFA))
    #expect(!probe.warnings.contains("Theme parser"), "\(probe.warnings)")
  }

  /// With GTK's default theme (no libadwaita), a window of the other style shows its background,
  /// its text, its lists, notebook pages and popovers as an app of that style does, and the
  /// widgets that keep the display's style (buttons, entries, header bars) stay readable.
  @Test(.enabled(if: GTKProbe.missing == nil)) func withGTKsThemeAWindowOfTheOtherStyleIsReadable() throws {
    let probe = try GTKProbe(["--stock", "gtk"])
    defer { probe.stop() }
    #expect(try probe.send("window A") == "ok")
    #expect(try probe.send("window B") == "ok")
    #expect(try probe.send("popup A") == "ok")
    #expect(try probe.send("popup B") == "ok")
    let restyled = ["plain", "text", "list", "notebook", "popover"]
    for (app, window) in [("dark", "light"), ("light", "dark")] {
      #expect(try probe.send("override \(window) - reduced") == "ok")
      #expect(try probe.send("window-override B - -") == "ok")
      var native: [String: DMColor] = [:]
      for part in restyled { native[part] = try probe.pixel("A", part) }
      let nativeText = try Self.contrast(probe, "A", "text")

      #expect(try probe.send("override \(app) - reduced") == "ok")
      #expect(try probe.send("window-override B \(window) -") == "ok")
      #expect(try probe.pixel("A", "plain") != native["plain"], "the app's own window is \(app)")
      for part in restyled {
        let shown = try probe.pixel("B", part)
        #expect(shown == native[part], "\(part) of a \(window) window: \(shown?.hexString ?? "none")")
      }
      #expect(abs(try Self.contrast(probe, "B", "text") - nativeText) < 0.05)
      for part in ["text", "button", "entry", "list", "header", "notebook", "popover", "actionbar"] {
        let ratio = try Self.contrast(probe, "B", part)
        #expect(ratio >= 4.5, "\(part) of a \(window) window in a \(app) app: \(ratio)")
      }
    }
    #expect(!probe.warnings.contains("Theme parser"), "\(probe.warnings)")
  }

  /// A window that follows the app never takes the class that restyles a window of the other
  /// style, not even for the time of a switch: GTK would restyle the whole window twice.
  @Test(.enabled(if: GTKProbe.missing == nil)) func aWindowThatFollowsTheAppIsNotRestyledTwicePerSwitch()
    throws
  {
    let probe = try GTKProbe([])
    defer { probe.stop() }
    #expect(try probe.send("window A") == "ok")
    #expect(try probe.send("window B") == "ok")
    #expect(try probe.send("window-override B light -") == "ok")
    for style in ["dark", "light", "dark", "light"] {
      #expect(try probe.send("override \(style) -") == "ok")
    }
    #expect(try probe.send("stock-classes A") == "stock-classes 0")
    // The window of its own style takes the class while the app is dark, and only then.
    #expect(try probe.send("stock-classes B") == "stock-classes 2")
  }

  /// Starting again with another stock style gives back what the last one set: GTK's dark-theme
  /// setting and animations are the user's again, libadwaita follows the desktop again; once
  /// libadwaita is loaded, `.gtk` is libadwaita, and the stock widgets still follow the app.
  @Test(.enabled(if: GTKProbe.missing == nil)) func anotherStockStyleGivesBackWhatTheLastOneSet() throws {
    let probe = try GTKProbe(["--stock", "gtk"])
    defer { probe.stop() }
    #expect(try probe.send("window A") == "ok")
    #expect(try probe.send("override dark - reduced") == "ok")
    #expect(try probe.send("settings") == "settings prefer-dark=1 animations=0")
    #expect(try probe.send("restart none") == "ok")
    #expect(try probe.send("settings") == "settings prefer-dark=0 animations=1")
    #expect(try probe.send("restart libadwaita") == "ok")
    #expect(try probe.send("adwaita") == "adwaita force-dark")
    #expect(try probe.send("restart gtk") == "ok")
    #expect(try probe.send("adwaita") == "adwaita force-dark")
    #expect(try probe.send("override light -") == "ok")
    #expect(try probe.send("adwaita") == "adwaita force-light")
    #expect(try probe.pixel("A", "plain") == DMColor(rgb: 0xFAFAFA))
    #expect(try probe.send("override dark -") == "ok")
    #expect(try probe.pixel("A", "plain") == DMColor(rgb: 0x242424))
    #expect(try probe.send("restart none") == "ok")
    #expect(try probe.send("adwaita") == "adwaita default")
    #expect(!probe.warnings.contains("unsupported"), "\(probe.warnings)")
  }

  /// A table of `count` keys besides those of `tableText`, each with colours of its own.
  static func largeTable(keys count: Int) -> String {
    var text = tableText
    for index in 0..<count {
      let hex = { (base: Int) in String(format: "#%06x", base + index) }
      text += "\n\(hex(0x10_0000))  \(hex(0x20_0000))  \(hex(0x30_0000))  \(hex(0x40_0000))  Token.\(index)"
    }
    return text + "\n"
  }

  /// A window whose table has 5,000 keys: GTK 4.8 builds one selector tree per stylesheet, in a
  /// recursion that overflowed the stack at about 250 keys when all rules were in one.
  @Test(.enabled(if: GTKProbe.missing == nil)) func aWindowWithATableOf5000KeysShowsItsColours() throws {
    let text = Self.largeTable(keys: 5_000)
    let files = try Files(table: text)
    defer { files.remove() }
    let probe = try GTKProbe(["--table", files.table])
    defer { probe.stop() }
    #expect(try probe.send("window A", seconds: 120) == "ok")
    try Self.expectTableColors(probe, "A", Self.light, table: text)
    #expect(try probe.send("class A plain +dm-bg-Token.4999") == "ok")
    #expect(try probe.pixel("A", "plain") == DMColor(rgb: 0x10_0000 + 4_999))
    #expect(try probe.send("override dark SOLARIZED", seconds: 120) == "ok")
    try Self.expectTableColors(
      probe, "A", DMTraitCollection(userInterfaceStyle: .dark, theme: "SOLARIZED"), table: text)
    #expect(try probe.pixel("A", "plain") == DMColor(rgb: 0x40_0000 + 4_999))
    #expect(!probe.warnings.contains("CRITICAL"), "\(probe.warnings)")
  }

  /// 5,000 widgets in one window, each bound to colours of its own: 5,000 rules, one a widget.
  @Test(.enabled(if: GTKProbe.missing == nil)) func aWindowOf5000WidgetsWithColoursOfTheirOwnShowsThem()
    throws
  {
    let files = try Files()
    defer { files.remove() }
    let probe = try GTKProbe(["--table", files.table])
    defer { probe.stop() }
    #expect(try probe.send("window A") == "ok")
    #expect(try probe.send("many A 5000", seconds: 120) == "ok")
    #expect(try probe.pixel("A", "many-first") == DMColor(rgb: 0x10_0000))
    #expect(try probe.pixel("A", "many-last") == DMColor(rgb: 0x10_0000 + 4_999))
    #expect(try probe.send("override dark -", seconds: 120) == "ok")
    #expect(try probe.pixel("A", "many-first") == DMColor(rgb: 0x20_0000))
    #expect(try probe.pixel("A", "many-last") == DMColor(rgb: 0x20_0000 + 4_999))
    try Self.expectTableColors(probe, "A", Self.dark)
    #expect(!probe.warnings.contains("CRITICAL"), "\(probe.warnings)")
  }

  /// The GTK export of big tables loaded by GTK as an app's stylesheet: every column of 1,700
  /// keys in four columns (57,800 selectors, grouped), and one column of 5,000 keys (50,000).
  @Test(.enabled(if: GTKProbe.missing == nil)) func theGTKExportOfBigTablesLoadsAndShowsItsColours() throws {
    let files = try Files()
    defer { files.remove() }
    let probe = try GTKProbe([])
    defer { probe.stop() }
    #expect(try probe.send("window A") == "ok")
    let every = try DMColorTable(string: Self.largeTable(keys: 1_700))
    #expect(DMColorTableExportOptions().gtkProblems(for: every) == [])
    let everyPath = files.folder.appendingPathComponent("every.css").path
    try every.exported(as: .gtk).write(toFile: everyPath, atomically: true, encoding: .utf8)
    #expect(try probe.send("stylesheet \(everyPath)", seconds: 120) == "ok")
    #expect(try probe.send("class A plain +dm-bg-Token.1699") == "ok")
    #expect(try probe.pixel("A", "plain") == DMColor(rgb: 0x10_0000 + 1_699))
    #expect(try probe.send("class A window +dm-column-solarized-dark") == "ok")
    #expect(try probe.pixel("A", "plain") == DMColor(rgb: 0x40_0000 + 1_699))
    #expect(try probe.send("class A window -dm-column-solarized-dark") == "ok")
    #expect(try probe.send("class A plain -dm-bg-Token.1699") == "ok")

    let big = try DMColorTable(string: Self.largeTable(keys: 5_000))
    #expect(DMColorTableExportOptions().gtkProblems(for: big).count == 1)
    let options = DMColorTableExportOptions(column: "NIGHT")
    #expect(options.gtkProblems(for: big) == [])
    let nightPath = files.folder.appendingPathComponent("night.css").path
    try big.exported(as: .gtk, options: options).write(toFile: nightPath, atomically: true, encoding: .utf8)
    #expect(try probe.send("stylesheet \(nightPath)", seconds: 120) == "ok")
    #expect(try probe.send("class A plain +dm-fg-Token.4999") == "ok")
    #expect(try probe.send("class A plain +dm-bg-Token.4999") == "ok")
    #expect(try probe.pixel("A", "plain") == DMColor(rgb: 0x20_0000 + 4_999))
    #expect(!probe.warnings.contains("Theme parser"), "\(probe.warnings)")
  }

  /// `dmkit export --format gtk` loaded by GTK as an app's stylesheet: without a column's class
  /// the default light colours, with one on the window that column's, and the named colours.
  @Test(.enabled(if: GTKProbe.missing == nil)) func theGTKExportStylesEachColumnsClassesAndNamesItsColours()
    throws
  {
    // A key as DKNightVersion tables have them, beyond ASCII and with punctuation.
    let table = try DMColorTable(
      string: Self.tableText
        + "\n#804020  #102040  #ff8000  #00ff80  Named\n#123456  #654321  #abcdef  #fedcba  所有背景(主)\n")
    let files = try Files()
    defer { files.remove() }
    let stylesheet = files.folder.appendingPathComponent("colors.css").path
    try
      (table.exported(as: .gtk) + ".dm-test-named { background-color: @dm_solarized-dark_named; }\n"
      + ".dm-test-unicode { background-color: @dm_solarized-light_所有背景-主-; }\n")
      .write(toFile: stylesheet, atomically: true, encoding: .utf8)
    let probe = try GTKProbe([])
    defer { probe.stop() }
    #expect(try probe.send("window A") == "ok")
    #expect(try probe.send("stylesheet \(stylesheet)") == "ok")
    // The part `classed` has the class dm-bg-Separator.Line.
    #expect(try probe.pixel("A", "classed") == table.color(forKey: "Separator.Line", theme: "NORMAL"))
    let columns = DMColorTableExportFormat.gtk.identifiers(forKeys: table.columnNames)
    #expect(columns == ["normal", "night", "solarized-light", "solarized-dark"])
    for (column, variant) in zip(columns, table.variants) {
      #expect(try probe.send("class A window +dm-column-\(column)") == "ok")
      #expect(
        try probe.pixel("A", "classed") == table.color(forKey: "Separator.Line", variant: variant),
        "\(column)")
      #expect(try probe.send("class A window -dm-column-\(column)") == "ok")
    }
    // A widget's own column wins over its window's, which the stylesheet writes later.
    #expect(try probe.send("class A window +dm-column-solarized-dark") == "ok")
    #expect(try probe.send("class A classed +dm-column-normal") == "ok")
    #expect(try probe.pixel("A", "classed") == table.color(forKey: "Separator.Line", theme: "NORMAL"))
    #expect(try probe.send("class A plain +dm-test-named") == "ok")
    #expect(try probe.pixel("A", "plain") == DMColor(rgb: 0x00FF80))
    #expect(try probe.send("class A plain -dm-test-named") == "ok")
    #expect(try probe.send("class A plain +dm-bg-所有背景(主)") == "ok")
    #expect(try probe.pixel("A", "plain") == DMColor(rgb: 0xFEDCBA))
    #expect(try probe.send("class A plain -dm-bg-所有背景(主)") == "ok")
    #expect(try probe.send("class A plain +dm-test-unicode") == "ok")
    #expect(try probe.pixel("A", "plain") == DMColor(rgb: 0xABCDEF))
    #expect(!probe.warnings.contains("Theme parser"), "\(probe.warnings)")
  }
}
