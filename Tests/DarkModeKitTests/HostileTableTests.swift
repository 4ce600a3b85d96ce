import DarkModeKit
import DarkModeKitTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Colour-table files and text from an attacker: what is not a regular file, what is too large,
/// what carries terminal commands, and what would make a report explode.
@Suite struct HostileTableTests {
  @Test func aDeviceIsRefusedInsteadOfReadForEver() throws {
    let error = try #require(throws: DMColorTableError.self) {
      try DMColorTable(contentsOf: URL(fileURLWithPath: "/dev/zero"))
    }
    #expect(error.kind == .unreadableFile)
    #expect(
      error.message
        == "cannot read the colour table \"/dev/zero\": it is a character device, not a regular file")
  }

  @Test func aFIFOWithoutAWriterIsRefusedAtOnce() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let fifo = folder.file("colors.txt")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    // On its own thread, so that a read that blocks cannot hold the test's; it must end by itself.
    let problems = await onOwnThread { DMColorTable.lint(contentsOf: fifo) }
    #expect(
      problems.map(\.message) == [
        "cannot read the colour table \"\(fifo.path)\": it is a FIFO, not a regular file"
      ])
  }

  @Test func aFileLargerThanTheLimitIsRefusedAndTheLimitCanBeRaised() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let file = folder.file("colors.txt")
    let text = "NORMAL NIGHT\n#ffffff #000000 BG\n" + String(repeating: "// padding\n", count: 200)
    try text.write(to: file, atomically: true, encoding: .utf8)
    let error = try #require(throws: DMColorTableError.self) {
      try DMColorTable(contentsOf: file, maximumFileSize: 1024)
    }
    #expect(
      error.message == "cannot read the colour table \"\(file.path)\": it is larger than the limit of 1 KiB")
    let table = try DMColorTable(contentsOf: file, maximumFileSize: 4096)
    #expect(table.color(forKey: "BG", theme: .night)?.hexString == "#000000")
    #expect(DMColorTable.lint(contentsOf: file, maximumFileSize: 1024).map(\.kind) == [.unreadableFile])
  }

  @Test func controlCharactersInATableReachNoMessageRaw() {
    // An escape sequence that would set the terminal's title, a bidirectional override, and a
    // C1 control, in a key, a theme name and a stray token.
    let table = "NORMAL NI\u{1B}]0;pwned\u{07}GHT\n#fff #000 B\u{202E}G\n#fff #000 OK \u{9B}2J\n"
    let problems = DMColorTable.lint(string: table)
    #expect(problems.count == 1)
    #expect(
      problems[0].message.contains("bad theme name \"NI\\u{1B}]0;pwned\\u{7}GHT\""), "\(problems[0].message)")
    let rows = DMColorTable.lint(string: "NORMAL NIGHT\n#fff #000 B\u{202E}G\n#fff #000 OK \u{9B}2J\n")
    #expect(
      rows.map(\.message) == [
        "bad key \"B\\u{202E}G\": \"\\u{202E}\" is not allowed in a key; a key is any run of characters other "
          + "than spaces and control or formatting characters",
        "unexpected \"\\u{9B}2J\" after the key \"OK\": a row ends with its key, and comments start with \"//\"",
      ])
    for problem in problems + rows {
      #expect(
        !problem.message.unicodeScalars.contains {
          $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}"
        })
      #expect(!problem.token.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" })
    }
  }

  @Test func aLongTokenIsShownCut() {
    let key = "K" + String(repeating: "é", count: 10_000) + "\u{200B}"
    let problems = DMColorTable.lint(string: "NORMAL\n#fff \(key)\n")
    #expect(problems.count == 1)
    #expect(
      problems[0].message.hasPrefix(
        "bad key \"K\(String(repeating: "é", count: 63))…\": \"\\u{200B}\" is not allowed"))
    #expect(problems[0].token == "K\(String(repeating: "é", count: 63))…")
  }

  @Test func aReportListsAtMostItsLimitThenCountsTheRest() {
    // 1,000 themes and 2,000 rows with one colour each: every row is too short.
    let themes = (0..<1_000).map { "T\($0)" }.joined(separator: " ")
    let rows = String(repeating: "#fff\n", count: 2_000)
    let problems = DMColorTable.lint(string: themes + "\n" + rows, limit: 10)
    #expect(problems.count == 11)
    #expect(problems.last?.kind == .moreProblems)
    #expect(problems.last?.message == "1990 more problems not shown; 2000 in all")
    // Each message names a few themes, not all 1,000.
    #expect(
      problems[0].message.hasSuffix(
        "one per theme (T0, T1, T2, T3, T4, T5, T6, T7, …, 1000 in all), then a key"))
    #expect(problems.allSatisfy { $0.message.utf8.count < 200 })
    #expect(DMColorTable.lint(string: themes + "\n" + rows).count == DMColorTable.defaultLintLimit + 1)
  }

  @Test func aReportIsStreamedAsItIsFound() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let file = folder.file("colors.txt")
    try ("NORMAL NIGHT\n" + String(repeating: "#fff\n", count: 5)).write(
      to: file, atomically: true, encoding: .utf8)
    var lines: [Int] = []
    let count = DMColorTable.lint(contentsOf: file, limit: 3) { lines.append($0.line) }
    #expect(count == 5)
    #expect(lines == [2, 3, 4, 0])
  }
}
