import DarkModeKitTestSupport
import Foundation
import Testing

@testable import DarkModeKit

/// The colour-table format: every rule and every error, with its place and message.
@Suite struct ColorTableParsingTests {
  // MARK: - Helpers

  /// The error that parsing `text` throws, or `nil` when it loads.
  private func parseError(_ text: String) -> DMColorTableError? {
    do {
      _ = try DMColorTable(string: text)
      return nil
    } catch {
      return error
    }
  }

  /// Checks every field of an error.
  private func expectError(
    _ text: String, _ kind: DMColorTableError.Kind, line: Int, column: Int, token: String,
    message: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard let error = parseError(text) else {
      Issue.record("expected \(kind), but the table loaded", sourceLocation: sourceLocation)
      return
    }
    #expect(error.kind == kind, sourceLocation: sourceLocation)
    #expect(error.line == line, sourceLocation: sourceLocation)
    #expect(error.column == column, sourceLocation: sourceLocation)
    #expect(error.token == token, sourceLocation: sourceLocation)
    #expect(error.message == message, sourceLocation: sourceLocation)
    #expect(error.path == nil, sourceLocation: sourceLocation)
    #expect(error.description == "line \(line), column \(column): \(message)", sourceLocation: sourceLocation)
  }

  private func rgb(_ value: UInt32) -> DMColor { DMColor(rgb: value) }

  private static let nameRule =
    "theme names use ASCII letters, digits, \"_\", \".\" and \"-\", and start with a letter or \"_\""
  private static let keyRule =
    "a key is any run of characters other than spaces and control or formatting characters"

  // MARK: - The format

  @Test func dkNightVersionReadmeTableLoadsWithItsColours() throws {
    let table = try DMColorTable(
      string: """
        // comment lines start with //
        NORMAL   NIGHT    RED
        #ffffff  #343434  #fafafa  BG
        #aaaaaa  #313131  #aaaaaa  SEP
        """)
    #expect(table.themes == ["NORMAL", "NIGHT", "RED"])
    #expect(table.keys == ["BG", "SEP"])
    #expect(table.color(forKey: "BG", theme: "NORMAL") == rgb(0xFFFFFF))
    #expect(table.color(forKey: "BG", theme: "NIGHT") == rgb(0x343434))
    #expect(table.color(forKey: "BG", theme: "RED") == rgb(0xFAFAFA))
    #expect(table.color(forKey: "SEP", theme: "NORMAL") == rgb(0xAAAAAA))
    #expect(table.color(forKey: "SEP", theme: "NIGHT") == rgb(0x313131))
    #expect(table.color(forKey: "SEP", theme: "RED") == rgb(0xAAAAAA))
  }

  @Test func dkNightVersionStyleTableWithOneSpaceAndZeroXColoursLoads() throws {
    let table = try DMColorTable(string: "NORMAL NIGHT\n0xffffff 0x343434 BG\n0x0000ff 0xffffff TINT\n")
    #expect(table.keys == ["BG", "TINT"])
    #expect(table.color(forKey: "TINT", theme: .normal) == rgb(0x0000FF))
    #expect(table.color(forKey: "TINT", theme: .night) == rgb(0xFFFFFF))
  }

  @Test func dkNightVersionShippedTableWithoutFinalLineEndLoads() throws {
    let table = try DMColorTable(string: "NORMAL   NIGHT\n#ffffff  #343434 BG\n#aaaaaa  #313131 SEP")
    #expect(table.keys == ["BG", "SEP"])
    #expect(table.color(forKey: "SEP", theme: .night) == rgb(0x313131))
  }

