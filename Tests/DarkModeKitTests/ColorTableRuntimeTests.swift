import DarkModeKitTestSupport
import Foundation
import Testing

@testable import DarkModeKit

/// Colour tables at run time: lookups, column choice, reloads and table-backed dynamic colours.
///
/// Every test uses its own table and its own missing-key handler; the tests that need
/// ``DMColorTable/shared`` or ``DMDiagnostics`` are in `GlobalStateTests.SharedColorTableTests`.
/// Reloads set bindings again process-wide, so these tests run alone among the global-state ones.
@Suite(.globalState) struct ColorTableRuntimeTests {
  private static let sample = """
    NORMAL   NIGHT    RED
    #ffffff  #343434  #fafafa  BG
    #aaaaaa  #313131  #aaaaaa  SEP
    """

  /// A collection as DarkModeKit resolves it: merged, so that a theme with one side makes its style.
  private func traits(
    _ style: DMUserInterfaceStyle = .unspecified, theme: DMTheme? = nil
  ) -> DMTraitCollection {
    DMTraitCollection(traitsFrom: [DMTraitCollection(userInterfaceStyle: style, theme: theme)])
  }

  // MARK: - Lookups

  @Test func newTableIsEmptyUntilLoaded() {
    let table = DMColorTable()
    #expect(table.themes.isEmpty)
    #expect(table.keys.isEmpty)
    #expect(table.color(forKey: "BG", theme: .normal) == nil)
    #expect(table.color(forKey: "BG", traitCollection: traits(.dark)) == nil)
  }

  @Test func unknownKeyOrThemeIsNil() throws {
    let table = try DMColorTable(string: Self.sample)
    #expect(table.color(forKey: "FG", theme: .normal) == nil)
    #expect(table.color(forKey: "BG", theme: "BLUE") == nil)
    #expect(table.color(forKey: "FG", traitCollection: traits(.dark)) == nil)
  }

  // MARK: - Column choice

  @Test func aChosenThemeGivesItsColumnAndItsSide() throws {
    let table = try DMColorTable(string: Self.sample)
    for (theme, color, style) in [
      ("RED", 0xFAFAFA, DMUserInterfaceStyle.light), ("NIGHT", 0x343434, .dark), ("NORMAL", 0xFFFFFF, .light),
    ] {
      let traits = traits(theme: DMTheme(rawValue: theme))
      #expect(traits.userInterfaceStyle == style)
      #expect(table.color(forKey: "BG", traitCollection: traits) == DMColor(rgb: UInt32(color)))
    }
  }

