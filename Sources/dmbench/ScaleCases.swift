import DarkModeKit
import DarkModeKitTools
import Foundation

/// 8. How the colour-table work grows with its input: each case runs at two sizes ten times apart,
/// and the time must grow about ten times too (a quadratic step would grow a hundred times).
@MainActor
struct ScaleCases {
  let quick: Bool
  let runs: Int

  /// Growth above this for ten times the input fails the run.
  static let worstGrowth = 30.0

  /// Prints each case's times and growth; returns whether every growth is within ``worstGrowth``.
  func run() -> Bool {
    TokenReadingCase(quick: quick).run()
    print("8. Scale: the same work at two sizes, 10× apart (growth about 10× is linear)")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dmbench-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let base = quick ? 1 : 10
    var allLinear = true
    func scale(_ name: String, sizes: [Int], unit: String, _ work: (Int) -> () -> Void) {
      var medians: [Double] = []
      for size in sizes {
        let body = work(size)
        let timing = Measure.time(runs: max(3, runs / 5), body)
        medians.append(timing.median)
        print(
          column("     \(name), \(size.formatted()) \(unit)", 60)
            + formatDuration(timing.median))
      }
      let growth = medians[1] / max(medians[0], 1e-9)
      let linear = growth <= Self.worstGrowth
      allLinear = allLinear && linear
      print(
        String(
          format: "   growth: %.1f×%@", growth, linear ? "" : "  (MISSED: above \(Int(Self.worstGrowth))×)"))
    }
    scale("parse a file", sizes: [100_000 * base / 10, 100_000 * base], unit: "keys × 3 themes") { keys in
      let url = write(folder, "keys-\(keys).txt", Self.table(keys: keys, themes: 3))
      return { blackHole(try! DMColorTable(contentsOf: url)) }
    }
    scale("parse a header", sizes: [10_000 * base / 10, 10_000 * base], unit: "themes, 3 keys") { themes in
      let url = write(folder, "themes-\(themes).txt", Self.table(keys: 3, themes: themes))
      return { blackHole(try! DMColorTable(contentsOf: url)) }
    }
    scale("lint bad rows under 1,000 themes", sizes: [20_000 * base / 10, 20_000 * base], unit: "rows") {
      rows in
      let header = (0..<1_000).map { "T\($0)" }.joined(separator: " ")
      let url = write(folder, "lint-\(rows).txt", header + "\n" + String(repeating: "#fff\n", count: rows))
      return { blackHole(DMColorTable.lint(contentsOf: url, limit: 10)) }
    }
    scale("export keys that share one name", sizes: [2_000 * base / 10, 2_000 * base], unit: "keys") { keys in
      // Case variants of one word: each needs its own suffix in the generated names.
      var text = "NORMAL\n"
      for key in 0..<keys {
        let word = String(String(key, radix: 2).reversed()).padding(toLength: 16, withPad: "0", startingAt: 0)
        text +=
          "#fff " + String(zip("abcdefghijklmnop", word).map { $1 == "1" ? Character($0.uppercased()) : $0 })
          + "\n"
      }
      let table = try! DMColorTable(string: text)
      return { blackHole(table.exported(as: .css)) }
    }
    scale("resolve one colour in each theme", sizes: [6_400 * base / 10, 6_400 * base], unit: "themes") {
      themes in
      let table = try! DMColorTable(string: Self.table(keys: 1, themes: themes))
      let color = DMDynamicColor(key: "Key.0", in: table)
      let collections = table.themes.map { DMTraitCollection(theme: $0) }
      return {
        var sum = 0.0
        for traits in collections { sum += color.resolved(with: traits).red }
        blackHole(sum)
      }
    }
    scale("tokens of keys that share one name", sizes: [400, 4_000], unit: "keys") { keys in
      // `A..` and then dots and underscores: each key has an empty part and a name of its own at
      // the top, and every name is `A__…`, made unique by a suffix.
      var text = "NORMAL\n"
      for key in 0..<keys {
        text += "#fff A.." + String(String(key, radix: 2).map { $0 == "1" ? "." : "_" }) + "B\n"
      }
      let table = try! DMColorTable(string: text)
      return { blackHole(table.exported(as: .json)) }
    }
    scale("tokens after a modifier", sizes: [20, 200], unit: "contexts × palettes") {
      count in
      let text = Self.tokensBeforeASet(contexts: count, references: count)
      return { blackHole(try! DMDesignTokens.table(from: text)) }
    }
    scale("token chains", sizes: [6, 60], unit: "deep, 3,200 tokens") { depth in
      let text = Self.tokenChains(count: 3_200, depth: depth)
      return { blackHole(try! DMDesignTokens.table(from: text)) }
    }
    scale("a chain shared by 20,000 tokens", sizes: [6, 60], unit: "deep") { depth in
      let text = Self.sharedChain(tokens: 20_000, depth: depth, pointers: false)
      return { blackHole(try! DMDesignTokens.table(from: text)) }
    }
    scale("a chain of 1 KB pointers, 2,000 tokens", sizes: [6, 60], unit: "deep") { depth in
      let text = Self.sharedChain(tokens: 2_000, depth: depth, pointers: true)
      return { blackHole(try! DMDesignTokens.table(from: text)) }
    }
    scale("pointers into an object of as many members", sizes: [1_000, 10_000], unit: "tokens") { count in
      let members = (0..<count).map { "\"k\($0)\": \"#\(String(format: "%06x", $0))\"" }
      let pointers = (0..<count).map {
        ##""r\##($0)": {"$type": "color", "$ref": "#/x/$extensions/v/k\##(count - 1 - $0)"}"##
      }
      let text =
        ##"{"x": {"$type": "color", "$value": "#ffffff", "$extensions": {"v": {"##
        + members.joined(separator: ", ") + "}}}, \"g\": {" + pointers.joined(separator: ", ") + "}}"
      return { blackHole(try! DMDesignTokens.table(from: text)) }
    }
    scale("pointers into an array of as many elements", sizes: [1_000, 10_000], unit: "tokens") { count in
      let elements = (0..<count).map { "\"#\(String(format: "%06x", $0))\"" }
      let pointers = (0..<count).map {
        ##""r\##($0)": {"$type": "color", "$ref": "#/x/$extensions/v/\##(count - 1 - $0)"}"##
      }
      let text =
        ##"{"x": {"$type": "color", "$value": "#ffffff", "$extensions": {"v": ["##
        + elements.joined(separator: ", ") + "]}}, \"g\": {" + pointers.joined(separator: ", ") + "}}"
      return { blackHole(try! DMDesignTokens.table(from: text)) }
    }
    scale("lint tokens that give keys taken", sizes: [2_000, 20_000], unit: "tokens") { count in
      // Each key given a second time, the last first: every duplicate names the token that gave
      // its key first, which lies far back.
      let first = (0..<count).map { ##""t\##($0)": {"$value": "#102030"}"## }
      let again = (0..<count).map {
        ##""u\##($0)": {"$value": "#405060", "$extensions": {"org.darkmodekit": {"key": "t\##(count - 1 - $0)"}}}"##
      }
      let url = write(
        folder, "taken-\(count).tokens.json",
        "{\"$type\": \"color\", " + (first + again).joined(separator: ", ") + "}")
      return { blackHole(DMDesignTokens.lint(contentsOf: url, limit: 10)) }
    }
    scale("references to one long colour", sizes: [200, 2_000], unit: "references, 10 bytes each") { count in
      // The colour's text grows with the file as its references do: read once for all of them,
      // the work grows 10×; read again for each, 100×.
      let colour = "rgb(16" + String(repeating: " ", count: count * 10) + " 32 48)"
      let references = (0..<count).map { ##""r\##($0)": {"$value": "{long}"}"## }
      let text =
        ##"{"$type": "color", "long": {"$value": "\##(colour)"}, "## + references.joined(separator: ", ")
        + "}"
      return { blackHole(try! DMDesignTokens.table(from: text)) }
    }
    scale("a palette of 1,000 named again", sizes: [100, 1_000], unit: "times") {
      count in
      let text = Self.tokensBeforeASet(contexts: 0, references: count, colors: 1_000)
      return { blackHole(try! DMDesignTokens.table(from: text)) }
    }
    scale("20,000 tokens under a typed group", sizes: [5, 50], unit: "levels") { levels in
      let groups = (0..<levels).map { "g\($0)".padding(toLength: 16, withPad: "w", startingAt: 0) }
      let colors = (0..<20_000).map { ##""c\##($0)": {"$value": "#102030"}"## }.joined(separator: ", ")
      let text =
        ##"{"$type": "color", "## + groups.map { "\"\($0)\": {" }.joined() + colors
        + String(repeating: "}", count: levels + 1)
      return { blackHole(try! DMDesignTokens.table(from: text)) }
    }
    scale("Tokens Studio sets in tokenSetOrder, two themes", sizes: [4_000, 40_000], unit: "sets") { count in
      let sets = (0..<count).map { ##""s\##($0)": {"c": {"value": "#102030", "type": "color"}}"## }
      let themes = (0..<2).map { ##"{"name": "T\##($0)", "selectedTokenSets": {"s\##($0)": "enabled"}}"## }
      let order = (0..<count).map { "\"s\($0)\"" }.joined(separator: ", ")
      let text =
        "{" + sets.joined(separator: ", ") + ", \"$themes\": [" + themes.joined(separator: ", ")
        + "], \"$metadata\": {\"tokenSetOrder\": [" + order + "]}}"
      return { blackHole(try! DMDesignTokens.table(from: text) { _ in }) }
    }
    scale("lint of tokens that refer to nothing", sizes: [2_000, 20_000], unit: "tokens") { count in
      let text =
        "{"
        + (0..<count).map { ##""t\##($0)": {"$type": "color", "$value": "{nothing\##($0)}"}"## }
        .joined(separator: ", ") + "}"
      let url = FileManager.default.temporaryDirectory.appendingPathComponent("dmbench-lint-\(getpid()).json")
      try! Data(text.utf8).write(to: url)
      return { blackHole(DMDesignTokens.lint(contentsOf: url, limit: 100)) }
    }
    scale("listed columns of a resolver document", sizes: [1_000, 10_000], unit: "columns") { count in
      let names = (0..<count).map { "T\($0)" }
      let contexts = names.map { ##""\##($0)": []"## }.joined(separator: ", ")
      let listed = names.map { "\"\($0)\"" }.joined(separator: ", ")
      let text = ##"""
        {"version": "2025.10", "resolutionOrder": [{"type": "set", "name": "s", "sources": [{"k": {"$type": "color", "$value": "#fff"}}]},
          {"type": "modifier", "name": "theme", "contexts": {\##(contexts)},
            "$extensions": {"org.darkmodekit": {"columns": [\##(listed)]}}}]}
        """##
      return { blackHole(try! DMDesignTokens.table(from: text)) }
    }
    print()
    return allLinear
  }

  /// A token file (or, with `pointers`, a resolver document) whose `tokens` colours each lead to
  /// one chain of references `depth` long: by name, or by pointers through `$defs` members with
  /// names of 1 KB.
  static func sharedChain(tokens: Int, depth: Int, pointers: Bool) -> String {
    let colors = (0..<tokens).map {
      pointers ? ##""c\##($0)": {"$ref": "#/$defs/d0"}"## : ##""c\##($0)": {"$value": "{l0}"}"##
    }
    guard pointers else {
      let links = (0..<depth).map { ##""l\##($0)": {"$value": "{l\##($0 + 1)}"}"## }
      return
        ##"{"$type": "color", \##((colors + links).joined(separator: ", ")), "l\##(depth)": {"$value": "#102030"}}"##
    }
    let long = String(repeating: "q", count: 1_000)
    let links = (0..<depth).map { ##""d\##($0)\##(long)": {"$ref": "#/$defs/d\##($0 + 1)\##(long)"}"## }
    return ##"""
      {"version": "2025.10", "$defs": {"d0": {"$ref": "#/$defs/d0\##(long)"}, \##(links.joined(separator: ", ")),
        "d\##(depth)\##(long)": {"$value": "#102030"}},
        "resolutionOrder": [{"type": "set", "name": "s", "sources": [{"$type": "color", \##(colors.joined(separator: ", "))}]}]}
      """##
  }

  /// The memory a loaded table holds, at two sizes, measured as resident-size growth. Run first,
  /// while the heap holds nothing freed that a table could reuse, and at sizes large enough that
  /// the growth is the table's.
  /// - Returns: Whether the memory grows about as the file does.
  func memory() -> Bool {
    print("8a. Scale of memory: a loaded table at two sizes, 10× apart")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dmbench-memory-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var held: [Double] = []
    var tables: [DMColorTable] = []
    for keys in [100_000, 1_000_000] {
      let url = write(folder, "memory-\(keys).txt", Self.table(keys: keys, themes: 3))
      let fileSize = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
      let before = Measure.residentBytes()
      tables.append(try! DMColorTable(contentsOf: url))
      let growth = Double(Measure.residentBytes() - before)
      held.append(growth)
      print(
        "     load a file of \(keys.formatted()) keys (\(formatBytes(Double(fileSize))))".padding(
          toLength: 56, withPad: " ", startingAt: 0) + "holds \(formatBytes(growth))")
    }
    blackHole(tables)
    let growth = held[1] / max(held[0], 1)
    let linear = growth <= Self.worstGrowth
    print(
      String(
        format: "   growth: %.1f×%@\n", growth, linear ? "" : "  (MISSED: above \(Int(Self.worstGrowth))×)"))
    return linear
  }

  /// A resolver document: a theme modifier of `contexts` contexts (none for fewer than two), then
  /// a set whose sources name a palette of `colors` colours `references` times.
  static func tokensBeforeASet(contexts: Int, references: Int, colors: Int = 100) -> String {
    let palette = (0..<colors).map { ##""c\##($0)": {"$type": "color", "$value": "#102030"}"## }
    let names = (0..<contexts).map { #""T\#($0)": []"# }
    let sources = Array(repeating: ##"{"$ref": "#/$defs/p"}"##, count: references)
    let modifier =
      contexts < 2
      ? "" : ##"{"type": "modifier", "name": "theme", "contexts": {\##(names.joined(separator: ", "))}}, "##
    return """
      {"version": "2025.10", "$defs": {"p": {\(palette.joined(separator: ", "))}},
        "resolutionOrder": [\(modifier)
          {"type": "set", "name": "after", "sources": [\(sources.joined(separator: ", "))]}]}
      """
  }

  /// A token file of `count` colours in chains of references `depth` long.
  static func tokenChains(count: Int, depth: Int) -> String {
    let members = (0..<count).map { index in
      index % depth == 0
        ? ##""t\##(index)": {"$type": "color", "$value": "#123456"}"##
        : #""t\#(index)": {"$value": "{g.t\#(index - 1)}"}"#
    }
    return #"{"g": {\#(members.joined(separator: ", "))}}"#
  }

  /// A valid table of `keys` rows and `themes` columns.
  static func table(keys: Int, themes: Int) -> String {
    var text = (0..<themes).map { "T\($0)" }.joined(separator: " ") + "\n"
    text.reserveCapacity(keys * (themes * 8 + 12))
    for key in 0..<keys {
      for theme in 0..<themes {
        text += String(format: "#%06x ", (key &* 31 &+ theme) & 0xFFFFFF)
      }
      text += "Key.\(key)\n"
    }
    return text
  }

  private func write(_ folder: URL, _ name: String, _ text: String) -> URL {
    let url = folder.appendingPathComponent(name)
    try! text.write(to: url, atomically: false, encoding: .utf8)
    return url
  }
}
