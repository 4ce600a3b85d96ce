import DarkModeKit
import DarkModeKitTestSupport
import Foundation
import Testing

@testable import dmkit

/// Runs the built `dmkit` as a user runs it, with `environment` as its only variables; returns the
/// exit status and what it wrote. Its standard output is a pipe, or a pseudo-terminal for
/// `outputIsTerminal`.
func dmkit(
  _ arguments: [String], environment: [String: String] = [:], outputIsTerminal: Bool = false
) -> (status: Int32, out: String, error: String) {
  do {
    let process = try ChildProcess(
      DMKit.path, arguments, environment: environment, capturesOutput: true,
      outputIsTerminal: outputIsTerminal)
    let out = process.readToEnd(seconds: 60)
    let status = process.wait(seconds: 10)
    guard let out, let status else {
      process.crash()
      Issue.record("dmkit \(arguments) did not end in time")
      return (-1, out ?? "", process.standardError)
    }
    return (status, out, process.standardError)
  } catch {
    Issue.record("cannot run \(DMKit.path): \(error)")
    return (-1, "", "")
  }
}

/// Runs the built `dmkit` with these arguments; see ``dmkit(_:environment:)``.
func dmkit(_ arguments: String...) -> (status: Int32, out: String, error: String) {
  dmkit(arguments)
}

/// A path inside the repository.
func repositoryPath(_ relative: String) -> String {
  URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../" + relative)
    .standardizedFileURL.path
}

@Suite struct ArgumentParsingTests {
  private let spec = CommandSpec(
    name: "try", summary: "", usage: "", flags: ["--strict"], options: ["--pair", "--format"],
    positionals: 1...2)

  @Test func flagsOptionsAndPositionalsAreTakenApart() throws {
    let parsed = try spec.parse([
      "a.txt", "--pair", "FG:BG", "--strict", "--pair=X:Y", "--format", "css", "b.txt",
    ])
    #expect(parsed.positionals == ["a.txt", "b.txt"])
    #expect(parsed.flags == ["--strict"])
    #expect(parsed.values("--pair") == ["FG:BG", "X:Y"])
    #expect(parsed.value("--format") == "css")
    #expect(!parsed.wantsHelp)
  }

  @Test func doubleDashEndsOptions() throws {
    #expect(try spec.parse(["--", "--strict"]).positionals == ["--strict"])
  }

  @Test func helpNeedsNothingElse() throws {
    #expect(try spec.parse(["--help"]).wantsHelp)
    #expect(try spec.parse(["-h"]).positionals.isEmpty)
  }

  @Test(arguments: [
    (["a", "--bogus"], "unknown option \"--bogus\" for \"try\""),
    (["a", "--pair"], "\"--pair\" needs a value"),
    (["a", "--strict=yes"], "\"--strict\" takes no value"),
    ([], "\"try\" needs a file"),
    (["a", "b", "c"], "unexpected argument \"c\""),
  ])
  func badCommandLinesSayWhatIsWrong(_ arguments: [String], _ message: String) {
    #expect(throws: UsageError(description: message)) { try spec.parse(arguments) }
  }
}

@Suite @MainActor struct DMKitUsageTests {
  @Test func helpAndVersion() {
    let help = dmkit("--help")
    #expect(help.status == 0)
    #expect(help.out.hasPrefix("USAGE: dmkit <command> [options]"))
    #expect(help.out.contains("  lint "))
    #expect(help.out.contains("  watch "))
    #expect(dmkit().out == help.out)
    #expect(dmkit("--version") == (0, "dmkit \(DMKitTool.version)\n", ""))
    let lintHelp = dmkit("help", "lint")
    #expect(lintHelp.status == 0)
    #expect(lintHelp.out == LintCommand.spec.usage)
    #expect(dmkit("lint", "--help").out == LintCommand.spec.usage)
  }