  @Test func aStyleChosenWithAOneSidedThemeWinsAndTheDefaultThemeShowsThatSide() throws {
    let table = try DMColorTable(string: Self.sample)
    #expect(table.color(forKey: "BG", traitCollection: traits(.dark, theme: "RED")) == DMColor(rgb: 0x343434))
    #expect(
      table.color(forKey: "BG", traitCollection: traits(.light, theme: "NIGHT")) == DMColor(rgb: 0xFFFFFF))
  }

  @Test func missingThemeWithDarkStyleFallsBackToNight() throws {
    let table = try DMColorTable(string: Self.sample)
    #expect(
      table.color(forKey: "BG", traitCollection: traits(.dark, theme: "BLUE")) == DMColor(rgb: 0x343434))
    #expect(table.color(forKey: "BG", traitCollection: traits(.dark)) == DMColor(rgb: 0x343434))
  }

  @Test func missingThemeWithLightOrUnspecifiedStyleFallsBackToNormalElseTheFirstLightColumn() throws {
    let table = try DMColorTable(string: "RED NIGHT NORMAL\n#f00 #000 #fff BG\n")
    #expect(
      table.color(forKey: "BG", traitCollection: traits(.light, theme: "BLUE")) == DMColor(rgb: 0xFFFFFF))
    #expect(table.color(forKey: "BG", traitCollection: traits()) == DMColor(rgb: 0xFFFFFF))
    let withoutNormal = try DMColorTable(string: "NIGHT RED\n#000 #f00 BG\n")
    #expect(withoutNormal.color(forKey: "BG", traitCollection: traits(.light)) == DMColor(rgb: 0xFF0000))
    #expect(withoutNormal.color(forKey: "BG", traitCollection: traits(.dark)) == DMColor(rgb: 0x000000))
  }

  @Test func darkStyleUsesTheDarkColumnWhenThereIsNoNightColumn() throws {
    let table = try DMColorTable(string: "LIGHT DARK\n#fff #111 BG\n")
    #expect(table.color(forKey: "BG", traitCollection: traits(.dark)) == DMColor(rgb: 0x111111))
    #expect(table.color(forKey: "BG", traitCollection: traits(.light)) == DMColor(rgb: 0xFFFFFF))
  }

  @Test func nightColumnIsPreferredToDarkColumn() throws {
    let table = try DMColorTable(string: "NORMAL DARK NIGHT\n#fff #111 #222 BG\n")
    #expect(table.color(forKey: "BG", traitCollection: traits(.dark)) == DMColor(rgb: 0x222222))
  }

  @Test func darkStyleWithoutANightOrDarkColumnUsesTheFirstColumn() throws {
    let table = try DMColorTable(string: "DAY DUSK\n#fff #888 BG\n")
    #expect(table.color(forKey: "BG", traitCollection: traits(.dark)) == DMColor(rgb: 0xFFFFFF))
  }

  @Test func aThemeMapAndAnImageTakeTheDarkEntryLikeATable() {
    let map = DMDynamic(themes: [.normal: "day", "DARK": "dark"], fallback: "fallback")
    #expect(map.resolved(with: traits(.dark)) == "dark")
    #expect(map.resolved(with: traits(.light)) == "day")
    let image = DMDynamicImage(names: [.normal: "sun", "DARK": "moon"]) { $0 }
    #expect(image.resolved(with: traits(.dark)) == "moon")
  }

  @Test func dynamicColorFollowsThemeAndStyle() throws {
    let table = try DMColorTable(string: Self.sample)
    let background = DMDynamicColor(key: "BG", in: table)
    #expect(background.resolved(with: traits(theme: "RED")) == DMColor(rgb: 0xFAFAFA))
    #expect(background.resolved(with: traits(.dark)) == DMColor(rgb: 0x343434))
    #expect(background.resolved(with: traits(.dark, theme: "BLUE")) == DMColor(rgb: 0x343434))
    #expect(background.resolved(with: traits(.light, theme: "BLUE")) == DMColor(rgb: 0xFFFFFF))
  }

  // MARK: - Reloading

  @Test func reloadFromAFileReplacesEverything() throws {
    let table = try DMColorTable(string: Self.sample)
    let url = try TemporaryFile.write("LIGHT DARK\n#010101 #020202 FG\n")
    defer { TemporaryFile.remove(url) }
    try table.reload(contentsOf: url)
    #expect(table.themes == ["LIGHT", "DARK"])
    #expect(table.keys == ["FG"])
    #expect(table.color(forKey: "BG", theme: .normal) == nil)
    #expect(table.color(forKey: "FG", theme: "DARK") == DMColor(rgb: 0x020202))
  }

  @Test func failedReloadKeepsTheOldContents() throws {
    let table = try DMColorTable(string: Self.sample)
    let before = table.contents
    let bad = try TemporaryFile.write("NORMAL NIGHT\n#fff #000 FG\n#fff #12G BG\n")
    let latin1 = try TemporaryFile.write(Array("NORMAL\n#fff K\n// ".utf8) + [0xFF])
    defer {
      TemporaryFile.remove(bad)
      TemporaryFile.remove(latin1)
    }
    let missing = bad.deletingLastPathComponent().appendingPathComponent("dmkit-missing-\(UUID()).txt")

    #expect(throws: DMColorTableError.self) { try table.reload(contentsOf: bad) }
    #expect(throws: DMColorTableError.self) { try table.reload(contentsOf: latin1) }
    #expect(throws: DMColorTableError.self) { try table.reload(contentsOf: missing) }
    #expect(throws: DMColorTableError.self) { try table.reload(string: "") }

    #expect(table.contents === before)
    #expect(table.themes == ["NORMAL", "NIGHT", "RED"])
    #expect(table.keys == ["BG", "SEP"])
    #expect(table.color(forKey: "FG", theme: .normal) == nil)
    #expect(table.color(forKey: "BG", theme: .night) == DMColor(rgb: 0x343434))
  }

  @Test @MainActor func reloadPostsANotificationOnlyOnSuccess() throws {
    let table = try DMColorTable(string: Self.sample)
    let count = Locked(0)
    let observer = NotificationCenter.default.addObserver(
      forName: DMColorTable.didReloadNotification, object: table, queue: nil
    ) { _ in count.withLock { $0 += 1 } }
    defer { NotificationCenter.default.removeObserver(observer) }

    try table.reload(string: "A\n#000 K\n")
    #expect(count.withLock { $0 } == 1)
    _ = try? table.reload(string: "A\n#000 #111\n")
    #expect(count.withLock { $0 } == 1)
  }

  @Test func dynamicColorFollowsAReload() throws {
    let table = try DMColorTable(string: Self.sample)
    let background = DMDynamicColor(key: "BG", in: table)
    #expect(background.resolved(with: traits(.dark)) == DMColor(rgb: 0x343434))
    try table.reload(string: "NORMAL NIGHT\n#eeeeee #101010 BG\n")
    #expect(background.resolved(with: traits(.dark)) == DMColor(rgb: 0x101010))
    #expect(background.resolved(with: traits(.light)) == DMColor(rgb: 0xEEEEEE))
  }

  @Test func dynamicColorFindsAKeyAddedByAReload() throws {
    let table = try DMColorTable(string: Self.sample)
    table.missingKeyHandler = { _ in }
    let accent = DMDynamicColor(key: "ACCENT", in: table)
    #expect(accent.resolved(with: traits()) == .magenta)
    try table.reload(string: "NORMAL\n#123456 ACCENT\n")
    #expect(accent.resolved(with: traits()) == DMColor(rgb: 0x123456))
  }

  @Test func keyLookupIsCachedPerTableVersion() throws {
    let table = try DMColorTable(string: Self.sample)
    let lookup = ColorTableKeyLookup(key: "SEP", table: table)
    #expect(lookup.resolved(with: traits()) == DMColor(rgb: 0xAAAAAA))
    let first = table.contents.generation
    #expect(lookup.cachedRow(generation: first) == 1)
    try table.reload(string: "NORMAL\n#000 BG\n#111 X\n#222 SEP\n")
    #expect(lookup.cachedRow(generation: table.contents.generation) == nil)
    #expect(lookup.resolved(with: traits()) == DMColor(rgb: 0x222222))
    #expect(lookup.cachedRow(generation: table.contents.generation) == 2)
  }

  @Test func readersOnOtherThreadsSeeTheOldOrTheNewTableNeverAMix() async throws {
    // Version v has v + 1 keys and every colour is DMColor(rgb: v), so a mixed table shows.
    let versions = 60
    let texts = (1...versions).map { version in
      "A B C\n"
        + (0...version).map { "#\(hex(version)) #\(hex(version)) #\(hex(version)) K\($0)" }
        .joined(separator: "\n")
    }
    let urls = try texts.map { try TemporaryFile.write($0) }
    defer { urls.forEach(TemporaryFile.remove) }
    let table = try DMColorTable(string: texts[0])
    let dynamic = DMDynamicColor(key: "K0", in: table)
    let done = Locked(false)

    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        defer { done.withLock { $0 = true } }
        for (index, url) in urls.enumerated().dropFirst() {
          if index.isMultiple(of: 2) {
            try table.reload(contentsOf: url)
          } else {
            try table.reload(string: texts[index])
          }
          _ = try? table.reload(string: "A B C\n#000 #000 K0\n#000 #000 #000 K1\n")
          await Task.yield()
        }
      }
      for reader in 0..<16 {
        group.addTask {
          var lastVersion = 0
          var reads = 0
          while reads < 200 || !done.withLock({ $0 }) {
            reads += 1
            let contents = table.contents
            let version = contents.keys.count - 1
            #expect(contents.colors.allSatisfy { $0 == DMColor(rgb: UInt32(version)) })
            #expect(contents.colors.count == contents.keys.count * 3)
            #expect(version >= lastVersion, "reader \(reader) went back in time")
            lastVersion = version

            let trait = DMTraitCollection(theme: reader.isMultiple(of: 2) ? "B" : "C")
            let viaKey = try #require(table.color(forKey: "K0", traitCollection: trait))
            let viaDynamic = dynamic.resolved(with: trait)
            #expect(viaDynamic != .magenta)
            for color in [viaKey, viaDynamic] {
              let marker = Int((color.blue * 255).rounded())
              #expect((1...versions).contains(marker))
              #expect(color == DMColor(rgb: UInt32(marker)))
            }
            await Task.yield()
            if reads > 100_000 { break }
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(table.keys.count == versions + 1)
  }

  // MARK: - Missing keys

  @Test func missingKeyResolvesToMagentaAndIsReportedOncePerKey() throws {
    let table = try DMColorTable(string: Self.sample)
    let reports = Locked([String]())
    table.missingKeyHandler = { key in reports.withLock { $0.append(key) } }

    let first = DMDynamicColor(key: "NOPE", in: table)
    let second = DMDynamicColor(key: "NOPE", in: table)
    let other = DMDynamicColor(key: "ALSO_NOPE", in: table)
    for _ in 0..<5 {
      #expect(first.resolved(with: traits()) == .magenta)
      #expect(second.resolved(with: traits(.dark)) == .magenta)
    }
    #expect(other.resolved(with: traits()) == .magenta)
    #expect(reports.withLock { $0 } == ["NOPE", "ALSO_NOPE"])

    try table.reload(string: "NORMAL\n#fff BG\n")
    #expect(first.resolved(with: traits()) == .magenta)
    #expect(reports.withLock { $0 } == ["NOPE", "ALSO_NOPE"])
  }

  @Test func missingKeyIsReportedOnceUnderConcurrentResolves() async throws {
    let table = try DMColorTable(string: Self.sample)
    let reports = Locked([String]())
    table.missingKeyHandler = { key in reports.withLock { $0.append(key) } }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          let dynamic = DMDynamicColor(key: "RACE", in: table)
          for _ in 0..<50 { _ = dynamic.resolved(with: DMTraitCollection()) }
        }
      }
    }
    #expect(reports.withLock { $0 } == ["RACE"])
  }

  /// Resolves a key the table lacks as it goes.
  final class ResolvesOnDeinit: Sendable {
    let table: DMColorTable
    init(_ table: DMColorTable) { self.table = table }
    deinit { _ = DMDynamicColor(key: "GONE", in: table).resolved(with: DMTraitCollection()) }
  }

  /// Whether `body` returns within ten seconds, run on a thread of its own (a deadlock there
  /// leaves that thread behind, not the test).
  static func returnsInTime(_ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    Thread {
      body()
      done.signal()
    }.start()
    return done.wait(timeout: .now() + 10) == .success
  }

  /// Replacing the hook lets go of the old one outside the table's lock: what the old one
  /// captured may resolve a missing key of the same table as it goes, which the new hook hears.
  @Test func replacingTheMissingKeyHandlerLetsGoOfTheOldOneOutsideTheLock() throws {
    let table = try DMColorTable(string: Self.sample)
    let reports = Locked([String]())
    do {
      let resolver = ResolvesOnDeinit(table)
      table.missingKeyHandler = { _ in withExtendedLifetime(resolver) {} }
    }
    #expect(Self.returnsInTime { table.missingKeyHandler = { key in reports.withLock { $0.append(key) } } })
    #expect(reports.withLock { $0 } == ["GONE"])
  }

  @Test func emptyTableDoesNotReportUntilLoaded() throws {
    let table = DMColorTable()
    let reports = Locked([String]())
    table.missingKeyHandler = { key in reports.withLock { $0.append(key) } }
    let dynamic = DMDynamicColor(key: "BG", in: table)
    let missing = DMDynamicColor(key: "FG", in: table)
    #expect(dynamic.resolved(with: traits()) == .magenta)
    #expect(missing.resolved(with: traits()) == .magenta)
    #expect(reports.withLock { $0 }.isEmpty)

    try table.reload(string: Self.sample)
    #expect(dynamic.resolved(with: traits()) == DMColor(rgb: 0xFFFFFF))
    #expect(missing.resolved(with: traits()) == .magenta)
    #expect(reports.withLock { $0 } == ["FG"])
  }
}

