import DarkModeKit
import DarkModeKitTestSupport
import DarkModeKitTools
import Foundation
import Testing

@testable import dmkit

/// What one run of `dmkit` returned and wrote.
private struct RecordedRun {
  var status: Int32
  var output: String
  var errors: String
}

/// Runs the built `dmkit`, as a user runs it, with its output in a pipe or, for `isTerminal`, on a
/// pseudo-terminal.
private func runDMKit(
  _ arguments: [String], isTerminal: Bool = false, environment: [String: String] = [:]
) -> RecordedRun {
  let run = dmkit(arguments, environment: environment, outputIsTerminal: isTerminal)
  return RecordedRun(status: run.status, output: run.out, errors: run.error)
}

private let dkColorTable = ExampleTables.url("DKColorTable.txt").path
private let palette = ExampleTables.url("Palette.txt").path

private func swatch(_ red: Int, _ green: Int, _ blue: Int) -> String {
  "\u{1B}[48;2;\(red);\(green);\(blue)m  \u{1B}[0m"
}

/// `dmkit preview`: the table, with swatches on a terminal and plain columns elsewhere.
@MainActor @Suite struct PreviewCommandTests {
  @Test func previewOnATerminalDrawsSwatchesWithHexValues() {
    let run = runDMKit(["preview", dkColorTable], isTerminal: true)
    #expect(run.status == 0)
    #expect(run.errors == "")
    #expect(
      run.output == "KEY  NORMAL      NIGHT       RED\n" + "     light       dark        light\n"
        + "BG   \(swatch(255, 255, 255)) #FFFFFF  \(swatch(52, 52, 52)) #343434  \(swatch(250, 250, 250)) #FAFAFA\n"
        + "SEP  \(swatch(170, 170, 170)) #AAAAAA  \(swatch(49, 49, 49)) #313131  \(swatch(170, 170, 170)) #AAAAAA\n"
    )
  }

  static let plainDKColorTable = """
    KEY  NORMAL   NIGHT    RED
         light    dark     light
    BG   #FFFFFF  #343434  #FAFAFA
    SEP  #AAAAAA  #313131  #AAAAAA

    """

  @Test func previewPrintsPlainTextWhenStandardOutputIsNotATerminal() {
    let run = runDMKit(["preview", dkColorTable], isTerminal: false)
    #expect(run.status == 0)
    #expect(run.output == Self.plainDKColorTable)
  }

  @Test func previewHonoursNoColorAndTheFlag() {
    #expect(
      runDMKit(["preview", dkColorTable, "--no-color"], isTerminal: true).output == Self.plainDKColorTable)
    #expect(
      runDMKit(["preview", dkColorTable], isTerminal: true, environment: ["NO_COLOR": "1"]).output
        == Self.plainDKColorTable)
    // An empty NO_COLOR does not count (https://no-color.org).
    #expect(
      runDMKit(["preview", dkColorTable], isTerminal: true, environment: ["NO_COLOR": ""]).output
        .contains("\u{1B}[48;2;"))
  }

  @Test func previewOfThePaletteAlignsEightDigitColoursAndNamesEveryVariant() {
    let run = runDMKit(["preview", palette])
    #expect(run.status == 0)
    #expect(
      run.output == """
        KEY               NORMAL     NIGHT      SEPIA      SOLARIZED:light  SOLARIZED:dark  NORMAL:high  NIGHT:high
                          light      dark       light      light            dark            light high   dark high
        Background        #FFFFFF    #1C1C1E    #F4ECD8    #FDF6E3          #002B36         #FFFFFF      #000000
        Surface           #F2F2F7    #2C2C2E    #EAE0C8    #EEE8D5          #073642         #EBEBF0      #1C1C1E
        Surface.Elevated  #FFFFFF    #3A3A3C    #FBF6EA    #FFFAEE          #0B3C49         #FFFFFF      #2C2C2E
        Text.Primary      #1C1C1E    #F2F2F7    #3B2F1E    #073642          #93A1A1         #000000      #FFFFFF
        Text.Secondary    #5B5B61    #AEAEB2    #6B5A43    #586E75          #839496         #3A3A3C      #D1D1D6
        Text.OnAccent     #FFFFFF    #FFFFFF    #FBF6EA    #FDF6E3          #FDF6E3         #FFFFFF      #FFFFFF
        Accent            #0A60D0    #0A60D0    #8A4B14    #1F71AB          #1F71AB         #0952B2      #0952B2
        Link              #0055C4    #64A8FF    #7A3E0C    #1E6CA3          #469FDE         #004EB5      #7EB6FF
        Border            #C6C6C8    #48484A    #D3C4A2    #CFC7AF          #2F5661         #6E6E73      #8E8E93
        Separator         #E5E5EA    #38383A    #E2D6BA    #E4DCC5          #114551         #C6C6C8      #545458
        Success           #1E7D34    #30D158    #3F6B22    #657400          #859900         #186329      #30D158
        Warning           #A35200    #FFB340    #8A4B00    #896800          #B58900         #874400      #FFB340
        Error             #C4271C    #FF6961    #A32A1C    #C82422          #E77270         #A72118      #FF8079
        Scrim             #00000080  #00000099  #3B2F1E66  #002B3666        #00000099       #000000B3    #000000CC

        """)
    #expect(
      runDMKit(["preview", palette, "--theme", "SOLARIZED:dark", "--theme", "NIGHT:high"]).output.hasPrefix(
        "KEY               SOLARIZED:dark  NIGHT:high\n                  dark            dark high\n"))
  }

  @Test func previewOnATerminalShowsTranslucentColoursOpaqueWithTheirAlphaInHex() {
    let run = runDMKit(["preview", palette, "--theme", "SEPIA"], isTerminal: true)
    #expect(run.output.hasSuffix("Scrim             \(swatch(59, 47, 30)) #3B2F1E66\n"))
    #expect(
      run.output.hasPrefix(
        "KEY               SEPIA\n                  light\nBackground        \(swatch(244, 236, 216)) #F4ECD8\n"
      ))
  }

  @Test func previewShowsOnlyTheChosenThemes() {
    #expect(
      runDMKit(["preview", dkColorTable, "--theme", "NIGHT"]).output == """
        KEY  NIGHT
             dark
        BG   #343434
        SEP  #313131

        """)
    #expect(
      runDMKit(["preview", dkColorTable, "--theme", "RED", "--theme=NORMAL"]).output == """
        KEY  RED      NORMAL
             light    light
        BG   #FAFAFA  #FFFFFF
        SEP  #AAAAAA  #AAAAAA

        """)
  }

  @Test func previewOfAnUnknownThemeNamesTheThemesAvailable() {
    let run = runDMKit(["preview", dkColorTable, "--theme", "night"])
    #expect(run.status == 2)
    #expect(run.output == "")
    #expect(
      run.errors
        == "dmkit: error: \(dkColorTable) has no theme \"night\"; its columns are NORMAL, NIGHT, RED\n")
    #expect(runDMKit(["preview", dkColorTable, "--theme", "RED:dark"]).status == 2)
  }

  @Test func previewOfABadTableNamesThePlace() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dmkit-preview-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("Bad.txt").path
    try "NORMAL NIGHT\n#fff #12G BG\n".write(toFile: path, atomically: true, encoding: .utf8)
    let run = runDMKit(["preview", path])
    #expect(run.status == 1)
    #expect(run.output == "")
    #expect(
      run.errors == "\(path):2:6: error: bad colour \"#12G\": \"G\" at offset 3 is not a hexadecimal digit\n")
    let missing = runDMKit(["preview", folder.appendingPathComponent("Missing.txt").path])
    #expect(missing.status == 1)
    #expect(missing.errors.hasPrefix("\(folder.path)/Missing.txt: error: cannot read the colour table"))
  }

  @Test func previewRejectsAMissingFileArgumentAndUnknownOptions() {
    #expect(runDMKit(["preview"]).status == 2)
    #expect(runDMKit(["preview", dkColorTable, "--colour"]).status == 2)
    #expect(runDMKit(["preview", dkColorTable, "extra.txt"]).status == 2)
  }

  @Test func previewIsListedInTheUsage() {
    #expect(runDMKit(["--help"]).output.contains("  preview "))
    #expect(runDMKit(["help", "preview"]).output.hasPrefix("USAGE: dmkit preview FILE"))
  }
}