  @Test func formatReferenceExampleLoads() throws {
    let table = try DMColorTable(
      string: """
        // Brand colours, two themes and a custom one.
        \tNORMAL\tNIGHT    High-Contrast      // the columns

        #fff      #1c1c1e   #000        Surface.Background
        0xFF3B30  0xFF453A  0xFF0000ff  Accent   // 8 digits: with alpha
        #0000007f #ffffff7f #000000     Text_Secondary
        """)
    #expect(table.themes == ["NORMAL", "NIGHT", "High-Contrast"])
    #expect(table.keys == ["Surface.Background", "Accent", "Text_Secondary"])
    #expect(table.color(forKey: "Accent", theme: "High-Contrast") == rgb(0xFF0000))
  }

  @Test func blankLinesAndWholeLineCommentsAreSkipped() throws {
    let table = try DMColorTable(
      string: "\n// header follows\n\n   \t\nNORMAL NIGHT\n\n// a row\n#fff #000 BG\n\n//\n")
    #expect(table.themes == [.normal, .night])
    #expect(table.keys == ["BG"])
  }

  @Test func commentsAfterTheKeyAndAfterTheHeaderAreSkipped() throws {
    let table = try DMColorTable(
      string: "NORMAL NIGHT // the themes\n#fff #000 BG // the background\n#111 #222 SEP//tight comment\n")
    #expect(table.themes == [.normal, .night])
    #expect(table.keys == ["BG", "SEP"])
    #expect(table.color(forKey: "SEP", theme: .night) == rgb(0x222222))
  }

  @Test(arguments: ["\n", "\r\n", "\r"])
  func lineEndsLFCRLFAndCRAreAccepted(lineEnd: String) throws {
    let text = ["// c", "NORMAL NIGHT", "", "#fff #000 BG", "#111 #222 SEP"].joined(separator: lineEnd)
    let table = try DMColorTable(string: text + lineEnd)
    #expect(table.keys == ["BG", "SEP"])
    #expect(table.color(forKey: "SEP", theme: .normal) == rgb(0x111111))
  }

  @Test func mixedLineEndsCountLinesOnce() {
    // CRLF is one line end; CR then LF as separate characters in "\r\r\n" is two.
    expectError(
      "NORMAL\r\n#fff BG\r\r\n#zz BG2", .badColor, line: 4, column: 1, token: "#zz",
      message: "bad colour \"#zz\": \"z\" at offset 1 is not a hexadecimal digit")
  }

  @Test func utf8ByteOrderMarkIsSkippedAndNotCounted() throws {
    let table = try DMColorTable(string: "\u{FEFF}NORMAL NIGHT\n#fff #000 BG\n")
    #expect(table.themes == [.normal, .night])
    expectError(
      "\u{FEFF}NORMAL NORMAL", .duplicateTheme, line: 1, column: 8, token: "NORMAL",
      message: "duplicate theme \"NORMAL\": the header already names it at column 1")
  }

  @Test func runsOfSpacesAndTabsSeparateTokens() throws {
    let table = try DMColorTable(string: "\t NORMAL \t\t NIGHT  \n  #fff\t\t#000 \t BG\t \n")
    #expect(table.themes == [.normal, .night])
    #expect(table.color(forKey: "BG", theme: .night) == rgb(0x000000))
  }

  @Test func tabsCountAsOneColumn() {
    expectError(
      "NORMAL\tNIGHT\n#fff\t\t#12G BG", .badColor, line: 2, column: 7, token: "#12G",
      message: "bad colour \"#12G\": \"G\" at offset 3 is not a hexadecimal digit")
  }

  @Test func everyColourFormOfDMColorHexIsAccepted() throws {
    let table = try DMColorTable(
      string: "A\n#abc K1\n#AABBCC K2\n#aabbcc80 K3\n0xAABBCC K4\n0Xaabbcc80 K5\n#aAbBcC K6\n")
    let opaque = rgb(0xAABBCC)
    let translucent = DMColor(rgb: 0xAABBCC, alpha: Double(0x80) / 255)
    #expect(table.color(forKey: "K1", theme: "A") == opaque)
    #expect(table.color(forKey: "K2", theme: "A") == opaque)
    #expect(table.color(forKey: "K3", theme: "A") == translucent)
    #expect(table.color(forKey: "K4", theme: "A") == opaque)
    #expect(table.color(forKey: "K5", theme: "A") == translucent)
    #expect(table.color(forKey: "K6", theme: "A") == opaque)
  }

