import DarkModeKitTestSupport
import Foundation
import Testing

@testable import DarkModeKit

/// A theme chosen that nothing declares is reported once, with the closest declared name.
///
/// Declared themes are process-wide and each name is reported once per process, so the reports
/// users see are checked in child processes, and the tests here use names no other test chooses.
@Suite(.globalState) struct UnknownThemeTests {
  /// A window of one view bound to a table with `NORMAL`, `NIGHT` and `SEPIA`, shown with the
  /// theme `chosen`: what standard error says, and the colour the view shows.
  @MainActor
  static func showTable(choosing chosen: DMTheme, twice: Bool = true) throws -> DMColor {
    let table = try DMColorTable(string: "NORMAL NIGHT SEPIA\n#ffffff #111111 #f4ecd8 BG\n")
    let window = DMWindow()
    let view = SwatchView()
    window.addSubview(view)
    window.makeKeyAndVisible()
    view.dm.bind(\.backgroundColor, to: DMDynamicColor(key: "BG", in: table))
    DMTraitCollection.setOverride(theme: chosen, animated: false)
    if twice {
      DMTraitCollection.setOverride(theme: nil, animated: false)
      DMTraitCollection.setOverride(theme: chosen, animated: false)
    }
    return view.backgroundColor
  }

  /// Returns after what the main queue had to do when it was called: the check of undeclared
  /// themes runs there.
  static func mainQueueTurn() async {
    await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
  }