/// `dmkit export`: the formats on the bundled tables, files, and every error.
@MainActor @Suite struct ExportCommandTests {
  @Test(arguments: DMColorTableExportFormat.allCases)
  func exportWritesWhatTheLibraryExports(format: DMColorTableExportFormat) throws {
    for name in ["DKColorTable.txt", "Palette.txt"] {
      let run = runDMKit(["export", ExampleTables.url(name).path, "--format", format.rawValue])
      #expect(run.status == 0)
      #expect(run.errors == "")
      let table = try ExampleTables.load(name)
      #expect(run.output == table.exported(as: format, options: DMColorTableExportOptions(sourceName: name)))
    }
  }

  /// Tokens past the size dmkit reads get a warning that says so; the table's own export none.
  @Test func tokensTooLargeToReadBackGetAWarning() throws {
    let limit = DMColorTable.defaultMaximumFileSize
    #expect(ExportCommand.tokensSizeWarning(byteCount: limit) == nil)
    let warning = try #require(ExportCommand.tokensSizeWarning(byteCount: limit + (5 << 20)))
    #expect(
      warning == "dmkit: warning: the tokens take 69 MiB, more than the 64 MiB dmkit reads; keep the table "
        + "(or --format text) to read it back\n")
    // What the warning says: a document of that size does not come back.
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("dmkit-large-\(getpid()).json")
    defer { try? FileManager.default.removeItem(at: path) }
    #expect(FileManager.default.createFile(atPath: path.path, contents: Data(count: limit + 1)))
    let run = runDMKit(["export", path.path, "--format", "text"])
    #expect(run.status == 1)
    #expect(run.errors.contains("larger than the limit"), "\(run.errors)")
  }

  /// Tokens that come to more than 128 MiB are an error, and nothing is written: 110 themes of
  /// 300 keys of 900 bytes (a table of 530 KB) make about 300 MB of tokens. The file that was at
  /// the output stays as it was.
  @Test func tokensTooLargeToWriteAreAnError() throws {
    let header = (["NORMAL", "NIGHT"] + (0..<108).map { "T\($0)" }).joined(separator: " ")
    let rows = (0..<300).map {
      String(repeating: "#ffffff ", count: 110) + "K\($0)" + String(repeating: "k", count: 900)
    }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("dmkit-wide-\(getpid()).txt")
    let output = path.appendingPathExtension("json")
    defer {
      try? FileManager.default.removeItem(at: path)
      try? FileManager.default.removeItem(at: output)
    }
    try ([header] + rows).joined(separator: "\n").write(to: path, atomically: true, encoding: .utf8)
    try "kept".write(to: output, atomically: true, encoding: .utf8)
    let run = runDMKit(["export", path.path, "--format", "json", "--output", output.path])
    #expect(run.status == 1)
    #expect(
      run.errors.hasPrefix(
        "dmkit: error: the json export of this table comes to more than the 128 MiB dmkit writes")
        && run.errors.hasSuffix(
          "export it in another format, or split the themes between tables; nothing was written\n"),
      "\(run.errors)")
    #expect(try String(contentsOf: output, encoding: .utf8) == "kept")
    // As text, the same table is written.
    let text = runDMKit(["export", path.path, "--format", "text", "--output", output.path])
    #expect(text.status == 0, "\(text.errors)")
    #expect(try DMColorTable(contentsOf: output).keys.count == 300)
  }

  /// The limit is on the export's real size, in every format: an export of exactly the limit is
  /// written whole, one byte less is refused. Short and long keys and theme names, keys full of
  /// characters that CSS escapes, one column or many.
  @Test func theLimitIsTheExportsRealSize() throws {
    func table(themes: Int, keys: Int, keyLength: Int, nameLength: Int, key: String = "a") throws
      -> DMColorTable
    {
      let names = (0..<themes).map {
        ("T\($0)" + String(repeating: "x", count: nameLength)).prefix(nameLength)
      }
      let header =
        ["NORMAL", "NIGHT", "NORMAL:high"]
        + names.flatMap { ["\($0):light", "\($0):dark", "\($0):dark:high"] }
      let rows = (0..<keys).map { (row: Int) -> String in
        let colors: [String] = (0..<header.count).map { (column: Int) -> String in
          String(format: "#%06x", (row * 7_919 + column * 104_729) & 0xFFFF_FF)
        }
        let name = String(("K\(row)_" + String(repeating: key, count: keyLength)).prefix(keyLength))
        return colors.joined(separator: " ") + " " + name
      }
      return try DMColorTable(string: ([header.joined(separator: " ")] + rows).joined(separator: "\n") + "\n")
    }
    let tables = [
      try ExampleTables.load("DKColorTable.txt"), try ExampleTables.load("Palette.txt"),
      try DMColorTable(string: "NORMAL\n#ffffff A\n"), DMColorTable(),
      try table(themes: 5, keys: 20, keyLength: 4, nameLength: 4),
      try table(themes: 5, keys: 20, keyLength: 500, nameLength: 64),
      try table(themes: 2, keys: 20, keyLength: 300, nameLength: 4, key: "."),
    ]
    for (index, table) in tables.enumerated() {
      for format in DMColorTableExportFormat.allCases {
        let options = DMColorTableExportOptions(sourceName: "table.txt")
        let whole = table.exported(as: format, options: options)
        let size = whole.utf8.count
        #expect(try table.exported(as: format, options: options, maximumSize: size) == whole)
        #expect(throws: DMColorTableExportSizeError(format: format, maximumSize: size - 1), "table \(index)")
        {
          try table.exported(as: format, options: options, maximumSize: size - 1)
        }
      }
    }
  }

  /// An export far over its limit stops soon after passing it: 4,000 keys of 1,000 dots, whose
  /// GTK export would take about 170 MB, are refused under a limit of 64 KiB with the error's own
  /// message.
  @Test func anExportFarOverItsLimitIsRefusedWithItsMessage() throws {
    let rows = (0..<4_000).map { "#ffffff #000000 K\($0)" + String(repeating: ".", count: 1_000) }
    let table = try DMColorTable(string: (["NORMAL NIGHT"] + rows).joined(separator: "\n") + "\n")
    do {
      _ = try table.exported(as: .gtk, maximumSize: 64 << 10)
      Issue.record("no error")
    } catch {
      #expect(error.description == "the gtk export of this table comes to more than 65536 bytes")
      #expect(error.localizedDescription == error.description)
    }
  }

  @Test func exportOfThePaletteAsCSS() {
    let run = runDMKit(["export", palette, "--format=css"])
    #expect(
      run.output.hasPrefix(
        "/* Generated by dmkit from Palette.txt. */\n\n:root {\n  color-scheme: light dark;\n"
          + "  --background: light-dark(#FFFFFF, #1C1C1E);\n"))
    #expect(run.output.contains("\n  --text-primary: light-dark(#1C1C1E, #F2F2F7);\n"))
    // The same on both sides: a plain colour.
    #expect(run.output.contains("\n  --text-onaccent: #FFFFFF;\n"))
    #expect(run.output.contains("  --scrim: light-dark(#00000080, #00000099);\n}\n"))
    #expect(
      run.output.contains(
        "@media (prefers-contrast: more) {\n  :root {\n    --background: light-dark(#FFFFFF, #000000);\n"))
    #expect(
      run.output.contains("[data-theme=\"sepia\"] {\n  color-scheme: light;\n  --background: #F4ECD8;\n"))
    #expect(
      run.output.contains(
        "[data-theme=\"solarized\"] {\n  color-scheme: light dark;\n  --background: light-dark(#FDF6E3, #002B36);\n"
      ))
    #expect(run.output.contains("[data-theme=\"night\"] {\n  color-scheme: dark;\n"))
    // The rules for browsers without light-dark(): each side on its own.
    // after each selector with both sides, :root and SOLARIZED.
    let fallback = run.output.components(separatedBy: "@supports not (color: light-dark(#000, #FFF)) {\n")
    #expect(fallback.count == 3)
    #expect(!fallback[1].components(separatedBy: "\n}\n")[0].contains("light-dark("))
    #expect(
      fallback[1].contains(
        "  @media (prefers-color-scheme: dark) {\n    :root {\n      --background: #1C1C1E;\n      --surface: #2C2C2E;\n"
      ))
    #expect(
      fallback[1].contains(
        "  @media (prefers-contrast: more) and (prefers-color-scheme: dark) {\n    :root {\n      --background: #000000;\n"
      ))
  }

  @Test func exportOfThePaletteAsSwift() {
    let run = runDMKit(["export", palette, "--format", "swift", "--access", "internal"])
    #expect(run.output.hasPrefix("// Generated by dmkit from Palette.txt. Do not edit"))
    #expect(
      run.output.contains(
        """
          /// `Text.Primary`: NORMAL #1C1C1E, NIGHT #F2F2F7, SEPIA #3B2F1E, SOLARIZED:light #073642, SOLARIZED:dark #93A1A1, NORMAL:high #000000, NIGHT:high #FFFFFF.
          static let textPrimary = DMDynamicColor(key: "Text.Primary")

        """))
    #expect(run.output.contains("  static let surfaceElevated = DMDynamicColor(key: \"Surface.Elevated\")\n"))
    #expect(run.output.contains("  static let textOnAccent = DMDynamicColor(key: \"Text.OnAccent\")\n"))
    #expect(!run.output.contains("public"))
  }

  @Test func exportWritesToTheOutputFile() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dmkit-export-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("tokens.json").path
    let run = runDMKit(["export", dkColorTable, "--format", "json", "--output", output])
    #expect(run.status == 0)
    #expect(run.output == "")
    #expect(run.errors == "")
    let written = try String(contentsOfFile: output, encoding: .utf8)
    #expect(
      written
        == (try ExampleTables.load("DKColorTable.txt")).exported(
          as: .json, options: DMColorTableExportOptions(sourceName: "DKColorTable.txt")))
    _ = try JSONSerialization.jsonObject(with: Data(written.utf8))

    let unwritable = folder.appendingPathComponent("missing/tokens.css").path
    let failed = runDMKit(["export", dkColorTable, "--format", "css", "--output", unwritable])
    #expect(failed.status == 1)
    #expect(failed.errors.hasPrefix("dmkit: error: cannot write \"\(unwritable)\": "))
  }

  @Test func designTokensConvertToATableAndBack() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dmkit-tokens-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let tokens = folder.appendingPathComponent("Colors.resolver.json").path
    #expect(runDMKit(["export", dkColorTable, "--format", "json", "--output", tokens]).status == 0)
    let back = runDMKit(["export", tokens, "--format", "text"])
    #expect(back.status == 0, "\(back.errors)")
    #expect(
      back.output
        == (try ExampleTables.load("DKColorTable.txt")).exported(
          as: .text, options: DMColorTableExportOptions(sourceName: "Colors.resolver.json")))
    // Every command reads design tokens.
    let lint = runDMKit(["lint", tokens, "--pair", "SEP:BG", "--min-contrast", "1.5"])
    #expect(lint.status == 0)
    #expect(lint.output == "\(tokens): warning: SEP on BG in theme NIGHT: contrast 1.04:1 is below 1.50:1\n")
    let preview = runDMKit(["preview", tokens, "--no-color"])
    #expect(preview.status == 0, "\(preview.errors)")

    let broken = folder.appendingPathComponent("broken.tokens.json").path
    try "{\n  \"bg\": {\"$type\": \"color\", \"$value\": \"#12G\"}\n}\n".write(
      toFile: broken, atomically: true, encoding: .utf8)
    let failed = runDMKit(["lint", broken])
    #expect(failed.status == 1)
    #expect(
      failed.output
        == "\(broken):2:38: error: token \"bg\": bad colour \"#12G\": \"G\" at offset 3 is not a hexadecimal digit\n"
    )
    let export = runDMKit(["export", broken, "--format", "css"])
    #expect(export.status == 1)
    #expect(export.errors.hasPrefix("\(broken):2:38: error: token \"bg\": bad colour"))
  }

  @Test func exportNeedsAKnownFormat() {
    let missing = runDMKit(["export", dkColorTable])
    #expect(missing.status == 2)
    #expect(
      missing.errors == "dmkit: error: \"export\" needs --format (one of css, gtk, json, swift, text)\n")
    let unknown = runDMKit(["export", dkColorTable, "--format", "yaml"])
    #expect(unknown.status == 2)
    #expect(
      unknown.errors == "dmkit: error: unknown format \"yaml\"; use one of css, gtk, json, swift, text\n")
    #expect(runDMKit(["export", dkColorTable, "--format"]).status == 2)
    #expect(runDMKit(["export", "--format", "css"]).status == 2)
  }

  @Test func exportChecksTheAccessLevel() {
    let unknown = runDMKit(["export", dkColorTable, "--format", "swift", "--access", "open"])
    #expect(unknown.status == 2)
    #expect(
      unknown.errors == "dmkit: error: unknown access level \"open\"; use one of public, package, internal\n")
    let notSwift = runDMKit(["export", dkColorTable, "--format", "css", "--access", "public"])
    #expect(notSwift.status == 2)
    #expect(notSwift.errors == "dmkit: error: --access applies only to --format swift\n")
    #expect(
      runDMKit(["export", dkColorTable, "--format", "swift", "--access", "package"]).output
        .contains("  package static let bg = DMDynamicColor(key: \"BG\")\n"))
  }

  @Test func exportPutsSwiftConstantsInTheNamedNamespaceAndTable() {
    let run = runDMKit([
      "export", dkColorTable, "--format", "swift", "--namespace", "NightColors", "--table", "Tables.night",
    ])
    #expect(run.status == 0)
    #expect(run.output.contains("\npublic enum NightColors {\n"))
    #expect(run.output.contains("  public static let bg = DMDynamicColor(key: \"BG\", in: Tables.night)\n"))
  }

  @Test func exportChecksTheNamespaceAndTableNames() {
    let rule = " (ASCII letters, digits and _, not starting with a digit, and not a keyword)\n"
    let namespace = runDMKit(["export", dkColorTable, "--format", "swift", "--namespace", "my-colors"])
    #expect(namespace.status == 2)
    #expect(namespace.errors == "dmkit: error: the namespace \"my-colors\" is not a Swift name" + rule)
    #expect(namespace.output == "")
    let table = runDMKit(["export", dkColorTable, "--format", "swift", "--table", "Brand..t\u{1B}[2J"])
    #expect(table.status == 2)
    #expect(
      table.errors == "dmkit: error: the table \"Brand..t\\u{1B}[2J\" is not Swift names joined by dots"
        + rule)
    let hidden = runDMKit([
      "export", dkColorTable, "--format", "swift", "--namespace", "Tables", "--table", "bg",
    ])
    #expect(hidden.status == 2)
    #expect(
      hidden.errors
        == "dmkit: error: the table \"bg\" starts with bg, the constant for the key \"BG\", which would hide it in the generated code\n"
    )
    let keyword = runDMKit(["export", dkColorTable, "--format", "swift", "--namespace", "default"])
    #expect(keyword.status == 2)
    for option in ["--namespace", "--table"] {
      let notSwift = runDMKit(["export", dkColorTable, "--format", "css", option, "Colors"])
      #expect(notSwift.status == 2)
      #expect(notSwift.errors == "dmkit: error: \(option) applies only to --format swift\n")
    }
    let nestedCSS = runDMKit(["export", dkColorTable, "--format", "gtk", "--nested"])
    #expect(nestedCSS.status == 2)
    #expect(nestedCSS.errors == "dmkit: error: --nested applies only to --format swift\n")
  }

  /// A GTK stylesheet too big for GTK 4.8 is refused with advice; `--column` writes one column.
  @Test func exportOfATableTooBigForOneGTKStylesheetSaysToExportAColumn() throws {
    var text = "NORMAL NIGHT\n"
    for index in 0..<5_000 { text += String(format: "#%06x #%06x Key%d\n", index, 0x20_0000 + index, index) }
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("big-\(UUID().uuidString).txt")
    try text.write(to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }
    let every = runDMKit(["export", url.path, "--format", "gtk"])
    #expect(every.status == 2)
    #expect(every.output == "")
    #expect(
      every.errors
        == "dmkit: error: a GTK stylesheet of 5000 keys in 2 columns holds 110000 selectors, more than the 60000 "
        + "that GTK 4.8 loads; export it a column at a time (--column NAME, 50000 selectors each)\n")
    let night = runDMKit(["export", url.path, "--format", "gtk", "--column", "NIGHT"])
    #expect(night.status == 0)
    #expect(night.output.contains("@define-color dm_night_key4999 rgba(32,19,135,1.0);"))
    let unknown = runDMKit(["export", url.path, "--format", "gtk", "--column", "DUSK"])
    #expect(unknown.status == 2)
    #expect(unknown.errors == "dmkit: error: the table has no column \"DUSK\" (its columns: NORMAL, NIGHT)\n")
    let notGTK = runDMKit(["export", url.path, "--format", "css", "--column", "NIGHT"])
    #expect(notGTK.status == 2)
    #expect(notGTK.errors == "dmkit: error: --column applies only to --format gtk\n")
  }

  @Test func exportOfThePaletteAsNestedSwiftAndAsAGTKStylesheet() {
    let swift = runDMKit(["export", palette, "--format", "swift", "--nested"])
    #expect(swift.status == 0)
    #expect(swift.output.contains("\n  public enum Text {\n    /// `Text.Primary`: NORMAL #1C1C1E, "))
    #expect(
      swift.output.contains("\n    public static let primary = DMDynamicColor(key: \"Text.Primary\")\n"))
    #expect(swift.output.contains("\n  public static let solarized: DMTheme = \"SOLARIZED\"\n"))
    let noThemes = runDMKit(["export", palette, "--format", "swift", "--no-themes"])
    #expect(noThemes.status == 0)
    #expect(noThemes.output.contains("public static let background = DMDynamicColor(key: \"Background\")"))
    #expect(!noThemes.output.contains("DMTheme"))
    let gtk = runDMKit(["export", palette, "--format", "gtk"])
    #expect(gtk.status == 0)
    #expect(gtk.output.contains("\n@define-color dm_solarized-dark_text-primary rgba(147,161,161,1.0);\n"))
    // More than 200 selectors: each has the parts that group it (see ColorTableExportTests).
    let rule = gtk.output.split(separator: "\n").first {
      $0.hasPrefix(".dm-column-night-high.dm-fg-Text\\00002ePrimary.dm-fg-Text\\00002ePrimary:not(")
    }
    #expect(
      rule?.contains(", .dm-column-night-high .dm-fg-Text\\00002ePrimary:not(") == true, "\(rule ?? "")")
    #expect(rule?.hasSuffix(" { color: rgba(255,255,255,1.0); }") == true, "\(rule ?? "")")
  }

  @Test func exportOfABadTableNamesThePlaceAndWritesNothing() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dmkit-export-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("Bad.txt").path
    try "NORMAL NIGHT\n#fff #000 BG\n#fff #000 BG\n".write(toFile: path, atomically: true, encoding: .utf8)
    let output = folder.appendingPathComponent("out.css").path
    let run = runDMKit(["export", path, "--format", "css", "--output", output])
    #expect(run.status == 1)
    #expect(run.output == "")
    #expect(run.errors.hasPrefix("\(path):3:11: error: duplicate key \"BG\""))
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test func exportIsListedInTheUsage() {
    #expect(runDMKit(["--help"]).output.contains("  export "))
    #expect(
      runDMKit(["help", "export"]).output.hasPrefix("USAGE: dmkit export FILE --format css|gtk|json|swift"))
  }
}