extension GlobalStateTests {
  /// The tests that load ``DMColorTable/shared`` or read the global diagnostics handler.
  @Suite struct SharedColorTableTests {
    @Test func dynamicColorUsesTheSharedTableByDefault() throws {
      let shared = DMColorTable.shared
      #expect(shared === DMColorTable.shared)
      let previous = shared.contents
      defer { shared.restoreForTesting(previous) }

      try shared.reload(string: "NORMAL NIGHT\n#fefefe #0a0a0a SHARED_BG\n")
      let background = DMDynamicColor(key: "SHARED_BG")
      let dark = DMTraitCollection(userInterfaceStyle: .dark)
      #expect(background.resolved(with: dark) == DMColor(rgb: 0x0A0A0A))
      try shared.reload(string: "NORMAL NIGHT\n#fefefe #0b0b0b SHARED_BG\n")
      #expect(background.resolved(with: dark) == DMColor(rgb: 0x0B0B0B))
    }

    /// Replacing the handler lets go of the old one outside the lock: what the old one captured
    /// may report something as it goes, which the new handler hears.
    @Test func replacingTheDiagnosticsHandlerLetsGoOfTheOldOneOutsideTheLock() throws {
      let recorder = DiagnosticsRecorder()
      let table = try DMColorTable(string: "NORMAL\n#fff BG\n")
      do {
        let resolver = ColorTableRuntimeTests.ResolvesOnDeinit(table)
        DMDiagnostics.setHandler { _ in withExtendedLifetime(resolver) {} }
      }
      let installed = ColorTableRuntimeTests.returnsInTime { recorder.install() }
      #expect(installed)
      // Stuck, the other thread holds the handler's lock: not waited for again.
      guard installed else { return }
      defer { recorder.uninstall() }
      #expect(recorder.all.map(\.kind) == [.missingColorKey])
    }