  @Test func namesMayUseLettersDigitsUnderscoreDotAndDash() throws {
    let table = try DMColorTable(
      string: "_Base Night-2 v1.0\n#000 #111 #222 Text_Primary\n#333 #444 #555 Surface.Background\n"
        + "#666 #777 #888 _x-9.Y\n")
    #expect(table.themes == ["_Base", "Night-2", "v1.0"])
    #expect(table.keys == ["Text_Primary", "Surface.Background", "_x-9.Y"])
  }

  @Test func namesAndKeysAreCaseSensitive() throws {
    let table = try DMColorTable(string: "NIGHT night\n#000 #fff BG\n#111 #eee bg\n")
    #expect(table.themes == ["NIGHT", "night"])
    #expect(table.color(forKey: "BG", theme: "night") == rgb(0xFFFFFF))
    #expect(table.color(forKey: "bg", theme: "NIGHT") == rgb(0x111111))
    #expect(table.color(forKey: "Bg", theme: "NIGHT") == nil)
  }

  @Test func keysKeepFileOrder() throws {
    let table = try DMColorTable(string: "A\n#000 Zed\n#000 alpha\n#000 Mid\n#000 _first\n")
    #expect(table.keys == ["Zed", "alpha", "Mid", "_first"])
  }

  @Test func headerWithoutRowsIsAnEmptyTableWithThemes() throws {
    let table = try DMColorTable(string: "NORMAL NIGHT\n// nothing yet\n")
    #expect(table.themes == [.normal, .night])
    #expect(table.keys.isEmpty)
  }

  @Test func lastLineNeedsNoLineEnd() throws {
    let table = try DMColorTable(string: "A\n#010203 K")
    #expect(table.color(forKey: "K", theme: "A") == rgb(0x010203))
  }

  @Test func fileWithBOMAndCRLFLoadsFromDisk() throws {
    let url = try TemporaryFile.write(Array("\u{FEFF}NORMAL NIGHT\r\n#fff #000 BG\r\n".utf8))
    defer { TemporaryFile.remove(url) }
    let table = try DMColorTable(contentsOf: url)
    #expect(table.color(forKey: "BG", theme: .night) == rgb(0x000000))
  }

  // MARK: - Errors: header

  @Test func emptyInputHasNoHeader() {
    expectError(
      "", .noHeader, line: 1, column: 1, token: "",
      message:
        "no header: the file is empty; the first line must name the themes, for example \"NORMAL NIGHT\"")
  }

  @Test func whitespaceOnlyInputCountsAsEmpty() {
    expectError(
      " \n\t\n", .noHeader, line: 2, column: 2, token: "",
      message:
        "no header: the file is empty; the first line must name the themes, for example \"NORMAL NIGHT\"")
  }

  @Test func onlyCommentsHasNoHeader() {
    expectError(
      "// one\n\n// two", .noHeader, line: 3, column: 7, token: "",
      message: "no header: the file has only blank lines and comments; the first line that is not blank "
        + "or a comment must name the themes, for example \"NORMAL NIGHT\"")
  }

  @Test func firstLineOfColoursHasNoHeader() {
    expectError(
      "// colours\n  #fff #000 BG\n", .noHeader, line: 2, column: 3, token: "#fff",
      message: "no header: expected theme names, found the colour \"#fff\"; the first line that is not "
        + "blank or a comment must name the themes, for example \"NORMAL NIGHT\"")
  }

