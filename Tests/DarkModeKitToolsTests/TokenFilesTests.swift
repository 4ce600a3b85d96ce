import DarkModeKit
import DarkModeKitTools
import Foundation
import Testing

/// Resolver documents that name files, and token files read with the files they refer to.
@Suite struct TokenFilesTests {
  /// A folder of its own, with `files` written into it (paths relative to it), removed after.
  final class Folder {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "dmkit-files-\(UUID().uuidString)")

    init(_ files: [String: String]) throws {
      for (path, text) in files {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(
          at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
      }
    }

    func file(_ path: String) -> URL { url.appendingPathComponent(path) }

    deinit { try? FileManager.default.removeItem(at: url) }
  }

  /// The specification's shape: a foundation set and a theme modifier, each from files.
  static let resolver = """
    {
      "version": "2025.10",
      "sets": {"foundation": {"sources": [{"$ref": "foundation/colors.tokens.json"}, {"$ref": "./foundation/more.json#/extra"}]}},
      "modifiers": {
        "theme": {
          "contexts": {
            "light": [{"$ref": "theme/light.tokens.json"}],
            "dark": [{"$ref": "theme/dark.tokens.json"}]
          },
          "default": "light"
        }
      },
      "resolutionOrder": [{"$ref": "#/sets/foundation"}, {"$ref": "#/modifiers/theme"}]
    }
    """

  static let files = [
    "tokens.resolver.json": resolver,
    "foundation/colors.tokens.json":
      ##"{"$type": "color", "blue": {"$value": "#0050c0"}, "white": {"$value": "#ffffff"}}"##,
    "foundation/more.json": ##"{"extra": {"black": {"$type": "color", "$value": "#000000"}}}"##,
    "theme/light.tokens.json":
      ##"{"$type": "color", "bg": {"$value": "{white}"}, "fg": {"$value": "{black}"}}"##,
    "theme/dark.tokens.json":
      ##"{"$type": "color", "bg": {"$value": "{black}"}, "fg": {"$value": "{white}"}}"##,
  ]

  @Test func aResolverDocumentReadsTheFilesItsSourcesName() throws {
    let folder = try Folder(Self.files)
    let table = try DMDesignTokens.table(contentsOf: folder.file("tokens.resolver.json"))
    #expect(table.color(forKey: "bg", theme: .normal) == DMColor(rgb: 0xFFFFFF))
    #expect(table.color(forKey: "bg", theme: .night) == DMColor(rgb: 0x000000))
    #expect(table.color(forKey: "fg", theme: .night) == DMColor(rgb: 0xFFFFFF))
    #expect(table.color(forKey: "blue", theme: .normal) == DMColor(rgb: 0x0050C0))
  }