    /// A table asked for keys before anything was loaded into it is reported once, with the first
    /// key and what to do; its keys are not reported as missing until a table is loaded.
    @Test func aTableAskedForKeysBeforeItWasLoadedIsReportedOnceNamingTheFirstKey() throws {
      let recorder = DiagnosticsRecorder()
      recorder.install()
      defer { recorder.uninstall() }
      let table = DMColorTable()
      #expect(DMDynamicColor(key: "BRAND", in: table).resolved(with: DMTraitCollection()) == .magenta)
      #expect(DMDynamicColor(key: "TEXT", in: table).resolved(with: DMTraitCollection()) == .magenta)
      let report = DMDiagnostic(
        kind: .colorTable,
        message: "the key \"BRAND\" was asked of a colour table before a table was loaded into it, so "
          + "every key shows in magenta; load one first with reload(contentsOf:) or reload(string:)")
      #expect(recorder.all == [report])
      try table.reload(string: "NORMAL\n#ffffff BRAND\n")
      #expect(
        DMDynamicColor(key: "BRAND", in: table).resolved(with: DMTraitCollection()) == DMColor(rgb: 0xFFFFFF))
      #expect(DMDynamicColor(key: "TEXT", in: table).resolved(with: DMTraitCollection()) == .magenta)
      #expect(recorder.all.map(\.kind) == [.colorTable, .missingColorKey])
    }

