import DarkModeKitTestSupport
import Foundation
import Testing

@testable import DarkModeKit

extension GlobalStateTests {
  @Suite @MainActor struct ColorTableBindingTests {
    private let table = """
      NORMAL   NIGHT    RED
      #ffffff  #343434  #fafafa  BG
      #aaaaaa  #313131  #aa0000  SEP
      """

    init() { DarkModeManager.reset() }

    private func shownView(in table: DMColorTable) -> SwatchView {
      let window = DMWindow()
      let view = SwatchView()
      window.addSubview(view)
      window.makeKeyAndVisible()
      view.dm.bind(\.backgroundColor, to: DMDynamicColor(key: "BG", in: table))
      return view
    }

    @Test func namedThemesSwitchEveryTableBoundValue() throws {
      let table = try DMColorTable(string: self.table)
      let view = shownView(in: table)
      let layer = Layer()
      layer.dm.bind(\.fillColor, to: DMDynamicColor(key: "SEP", in: table))
      #expect(view.backgroundColor == DMColor(rgb: 0xFFFFFF))
      DMTraitCollection.setOverride(DMTraitCollection(theme: "RED"), animated: false)
      #expect(view.backgroundColor == DMColor(rgb: 0xFAFAFA))
      #expect(layer.fillColor == DMColor(rgb: 0xAA0000))
      DMTraitCollection.setOverride(
        DMTraitCollection(traitsFrom: [.dark, DMTraitCollection(theme: "BLUE")]), animated: false)
      #expect(view.backgroundColor == DMColor(rgb: 0x343434))  // no BLUE column: dark falls back to NIGHT
      DMTraitCollection.setOverride(DMTraitCollection(theme: "BLUE"), animated: false)
      #expect(view.backgroundColor == DMColor(rgb: 0xFFFFFF))  // light falls back to the first column
    }

    @Test func aReloadSetsBoundTableColoursAgain() async throws {
      let table = try DMColorTable(string: self.table)
      let view = shownView(in: table)
      let layer = Layer()
      layer.dm.bind(\.fillColor, to: DMDynamicColor(key: "BG", in: table))
      try table.reload(string: "NORMAL NIGHT\n#123456 #000000 BG\n")
      for _ in 0..<5_000 where view.backgroundColor != DMColor(rgb: 0x123456) {
        try await Task.sleep(for: .milliseconds(2))
      }
      #expect(view.backgroundColor == DMColor(rgb: 0x123456))
      #expect(layer.fillColor == DMColor(rgb: 0x123456))
    }

    @Test func aReloadOnTheMainActorSetsBoundPropertiesBeforeItReturns() throws {
      let table = try DMColorTable(string: self.table)
      let view = shownView(in: table)
      let layer = Layer()
      layer.dm.bind(\.fillColor, to: DMDynamicColor(key: "SEP", in: table))
      try table.reload(string: "NORMAL NIGHT\n#123456 #000000 BG\n#654321 #000000 SEP\n")
      #expect(view.backgroundColor == DMColor(rgb: 0x123456))
      #expect(layer.fillColor == DMColor(rgb: 0x654321))
    }

    @Test func theReloadNotificationComesAfterBoundPropertiesAreSet() throws {
      let table = try DMColorTable(string: self.table)
      let view = shownView(in: table)
      var seen: [String] = []
      let observer = NotificationCenter.default.addObserver(
        forName: DMColorTable.didReloadNotification, object: table, queue: nil
      ) { _ in
        MainActor.assumeIsolated { seen.append(view.backgroundColor.hexString) }
      }
      defer { NotificationCenter.default.removeObserver(observer) }
      try table.reload(string: "NORMAL NIGHT\n#123456 #000000 BG\n")
      #expect(seen == ["#123456"])
    }

    @Test func aReloadOnAnotherThreadNotifiesOnTheMainActorAfterSettingBindings() async throws {
      let table = try DMColorTable(string: self.table)
      let view = shownView(in: table)
      // The main actor runs on the main queue (which a test runner may drain from another thread).
      let mainQueue = DispatchSpecificKey<Int>()
      DispatchQueue.main.setSpecific(key: mainQueue, value: 1)
      defer { DispatchQueue.main.setSpecific(key: mainQueue, value: nil) }
      let seen = Locked<[String]>([])
      let observer = NotificationCenter.default.addObserver(
        forName: DMColorTable.didReloadNotification, object: table, queue: nil
      ) { _ in
        guard DispatchQueue.getSpecific(key: mainQueue) == 1 else {
          return seen.withLock { $0.append("off the main actor") }
        }
        let color = MainActor.assumeIsolated { view.backgroundColor.hexString }
        seen.withLock { $0.append(color) }
      }
      defer { NotificationCenter.default.removeObserver(observer) }
      try await Task.detached {
        #expect(DispatchQueue.getSpecific(key: mainQueue) == nil)
        try table.reload(string: "NORMAL NIGHT\n#123456 #000000 BG\n")
      }.value
      for _ in 0..<5_000 where seen.withLock({ $0.isEmpty }) {
        try await Task.sleep(for: .milliseconds(2))
      }
      #expect(seen.withLock { $0 } == ["#123456"])
    }

