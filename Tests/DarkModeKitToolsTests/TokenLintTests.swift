import DarkModeKit
import DarkModeKitTools
import Foundation
import Testing

/// `DMDesignTokens.lint`: every problem of a token file, not the first only.
@Suite struct TokenLintTests {
  typealias Folder = TokenFilesTests.Folder

  /// Three tokens with a problem each among good ones: each is listed at its place, in file
  /// order, and reading the file for a table still stops at the first.
  @Test func everyBadTokenIsListedAtItsPlace() throws {
    let folder = try Folder([
      "broken.tokens.json": """
      {"$type": "color",
        "bg": {"$value": "#12G"},
        "fg": {"$vaule": "#000000"},
        "ok": {"$value": "#ffffff"},
        "link": {"$value": "{colour.blue}"},
        "also": {"$value": "{ok}"}}
      """
    ])
    let file = folder.file("broken.tokens.json")
    let problems = DMDesignTokens.lint(contentsOf: file)
    #expect(
      problems.map { "\($0.line):\($0.column): \($0.explanation)" } == [
        "2:20: token \"bg\": bad colour \"#12G\": \"G\" at offset 3 is not a hexadecimal digit",
        "3:10: token \"fg.$vaule\": unknown property \"$vaule\" in a group",
        "5:22: token \"link\": refers to \"colour.blue\", which is not a token",
      ])
    #expect(problems.allSatisfy { $0.path == file.path })
    // Reading it for a table stops at one of them.
    do {
      _ = try DMDesignTokens.table(contentsOf: file)
      Issue.record("no error")
    } catch {
      #expect(problems.contains(error))
    }
  }

  /// Tokens that give the keys of earlier tokens, in their `$extensions`: each is listed at its
  /// place, naming the token that gave the key first, and the other tokens make their column.
  @Test func eachTokenGivingAKeyTakenNamesTheTokenThatGaveItFirst() throws {
    let count = 2_000
    let first = (0..<count).map { ##""t\##($0)": {"$value": "#102030"}"## }
    // The second half gives the keys of the first, last first.
    let again = (0..<count).map {
      ##""u\##($0)": {"$value": "#405060", "$extensions": {"org.darkmodekit": {"key": "t\##(count - 1 - $0)"}}}"##
    }
    let folder = try Folder([
      "keys.tokens.json": "{\"$type\": \"color\",\n" + (first + again).joined(separator: ",\n") + "}"
    ])
    let problems = DMDesignTokens.lint(contentsOf: folder.file("keys.tokens.json"), limit: 5)
    #expect(
      problems.prefix(3).map { "\($0.line): \($0.explanation)" }
        == (0..<3).map {
          "\(count + 2 + $0): token \"u\($0)\": gives the key \"t\(count - 1 - $0)\", as the token \"t\(count - 1 - $0)\" does"
        })
    #expect(problems.count == 6 && problems.last?.explanation.contains("1995") == true, "\(problems.last!)")
  }

  /// A token broken in every context is listed once; a problem in a file the document names is
  /// listed after the document's own, naming that file.
  @Test func aProblemIsListedOnceAndFilesAfterTheDocument() throws {
    let folder = try Folder([
      "doc.resolver.json": """
      {"version": "2025.10",
        "sets": {"base": {"sources": [{"$ref": "base.tokens.json"}, {"bad": {"$type": "color", "$value": "#12G"}}]}},
        "modifiers": {"theme": {"contexts": {"light": [], "dark": []}, "default": "light"}},
        "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/theme"}]}
      """,
      "base.tokens.json": """
      {"bg": {"$type": "color", "$value": "#fff"},
       "fg": {"$type": "color", "$value": "{nowhere}"}}
      """,
    ])
    let problems = DMDesignTokens.lint(contentsOf: folder.file("doc.resolver.json"))
    #expect(problems.count == 2, "\(problems)")
    #expect(problems.first?.path == folder.file("doc.resolver.json").path)
    #expect(problems.first?.tokenPath == "bad")
    #expect(problems.last?.path?.hasSuffix("base.tokens.json") == true)
    #expect(problems.last?.tokenPath == "fg")
  }

  /// Past the limit, one entry counts the rest; text that is not JSON ends the list at once;
  /// a file that makes a table has no problem.
  @Test func theListIsBoundedAndEndsWhereNothingCanBeRead() throws {
    let tokens = (0..<150).map { ##""t\##($0)": {"$type": "color", "$value": "#12345"}"## }
    let folder = try Folder([
      "many.tokens.json": "{" + tokens.joined(separator: ",\n") + "}",
      "cut.tokens.json": ##"{"bg": {"$type": "color", "$value": "#12G"}, "fg": "#fff"##,
      "good.tokens.json": ##"{"bg": {"$type": "color", "$value": "#ffffff"}}"##,
    ])
    let many = DMDesignTokens.lint(contentsOf: folder.file("many.tokens.json"), limit: 100)
    #expect(many.count == 101)
    #expect(many.prefix(100).map(\.line) == Array(1...100))
    #expect(many.last?.message == "50 more problems not shown, past the first 100")
    let cut = DMDesignTokens.lint(contentsOf: folder.file("cut.tokens.json"))
    #expect(cut.count == 1)
    #expect(cut.first?.tokenPath == nil, "\(cut)")
    #expect(DMDesignTokens.lint(contentsOf: folder.file("good.tokens.json")).isEmpty)
  }

  /// The limit given is the limit kept: above the thousand a table read keeps, and at zero, where
  /// only the line that counts them is listed.
  @Test func theLimitGivenIsTheLimitKept() throws {
    let tokens = (0..<1_500).map { ##""t\##($0)": {"$value": "{nothing\##($0)}"}"## }.joined(separator: ", ")
    let folder = try Folder(["many.tokens.json": ##"{"$type": "color", \##(tokens)}"##])
    let file = folder.file("many.tokens.json")
    let problems = DMDesignTokens.lint(contentsOf: file, limit: 1_200)
    #expect(problems.count == 1_201)
    #expect(problems.last?.message == "300 more problems not shown, past the first 1200")
    let none = DMDesignTokens.lint(contentsOf: file, limit: 0)
    #expect(none.map(\.message) == ["1500 more problems not shown, past the first 0"])
  }

  /// Problems found in another order than the file's (a bad colour is found after a bad
  /// property below it) are listed by their places, and a limit keeps the first by place.
  @Test func aLimitKeepsTheFirstProblemsByPlace() throws {
    let folder = try Folder([
      "order.tokens.json": """
      {"$type": "color",
        "a": {"$value": "#zz"},
        "b": {"$value": "#ffffff", "$extensions": 5},
        "c": {"$value": "#12G"}}
      """
    ])
    let file = folder.file("order.tokens.json")
    #expect(DMDesignTokens.lint(contentsOf: file).map(\.line) == [2, 3, 4])
    let first = DMDesignTokens.lint(contentsOf: file, limit: 1)
    #expect(first.map(\.line) == [2, 0])
    #expect(first.last?.message == "2 more problems not shown, past the first 1")
  }
}
