import DarkModeKitTestSupport
import Foundation
import Testing

@testable import DarkModeKit
@testable import dmkit

/// The demo's drawing: cells, colours, the window drawn for light, dark and each theme, and the
/// bundled table.
@Suite struct DemoDrawingTests {
  @Test func fillingBlendsTranslucentColoursOverTheBackground() {
    var grid = CellGrid(width: 3, height: 1, background: .white)
    grid.fill(CellRect(x: 1, y: 0, width: 5, height: 1), with: DMColor(white: 0, alpha: 0.5))
    #expect(grid[0, 0].background == .white)
    #expect(grid[1, 0].background.ansiComponents == "128;128;128")
    #expect(grid[2, 0].background.ansiComponents == "128;128;128")
  }

  @Test func textIsClippedAndKeepsTheBackground() {
    var grid = CellGrid(width: 6, height: 2, background: DMColor(rgb: 0x102030))
    grid.clip = CellRect(x: 1, y: 0, width: 3, height: 1)
    grid.draw("abcdef", x: 0, y: 0, color: .red)
    grid.draw("xyz", x: 0, y: 1, color: .red)
    #expect(grid.lines == [" bcd  ", "      "])
    #expect(grid[1, 0].foreground == .red)
    #expect(grid[1, 0].background == DMColor(rgb: 0x102030))
  }

  @Test func ansiOutputPlacesEachRowAndChangesColoursOnlyWhereTheyChange() {
    var grid = CellGrid(width: 3, height: 2, background: .black)
    grid.fill(CellRect(x: 2, y: 0, width: 1, height: 1), with: DMColor(rgb: 0x0A60D0))
    grid.draw("hi", x: 0, y: 1, color: .white)
    let escape = "\u{1B}["
    #expect(
      grid.ansi
        == "\(escape)1;1H\(escape)38;2;255;255;255;48;2;0;0;0m  \(escape)48;2;10;96;208m \(escape)0m"
        + "\(escape)2;1H\(escape)38;2;255;255;255;48;2;0;0;0mhi \(escape)0m")
  }

  @Test func keysSkipEscapeSequencesAndTerminalReplies() {
    var reader = KeyReader()
    // An arrow key (ESC [ D), a late OSC 11 reply full of hex digits, then the real keys.
    let bytes = Array("\u{1B}[D\u{1B}]11;rgb:dddd/dddd/dddd\u{1B}\\ldst\u{1B}OAq".utf8)
    #expect(reader.keys(in: bytes) == [.light, .dark, .system, .nextTheme, .quit])
    #expect(reader.keys(in: [0x03]) == [.quit])
    #expect(reader.keys(in: Array("LDxyz".utf8)).isEmpty)
  }

  @Test func theBuiltInPaletteIsTheBundledFile() throws {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../Docs/Examples/Palette.txt").standardizedFileURL
    #expect(try String(contentsOf: file, encoding: .utf8) == BundledPalette.text)
    #expect(DemoTable.builtIn.table.themes == ["NORMAL", "NIGHT", "SEPIA", "SOLARIZED"])
    #expect(DemoTable.builtIn.table.variants.count == 7)
  }

  @Test func theBundledPaletteIsFoundFromTheCheckoutOrNextToTheExecutable() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../..").standardizedFileURL
    let fromCheckout = try #require(DemoTable.bundledPaletteURL(currentDirectory: root.path, executable: nil))
    #expect(
      fromCheckout.standardizedFileURL.path == root.appendingPathComponent("Docs/Examples/Palette.txt").path)
    let executable = root.appendingPathComponent(".build/debug/dmkit")
    let beside = try #require(DemoTable.bundledPaletteURL(currentDirectory: "/", executable: executable))
    #expect(beside.standardizedFileURL.path == fromCheckout.standardizedFileURL.path)
    #expect(DemoTable.bundledPaletteURL(currentDirectory: "/", executable: nil) == nil)
  }

  @Test func aBadTableIsReportedWithItsPlace() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("demo-bad-\(UUID()).txt")
    try "NORMAL NIGHT\n#ffffff #12G BG\n".write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let run = dmkit(["demo", file.path], outputIsTerminal: true)
    #expect(run.status == 1)
    #expect(
      run.error
        == "\(file.path):2:9: error: bad colour \"#12G\": \"G\" at offset 3 is not a hexadecimal digit\n")
    #expect(run.out.isEmpty)
  }

  @Test func anUnreadableTableIsReportedWithItsPath() {
    let run = dmkit(["demo", "/nonexistent/colors.txt"], outputIsTerminal: true)
    #expect(run.status == 1)
    #expect(run.error.hasPrefix("/nonexistent/colors.txt: error: cannot read the colour table"))
  }

  @Test func withoutATerminalTheDemoSaysWhatItNeeds() {
    let run = dmkit("demo")
    #expect(run.status == 1)
    #expect(
      run.error
        == "dmkit: error: dmkit demo needs a terminal: standard input and output must both be one "
        + "(\"dmkit preview FILE\" works without one)\n")
    #expect(run.out.isEmpty)
  }

  @Test func theDemoIsACommandWithItsUsage() {
    let help = dmkit("help", "demo")
    #expect(help.status == 0)
    #expect(help.out.hasPrefix("USAGE: dmkit demo [FILE]"))
    let extra = dmkit("demo", "a.txt", "b.txt")
    #expect(extra.status == 2)
    #expect(extra.error.hasPrefix("dmkit: error: unexpected argument \"b.txt\""))
  }
}