  @Test func aProblemInANamedFileNamesThatFileAndItsPlace() throws {
    var files = Self.files
    files["theme/dark.tokens.json"] = "{\"$type\": \"color\",\n  \"bg\": {\"$value\": \"#12G\"}}"
    let folder = try Folder(files)
    #expect {
      _ = try DMDesignTokens.table(contentsOf: folder.file("tokens.resolver.json"))
    } throws: { error in
      guard let error = error as? DMDesignTokensError else { return false }
      return error.path?.hasSuffix("/theme/dark.tokens.json") == true && error.line == 2 && error.column == 20
        && error.message.contains("bad colour \"#12G\"")
    }
  }

  @Test(arguments: [
    ("../outside.tokens.json", "the file is outside the document's folder"),
    ("missing.json", "cannot read"),
    ("sub", "not a regular file"),
    ("tokens.resolver.json", "names this document itself"),
    ("https://example.com/colors.json", "only files are read"),
  ])
  func filesAreReadOnlyInsideTheDocumentsFolderAndOnlyRegularOnes(_ reference: String, _ problem: String)
    throws
  {
    let folder = try Folder(
      [
        "tokens.resolver.json": Self.resolver.replacingOccurrences(
          of: "theme/dark.tokens.json", with: reference),
        "sub/x.json": "{}",
      ].merging(Self.files.filter { $0.key != "tokens.resolver.json" }) { first, _ in first })
    try Data(##"{"bg": {"$type": "color", "$value": "#ffffff"}}"##.utf8)
      .write(to: folder.url.deletingLastPathComponent().appendingPathComponent("outside.tokens.json"))
    #expect {
      _ = try DMDesignTokens.table(contentsOf: folder.file("tokens.resolver.json"))
    } throws: { error in
      guard let error = error as? DMDesignTokensError else { return false }
      return error.message.contains(problem) && error.message.contains(reference) && error.line == 8
    }
  }

  @Test func aLinkOutOfTheFolderIsRefusedAndAllowedWhenAsked() throws {
    let folder = try Folder(Self.files)
    let outside = folder.url.deletingLastPathComponent().appendingPathComponent(
      "dark-\(UUID().uuidString).json")
    try Data(##"{"$type": "color", "bg": {"$value": "#111111"}, "fg": {"$value": "#eeeeee"}}"##.utf8).write(
      to: outside)
    defer { try? FileManager.default.removeItem(at: outside) }
    try FileManager.default.removeItem(at: folder.file("theme/dark.tokens.json"))
    try FileManager.default.createSymbolicLink(
      at: folder.file("theme/dark.tokens.json"), withDestinationURL: outside)
    #expect {
      _ = try DMDesignTokens.table(contentsOf: folder.file("tokens.resolver.json"))
    } throws: { error in
      (error as? DMDesignTokensError)?.message.contains("outside the document's folder") == true
    }
    var options = DMDesignTokensOptions()
    options.readsFilesOutsideFolder = true
    let table = try DMDesignTokens.table(contentsOf: folder.file("tokens.resolver.json"), options: options) {
      _ in
    }
    #expect(table.color(forKey: "bg", theme: .night) == DMColor(rgb: 0x111111))
  }

  @Test func theFilesAreBoundedEachAndAllTogether() throws {
    let folder = try Folder(Self.files)
    var options = DMDesignTokensOptions()
    options.maximumFileSize = 80
    #expect {
      _ = try DMDesignTokens.table(contentsOf: folder.file("tokens.resolver.json"), options: options) { _ in }
    } throws: { error in
      // The document itself is larger than 80 bytes.
      (error as? DMDesignTokensError)?.message.contains("cannot read the file") == true
    }
    options = DMDesignTokensOptions()
    options.maximumTotalSize = 150
    #expect {
      _ = try DMDesignTokens.table(contentsOf: folder.file("tokens.resolver.json"), options: options) { _ in }
    } throws: { error in
      (error as? DMDesignTokensError)?.message.contains("come to more than 0 MiB all together") == true
    }
  }

  @Test func tokensReadFromTextCannotNameFiles() {
    #expect {
      _ = try DMDesignTokens.table(from: Self.resolver)
    } throws: { error in
      (error as? DMDesignTokensError)?.message.contains("tokens read from text cannot name files") == true
    }
  }

  @Test func aTokenFileReadWithTheFileItRefersTo() throws {
    let folder = try Folder([
      "global.tokens.json":
        ##"{"$type": "color", "Grey": {"14": {"$value": "#242424"}, "98": {"$value": "#fafafa"}}}"##,
      "light.tokens.json":
        ##"{"$type": "color", "Foreground": {"$value": "{Grey.14}"}, "Background": {"$value": "{Grey.98}"}}"##,
    ])
    #expect {
      _ = try DMDesignTokens.table(contentsOf: folder.file("light.tokens.json"))
    } throws: { error in
      (error as? DMDesignTokensError)?.message == "refers to \"Grey.14\", which is not a token"
    }
    var options = DMDesignTokensOptions()
    options.tokenFiles = [folder.file("global.tokens.json")]
    let table = try DMDesignTokens.table(contentsOf: folder.file("light.tokens.json"), options: options) {
      _ in
    }
    // The given file's tokens are there for references, not keys.
    #expect(table.keys == ["Foreground", "Background"])
    #expect(table.color(forKey: "Foreground", theme: .normal) == DMColor(rgb: 0x242424))
  }

  @Test func aResolverDocumentWithoutAVersionSaysSo() {
    #expect {
      _ = try DMDesignTokens.table(
        from: ##"{"resolutionOrder": [{"type": "set", "name": "a", "sources": []}]}"##)
    } throws: { error in
      (error as? DMDesignTokensError)?.message
        == "the resolver document has no version: it needs \"version\": \"2025.10\""
    }
  }
}