  @Test func badThemeNameStartingWithADigit() {
    expectError(
      "NORMAL 2ND", .badThemeName, line: 1, column: 8, token: "2ND",
      message: "bad theme name \"2ND\": \"2\" cannot start a theme name; \(Self.nameRule)")
  }

  /// A theme name may be 64 bytes long, not more: exports repeat it for each key.
  @Test func badThemeNameLongerThan64Bytes() throws {
    let longest = String(repeating: "A", count: 64)
    #expect(try DMColorTable(string: "NORMAL \(longest):dark\n#fff #000 BG\n").keys == ["BG"])
    let error = try #require(parseError("NORMAL \(longest)B:dark\n#fff #000 BG\n"))
    #expect(error.kind == .badThemeName)
    #expect(error.line == 1 && error.column == 8)
    #expect(error.message.hasSuffix(": the theme name is 65 bytes long, more than 64"), "\(error)")
  }

  @Test func badThemeNameWithAPunctuationCharacter() {
    expectError(
      "NORMAL N!GHT", .badThemeName, line: 1, column: 8, token: "N!GHT",
      message: "bad theme name \"N!GHT\": \"!\" is not allowed in a theme name; \(Self.nameRule)")
  }

  @Test func badThemeNameWithANonASCIILetter() {
    expectError(
      "NORMAL NUIT DÉFAUT", .badThemeName, line: 1, column: 13, token: "DÉFAUT",
      message: "bad theme name \"DÉFAUT\": \"É\" is not allowed in a theme name; \(Self.nameRule)")
  }

  @Test func duplicateTheme() {
    expectError(
      "NORMAL NIGHT RED NIGHT", .duplicateTheme, line: 1, column: 18, token: "NIGHT",
      message: "duplicate theme \"NIGHT\": the header already names it at column 8")
  }