extension GlobalStateTests {
  /// The demo window drawn after trait changes, with the colours of the table's columns.
  @Suite @MainActor struct DemoWindowTests {
    let palette = DemoTable.builtIn
    let width = 100
    let height = 30

    init() { DarkModeManager.reset() }

    private func shownWindow(_ table: DemoTable? = nil) -> DemoWindow {
      let window = DemoWindow(table: table ?? palette)
      window.controller.systemSourceName = "variables"
      window.makeKeyAndVisible()
      return window
    }

    private func color(_ key: String, _ theme: DMTheme, in table: DemoTable? = nil) throws -> DMColor {
      try #require((table ?? palette).table.color(forKey: key, theme: theme))
    }

    /// The cell where a text starts on the grid.
    private func place(of text: String, in grid: CellGrid) throws -> (x: Int, y: Int) {
      for (y, line) in grid.lines.enumerated() {
        if let range = line.range(of: text) {
          return (line.distance(from: line.startIndex, to: range.lowerBound), y)
        }
      }
      Issue.record("\(text) is not on the screen:\n\(grid.text)")
      throw CancellationError()
    }

    @Test func lightDrawsTheNormalColumnAndTheSun() throws {
      let grid = shownWindow().render(width: width, height: height)
      let title = try place(of: "DarkModeKit — Palette.txt", in: grid)
      #expect(grid[title.x, title.y].background == (try color("Accent", .normal)))
      #expect(grid[title.x, title.y].foreground == (try color("Text.OnAccent", .normal)))
      let headline = try place(of: "Dark mode and themes", in: grid)
      #expect(grid[headline.x, headline.y].foreground == (try color("Text.Primary", .normal)))
      #expect(grid[headline.x, headline.y].background == (try color("Background", .normal)))
      #expect(grid.text.contains("Style: light   Theme: NORMAL   Image: sun"))
      #expect(grid.text.contains("System: no preference (variables)   ·   followed"))
      #expect(grid.text.contains("--(     )--"))
      let system = try place(of: "[ System ]", in: grid)
      #expect(grid[system.x, system.y].background == (try color("Accent", .normal)))
      let light = try place(of: "[ Light ]", in: grid)
      #expect(grid[light.x, light.y].background == (try color("Surface.Elevated", .normal)))
      // The backdrop: the scrim over the surface colour.
      let backdrop = try color("Scrim", .normal).opaque(over: color("Surface", .normal))
      #expect(grid[0, 0].background == backdrop)
    }

    @Test func darkDrawsTheNightColumnAndTheMoon() throws {
      let window = shownWindow()
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
      let grid = window.render(width: width, height: height)
      let headline = try place(of: "Dark mode and themes", in: grid)
      #expect(grid[headline.x, headline.y].foreground == (try color("Text.Primary", .night)))
      #expect(grid[headline.x, headline.y].background == (try color("Background", .night)))
      #expect(grid.text.contains("Style: dark   Theme: NIGHT   Image: moon"))
      #expect(grid.text.contains("overridden"))
      #expect(!grid.text.contains("--(     )--"))
      let dark = try place(of: "[ Dark ]", in: grid)
      #expect(grid[dark.x, dark.y].background == (try color("Accent", .night)))
      #expect(grid.ansi.contains("48;2;28;28;30m"))
      #expect(!grid.ansi.contains("48;2;255;255;255m"))
    }

    @Test func aNamedThemeDrawsItsColumn() throws {
      let window = shownWindow()
      DMTraitCollection.setOverride(DMTraitCollection(theme: "SEPIA"), animated: false)
      let grid = window.render(width: width, height: height)
      let headline = try place(of: "Dark mode and themes", in: grid)
      #expect(grid[headline.x, headline.y].background == (try color("Background", "SEPIA")))
      #expect(grid[headline.x, headline.y].foreground == (try color("Text.Primary", "SEPIA")))
      #expect(grid.text.contains("[ Theme: SEPIA ]"))
      #expect(grid.text.contains("Style: light   Theme: SEPIA   Image: sun"))
    }