  @Test func unknownCommandsAndFlagsPrintTheUsageWithAOneLineErrorAndExit2() {
    let unknown = dmkit("frobnicate")
    #expect(unknown.status == 2)
    #expect(unknown.out.isEmpty)
    #expect(unknown.error.hasPrefix("dmkit: error: unknown command \"frobnicate\"\n\nUSAGE: dmkit"))
    let flag = dmkit("lint", "x.txt", "--bogus")
    #expect(flag.status == 2)
    #expect(
      flag.error.hasPrefix("dmkit: error: unknown option \"--bogus\" for \"lint\"\n\nUSAGE: dmkit lint"))
    #expect(dmkit("--bogus").status == 2)
    #expect(dmkit("help", "nope").status == 2)
  }
}

@Suite @MainActor final class LintCommandTests {
  /// Where each test writes its tables, removed when the test ends.
  private let folder: TemporaryFolder

  init() throws { folder = try TemporaryFolder() }
  deinit { folder.remove() }

  private func file(_ contents: String) throws -> String {
    let url = folder.file("lint-\(UUID().uuidString).txt")
    try Data(contents.utf8).write(to: url)
    return url.path
  }

  @Test func cleanTablesPassSilently() {
    #expect(
      dmkit(
        "lint", repositoryPath("Docs/Examples/DKColorTable.txt"), repositoryPath("Docs/Examples/Palette.txt"))
        == (0, "", ""))
  }

  @Test func verboseSaysHowTheHeaderIsReadAndGapsInTheVariantsAreWarnings() throws {
    let path = try file(
      "NORMAL NIGHT NORMAL:high SEPIA SOLARIZED:light SOLARIZED:dark SOLARIZED:dark:high\n"
        + "#ffffff #000000 #ffffff #f4ecd8 #fdf6e3 #002b36 #001010 BG\n"
        + "#111111 #eeeeee #000000 #888888 #073642 #93a1a1 #ffffff FG\n")
    let result = dmkit("lint", path, "--verbose", "--pair", "FG:BG")
    #expect(result.status == 0, "warnings do not fail the check")
    #expect(
      result.out == """
        \(path): note: column 1, NORMAL: the light side of the default theme
        \(path): note: column 2, NIGHT: the dark side of the default theme
        \(path): note: column 3, NORMAL:high: the light side of the default theme, in high contrast
        \(path): note: column 4, SEPIA: the light side of SEPIA (light only: choosing it makes the style light)
        \(path): note: column 5, SOLARIZED:light: the light side of SOLARIZED (both sides: it follows the style)
        \(path): note: column 6, SOLARIZED:dark: the dark side of SOLARIZED (both sides: it follows the style)
        \(path): note: column 7, SOLARIZED:dark:high: the dark side of SOLARIZED (both sides: it follows the style), in high contrast
        \(path): warning: NIGHT has no high-contrast variant, while the light side of the default theme has one (NORMAL:high): with high contrast the dark side shows NIGHT
        \(path): warning: SOLARIZED:light has no high-contrast variant, while the dark side of SOLARIZED has one (SOLARIZED:dark:high): with high contrast the light side shows SOLARIZED:light
        \(path):3:1: warning: FG on BG in theme SEPIA: contrast 3.01:1 is below 4.50:1

        """)
    // Without --verbose only the warnings; every column's contrast is checked and named.
    let strict = dmkit("lint", path, "--pair", "FG:BG", "--min-contrast", "15", "--strict")
    #expect(strict.status == 1)
    #expect(!strict.out.contains("note:"))
    #expect(strict.out.contains("error: FG on BG in theme SOLARIZED:dark: contrast"))
    #expect(strict.out.contains("error: FG on BG in theme SOLARIZED:light: contrast"))
  }

  @Test func lintAndExportSayWhichTokenColoursWereBroughtIntoSRGB() throws {
    let url = folder.file("wide-\(UUID().uuidString).tokens.json")
    try Data(
      """
      {"$type": "color",
        "BG": {"$value": {"colorSpace": "oklch", "components": [0.98, 0.01, 90]}},
        "Accent": {"$value": {"colorSpace": "display-p3", "components": [0, 1, 0]}}}
      """.utf8
    ).write(to: url)
    let lint = dmkit("lint", url.path)
    #expect(lint.status == 0, "a colour brought into sRGB is a warning")
    #expect(
      lint.out.hasPrefix(
        "\(url.path):3:24: warning: token \"Accent\": the colour color(display-p3 0 1 0) is outside sRGB; it is "
          + "shown as #00FB29, the nearest colour of the same hue and lightness (CSS Color 4's gamut mapping)\n"
      ),
      "\(lint.out)")
    // An export shows it on standard error, and writes the colour shown.
    let export = dmkit("export", url.path, "--format", "text")
    #expect(export.status == 0)
    #expect(
      export.error.contains("warning: token \"Accent\": the colour color(display-p3 0 1 0) is outside sRGB"))
    #expect(export.out.lowercased().contains("#00fb29"))
  }

  @Test func tokensOfAnUnknownTypeAreAWarningAndAnErrorWhenStrict() throws {
    let url = folder.file("ease-\(UUID().uuidString).tokens.json")
    try Data(
      ##"{"BG": {"$type": "color", "$value": "#fff"}, "ease": {"$type": "cubic-bezier", "$value": [0, 0, 1, 1]}}"##
        .utf8
    )
    .write(to: url)
    let lint = dmkit("lint", url.path)
    #expect(lint.status == 0)
    #expect(
      lint.out.hasPrefix(
        "\(url.path):1:64: warning: token \"ease\": unknown $type \"cubic-bezier\": the token is left out\n"),
      "\(lint.out)")
    let strict = dmkit("lint", url.path, "--strict")
    #expect(strict.status == 1)
    #expect(
      strict.out.hasPrefix("\(url.path):1:64: error: token \"ease\": unknown $type \"cubic-bezier\""),
      "\(strict.out)")
  }

  /// `lint` of a token file prints every problem, in file order, up to `--max-errors`, with the
  /// warnings of the tokens it could read.
  @Test func lintOfTokensPrintsEveryProblem() throws {
    let url = folder.file("broken-\(UUID().uuidString).tokens.json")
    defer { try? FileManager.default.removeItem(at: url) }
    try Data(
      ##"""
      {"$type": "color",
        "bg": {"$value": "#12G"},
        "wide": {"$value": {"colorSpace": "display-p3", "components": [0, 1, 0]}},
        "link": {"$value": "{colour.blue}"},
        "fg": {"$value": "#00000"}}
      """##.utf8
    ).write(to: url)
    let lint = dmkit("lint", url.path)
    #expect(lint.status == 1)
    let lines = lint.out.split(separator: "\n").map(String.init)
    #expect(
      lines.filter { $0.contains(": error: ") } == [
        "\(url.path):2:20: error: token \"bg\": bad colour \"#12G\": \"G\" at offset 3 is not a hexadecimal digit",
        "\(url.path):4:22: error: token \"link\": refers to \"colour.blue\", which is not a token",
        "\(url.path):5:20: error: token \"fg\": bad colour \"#00000\": expected 3, 6 or 8 hexadecimal digits after \"#\", found 5",
      ], "\(lint.out)")
    #expect(
      lines.contains { $0.hasPrefix("\(url.path):3:22: warning: token \"wide\": the colour") }, "\(lint.out)")
    let short = dmkit("lint", url.path, "--max-errors", "1")
    #expect(
      short.out.split(separator: "\n").filter { $0.contains(": error: ") }.map(String.init) == [
        "\(url.path):2:20: error: token \"bg\": bad colour \"#12G\": \"G\" at offset 3 is not a hexadecimal digit",
        "\(url.path): error: 2 more problems not shown, past the first 1",
      ], "\(short.out)")
  }

  @Test func tokenFilesNamedOrGivenAreReadAndTheirProblemsNameThem() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("files-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("theme"), withIntermediateDirectories: true)
    func write(_ path: String, _ text: String) throws {
      try Data(text.utf8).write(to: folder.appendingPathComponent(path))
    }
    try write("global.tokens.json", ##"{"$type": "color", "grey": {"$value": "#242424"}}"##)
    try write("light.tokens.json", ##"{"$type": "color", "Text": {"$value": "{grey}"}}"##)
    try write(
      "all.resolver.json",
      ##"{"version": "2025.10", "resolutionOrder": [{"type": "set", "name": "s", "sources": [{"$ref": "theme/bad.tokens.json"}]}]}"##
    )
    try write("theme/bad.tokens.json", "{\"$type\": \"color\",\n \"bg\": {\"$value\": \"#12G\"}}")
    let light = folder.appendingPathComponent("light.tokens.json").path
    #expect(dmkit("lint", light).out.contains("refers to \"grey\", which is not a token"))
    let with = dmkit("lint", light, "--with", folder.appendingPathComponent("global.tokens.json").path)
    #expect(with.status == 0, "\(with.out)")
    let export = dmkit(
      "export", light, "--with", folder.appendingPathComponent("global.tokens.json").path, "--format", "text")
    #expect(export.out.hasSuffix("NORMAL\n#242424  Text\n"), "\(export.out)")
    let preview = dmkit(
      "preview", light, "--with", folder.appendingPathComponent("global.tokens.json").path, "--no-color")
    #expect(preview.status == 0 && preview.out.contains("#242424"), "\(preview)")
    let resolver = folder.appendingPathComponent("all.resolver.json").path
    let bad = dmkit("lint", resolver)
    #expect(bad.status == 1)
    #expect(
      bad.out.hasPrefix(
        folder.appendingPathComponent("theme/bad.tokens.json").path
          + ":2:19: error: token \"bg\": bad colour \"#12G\""),
      "\(bad.out)")
  }

  @Test func aTableWithoutASideIsAWarningThatSaysWhatTheStyleShows() throws {
    let path = try file("NORMAL RED\n#ffffff #fafafa BG\n")
    let result = dmkit("lint", path)
    #expect(result.status == 0)
    #expect(
      result.out
        == "\(path): warning: the table has no dark column (NIGHT, DARK or NAME:dark): with the dark style it shows NORMAL\n"
    )
    let highOnly = try file("NORMAL:high NIGHT\n#ffffff #000000 BG\n")
    #expect(
      dmkit("lint", highOnly).out
        == "\(highOnly): warning: NORMAL:high has no normal-contrast column of the light side of the default theme: "
        + "with normal contrast that side shows NORMAL:high too\n"
        + "\(highOnly): warning: NIGHT has no high-contrast variant, while the light side of the default theme has "
        + "one (NORMAL:high): with high contrast the dark side shows NIGHT\n")
    // However many columns lack something, the warnings stay within --max-errors.
    let many = try file(
      (0..<500).map { "T\($0):high" }.joined(separator: " ") + "\n" + String(repeating: "#000 ", count: 500)
        + "BG\n")
    let bounded = dmkit("lint", many, "--max-errors", "3").out.split(separator: "\n")
    #expect(bounded.count == 4)
    #expect(bounded.last == "\(many): warning: 498 more warnings about variants not shown; 501 in all")
  }

  @Test func everyProblemIsReportedInEditorFormat() throws {
    let path = try file(
      "NORMAL NIGHT\n#fff #000 BG\n#12G #000 FG\n#fff BAD\n#fff #000 BG\n#fff #000 #000 X\n1KEY #fff #000\n")
    let result = dmkit("lint", path)
    #expect(result.status == 1)
    #expect(
      result.out == """
        \(path):3:1: error: bad colour "#12G": "G" at offset 3 is not a hexadecimal digit
        \(path):4:6: error: too few colours for key "BAD": found 1, expected 2 colours, one per theme (NORMAL, NIGHT)
        \(path):5:11: error: duplicate key "BG": line 2 already defines it
        \(path):6:11: error: too many colours: "#000" is colour 3 of 3, but the header names 2 themes (NORMAL, NIGHT)
        \(path):7:1: error: bad colour "1KEY": a colour starts with "#" or "0x"

        """)
  }

  @Test(arguments: [
    ("", "1:1: error: no header: the file is empty"),
    ("// only a comment\n", "1:18: error: no header: the file has only blank lines and comments"),
    ("NORMAL NORMAL\n", "1:8: error: duplicate theme \"NORMAL\""),
    ("NORMAL 9NIGHT\n", "1:8: error: bad theme name \"9NIGHT\""),
    ("NORMAL\n#fff\n", "2:5: error: missing key"),
    ("NORMAL\n#fff B\u{7F}D\n", "2:6: error: bad key \"B\\u{7F}D\""),
    ("NORMAL\n#fff KEY extra\n", "2:10: error: unexpected \"extra\" after the key \"KEY\""),
  ])
  func eachKindOfErrorNamesItsPlace(_ contents: String, _ expected: String) throws {
    let path = try file(contents)
    let result = dmkit("lint", path)
    #expect(result.status == 1)
    #expect(result.out.hasPrefix("\(path):\(expected)"), "\(result.out)")
  }

  @Test func unreadableAndNonUTF8FilesAreErrorsToo() throws {
    let missing = dmkit("lint", "/nonexistent/Colors.txt")
    #expect(missing.status == 1)
    #expect(missing.out.hasPrefix("/nonexistent/Colors.txt: error: cannot read the colour table"))
    let url = folder.file("latin1-\(UUID().uuidString).txt")
    try Data([0x4E, 0x4F, 0x52, 0x4D, 0x41, 0x4C, 0x0A, 0x23, 0x66, 0x66, 0x66, 0x20, 0x4B, 0xE9, 0x0A])
      .write(to: url)
    let latin1 = dmkit("lint", url.path)
    #expect(latin1.status == 1)
    #expect(latin1.out.hasPrefix("\(url.path):2:7: error: "))
  }

  @Test func contrastPairsBelowTheMinimumAreWarningsOrWithStrictErrors() {
    let table = repositoryPath("Docs/Examples/DKColorTable.txt")
    let warning = dmkit("lint", table, "--pair", "SEP:BG")
    #expect(warning.status == 0)
    #expect(
      warning.out == """
        \(table):4:1: warning: SEP on BG in theme NORMAL: contrast 2.32:1 is below 4.50:1
        \(table):4:1: warning: SEP on BG in theme NIGHT: contrast 1.04:1 is below 4.50:1
        \(table):4:1: warning: SEP on BG in theme RED: contrast 2.23:1 is below 4.50:1

        """)
    let strict = dmkit("lint", table, "--pair", "SEP:BG", "--strict", "--min-contrast", "2.3")
    #expect(strict.status == 1)
    #expect(strict.out.components(separatedBy: "\n").filter { $0.contains("error:") }.count == 2)
    #expect(dmkit("lint", table, "--pair", "SEP:BG", "--min-contrast", "1").out.isEmpty)
  }

  @Test func theBundledPaletteMeetsAAInEveryTheme() {
    let palette = repositoryPath("Docs/Examples/Palette.txt")
    let pairs = [
      "Text.Primary:Background", "Text.Secondary:Background", "Text.Primary:Surface", "Text.OnAccent:Accent",
      "Link:Background", "Error:Background",
    ]
    let result = dmkit(["lint", palette] + pairs.flatMap { ["--pair", $0] } + ["--strict"])
    #expect(result.status == 0, "\(result.out)")
  }

  @Test func badPairsAndRatiosAreCommandLineErrors() {
    let table = repositoryPath("Docs/Examples/DKColorTable.txt")
    #expect(dmkit("lint", table, "--pair", "SEP").status == 2)
    #expect(dmkit("lint", table, "--min-contrast", "abc").status == 2)
    let missingKey = dmkit("lint", table, "--pair", "TEXT:BG")
    #expect(missingKey.status == 1)
    #expect(missingKey.out == "\(table): error: --pair TEXT:BG: the table has no key \"TEXT\"\n")
  }
}

@Suite struct ContrastTests {
  @Test func wcagFiguresComeOutRight() {
    #expect(DMColor.black.contrastRatio(with: .white) == 21)
    #expect(abs(DMColor(rgb: 0x777777).contrastRatio(with: .white) - 4.48) < 0.005)
    #expect(DMColor.white.contrastRatio(with: .white) == 1)
    #expect(abs(DMColor(rgb: 0x0000FF).contrastRatio(with: .white) - 8.59) < 0.005)
    #expect(DMColor.red.contrastRatio(with: .black) == DMColor.black.contrastRatio(with: .red))
    #expect(DMColor.white.relativeLuminance == 1)
    #expect(DMColor.black.relativeLuminance == 0)
  }
}