/// What hostile token files get: errors that show little of them, with their place.
@Suite struct HostileTokenTextTests {
  @Test func aHugeNumberIsShownCutInItsError() {
    let digits = String(repeating: "9", count: 100_000)
    #expect {
      _ = try DMDesignTokens.table(from: "{\"a\": {\"$type\": \"number\", \"$value\": 1\(digits)e99999}}")
    } throws: { error in
      guard let error = error as? DMDesignTokensError else { return false }
      return error.message.utf8.count < 100 && error.message.hasPrefix("the number 1999") && error.line == 1
    }
  }

  /// A member name of megabytes, plain or of escapes, is refused where it starts, with a short
  /// message; a name of 4,096 bytes is read (and refused by the tokens' own limit of 1,024).
  @Test func aHugeMemberNameIsRefusedWhereItStarts() {
    for name in [String(repeating: "n", count: 8 << 20), String(repeating: "\\u0041", count: 1 << 20)] {
      #expect {
        _ = try DMDesignTokens.table(from: "{\n  \"\(name)\": {\"$type\": \"color\", \"$value\": \"#fff\"}}")
      } throws: { error in
        guard let error = error as? DMDesignTokensError else { return false }
        return error.line == 2 && error.column == 3 && error.message == "a member name longer than 4096 bytes"
      }
    }
    #expect {
      _ = try DMDesignTokens.table(
        from: "{\"\(String(repeating: "n", count: 4_096))\": {\"$type\": \"color\", \"$value\": \"#fff\"}}")
    } throws: { error in
      (error as? DMDesignTokensError)?.message == "a name may be at most 1024 bytes long"
    }
  }

  @Test func bytesThatAreNotUTF8AreNamedWithTheirPlace() throws {
    let folder = try TokenFilesTests.Folder([:])
    let file = folder.file("bad.tokens.json")
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    let start = Array(
      "{\r\n  \"a\": {\"$type\": \"color\", \"$value\": \"#fff\", \"$description\": \"caf".utf8)
    try Data(start + [0xE9, 0x22, 0x7D, 0x7D]).write(to: file)
    #expect {
      _ = try DMDesignTokens.table(contentsOf: file)
    } throws: { error in
      guard let error = error as? DMDesignTokensError else { return false }
      return error.line == 2 && error.column == 65
        && error.message == "the file is not UTF-8 text: the byte sequence \\xE9 is not valid UTF-8"
    }
  }

  /// A string the file ends in is not closed, and is told at its opening quote, whether it ends
  /// inside an escape or not.
  @Test func aStringTheFileEndsInIsToldAtItsOpeningQuote() {
    for end in ["#fff", "#fff\\", "\\", "\\u12", "\\uD83D", "\\uD83D\\", "\\uD83D\\u", "\\uD83D\\uDC"] {
      #expect {
        _ = try DMDesignTokens.table(from: "{\n  \"a\": {\"$type\": \"color\", \"$value\": \"\(end)")
      } throws: { error in
        guard let error = error as? DMDesignTokensError else { return false }
        return error.line == 2 && error.column == 37
          && error.message == "the string is not closed: expected '\"'"
      }
    }
  }

  /// An escape cut short by the string's end, or a lone surrogate just before the end of the
  /// text, is told at its backslash, as the escape's own problem.
  @Test func anEscapeCutShortInAClosedStringIsToldAtItsBackslash() {
    for (text, message) in [
      (#"{"a": {"$type": "color", "$value": "\u"}}"#, "a \\u escape needs four hexadecimal digits"),
      (#"{"a": {"$type": "color", "$value": "\u1"}}"#, "a \\u escape needs four hexadecimal digits"),
      (
        #"{"a": {"$type": "color", "$value": "\uD83D"}}"#,
        "a \\u escape of a high surrogate without the low one after it"
      ),
      (#"{"a": {"$type": "color", "$value": "\uDC00"#, "a \\u escape of a lone low surrogate"),
    ] {
      #expect {
        _ = try DMDesignTokens.table(from: text)
      } throws: { error in
        guard let error = error as? DMDesignTokensError else { return false }
        return error.line == 1 && error.column == 37 && error.message == message
      }
    }
  }

  @Test func aStringOfEscapesReadsAsItsCharacters() throws {
    let escapes = String(repeating: #"\n\u0041\t"#, count: 50_000)
    let table = try DMDesignTokens.table(
      from: ##"{"a": {"$type": "color", "$value": "#fff", "$description": ""## + escapes + ##""}}"##)
    #expect(table.keys == ["a"])
  }

  @Test func theJSONExportEscapesInvisibleCharactersOfTheFileName() throws {
    let table = try DMColorTable(string: "NORMAL\n#fff BG\n")
    let json = table.exported(
      as: .json, options: DMColorTableExportOptions(sourceName: "a\u{202E}b\u{2028}.txt"))
    #expect(json.contains(#""name": "a\u202eb\u2028""#))
    #expect(!json.unicodeScalars.contains { $0 == "\u{202E}" || $0 == "\u{2028}" })
  }
}

/// What a review of the token reader found, each fixed.
@Suite struct TokenReaderReviewTests {
  @Test func sRGBWrittenAsHSLOrHWBKeepsItsChannelsOnTheHalf() throws {
    let table = try DMDesignTokens.table(
      from: ##"""
        {"$type": "color", "g": {"$value": "hsl(0 0% 50%)"}, "o": {"$value": "hsl(30 100% 50%)"},
          "w": {"$value": {"colorSpace": "hwb", "components": [0, 50, 50]}}}
        """##)
    #expect(table.color(forKey: "g", theme: .normal)?.hexString == "#808080")
    #expect(table.color(forKey: "o", theme: .normal)?.hexString == "#FF8000")
    #expect(table.color(forKey: "w", theme: .normal)?.hexString == "#808080")
  }

  @Test func aContrastModifierBesideContextsThatSayTheirSideGivesTheirHighContrast() throws {
    let table = try DMDesignTokens.table(
      from: ##"""
        {"version": "2025.10",
         "modifiers": {
           "mode": {"contexts": {"light": [{"bg": {"$type": "color", "$value": "#ffffff"}}],
             "dark": [{"bg": {"$type": "color", "$value": "#101010"}}],
             "dark-dimmed": [{"bg": {"$type": "color", "$value": "#222222"}}]}, "default": "light"},
           "contrast": {"contexts": {"normal": [], "more": [{"bg": {"$value": "#000000"}}]}, "default": "normal"}},
         "resolutionOrder": [{"$ref": "#/modifiers/mode"}, {"$ref": "#/modifiers/contrast"}]}
        """##)
    #expect(
      table.columnNames == [
        "NORMAL", "NORMAL:high", "NIGHT", "NIGHT:high", "DIMMED:dark", "DIMMED:dark:high",
      ])
    #expect(table.color(forKey: "bg", variant: "DIMMED:dark:high") == DMColor(rgb: 0x000000))
  }

  @Test func anAliasOfAGradientOrOfAnotherKindOfTokenIsLeftOut() throws {
    var warnings: [String] = []
    let table = try DMDesignTokens.table(
      from: ##"""
        {"$type": "color", "bg": {"$value": "#ffffff"},
          "g": {"$value": "repeating-linear-gradient(90deg, #fff, #000 10%)"}, "h": {"$value": "{g}"},
          "size": {"$type": "dimension", "$value": "12px"}}
        """##
    ) { warnings.append($0.explanation) }
    #expect(table.keys == ["bg"])
    #expect(warnings.count == 2, "\(warnings)")
    let untyped = try DMDesignTokens.table(
      from:
        ##"{"bg": {"$value": "#ffffff"}, "size": {"$value": "12px"}, "alias": {"$ref": "#/size/$value"}}"##)
    #expect(untyped.keys == ["bg"])
  }

  @Test(arguments: ["a.\u{301}b", "x" + String(repeating: "\u{301}", count: 2_000), "{a}.$b"])
  func everyKeyOfATableComesBackFromItsJSONExport(_ key: String) throws {
    let table = try DMColorTable(string: "NORMAL NIGHT\n#ffffff #000000 \(key)\n")
    let back = try DMDesignTokens.table(from: table.exported(as: .json))
    #expect(back.keys == [key])
    #expect(back.color(forKey: key, theme: .night) == DMColor(rgb: 0x000000))
  }

  @Test(arguments: ["a//b", "#abc", "0x12", ""])
  func aKeyGivenInExtensionsMustBeOneARowCanHold(_ key: String) {
    let text =
      ##"{"a": {"$type": "color", "$value": "#fff", "$extensions": {"org.darkmodekit": {"key": "##
      + "\"\(key)\"}}}}"
    #expect {
      _ = try DMDesignTokens.table(from: text)
    } throws: { error in
      (error as? DMDesignTokensError)?.message.hasSuffix("in $extensions is not a valid key") == true
    }
  }

  @Test func aColourFunctionsNameIsShownEscaped() {
    #expect {
      _ = try DMDesignTokens.table(from: ##"{"a": {"$type": "color", "$value": "\u001b]0;x\u0007(1 2 3)"}}"##)
    } throws: { error in
      guard let message = (error as? DMDesignTokensError)?.message else { return false }
      return message.contains("\\u{1B}]0;x\\u{7}() is not a CSS colour function")
        && !message.unicodeScalars.contains { $0.value < 0x20 }
    }
  }

  @Test func aDocumentOpenedThroughALinkReadsTheFilesBesideTheLink() throws {
    let folder = try TokenFilesTests.Folder([
      "real/all.resolver.json":
        ##"{"version": "2025.10", "resolutionOrder": [{"type": "set", "name": "s", "sources": [{"$ref": "base.tokens.json"}]}]}"##,
      "link/base.tokens.json": ##"{"bg": {"$type": "color", "$value": "#123456"}}"##,
    ])
    try FileManager.default.createSymbolicLink(
      at: folder.file("link/all.resolver.json"), withDestinationURL: folder.file("real/all.resolver.json"))
    let table = try DMDesignTokens.table(contentsOf: folder.file("link/all.resolver.json"))
    #expect(table.color(forKey: "bg", theme: .normal) == DMColor(rgb: 0x123456))
  }
}