  @Test func aHeaderNamesTheSidesAndContrastOfEachColumn() throws {
    let table = try DMColorTable(
      string: "NORMAL NIGHT SEPIA SOLARIZED:light SOLARIZED:dark NORMAL:high SOLARIZED:dark:high\n"
        + "#fff #000 #f4ecd8 #fdf6e3 #002b36 #ffffff #001010 BG\n")
    #expect(
      table.variants.map(\.description) == [
        "NORMAL", "NIGHT", "SEPIA", "SOLARIZED", "SOLARIZED:dark", "NORMAL:high", "SOLARIZED:dark:high",
      ])
    #expect(table.themes == [.normal, .night, "SEPIA", "SOLARIZED"])
    #expect(table.color(forKey: "BG", variant: "SOLARIZED:dark") == rgb(0x002B36))
    #expect(table.color(forKey: "BG", variant: "SOLARIZED:light:high") == nil)
    #expect(table.color(forKey: "BG", theme: "SOLARIZED") == rgb(0xFDF6E3), "the theme's first column")
  }

  @Test(arguments: [
    ("NORMAL SOLARIZED:dusk", 8, "\":dusk\" is not a side or a contrast; \(Self.variantSyntax)"),
    ("NORMAL SOLARIZED:", 8, "\":\" must be followed by light, dark or high; \(Self.variantSyntax)"),
    (
      "NORMAL X:high:dark", 8,
      "\":dark\" comes after \":high\"; the side comes first, as in \"NAME:dark:high\""
    ),
    ("NORMAL X:light:dark", 8, "it names two sides; \(Self.variantSyntax)"),
    ("NORMAL X:high:high", 8, "\":high\" is written twice"),
    ("NORMAL NIGHT:light", 8, "NIGHT names a dark side; write NIGHT or NIGHT:high"),
    ("NORMAL:dark", 1, "NORMAL names the light side of the default theme, whose dark side is NIGHT"),
    ("DARK:light", 1, "DARK names a dark side; write DARK or DARK:high"),
    ("NORMAL :dark", 8, "a theme name cannot be empty; \(Self.nameRule)"),
  ])
  func badVariantsInTheHeaderSayWhatIsWrong(header: String, column: Int, reason: String) {
    let token = String(header.split(separator: " ").last!)
    expectError(
      header, .badThemeName, line: 1, column: column, token: token,
      message: "bad theme name \"\(token)\": \(reason)")
  }

  @Test func theSameColumnWrittenTwoWaysIsADuplicate() {
    expectError(
      "NORMAL NIGHT NORMAL:light", .duplicateTheme, line: 1, column: 14, token: "NORMAL:light",
      message: "duplicate theme \"NORMAL:light\": the header already names it as \"NORMAL\" at column 1")
    expectError(
      "NORMAL SEPIA:dark:high SEPIA:dark:high", .duplicateTheme, line: 1, column: 24,
      token: "SEPIA:dark:high",
      message: "duplicate theme \"SEPIA:dark:high\": the header already names it at column 8")
  }

  static let variantSyntax =
    "a theme column is NAME, NAME:light or NAME:dark, with \":high\" after it for high contrast"

  // MARK: - Errors: rows

  @Test func tooFewColoursBeforeTheKey() {
    expectError(
      "NORMAL NIGHT RED\n#fff #000 BG", .tooFewColors, line: 2, column: 11, token: "BG",
      message:
        "too few colours for key \"BG\": found 2, expected 3 colours, one per theme (NORMAL, NIGHT, RED)")
  }

  @Test func onlyAKeyIsTooFewColours() {
    expectError(
      "NORMAL\n  BG", .tooFewColors, line: 2, column: 3, token: "BG",
      message: "too few colours for key \"BG\": found 0, expected 1 colour, one per theme (NORMAL)")
  }

  @Test func tooFewColoursAndNoKey() {
    expectError(
      "NORMAL NIGHT RED\n#fff #000   // no key", .tooFewColors, line: 2, column: 10, token: "",
      message: "too few colours and no key: found 2 colours and the end of the line, expected 3 colours, "
        + "one per theme (NORMAL, NIGHT, RED), then a key")
  }

  @Test func tooManyColours() {
    expectError(
      "NORMAL NIGHT\n#fff #000 #f00 #0f0 BG", .tooManyColors, line: 2, column: 11, token: "#f00",
      message: "too many colours: \"#f00\" is colour 3 of 4, but the header names 2 themes (NORMAL, NIGHT)")
  }

  @Test func badColourDigit() {
    expectError(
      "NORMAL NIGHT\n#fff #12G BG", .badColor, line: 2, column: 6, token: "#12G",
      message: "bad colour \"#12G\": \"G\" at offset 3 is not a hexadecimal digit")
  }

  @Test func badColourLength() {
    expectError(
      "NORMAL\n#12345 BG", .badColor, line: 2, column: 1, token: "#12345",
      message: "bad colour \"#12345\": expected 3, 6 or 8 hexadecimal digits after \"#\", found 5")
  }

  @Test func badColourZeroXWithThreeDigits() {
    expectError(
      "NORMAL\n0xfff BG", .badColor, line: 2, column: 1, token: "0xfff",
      message: "bad colour \"0xfff\": expected 6 or 8 hexadecimal digits after \"0x\", found 3")
  }

  @Test func badColourWithoutPrefix() {
    expectError(
      "NORMAL NIGHT\nffffff #000 BG", .badColor, line: 2, column: 1, token: "ffffff",
      message: "bad colour \"ffffff\": a colour starts with \"#\" or \"0x\"")
  }

  @Test func aKeyIsAnyRunOfCharactersButSpacesAndControls() throws {
    // As DKNightVersion reads a row: the run of characters after the colours is the key.
    let table = try DMColorTable(
      string: "NORMAL NIGHT\n#fff #000 所有背景视图的默认颜色\n#111 #eee 1BG\n#222 #ddd Text/Primary(hover)\n")
    #expect(table.keys == ["所有背景视图的默认颜色", "1BG", "Text/Primary(hover)"])
    #expect(table.color(forKey: "所有背景视图的默认颜色", theme: .night) == DMColor(rgb: 0x000000))
  }

  @Test func badKeyWithAControlOrAnInvisibleCharacter() {
    expectError(
      "NORMAL\n#fff Text\u{200B}Primary", .badKey, line: 2, column: 6, token: "Text\\u{200B}Primary",
      message: "bad key \"Text\\u{200B}Primary\": \"\\u{200B}\" is not allowed in a key; \(Self.keyRule)")
    expectError(
      "NORMAL\n#fff A\u{0B}B", .badKey, line: 2, column: 6, token: "A\\u{B}B",
      message: "bad key \"A\\u{B}B\": \"\\u{B}\" is not allowed in a key; \(Self.keyRule)")
  }

  @Test func missingKey() {
    expectError(
      "NORMAL NIGHT\n#fff #000 // forgot the key", .missingKey, line: 2, column: 10, token: "",
      message: "missing key: expected a key after the 2 colours, found the end of the line")
  }

  @Test func tokenAfterTheKey() {
    expectError(
      "NORMAL\n#fff BG extra", .unexpectedToken, line: 2, column: 9, token: "extra",
      message:
        "unexpected \"extra\" after the key \"BG\": a row ends with its key, and comments start with \"//\"")
  }

  @Test func duplicateKey() {
    expectError(
      "NORMAL\n#fff BG\n\n#000 BG", .duplicateKey, line: 4, column: 6, token: "BG",
      message: "duplicate key \"BG\": line 2 already defines it")
  }

  @Test func firstErrorInTheFileIsReported() {
    expectError(
      "NORMAL\n#fff B\u{7F}G\n#zzz BG", .badKey, line: 2, column: 6, token: "B\\u{7F}G",
      message: "bad key \"B\\u{7F}G\": \"\\u{7F}\" is not allowed in a key; \(Self.keyRule)")
  }

  // MARK: - Errors: files

  @Test func missingFileIsUnreadable() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("dmkit-\(UUID()).txt")
    let error = try #require(throws: DMColorTableError.self) { try DMColorTable(contentsOf: url) }
    #expect(error.kind == .unreadableFile)
    #expect(error.line == 0 && error.column == 0)
    #expect(error.path == url.path)
    #expect(error.token == url.path)
    #expect(error.message == "cannot read the colour table \"\(url.path)\": No such file or directory")
    #expect(error.description == error.message)
  }

  @Test func directoryIsUnreadable() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("dmkit-\(UUID())")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    defer { TemporaryFile.remove(url) }
    let error = try #require(throws: DMColorTableError.self) { try DMColorTable(contentsOf: url) }
    #expect(error.kind == .unreadableFile)
    #expect(
      error.message == "cannot read the colour table \"\(url.path)\": it is a directory, not a regular file")
  }

  @Test func nonFileURLIsUnreadable() throws {
    let url = try #require(URL(string: "https://example.com/colors.txt"))
    let error = try #require(throws: DMColorTableError.self) { try DMColorTable(contentsOf: url) }
    #expect(error.kind == .unreadableFile)
    #expect(
      error.message == "cannot read the colour table \"https://example.com/colors.txt\": it is not a file URL"
    )
  }

  @Test func latin1FileIsNotUTF8() throws {
    let url = try TemporaryFile.write(Array("NORMAL\n// caf".utf8) + [0xE9] + Array("\n#fff BG\n".utf8))
    defer { TemporaryFile.remove(url) }
    let error = try #require(throws: DMColorTableError.self) { try DMColorTable(contentsOf: url) }
    #expect(error.kind == .notUTF8)
    #expect(error.line == 2)
    #expect(error.column == 7)
    #expect(error.token == "\\xE9")
    #expect(error.message == "the file is not UTF-8 text: the byte sequence \\xE9 is not valid UTF-8")
    #expect(error.path == url.path)
  }

  @Test func truncatedUTF8SequenceInAKeyIsNotUTF8() throws {
    let url = try TemporaryFile.write(Array("NORMAL\n#fff B".utf8) + [0xE2, 0x82] + Array(" G\n".utf8))
    defer { TemporaryFile.remove(url) }
    let error = try #require(throws: DMColorTableError.self) { try DMColorTable(contentsOf: url) }
    #expect(error.kind == .notUTF8)
    #expect(error.line == 2 && error.column == 7)
    #expect(error.token == "\\xE2\\x82")
  }

  @Test func utf16FileIsNotUTF8() throws {
    let utf16: [UInt8] = [0xFF, 0xFE] + "NORMAL\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    let url = try TemporaryFile.write(utf16)
    defer { TemporaryFile.remove(url) }
    let error = try #require(throws: DMColorTableError.self) { try DMColorTable(contentsOf: url) }
    #expect(error.kind == .notUTF8)
    #expect(error.line == 1 && error.column == 1)
    #expect(error.token == "\\xFF\\xFE")
    #expect(
      error.message == "the file is not UTF-8 text: it starts with a UTF-16 byte order mark; save it as UTF-8"
    )
  }

  @Test func parseErrorInAFileCarriesThePath() throws {
    let url = try TemporaryFile.write(Array("NORMAL NIGHT\n#fff #12G BG\n".utf8))
    defer { TemporaryFile.remove(url) }
    let error = try #require(throws: DMColorTableError.self) { try DMColorTable(contentsOf: url) }
    #expect(error.kind == .badColor)
    #expect(error.path == url.path)
    #expect(
      error.description
        == "line 2, column 6: bad colour \"#12G\": \"G\" at offset 3 is not a hexadecimal digit")
    #expect(error.localizedDescription == error.description)
  }

  // MARK: - Robustness

  @Test func randomInputNeverCrashesOrHalfLoads() {
    let fragments: [[UInt8]] = [
      Array("NORMAL".utf8), Array("NIGHT".utf8), Array("#fff".utf8), Array("#12G".utf8), Array("0x".utf8),
      Array("0xAABBCCDD".utf8), Array("BG".utf8), Array("//".utf8), Array("/".utf8), [0x20], [0x09],
      [0x0A], [0x0D], [0x0D, 0x0A], [0xEF, 0xBB, 0xBF], [0xFF], [0xC3], [0xC3, 0xA9], [0xE2, 0x82, 0xAC],
      [0xF0, 0x9F, 0x8C, 0x99], [0xED, 0xA0, 0x80], [0x00], Array("1x".utf8), Array("_a.b-c".utf8),
    ]
    var generator = SeededGenerator(seed: 0xDA4C_0DE)
    for _ in 0..<3000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int(generator.next() % 40) {
        bytes += fragments[Int(generator.next() % UInt64(fragments.count))]
      }
      do {
        let table = try ColorTableParser.parse(bytes, validatesUTF8: true)
        #expect(table.colors.count == table.keys.count * table.columns.count)
        #expect(table.keyIndex.count == table.keys.count)
        #expect(!table.columns.isEmpty)
      } catch {
        #expect(error.line >= 1)
        #expect(error.column >= 1)
        #expect(!error.message.isEmpty)
      }
    }
  }
}

/// Files in the temporary directory for tests that read from disk.
enum TemporaryFile {
  /// Writes bytes to a new file and returns its URL.
  static func write(_ bytes: [UInt8]) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("dmkit-table-\(UUID()).txt")
    try Data(bytes).write(to: url)
    return url
  }

  /// Writes text to a new file and returns its URL.
  static func write(_ text: String) throws -> URL {
    try write(Array(text.utf8))
  }

  /// Removes a file or directory, ignoring errors.
  static func remove(_ url: URL) {
    try? FileManager.default.removeItem(at: url)
  }
}