  @Test func aThemeNameInTheWrongCaseIsReportedOnceWithTheDeclaredName() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      let shown = try await MainActor.run { try UnknownThemeTests.showTable(choosing: "night") }
      await UnknownThemeTests.mainQueueTurn()  // where the check runs
      // The default theme's light side shows, as before; the report says why.
      guard shown == DMColor(rgb: 0xFFFFFF) else { exit(3) }
    }
    let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      text
        == "darkmodekit: warning: the theme \"night\" was chosen, but no colour table, theme map or image has it "
        + "and DMTheme.declare(_:) did not declare it, so values show the default theme; "
        + "did you mean \"NIGHT\"?\n")
  }

  @Test func aThemeNothingResemblesIsReportedWithTheDeclaredThemes() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      _ = try await MainActor.run { try UnknownThemeTests.showTable(choosing: "BLUE") }
      await UnknownThemeTests.mainQueueTurn()
    }
    let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      text
        == "darkmodekit: warning: the theme \"BLUE\" was chosen, but no colour table, theme map or image has it "
        + "and DMTheme.declare(_:) did not declare it, so values show the default theme; "
        + "the themes declared are \"NORMAL\", \"NIGHT\", \"DARK\", \"SEPIA\"\n")
  }

  @Test func aDeclaredThemeTheTableLacksIsNotReported() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      DMTheme.declare(["OCEAN:dark"])
      let shown = try await MainActor.run { try UnknownThemeTests.showTable(choosing: "OCEAN") }
      // OCEAN is dark, and the table has no OCEAN: the default theme's dark side shows.
      guard shown == DMColor(rgb: 0x111111) else { exit(3) }
      // A theme map that has the theme does not report either.
      let map = DMDynamicColor(themes: ["WAVE": .blue], fallback: .red)
      let traits = DMTraitCollection(traitsFrom: [DMTraitCollection(theme: "WAVE")])
      guard map.resolved(with: traits) == .blue else { exit(4) }
      await UnknownThemeTests.mainQueueTurn()
    }
    #expect(result?.standardErrorContent.isEmpty == true)
  }

  /// In one process: the first value asked for the theme reports it, and no later one does.
  @MainActor @Test func eachUndeclaredThemeIsReportedOnceThroughTheDiagnosticsHandler() async throws {
    let recorder = DiagnosticsRecorder(includingUnknownThemes: true)
    recorder.install()
    defer { recorder.uninstall() }
    let table = try DMColorTable(string: "NORMAL NIGHT ONCE_SEPIA\n#ffffff #111111 #f4ecd8 BG\n")
    let traits = DMTraitCollection(traitsFrom: [DMTraitCollection(theme: "once_sepia")])
    for _ in 0..<3 {
      #expect(DMDynamicColor(key: "BG", in: table).resolved(with: traits) == DMColor(rgb: 0xFFFFFF))
    }
    let map = DMDynamic(themes: ["NORMAL": 1, "NIGHT": 2], fallback: 0)
    #expect(map.resolved(with: traits) == 1)
    #expect(recorder.all.filter { $0.message.contains("\"once_sepia\"") }.isEmpty)
    await UnknownThemeTests.mainQueueTurn()
    #expect(map.resolved(with: traits) == 1)
    await UnknownThemeTests.mainQueueTurn()
    let reports = recorder.all.filter { $0.message.contains("\"once_sepia\"") }
    #expect(reports.map(\.kind) == [.unknownTheme])
    #expect(reports.first?.message.hasSuffix("did you mean \"ONCE_SEPIA\"?") == true)
    // The table declares ONCE_SEPIA while it lives.
    extendLifetime(table)
  }

  /// The report runs the app's handler after the table's lock: a handler that asks the same
  /// table for a colour, as a logger that shows colours might, does not wait on itself.
  @Test func aHandlerThatAsksTheTableAgainDoesNotDeadlock() async throws {
    let table = try DMColorTable(string: "NORMAL NIGHT\n#ffffff #111111 BG\n")
    let seen = Locked([String]())
    DMDiagnostics.setHandler { diagnostic in
      guard diagnostic.message.contains("REENTRANT_UNDECLARED") else { return }
      let color = DMDynamicColor(key: "BG", in: table).resolved(with: DMTraitCollection())
      seen.withLock { $0.append("\(color) \(diagnostic.kind)") }
    }
    defer { DMDiagnostics.setHandler(nil) }
    let traits = DMTraitCollection(traitsFrom: [DMTraitCollection(theme: "REENTRANT_UNDECLARED")])
    let finished = ColorTableRuntimeTests.returnsInTime {
      _ = DMDynamicColor(key: "BG", in: table).resolved(with: traits)
    }
    #expect(finished)
    await UnknownThemeTests.mainQueueTurn()
    #expect(seen.withLock { $0 } == ["#FFFFFF unknownTheme"])
  }

  /// A theme declared after a value lacked it, before the main queue's next turn (a table loaded
  /// or a theme map made just after the first colour was asked), is not reported.
  @MainActor @Test func aThemeDeclaredJustAfterAValueLackedItIsNotReported() async throws {
    let recorder = DiagnosticsRecorder(includingUnknownThemes: true)
    recorder.install()
    defer { recorder.uninstall() }
    let table = try DMColorTable(string: "NORMAL NIGHT\n#ffffff #111111 BG\n")
    let traits = DMTraitCollection(traitsFrom: [DMTraitCollection(theme: "LATE_DECLARED")])
    #expect(DMDynamicColor(key: "BG", in: table).resolved(with: traits) == DMColor(rgb: 0xFFFFFF))
    let late = DMDynamicColor(themes: ["LATE_DECLARED": .red], fallback: .blue)
    await UnknownThemeTests.mainQueueTurn()
    #expect(late.resolved(with: traits) == .red)
    // Reports of other tests' themes may list it among the declared ones.
    #expect(recorder.all.filter { $0.message.hasPrefix("the theme \"LATE_DECLARED\"") }.isEmpty)
  }

  @Test func theClosestNameDiffersInCaseOrByAFewLetters() {
    let declared = ["NORMAL", "NIGHT", "DARK", "SEPIA", "SOLARIZED", "HIGH_CONTRAST"]
    #expect(ThemeCatalog.closestName(to: "night", in: declared) == "NIGHT")
    #expect(ThemeCatalog.closestName(to: "Sepia", in: declared) == "SEPIA")
    #expect(ThemeCatalog.closestName(to: "SOLARISED", in: declared) == "SOLARIZED")
    #expect(ThemeCatalog.closestName(to: "high-contrast", in: declared) == "HIGH_CONTRAST")
    #expect(ThemeCatalog.closestName(to: "NIGTH", in: declared) == "NIGHT")
    #expect(ThemeCatalog.closestName(to: "BLUE", in: declared) == nil)
    #expect(ThemeCatalog.closestName(to: "X", in: declared) == nil)
    #expect(ThemeCatalog.closestName(to: String(repeating: "N", count: 10_000), in: declared) == nil)
  }

  @Test func manyDeclaredThemesAreCountedNotListed() {
    let declared = (1...20).map { "THEME_\($0)" }
    let message = ThemeCatalog.undeclaredMessage("ZZZZZZZZZZZZZZZZ", declared: declared)
    #expect(message.hasSuffix("\"THEME_7\", \"THEME_8\" and 12 more"))
  }

  /// Names from outside are shown with control characters escaped.
  @Test func theReportedNameIsEscaped() {
    let message = ThemeCatalog.undeclaredMessage("\u{1B}[2J", declared: ["NORMAL"])
    #expect(message.hasPrefix("the theme \"\\u{1B}[2J\" was chosen"))
  }
}
