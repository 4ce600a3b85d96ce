import Foundation
import Testing

@testable import DarkModeKit

/// A theme name only tables used goes with the last of them; a name a `DMTheme` was made from
/// stays.
@Suite struct ThemeNameLifetimeTests {
  /// A name no other test uses.
  static func uniqueName(_ prefix: String) -> String {
    prefix + "_" + UUID().uuidString.replacingOccurrences(of: "-", with: "_")
  }

  @Test func aNameOnlyATableUsedGoesWithTheTable() throws {
    let name = Self.uniqueName("GONE")
    var table: DMColorTable? = try DMColorTable(string: "NORMAL NIGHT \(name):dark:high\n#fff #000 #111 BG\n")
    #expect(ThemeCatalog.isKept(name))
    #expect(table?.contents.variants.map(\.description) == ["NORMAL", "NIGHT", "\(name):dark:high"])
    table = nil
    #expect(!ThemeCatalog.isKept(name))
    extendLifetime(table)
  }

  @Test func aNameStaysWhileAnyTableOrAnOldVersionHoldsIt() throws {
    let name = Self.uniqueName("HELD")
    let first = try DMColorTable(string: "\(name)\n#fff BG\n")
    var second: DMColorTable? = try DMColorTable(string: "\(name):dark\n#000 BG\n")
    // A reader keeps the version it got through a reload.
    let old = first.contents
    try first.reload(string: "NORMAL\n#fff BG\n")
    second = nil
    #expect(ThemeCatalog.isKept(name))
    #expect(old.variants.map(\.description) == [name])
    extendLifetime(old)
    extendLifetime(second)
  }

  @Test func aNameReadFromATableOrMadeInCodeStays() throws {
    let read = Self.uniqueName("READ")
    let chosen = Self.uniqueName("CHOSEN")
    let theme = DMTheme(rawValue: chosen)
    var table: DMColorTable? = try DMColorTable(string: "\(read) \(chosen):dark\n#fff #000 BG\n")
    let themes = table?.themes ?? []
    table = nil
    #expect(themes.map(\.rawValue) == [read, chosen])
    #expect(ThemeCatalog.isKept(read))
    #expect(ThemeCatalog.isKept(chosen))
    #expect(theme.rawValue == chosen)
    extendLifetime(table)
  }

  @Test func aNumberGivenAgainNamesOnlyItsNewTheme() throws {
    // Names that went give their numbers to the next tables' names; themes made in code before
    // and after still find only their own columns.
    let kept = DMTheme(rawValue: Self.uniqueName("KEPT"))
    var goneNames: [String] = []
    for _ in 0..<50 {
      let name = Self.uniqueName("REUSED")
      goneNames.append(name)
      let table = try DMColorTable(string: "\(name) \(kept.rawValue):dark\n#123456 #654321 BG\n")
      #expect(table.color(forKey: "BG", theme: kept)?.hexString == "#654321")
    }
    let last = Self.uniqueName("LAST")
    let table = try DMColorTable(string: "\(last)\n#ABCDEF BG\n")
    for name in goneNames {
      #expect(table.color(forKey: "BG", theme: DMTheme(rawValue: name)) == nil)
    }
    #expect(table.color(forKey: "BG", theme: DMTheme(rawValue: last))?.hexString == "#ABCDEF")
    #expect(kept.rawValue.hasPrefix("KEPT_"))
  }

  @Test func namesStayFewOverManyLoadsOfNewNames() throws {
    let table = try DMColorTable(string: "NORMAL\n#fff BG\n")
    let before = ThemeCatalog.nameCount
    for load in 0..<200 {
      let header = (0..<50).map { "LOAD\(load)_\($0)" }.joined(separator: " ")
      try table.reload(string: header + "\n" + String(repeating: "#fff ", count: 50) + "BG\n")
    }
    try table.reload(string: "NORMAL\n#fff BG\n")
    // Other tests run alongside and make names of their own, but not 10,000.
    #expect(ThemeCatalog.nameCount < before + 1_000)
  }
}

/// Tables reloaded and read on several threads at once.
@Suite struct ThemeNameThreadTests {
  @Test func reloadsOfOneTableOnSeveralThreadsCountTheirColumnsInOrder() throws {
    let table = try DMColorTable(string: "NORMAL\n#fff BG\n")
    let prefix = ThemeNameLifetimeTests.uniqueName("RACE")
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      for load in 0..<3_000 {
        try? table.reload(string: "NORMAL \(prefix)_\(worker)_\(load):dark\n#fff #000 BG\n")
      }
    }
    // The last reload's dark column is the only side any of these names has.
    let last = try #require(table.variants.last)
    #expect(last.theme.sides == .dark)
    let earlier = DMTheme(rawValue: prefix + "_0_0")
    #expect(earlier.sides == [] || earlier == last.theme)
  }

  @Test func themesReadWhileTheTableReloadsNameTheirOwnColumns() throws {
    let prefix = ThemeNameLifetimeTests.uniqueName("PIN")
    let table = try DMColorTable(string: "\(prefix)_0\n#fff BG\n")
    let reloads = 2_000
    let done = DispatchSemaphore(value: 0)
    Thread {
      for load in 1...reloads {
        try? table.reload(string: "\(prefix)_\(load)\n#fff BG\n")
        // Another new name takes a number a reload let go of.
        extendLifetime(try? DMColorTable(string: "\(prefix)_OTHER_\(load)\n#fff BG\n"))
      }
      done.signal()
    }.start()
    var wrong: [String] = []
    while done.wait(timeout: .now()) == .timedOut {
      for theme in table.themes
      where !theme.rawValue.hasPrefix(prefix + "_") || theme.rawValue.contains("OTHER") {
        wrong.append(theme.rawValue)
      }
      for variant in table.variants where variant.theme.rawValue.contains("OTHER") {
        wrong.append(variant.description)
      }
    }
    #expect(wrong.isEmpty)
  }
}