    @Test func theThemeKeyCyclesThroughTheTablesThemes() {
      let window = shownWindow()
      var shown: [String?] = []
      for _ in 0..<4 {
        window.controller.choose(.nextTheme)
        shown.append(window.controller.shownVariant(for: window.dmTraitCollection)?.description)
      }
      #expect(shown == ["NIGHT", "SEPIA", "SOLARIZED", "NORMAL"])
      // A theme with both sides keeps the style chosen; one with one side shows it.
      window.controller.choose(.dark)
      #expect(window.controller.shownVariant(for: window.dmTraitCollection)?.description == "NIGHT")
      window.controller.choose(.nextTheme)
      #expect(window.controller.shownVariant(for: window.dmTraitCollection)?.description == "SEPIA")
      window.controller.choose(.nextTheme)
      window.controller.choose(.dark)
      #expect(window.controller.shownVariant(for: window.dmTraitCollection)?.description == "SOLARIZED:dark")
    }

    @Test func noSequenceOfKeysShowsAMixOfStyles() throws {
      let source = DMManualAppearanceSource()
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: source))
      let window = shownWindow()
      let keys: [KeyReader.Key] = [.light, .dark, .system, .nextTheme]
      var sequences: [[KeyReader.Key]] = [[]]
      for _ in 0..<4 {
        sequences += sequences.filter { $0.count == sequences.last!.count }.flatMap { s in
          keys.map { s + [$0] }
        }
      }
      var checked = 0
      for system in [DMUserInterfaceStyle.light, .dark] {
        for sequence in sequences {
          source.traitCollection = DMTraitCollection(userInterfaceStyle: system)
          DMTraitCollection.setOverride(DMTraitCollection(), animated: false)
          for key in sequence { window.controller.choose(key) }
          let grid = window.render(width: width, height: height)
          let traits = window.dmTraitCollection
          let variant = try #require(window.controller.shownVariant(for: traits))
          let label = "system \(system), keys \(sequence)"
          #expect(variant.userInterfaceStyle == traits.userInterfaceStyle, "\(label): \(variant)")
          let image = traits.userInterfaceStyle == .dark ? "moon" : "sun"
          #expect(
            grid.text.contains("Style: \(traits.userInterfaceStyle)   Theme: \(variant)   Image: \(image)"),
            "\(label):\n\(grid.text)")
          let headline = try place(of: "Dark mode and themes", in: grid)
          let background = grid[headline.x, headline.y].background
          #expect(background == palette.table.color(forKey: "Background", variant: variant), "\(label)")
          #expect((background.relativeLuminance < 0.18) == (traits.userInterfaceStyle == .dark), "\(label)")
          checked += 1
        }
      }
      #expect(checked == 2 * (1 + 4 + 16 + 64 + 256))
    }

    @Test func theWindowIsToldOfEachChangeOnce() {
      let window = shownWindow()
      var changes = 0
      window.onTraitsChange = { changes += 1 }
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
      DMTraitCollection.setOverride(DMTraitCollection(theme: "SEPIA"), animated: false)
      #expect(changes == 2)
    }

    @Test func aTableWithFewKeysUsesThemForTheirRolesAndColoursTheRest() throws {
      let table = DemoTable(
        table: try DMColorTable(
          string: "NORMAL NIGHT RED\n#ffffff #343434 #fafafa BG\n#aaaaaa #313131 #aaaaaa SEP\n"),
        name: "DKColorTable.txt")
      #expect(DemoColors(table: table.table).keys == ["background": "BG", "separator": "SEP"])
      let window = shownWindow(table)
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
      let grid = window.render(width: width, height: height)
      let headline = try place(of: "Dark mode and themes", in: grid)
      #expect(grid[headline.x, headline.y].background == DMColor(rgb: 0x343434))
      // Made to contrast with the dark background, and never the magenta of a missing key.
      #expect(grid[headline.x, headline.y].foreground.relativeLuminance > 0.5)
      #expect(!grid.cells.contains { $0.foreground == .magenta || $0.background == .magenta })
      let rule = try place(of: "────", in: grid)
      #expect(grid[rule.x, rule.y].foreground == DMColor(rgb: 0x313131))
    }

    @Test func aSmallTerminalIsDrawnCut() {
      let grid = shownWindow().render(width: 30, height: 8)
      #expect(grid.lines.count == 8)
      #expect(grid.lines.allSatisfy { $0.count == 30 })
    }
  }
}
