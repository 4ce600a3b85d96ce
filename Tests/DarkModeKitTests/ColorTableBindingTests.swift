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

    @Test func setupLoadsTheConfiguredTableIntoTheSharedOne() throws {
      let saved = DMColorTable.shared.contents
      defer { DMColorTable.shared.restoreForTesting(saved) }
      let folder = try TemporaryFolder()
      defer { folder.remove() }
      let url = folder.file("Colors.txt")
      try Data(table.utf8).write(to: url)
      let view = shownView(in: .shared)
      DarkModeManager.setup(with: DMEnvironmentConfiguration(colorTableURL: url))
      #expect(DMColorTable.shared.keys == ["BG", "SEP"])
      #expect(view.backgroundColor == DMColor(rgb: 0xFFFFFF))  // set again before setup returns
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
      DarkModeManager.setup(with: DMEnvironmentConfiguration(colorTableURL: url))
      #expect(recorder.all.map(\.kind) == [.colorTable])
      #expect(recorder.all.first?.message.hasPrefix("\(url.path):2:9: bad colour \"#12G\"") == true)
      #expect(DMColorTable.shared.keys == ["BG", "SEP"])
    }
  }
}