    /// What a program sees on standard error when it reads the shared table before loading it.
    @Test func theSharedTableReadBeforeLoadingSaysSoOnStandardError() async {
      let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
        await MainActor.run {
          _ = DMDynamicColor(key: "ACCENT").resolved(with: DMTraitCollection())
          _ = DMDynamicColor(key: "ACCENT").resolved(with: DMTraitCollection())
        }
      }
      let shown = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(
        shown
          == "darkmodekit: warning: the key \"ACCENT\" was asked of DMColorTable.shared before a table was loaded into "
          + "it, so every key shows in magenta; load one first with reload(contentsOf:) or reload(string:)\n")
    }

    @Test func missingKeyGoesToDMDiagnosticsWithoutATableHandler() throws {
      let recorder = DiagnosticsRecorder()
      recorder.install()
      defer { recorder.uninstall() }
      let table = try DMColorTable(string: "NORMAL\n#fff BG\n")
      #expect(table.missingKeyHandler == nil)

      let accent = DMDynamicColor(key: "ACCENT", in: table)
      #expect(accent.resolved(with: DMTraitCollection()) == .magenta)
      #expect(accent.resolved(with: DMTraitCollection()) == .magenta)
      #expect(DMDynamicColor(key: "ACCENT", in: table).resolved(with: DMTraitCollection()) == .magenta)
      #expect(
        recorder.all == [
          DMDiagnostic(
            kind: .missingColorKey,
            message: "no colour for key \"ACCENT\" in the colour table; it is shown in magenta")
        ])
    }
  }
}

private func hex(_ value: Int) -> String {
  let digits = String(value, radix: 16)
  return String(repeating: "0", count: 6 - digits.count) + digits
}