    @Test func aReloadRunsTheWindowHandlerOnceForEachVisibleWindow() throws {
      let table = try DMColorTable(string: self.table)
      let view = shownView(in: table)
      let other = DMWindow()
      other.makeKeyAndVisible()
      let hidden = DMWindow()
      hidden.makeKeyAndVisible()
      hidden.isHidden = true
      var redrawn: [(window: DMWindow, color: String)] = []
      DarkModeManager.setup(
        with: DMConfiguration(windowThemeChangeHandler: { window in
          redrawn.append((window, view.backgroundColor.hexString))
        }))
      try table.reload(string: "NORMAL NIGHT\n#123456 #000000 BG\n")
      #expect(redrawn.count == 2)
      #expect(redrawn.contains { $0.window === view.window })
      #expect(redrawn.contains { $0.window === other })
      #expect(redrawn.allSatisfy { $0.color == "#123456" })
    }

    @Test func aWindowHiddenDuringAReloadIsReportedWhenShownAgain() throws {
      let table = try DMColorTable(string: self.table)
      let view = shownView(in: table)
      let window = try #require(view.window)
      var redrawn: [String] = []
      DarkModeManager.setup(
        with: DMConfiguration(windowThemeChangeHandler: { _ in
          redrawn.append(view.backgroundColor.hexString)
        }))
      window.isHidden = true
      try table.reload(string: "NORMAL NIGHT\n#123456 #000000 BG\n")
      #expect(redrawn == [])
      window.isHidden = false
      #expect(redrawn == ["#123456"])
      window.isHidden = true
      window.isHidden = false
      #expect(redrawn == ["#123456"])  // nothing missed this time
    }

    @Test func whatAReloadObserverStartsTakesEffectAtOnce() throws {
      let table = try DMColorTable(string: self.table)
      let other = try DMColorTable(string: self.table)
      let view = shownView(in: table)
      let otherView = shownView(in: other)
      var seen: [String] = []
      let observer = NotificationCenter.default.addObserver(
        forName: DMColorTable.didReloadNotification, object: table, queue: nil
      ) { _ in
        MainActor.assumeIsolated {
          try? other.reload(string: "NORMAL NIGHT\n#abcdef #000000 BG\n")
          seen.append(otherView.backgroundColor.hexString)
          DMTraitCollection.setOverride(.dark, animated: false)
          seen.append(view.backgroundColor.hexString)
        }
      }
      defer { NotificationCenter.default.removeObserver(observer) }
      try table.reload(string: "NORMAL NIGHT\n#123456 #654321 BG\n")
      #expect(seen == ["#ABCDEF", "#654321"])
    }

    @Test func aReloadFromACallbackTakesEffectRightAfterThePass() throws {
      let table = try DMColorTable(string: self.table)
      let window = DMWindow()
      // The swatch comes first, so the pass sets it before the callback reloads the table.
      let swatch = SwatchView()
      window.addSubview(swatch)
      swatch.dm.bind(\.backgroundColor, to: DMDynamicColor(key: "BG", in: table))
      let view = LoggingView("view", log: CallLog())
      window.addSubview(view)
      window.makeKeyAndVisible()
      view.onChange = { _ in
        try? table.reload(string: "NORMAL NIGHT\n#123456 #0a0a0a BG\n")
      }
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(swatch.backgroundColor == DMColor(rgb: 0x0A0A0A))
    }

    @Test func setupLoadsTheConfiguredTableIntoTheSharedOneAndSetsBindingsOnce() async throws {
      let saved = DMColorTable.shared.contents
      defer { DMColorTable.shared.restoreForTesting(saved) }
      let folder = try TemporaryFolder()
      defer { folder.remove() }
      let url = folder.file("Colors.txt")
      try Data(table.utf8).write(to: url)
      let window = DMWindow()
      let view = ColorSetCountingView()
      window.addSubview(view)
      window.makeKeyAndVisible()
      view.dm.bind(\.backgroundColor, to: DMDynamicColor(key: "BG", in: .shared))
      // Let work that earlier tests left queued on the main actor run first.
      for _ in 0..<3 { await Task { @MainActor in }.value }
      view.sets = 0
      DarkModeManager.setup(with: DMConfiguration(colorTableURL: url))
      #expect(DMColorTable.shared.keys == ["BG", "SEP"])
      #expect(view.backgroundColor == DMColor(rgb: 0xFFFFFF))  // set again before setup returns
      // Let the main actor run anything the setup queued for it.
      for _ in 0..<3 { await Task { @MainActor in }.value }
      #expect(view.sets == 1)
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(view.backgroundColor == DMColor(rgb: 0x343434))
    }

    @Test func setupReportsABadTableWithItsPlaceAndKeepsTheOldContents() throws {
      let saved = DMColorTable.shared.contents
      defer { DMColorTable.shared.restoreForTesting(saved) }
      try DMColorTable.shared.reload(string: table)
      let folder = try TemporaryFolder()
      defer { folder.remove() }
      let url = folder.file("Broken.txt")
      try Data("NORMAL NIGHT\n#ffffff #12G BG\n".utf8).write(to: url)
      let recorder = DiagnosticsRecorder()
      recorder.install()
      defer { recorder.uninstall() }
      DarkModeManager.setup(with: DMConfiguration(colorTableURL: url))
      #expect(recorder.all.map(\.kind) == [.colorTable])
      #expect(recorder.all.first?.message.hasPrefix("\(url.path):2:9: bad colour \"#12G\"") == true)
      #expect(DMColorTable.shared.keys == ["BG", "SEP"])
    }
  }
}

/// A view that counts how often its bound colour is set.
@MainActor
final class ColorSetCountingView: DMView {
  var sets = 0
  var backgroundColor = DMColor.clear {
    didSet { sets += 1 }
  }
}
