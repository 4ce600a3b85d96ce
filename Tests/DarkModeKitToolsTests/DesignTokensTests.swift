import DarkModeKit
import DarkModeKitTestSupport
import DarkModeKitText
import DarkModeKitTools
import Foundation
import Testing

/// Tables out as Design Tokens 2025.10 and back in, and tokens from other tools in.
@Suite struct DesignTokensTests {
  /// A table with every kind of column, and keys that make groups, `$root` and names of their own.
  static let edgeTable = """
    NORMAL   NIGHT    NORMAL:high NIGHT:high SEPIA    SOLARIZED:light SOLARIZED:dark MIDNIGHT:dark
    #ffffff  #1c1c1e  #ffffff     #000000    #f4ecd8  #fdf6e3         #002b36        #000010  Text
    #111111  #eeeeee  #000000     #ffffff    #5b4636  #657b83         #839496        #c0c0ff  Text.Primary
    #00000080 #ffffff80 #000000  #ffffff    #3b2f1e66 #00000040      #ffffff40      #ffffff40 Scrim
    #0a60d0  #5ea0ff  #0040a0     #80c0ff    #8b5a2b  #268bd2         #2aa198        #4040ff  A..B
    #123456  #654321  #123456     #654321    #abcdef  #fedcba         #0f0f0f        #f0f0f0  A_B
    """

  static func tables() throws -> [(String, DMColorTable)] {
    [
      ("DKColorTable.txt", try ExampleTables.load("DKColorTable.txt")),
      ("Palette.txt", try ExampleTables.load("Palette.txt")),
      ("edge", try DMColorTable(string: edgeTable)),
      ("one column", try DMColorTable(string: "NORMAL\n#ffffff BG\n")),
      // Groups of tokens put A.y before B; the table's order comes back all the same.
      ("interleaved", try DMColorTable(string: "NORMAL NIGHT\n#fff #000 A.x\n#eee #111 B\n#ddd #222 A.y\n")),
    ]
  }

  /// Each theme (and the default one) in each style and contrast, as a resolver input and as a
  /// trait collection.
  static func inputs(_ table: DMColorTable, defaultContext: String = "default")
    -> [([String: String], DMTraitCollection)]
  {
    var result: [([String: String], DMTraitCollection)] = []
    for theme in [nil] + table.themes {
      for (scheme, style) in [("light", DMUserInterfaceStyle.light), ("dark", .dark)] {
        for (contrast, level) in [("normal", DMAccessibilityContrast.normal), ("more", .high)] {
          result.append(
            (
              ["theme": theme?.rawValue ?? defaultContext, "color-scheme": scheme, "contrast": contrast],
              DMTraitCollection(userInterfaceStyle: style, accessibilityContrast: level, theme: theme)
            ))
        }
      }
    }
    return result
  }

  /// The token path of a key in the export: its parts, `$root` for a key that is also a group.
  static func tokenPath(_ key: String, in table: DMColorTable) -> String {
    if key.split(separator: ".", omittingEmptySubsequences: false).contains("") {
      return key.replacingOccurrences(of: ".", with: "_")
        + (table.keys.contains(key.replacingOccurrences(of: ".", with: "_")) ? "-2" : "")
    }
    return table.keys.contains { $0.hasPrefix(key + ".") } ? key + ".$root" : key
  }

  @Test func theExportFollowsTheRulesOfTheFormatAndTheResolver() throws {
    for (name, table) in try Self.tables() {
      let text = table.exported(as: .json, options: DMColorTableExportOptions(sourceName: name))
      var validator = DesignTokensValidator()
      let root = try validator.checkResolver(text)
      #expect(validator.problems.isEmpty, "\(name): \(validator.problems.prefix(10))")
      // Every variant a tool can choose gives the table's own colour for each key.
      for (input, traits) in Self.inputs(table) {
        let colors = try DesignTokensValidator.resolve(root, input: input)
        for key in table.keys {
          let expected = try #require(table.color(forKey: key, traitCollection: traits))
          let hex = expected.hexString.lowercased()
          #expect(
            colors[Self.tokenPath(key, in: table)] == (hex.count == 7 ? hex + "ff" : hex),
            "\(name) \(key) for \(input)")
        }
      }
    }
  }

  @Test func aTableGoesOutAndComesBackTheSame() throws {
    for (name, table) in try Self.tables() {
      let back = try DMDesignTokens.table(from: table.exported(as: .json))
      #expect(back.keys == table.keys, "\(name)")
      #expect(back.columnNames == table.columnNames, "\(name)")
      for key in table.keys {
        for variant in table.variants {
          #expect(
            back.color(forKey: key, variant: variant) == table.color(forKey: key, variant: variant),
            "\(name) \(key)")
        }
      }
      // And through the table's own text.
      let text = table.exported(as: .text)
      let again = try DMColorTable(string: text)
      #expect(again.exported(as: .json) == table.exported(as: .json), "\(name)")
    }
  }

  @Test func theDKNightVersionTableAsText() throws {
    let table = try ExampleTables.load("DKColorTable.txt")
    #expect(
      table.exported(as: .text) == """
        NORMAL   NIGHT    RED
        #FFFFFF  #343434  #FAFAFA  BG
        #AAAAAA  #313131  #AAAAAA  SEP

        """)
  }

  @Test func aTokenFileOfTodaysFormatIsOneColumn() throws {
    let table = try DMDesignTokens.table(
      from: """
        {
          "color": {
            "$type": "color",
            "brand": {"$value": {"colorSpace": "srgb", "components": [1, 0, 0.5], "hex": "#ff0080"}},
            "brand-soft": {"$value": {"colorSpace": "srgb", "components": [1, 0, 0.5], "alpha": 0.5}},
            "accent": {"$value": "{color.brand}"},
            "wide": {"$value": {"colorSpace": "oklch", "components": [0.7, 0.1, 250], "hex": "#6b9fe0"}},
            "pointer": {"$ref": "#/color/brand/$value"}
          },
          "Primary Text": {"$type": "color", "$value": {"colorSpace": "srgb", "components": ["none", 0, 0]}},
          "spacing": {"$type": "dimension", "$value": {"value": 4, "unit": "px"}}
        }
        """)
    #expect(table.columnNames == ["NORMAL"])
    #expect(
      table.keys == [
        "color.brand", "color.brand-soft", "color.accent", "color.wide", "color.pointer", "Primary_Text",
      ])
    #expect(table.color(forKey: "color.brand", theme: .normal) == DMColor(rgb: 0xFF0080))
    #expect(table.color(forKey: "color.brand-soft", theme: .normal)?.hexString == "#FF008080")
    #expect(table.color(forKey: "color.accent", theme: .normal) == DMColor(rgb: 0xFF0080))
    // A colour of another space that sRGB can show is converted; its hex is only a fallback.
    #expect(table.color(forKey: "color.wide", theme: .normal) == DMColor(rgb: 0x6DA3DA))
    #expect(table.color(forKey: "color.pointer", theme: .normal) == DMColor(rgb: 0xFF0080))
    #expect(table.color(forKey: "Primary_Text", theme: .normal) == DMColor(rgb: 0x000000))
  }

  @Test func theFormDmkitWroteBeforeAndTheUnprefixedFormAreRead() throws {
    let before = try DMDesignTokens.table(
      from: """
        {
          "NORMAL": {"bg": {"$type": "color", "$value": "#ffffff"}, "sep": {"$type": "color", "$value": "#aaa"}},
          "NIGHT": {"bg": {"$type": "color", "$value": "#343434"}, "sep": {"$type": "color", "$value": "#313131"}},
          "SOLARIZED:dark": {"bg": {"$type": "color", "$value": "#002b36"}, "sep": {"$type": "color", "$value": "#073642"}}
        }
        """)
    #expect(before.columnNames == ["NORMAL", "NIGHT", "SOLARIZED:dark"])
    #expect(before.keys == ["bg", "sep"])
    #expect(before.color(forKey: "sep", variant: .normal) == DMColor(rgb: 0xAAAAAA))
    // Columns of other names: groups of the same colour tokens, their values hex strings.
    let named = try DMDesignTokens.table(
      from: """
        {"OLDLIGHT": {"bg": {"$type": "color", "$value": "#ffffff"}, "fg": {"$type": "color", "$value": "#111111"}},
         "OLDBLUE": {"bg": {"$type": "color", "$value": "#0000ff"}, "fg": {"$type": "color", "$value": "#eeeeee"}}}
        """)
    #expect(named.columnNames == ["OLDLIGHT", "OLDBLUE"])
    #expect(named.keys == ["bg", "fg"])
    #expect(named.color(forKey: "bg", variant: "OLDBLUE") == DMColor(rgb: 0x0000FF))
    // Older versions wrote a key's `_` as `-`.
    let dashed = try DMDesignTokens.table(
      from:
        ##"{"OLDLIGHT": {"-bg": {"$type": "color", "$value": "#ffffff"}}, "OLDBLUE": {"-bg": {"$type": "color", "$value": "#0000ff"}}}"##
    )
    #expect(dashed.columnNames == ["OLDLIGHT", "OLDBLUE"])
    // Groups of other tokens are a token file's groups, as before.
    let grouped = try DMDesignTokens.table(
      from: """
        {"brand": {"bg": {"$type": "color", "$value": "#ffffff"}},
         "neutral": {"n100": {"$type": "color", "$value": "#eeeeee"}}}
        """)
    #expect(grouped.columnNames == ["NORMAL"])
    #expect(grouped.keys == ["brand.bg", "neutral.n100"])
    // Colour ramps with the same steps, `light` and `dark` groups, and groups of references are a
    // token file's groups too.
    for (text, keys) in [
      (
        ##"{"blue": {"100": {"$type": "color", "$value": "#dbeafe"}}, "red": {"100": {"$type": "color", "$value": "#fee2e2"}}}"##,
        ["blue.100", "red.100"]
      ),
      (
        ##"{"light": {"bg": {"$type": "color", "$value": "#ffffff"}}, "dark": {"bg": {"$type": "color", "$value": "#000000"}}}"##,
        ["light.bg", "dark.bg"]
      ),
      (
        ##"{"PRIMITIVE": {"white": {"$type": "color", "$value": "#ffffff"}}, "ALIAS": {"white": {"$type": "color", "$value": "{PRIMITIVE.white}"}}}"##,
        ["PRIMITIVE.white", "ALIAS.white"]
      ),
    ] {
      let table = try DMDesignTokens.table(from: text)
      #expect(table.columnNames == ["NORMAL"], "\(text)")
      #expect(table.keys == keys, "\(text)")
    }
    let unprefixed = try DMDesignTokens.table(
      from:
        ##"{"colors": {"bg": {"value": "#102030", "type": "color"}, "gap": {"value": "8", "type": "spacing"}}}"##
    )
    #expect(unprefixed.keys == ["colors.bg"])
    #expect(unprefixed.color(forKey: "colors.bg", theme: .normal) == DMColor(rgb: 0x102030))
  }

  @Test func aResolverDocumentOfAnotherToolGivesTheDefaultThemeAndItsVariants() throws {
    let table = try DMDesignTokens.table(
      from: """
        {
          "version": "2025.10",
          "sets": {"base": {"sources": [{"color": {"$type": "color",
            "white": {"$value": {"colorSpace": "srgb", "components": [1, 1, 1]}},
            "black": {"$value": {"colorSpace": "srgb", "components": [0, 0, 0]}},
            "grey": {"$value": {"colorSpace": "srgb", "components": [0.5, 0.5, 0.5]}}}}]}},
          "modifiers": {
            "mode": {"contexts": {
              "light": [{"semantic": {"bg": {"$value": "{color.white}"}, "border": {"$value": "{color.grey}"}}}],
              "dark": [{"semantic": {"bg": {"$value": "{color.black}"}, "border": {"$value": "{color.grey}"}}}]},
              "default": "light"},
            "contrast": {"contexts": {"normal": [], "more": [{"semantic": {"border": {"$value": "{semantic.bg}"}}}]},
              "default": "normal"},
            "brand": {"contexts": {"acme": [], "globex": [{"color": {"white": {"$value":
              {"colorSpace": "srgb", "components": [1, 1, 0.8]}}}}]}, "default": "acme"}
          },
          "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/brand"}, {"$ref": "#/modifiers/mode"},
            {"$ref": "#/modifiers/contrast"}]
        }
        """)
    #expect(
      table.columnNames == [
        "NORMAL", "NIGHT", "NORMAL:high", "NIGHT:high", "globex:light", "globex:dark", "globex:light:high",
        "globex:dark:high",
      ])
    #expect(table.keys == ["color.white", "color.black", "color.grey", "semantic.bg", "semantic.border"])
    let dark = DMTraitCollection(userInterfaceStyle: .dark, accessibilityContrast: .high)
    #expect(table.color(forKey: "semantic.border", traitCollection: dark) == DMColor(rgb: 0x000000))
    #expect(
      table.color(forKey: "semantic.border", traitCollection: DMTraitCollection(userInterfaceStyle: .dark))
        == DMColor(rgb: 0x808080))
    #expect(table.color(forKey: "semantic.bg", variant: "globex:light") == DMColor(rgb: 0xFFFFCC))
  }

  @Test(
    arguments: [
      ("{\"a\": }", 1, 7, nil, "expected a value, found \"}\""),
      (
        "{\n  \"a\": 1,\n  \"a\": 2\n}", 3, 3, nil,
        "the member \"a\" appears twice in one object (first at line 2, column 3)"
      ),
      ("{\"bg\": {\"$type\": \"color\", \"$value\": \"#12G\"}}", 1, 37, "bg", "bad colour \"#12G\""),
      (
        "{\"a\": {\"$type\": \"color\", \"$value\": \"{b}\"}, \"b\": {\"$type\": \"color\", \"$value\": \"{a}\"}}",
        1, 7, "a", "go round in a circle"
      ),
      (
        "{" + (0..<70).map { "\"t\($0)\": {\"$type\": \"color\", \"$value\": \"{t\($0 + 1)}\"}, " }.joined()
          + "\"t70\": {\"$type\": \"color\", \"$value\": \"#fff\"}}", 1, 2934, "t64",
        "the references from \"t0\" go through more than 63 references"
      ),
      (
        "{\"a\": {\"$type\": \"color\", \"$value\": \"{missing}\"}}", 1, 36, "a",
        "refers to \"missing\", which is not a token"
      ),
      ("{\"a.b\": {\"$type\": \"color\", \"$value\": \"#fff\"}}", 1, 2, "a.b", "holds \".\""),
      ("{\"a.\u{301}\": {\"$type\": \"color\", \"$value\": \"#fff\"}}", 1, 2, "a.\u{301}", "holds \".\""),
      (
        "{\"a\": {\"$type\": \"color\", \"$value\": \"#fff\", \"note\": 1}}", 1, 44, "a",
        "unknown property \"note\" in a token"
      ),
      (
        "{\"a\": {\"$type\": \"color\", \"$value\": {\"colorSpace\": \"srgb\", \"components\": [2, 0, 0]}}}",
        1, 74, "a", "from 0 to 1"
      ),
      (
        "{\"a\": {\"$type\": \"color\", \"$value\": {\"colorSpace\": \"oklch\", \"components\": [2, 0.1, 9]}}}",
        1, 75, "a", "component 1 of a colour in oklch must be from 0 to 1, found 2"
      ),
      // A group's type does not hide what is wrong with a reference.
      (
        "{\"$type\": \"color\", \"a\": {\"$value\": \"{missing}\"}}", 1, 36, "a",
        "refers to \"missing\", which is not a token"
      ),
      (
        "{\"$type\": \"color\", \"a\": {\"$value\": \"{b}\"}, \"b\": {\"$value\": \"{a}\"}}", 1, 25, "a",
        "go round in a circle"
      ),
      (
        "{\"$type\": \"color\", \"g\": {\"$root\": {\"$value\": \"#111\"}}, \"a\": {\"$value\": \"{g}\"}}", 1,
        72,
        "a", "refers to \"g\", which is not a token"
      ),
      ("{\"version\": \"2024\", \"resolutionOrder\": [{}]}", 1, 13, "version", "version must be \"2025.10\""),
      // A column of an old export: the path starts with its group.
      (
        ##"{"NORMAL": {"BG": {"$type": "color", "$value": "#fff"}}, "NIGHT": {"BG": {"$type": "color", "$value": "#00000g"}}}"##,
        1, 103, "NIGHT.BG", "bad colour"
      ),
      // A modifier written in the resolution order is named by its place there.
      (
        """
        {"version": "2025.10", "resolutionOrder": [{"type": "set", "name": "base", "sources": [{"bg": {"$type": "color", "$value": "#fff"}}]},
          {"type": "modifier", "name": "theme", "contexts": {"default": [], "NORMAL": [{"bg": {"$type": "color", "$value": "#000"}}]}}]}
        """, 2, 3, "resolutionOrder.1.contexts.NORMAL",
        "gives the column \"NORMAL\" other colours than the default context does"
      ),
      // A pointer longer than any document nests names nothing, and costs nothing to refuse.
      (
        "{\"version\": \"2025.10\", \"sets\": {\"s\": {\"sources\": [{\"$ref\": \"#/\(String(repeating: "x/", count: 100_000))\"}]}}, "
          + "\"resolutionOrder\": [{\"$ref\": \"#/sets/s\"}]}", 1, 60, "sets.s.sources.0",
        "names no object of tokens"
      ),
      (
        """
        {"version": "2025.10", "resolutionOrder": [
          {"type": "set", "name": "a", "sources": [{"bg": {"$type": "color", "$value": "#ffffff"}}]},
          {"type": "set", "name": "a", "sources": [{"bg": {"$type": "color", "$value": "#eeeeee"}}]}]}
        """, 3, 27, "resolutionOrder.1.name", "the name \"a\" comes twice"
      ),
      (
        """
        {"version": "2025.10",
          "sets": {"base": {"sources": [{"bg": {"$type": "color", "$value": "#ffffff"}}]}},
          "modifiers": {"brand": {"contexts": {"acme": [], "globex": [{"accent": {"$type": "color", "$value": "#f00"}}]}}},
          "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/brand"}]}
        """, 3, 74, "accent", "has no colour in the column \"NORMAL\""
      ),
      (
        "{\"version\": \"2025.10\", \"resolutionOrder\": [{\"$ref\": \"other.json\"}]}", 1, 53,
        "resolutionOrder.0", "$ref must name"
      ),
    ] as [(String, Int, Int, String?, String)])
  func badTokensAreNamedWithTheirPlace(text: String, line: Int, column: Int, path: String?, message: String) {
    do {
      _ = try DMDesignTokens.table(from: text)
      Issue.record("no error for \(text)")
    } catch {
      #expect(error.line == line, "\(error)")
      #expect(error.column == column, "\(error)")
      #expect(error.tokenPath == path, "\(error)")
      #expect(error.message.contains(message), "\(error)")
    }
  }

  @Test func tokensOfOtherKindsAreLeftOutAndUnknownTypesSaySo() throws {
    let text = """
      {
        "typed": {"$type": "color", "$value": "#102030"},
        "untypedColour": {"$value": "#405060"},
        "untypedObject": {"$value": {"colorSpace": "srgb", "components": [1, 0, 0]}},
        "untypedReference": {"$value": "{untypedColour}"},
        "untypedSize": {"$value": "12px"},
        "untypedNumber": {"$value": 1.5},
        "referenceToSize": {"$value": "{untypedSize}"},
        "ease": {"$type": "cubic-bezier", "$value": "cubic-bezier(0.5, 0, 0.5, 1)"},
        "links": {"$type": "link", "home": {"$value": "https://example.com"}, "icon": {"$type": "color", "$value": "#ffffff"}}
      }
      """
    var warnings: [DMDesignTokensWarning] = []
    let table = try DMDesignTokens.table(from: text) { warnings.append($0) }
    // A token without a type is typed by its value, as the drafts before 2023-02 had it.
    #expect(
      table.keys == ["typed", "untypedColour", "untypedObject", "untypedReference", "links.icon"])
    #expect(table.color(forKey: "untypedReference", theme: .normal) == DMColor(rgb: 0x405060))
    #expect(
      warnings.map(\.description) == [
        "line 9, column 21: token \"ease\": unknown $type \"cubic-bezier\": the token is left out",
        "line 10, column 22: token \"links\": unknown $type \"link\": the group's tokens without a type of their own "
          + "are left out",
      ])
    // Strict, what would be left out is an error.
    #expect {
      var options = DMDesignTokensOptions()
      options.isStrict = true
      _ = try DMDesignTokens.table(from: text, options: options) { _ in }
    } throws: { error in
      (error as? DMDesignTokensError)?.description
        == "line 9, column 21: token \"ease\": unknown $type \"cubic-bezier\": the token is left out"
    }
  }

  /// A gradient is told by its function's name, as CSS reads it, scalar by scalar: a combining
  /// mark after its `(` does not hide the `(`.
  @Test func aGradientWithACombiningMarkAfterItsParenthesisIsStillAGradient() throws {
    var warnings: [DMDesignTokensWarning] = []
    let table = try DMDesignTokens.table(
      from: "{\"$type\": \"color\", \"a\": {\"$value\": \"#010203\"}, "
        + "\"g\": {\"$value\": \"linear-gradient(\u{301}red, blue)\"}, \"r\": {\"$value\": \"{g}\"}}"
    ) { warnings.append($0) }
    #expect(table.keys == ["a"])
    #expect(
      warnings.map(\.explanation) == [
        "token \"g\": a gradient, not a colour: the token is left out",
        "token \"r\": a gradient, not a colour: the token is left out",
      ])
  }

  @Test func aGradientInAColourTokenIsLeftOutAndAReferenceOffOnlyInCaseSaysSo() throws {
    var warnings: [DMDesignTokensWarning] = []
    let table = try DMDesignTokens.table(
      from:
        ##"{"color": {"value": "#010203", "type": "color"}, "clouds": {"value": "linear-gradient(90deg, #fff, #000)", "type": "color"}}"##
    ) { warnings.append($0) }
    #expect(table.keys == ["color"])
    #expect(
      warnings.map(\.explanation) == ["token \"clouds\": a gradient, not a colour: the token is left out"])
    #expect {
      _ = try DMDesignTokens.table(
        from: ##"{"$type": "color", "White": {"$value": "#fff"}, "bg": {"$value": "{white}"}}"##)
    } throws: { error in
      (error as? DMDesignTokensError)?.message
        == "refers to \"white\", which is not a token (did you mean \"White\"?)"
    }
  }

  @Test func styleDictionaryTokensCarryDataOfTheirOwn() throws {
    let table = try DMDesignTokens.table(
      from: """
        {"color": {"red": {"value": "#ff0000", "type": "color", "attributes": {"font": "base"}, "comment": "brand",
          "themeable": true, "nested": {"value": "#000", "type": "color"}}}}
        """)
    #expect(table.keys == ["color.red"])
    #expect(table.color(forKey: "color.red", theme: .normal) == DMColor(rgb: 0xFF0000))
  }

  @Test func twoSpellingsOfOneColumnAreAnErrorNotABrokenTable() throws {
    let text = try DMColorTable(string: "NORMAL NIGHT\n#ffffff #000000 BG\n").exported(as: .json)
      .replacingOccurrences(of: "\"NIGHT\"\n", with: "\"NORMAL:light\"\n")
    #expect(text.contains("NORMAL:light"))
    do {
      _ = try DMDesignTokens.table(from: text)
      Issue.record("no error")
    } catch {
      #expect(error.message == "the columns \"NORMAL\" and \"NORMAL:light\" are the same column")
      #expect(error.line > 0 && error.column > 0, "\(error)")
      #expect(error.tokenPath == "modifiers.theme.$extensions", "\(error)")
      // What an app that shows `localizedDescription` prints: the place, then the message.
      #expect((error as any Error).localizedDescription == error.description)
      #expect(error.description.hasPrefix("line \(error.line), column \(error.column): "))
    }
  }

  /// DarkModeKit's export with the modifier that names the keys left out of the resolution order
  /// holds tokens only in its helper groups: an error, not an empty table.
  @Test func ourExportWithoutTheModifierOfItsKeysIsAnError() throws {
    let table = try DMColorTable(string: "NORMAL NIGHT\n#ffffff #000000 BG\n")
    for dropsExtensions in [false, true] {
      var json = try #require(
        try JSONSerialization.jsonObject(with: Data(table.exported(as: .json).utf8)) as? [String: Any])
      let order = try #require(json["resolutionOrder"] as? [[String: String]])
      json["resolutionOrder"] = order.filter { $0["$ref"] != "#/modifiers/contrast" }
      if dropsExtensions {
        var modifiers = try #require(json["modifiers"] as? [String: Any])
        var theme = try #require(modifiers["theme"] as? [String: Any])
        theme["$extensions"] = nil
        modifiers["theme"] = theme
        json["modifiers"] = modifiers
      }
      let text = try #require(String(data: try JSONSerialization.data(withJSONObject: json), encoding: .utf8))
      do {
        let back = try DMDesignTokens.table(from: text)
        Issue.record("no error: \(back.keys)")
      } catch {
        #expect(
          error.message.hasSuffix("the modifier that names the keys is missing from resolutionOrder"),
          "\(error)")
        #expect(error.tokenPath == "resolutionOrder", "\(error)")
      }
    }
  }

  /// Tools may drop other tools' `$extensions`: without DarkModeKit's, the export still reads as
  /// the same colours, its contexts `NORMAL` and `NIGHT` being the default theme's.
  @Test func ourExportWithoutItsExtensionsGivesTheSameColours() throws {
    // Read back without the list of columns, a one-sided theme comes back with both sides, which
    // tables declare for the whole process: the themes get names no other test uses.
    /// The export without the theme modifier's `$extensions`.
    func stripped(_ table: DMColorTable) throws -> String {
      let json = try #require(
        try JSONSerialization.jsonObject(with: Data(table.exported(as: .json).utf8)) as? [String: Any])
      var modifiers = try #require(json["modifiers"] as? [String: Any])
      var theme = try #require(modifiers["theme"] as? [String: Any])
      #expect(theme.removeValue(forKey: "$extensions") != nil)
      modifiers["theme"] = theme
      var stripped = json
      stripped["modifiers"] = modifiers
      return try #require(String(data: try JSONSerialization.data(withJSONObject: stripped), encoding: .utf8))
    }
    // The default theme alone; `DARK` is its dark side, as `NIGHT` is, and keeps its name.
    let small = [
      ("NORMAL", "NORMAL\n#ffffff BG\n", ["NORMAL", "NIGHT"]),
      ("NORMAL DARK", "NORMAL DARK\n#ffffff #101010 BG\n", ["NORMAL", "NIGHT", "DARK"]),
      ("NORMAL NIGHT DARK", "NORMAL NIGHT DARK\n#ffffff #101010 #202020 BG\n", ["NORMAL", "NIGHT", "DARK"]),
    ]
    for (name, original, columns) in small {
      let back = try DMDesignTokens.table(from: try stripped(DMColorTable(string: original)))
      #expect(back.columnNames == columns, "\(name)")
      #expect(back.color(forKey: "BG", variant: .normal) == DMColor(rgb: 0xFFFFFF), "\(name)")
    }
    // `DARK` beside `NIGHT`, with `NIGHT`'s colours but high-contrast ones of its own, is kept.
    let dark = try DMDesignTokens.table(
      from: try stripped(
        DMColorTable(
          string: "NORMAL NIGHT DARK DARK:high NIGHT:high\n#111111 #222222 #222222 #333333 #444444 BG\n")))
    #expect(dark.columnNames == ["NORMAL", "NIGHT", "NIGHT:high", "DARK", "DARK:high"])
    #expect(dark.color(forKey: "BG", variant: "DARK") == DMColor(rgb: 0x222222))
    #expect(dark.color(forKey: "BG", variant: "DARK:high") == DMColor(rgb: 0x333333))
    #expect(dark.color(forKey: "BG", variant: "NIGHT:high") == DMColor(rgb: 0x444444))
    for name in ["DKColorTable.txt", "Palette.txt"] {
      let text = try String(contentsOf: ExampleTables.url(name), encoding: .utf8)
        .replacingOccurrences(of: "RED", with: "NOEXTRED").replacingOccurrences(
          of: "SEPIA", with: "NOEXTSEPIA"
        )
        .replacingOccurrences(of: "SOLARIZED", with: "NOEXTSOLARIZED")
      let table = try DMColorTable(string: text)
      #expect(
        table.themes.allSatisfy {
          ["NORMAL", "NIGHT"].contains($0.rawValue) || $0.rawValue.hasPrefix("NOEXT")
        })
      let back = try DMDesignTokens.table(from: try stripped(table))
      // (`JSONSerialization` writes members in an order of its own.)
      #expect(Set(back.keys) == Set(table.keys), "\(name)")
      for (input, traits) in Self.inputs(table) where input["theme"] == "default" {
        for key in table.keys {
          #expect(
            back.color(forKey: key, traitCollection: traits)
              == table.color(forKey: key, traitCollection: traits),
            "\(name) \(key) \(input)")
        }
      }
      for theme in table.themes where !["NORMAL", "NIGHT"].contains(theme.rawValue) {
        for key in table.keys {
          #expect(
            back.color(forKey: key, variant: DMThemeVariant("\(theme.rawValue):light")!)
              == table.color(
                forKey: key, traitCollection: DMTraitCollection(userInterfaceStyle: .light, theme: theme)),
            "\(name) \(theme) \(key)")
        }
      }
    }
  }

  /// A palette named thousands of times is refused before it is merged thousands of times.
  @Test func aPlaceNamedManyTimesIsBoundedByWhatItMerges() throws {
    let palette = (0..<1_000).map { "\"c\($0)\": {\"$type\": \"color\", \"$value\": \"#102030\"}" }.joined(
      separator: ", ")
    let references = Array(repeating: ##"{"$ref": "#/$defs/p"}"##, count: 20_000).joined(separator: ", ")
    let text = """
      {"version": "2025.10", "$defs": {"p": {\(palette)}},
        "sets": {"s": {"sources": [\(references)]}}, "resolutionOrder": [{"$ref": "#/sets/s"}]}
      """
    // Before the bound, 1,000 references took about 3 s to read and these 20,000 more than 30 s.
    do {
      _ = try DMDesignTokens.table(from: text)
      Issue.record("no error")
    } catch {
      #expect(error.message.contains("come to more than 16000000 values"), "\(error)")
      #expect(error.line == 2 && error.column > 0, "\(error)")
      #expect(error.tokenPath == "resolutionOrder", "\(error)")
    }
  }

  /// Many contexts before a large set: each column merges the set again. Before the bound, a
  /// document of 70 KB (100 contexts, then a set naming a palette of 1,000 tokens 1,000 times)
  /// took more than 30 s; these 2,000 columns of 5,000 tokens would take minutes.
  @Test func manyContextsBeforeALargeSetAreBoundedByTheColumnsTheyMake() throws {
    let palette = (0..<5_000).map { "\"c\($0)\": {\"$type\": \"color\", \"$value\": \"#102030\"}" }
      .joined(separator: ", ")
    let contexts = (0..<2_000).map { "\"T\($0)\": []" }.joined(separator: ", ")
    let text = """
      {"version": "2025.10", "$defs": {"p": {\(palette)}},
        "resolutionOrder": [{"type": "modifier", "name": "theme", "contexts": {\(contexts)}},
          {"type": "set", "name": "after", "sources": [{"$ref": "#/$defs/p"}]}]}
      """
    do {
      _ = try DMDesignTokens.table(from: text)
      Issue.record("no error")
    } catch {
      #expect(
        error.message == "2000 columns of up to 5000 tokens and group types each come to more than 4000000 "
          + "tokens and group types "
          + "(many contexts, each with the tokens of every set)", "\(error)")
      #expect(error.line == 2 && error.column > 0, "\(error)")
      #expect(error.tokenPath == "resolutionOrder", "\(error)")
    }
  }

  /// The same shape within the bound reads each set once: every column has the set's colours,
  /// and a context's own token stays under the set that follows it only where the set has none.
  @Test func contextsBeforeASetEachGetTheSetsTokens() throws {
    let references = Array(repeating: ##"{"$ref": "#/$defs/p"}"##, count: 200).joined(separator: ", ")
    let contexts = (0..<50).map {
      ##""T\##($0)": [{"own": {"$type": "color", "$value": "#0000\##(String(format: "%02x", $0))"}}]"##
    }
    .joined(separator: ", ")
    let table = try DMDesignTokens.table(
      from: """
        {"version": "2025.10", "$defs": {"p": {"bg": {"$type": "color", "$value": "#102030"}}},
          "resolutionOrder": [{"type": "modifier", "name": "theme", "default": "T0", "contexts": {\(contexts)}},
            {"type": "set", "name": "after", "sources": [\(references)]}]}
        """)
    #expect(table.columnNames == ["NORMAL"] + (1..<50).map { "T\($0)" })
    for (index, column) in table.columnNames.enumerated() {
      #expect(table.color(forKey: "bg", variant: DMThemeVariant(column)!) == DMColor(rgb: 0x102030))
      #expect(table.color(forKey: "own", variant: DMThemeVariant(column)!) == DMColor(rgb: UInt32(index)))
    }
  }

  /// A colour reached through a chain of references 63 deep has the type of the chain's end,
  /// whatever the groups of the tokens on the way say; 64 is one too many.
  @Test func longChainsOfReferencesEachGetTheTypeAtTheirEnd() throws {
    func tokens(chains: Int, depth: Int) -> String {
      var members: [String] = []
      for chain in 0..<chains {
        members.append(##""c\##(chain)_0": {"$type": "color", "$value": "#123456"}"##)
        for link in 1..<depth {
          members.append(##""c\##(chain)_\##(link)": {"$value": "{g.c\##(chain)_\##(link - 1)}"}"##)
        }
      }
      return ##"{"g": {"$type": "dimension", \##(members.joined(separator: ", "))}}"##
    }
    let table = try DMDesignTokens.table(from: tokens(chains: 40, depth: 64))
    #expect(table.keys.count == 40 * 64)
    #expect(table.keys.allSatisfy { table.color(forKey: $0, variant: "NORMAL") == DMColor(rgb: 0x123456) })
    #expect(throws: DMDesignTokensError.self) { try DMDesignTokens.table(from: tokens(chains: 1, depth: 65)) }
  }

  /// Each context that names a large set holds its sources: 20 contexts naming a set of 65,536
  /// sources are 1.3 million, which once took gigabytes before the document was found too large.
  @Test func contextsThatEachNameALargeSetAreBoundedByTheSourcesTheyHold() throws {
    let sets =
      (0..<16).map {
        ##""s\##($0)": {"sources": [{"$ref": "#/sets/s\##($0 + 1)"}, {"$ref": "#/sets/s\##($0 + 1)"}]}"##
      }
      + [##""s16": {"sources": [{}]}"##]
    let contexts = (0..<20).map { ##""T\##($0)": [{"$ref": "#/sets/s0"}]"## }
    let text =
      ##"{"version": "2025.10", "sets": {\##(sets.joined(separator: ", "))}, "resolutionOrder": "##
      + ##"[{"type": "modifier", "name": "theme", "contexts": {\##(contexts.joined(separator: ", "))}}]}"##
    do {
      _ = try DMDesignTokens.tableText(from: text)
      Issue.record("no error")
    } catch {
      #expect(error.message.hasPrefix("the sets and contexts name more than 1000000 sources"), "\(error)")
      #expect(error.tokenPath?.hasPrefix("resolutionOrder.0.contexts.T") == true, "\(error)")
    }
  }

  /// A member named twice is found in an object of any size: among the first members, and past
  /// the sixteenth, where names are found through an index.
  @Test(arguments: [(3, 5), (2, 17), (16, 17), (17, 40)])
  func aMemberNamedTwiceIsFoundInObjectsOfAnySize(first: Int, again: Int) throws {
    var names = (0..<max(again + 1, 20)).map { "m\($0)" }
    names[again] = names[first]
    let members = names.map { "\"\($0)\": {\"$type\": \"color\", \"$value\": \"#fff\"}" }
    do {
      _ = try DMDesignTokens.table(from: "{\n" + members.joined(separator: ",\n") + "\n}")
      Issue.record("no error")
    } catch {
      #expect(
        error.message
          == "the member \"m\(first)\" appears twice in one object (first at line \(first + 2), column 1)",
        "\(error)")
      #expect(error.line == again + 2 && error.column == 1, "\(error)")
    }
  }

  /// A name written with escapes is the same name as one written without, in a small object and
  /// in a large one, and the member named twice is told at its own place.
  @Test(arguments: [3, 300])
  func aNameWrittenWithEscapesIsTheSameName(count: Int) throws {
    var members = (0..<count).map { "\"m\($0)\": {\"$type\": \"color\", \"$value\": \"#fff\"}" }
    members.append(##""\u006d1": {"$type": "color", "$value": "#000"}"##)
    do {
      _ = try DMDesignTokens.table(from: "{\n" + members.joined(separator: ",\n") + "\n}")
      Issue.record("no error")
    } catch {
      #expect(
        error.message == "the member \"m1\" appears twice in one object (first at line 3, column 1)",
        "\(error)")
      #expect(error.line == count + 2 && error.column == 1, "\(error)")
    }
  }

  /// Places far into one long line count characters, not bytes, after lines that end with CR LF
  /// and with CR alone: a file written on one line (as tools minify it) names the right column.
  @Test func placesFarIntoALongLineCountCharacters() throws {
    var line = ""
    for index in 0..<5_000 {
      line += "\"ä\(index)😀\": {\"$value\": \"#\(String(format: "%06x", index))\"}, "
    }
    line += ##""last": {"$value": "#10203g"}}"##
    let text = "{\r\n\"$type\": \"color\",\r" + line
    let badValue = try #require(line.range(of: "\"#10203g\""))
    let column =
      line.unicodeScalars.distance(
        from: line.unicodeScalars.startIndex, to: badValue.lowerBound.samePosition(in: line.unicodeScalars)!)
      + 1
    do {
      _ = try DMDesignTokens.table(from: text)
      Issue.record("no error")
    } catch {
      #expect(error.line == 3 && error.column == column, "\(error), expected line 3, column \(column)")
      #expect(error.tokenPath == "last", "\(error)")
    }
    // Without the bad token, every colour is read.
    let good = text.replacingOccurrences(of: ##", "last": {"$value": "#10203g"}"##, with: "")
      .replacingOccurrences(of: ", }", with: "}")
    let table = try DMDesignTokens.table(from: good)
    #expect(table.keys.count == 5_000)
    let wrong = table.keys.enumerated().filter { index, key in
      table.color(forKey: key, theme: .normal) != DMColor(rgb: UInt32(index))
    }
    #expect(wrong.isEmpty, "keys with another colour than their token's: \(wrong.prefix(3))")
  }

  /// A pointer finds an element of an array of thousands, first and last, and one past the end
  /// names nothing.
  @Test func aPointerFindsAnElementOfAnArrayOfThousands() throws {
    let elements = (0..<5_000).map { "\"#\(String(format: "%06x", $0))\"" }.joined(separator: ", ")
    func tokens(_ pointers: [(String, Int)]) -> String {
      ##"{"x": {"$type": "color", "$value": "#ffffff", "$extensions": {"list": ["## + elements + "]}}, "
        + pointers.map { ##""\##($0.0)": {"$type": "color", "$ref": "#/x/$extensions/list/\##($0.1)"}"## }
        .joined(separator: ", ") + "}"
    }
    let table = try DMDesignTokens.table(from: tokens([("first", 0), ("third", 2), ("last", 4_999)]))
    #expect(table.color(forKey: "first", theme: .normal) == DMColor(rgb: 0))
    #expect(table.color(forKey: "third", theme: .normal) == DMColor(rgb: 2))
    #expect(table.color(forKey: "last", theme: .normal) == DMColor(rgb: 4_999))
    do {
      _ = try DMDesignTokens.table(from: tokens([("last", 4_999), ("past", 5_000)]))
      Issue.record("no error")
    } catch {
      #expect(error.tokenPath == "past", "\(error)")
      #expect(error.message.contains("names nothing"), "\(error)")
    }
  }

  /// A pointer finds a member of an object of thousands, first and last, and one it does not
  /// have names nothing.
  @Test func aPointerFindsAMemberOfAnObjectOfThousands() throws {
    var members = (0..<5_000).map {
      "\"c\($0)\": {\"$type\": \"color\", \"$value\": \"#\(String(format: "%06x", $0))\"}"
    }
    members.append(##""first": {"$type": "color", "$ref": "#/c0/$value"}"##)
    members.append(##""last": {"$type": "color", "$ref": "#/c4999/$value"}"##)
    let table = try DMDesignTokens.table(from: "{" + members.joined(separator: ", ") + "}")
    #expect(table.color(forKey: "first", theme: .normal) == DMColor(rgb: 0))
    #expect(table.color(forKey: "last", theme: .normal) == DMColor(rgb: 4_999))
    members.append(##""none": {"$type": "color", "$ref": "#/c5000/$value"}"##)
    do {
      _ = try DMDesignTokens.table(from: "{" + members.joined(separator: ", ") + "}")
      Issue.record("no error")
    } catch {
      #expect(error.tokenPath == "none", "\(error)")
      #expect(error.message.contains("names nothing"), "\(error)")
    }
  }

  /// A name with a dot or a brace would read as a path or a reference: an error naming the
  /// character, also when a combining mark after it makes one character of the two.
  @Test(arguments: [("a.b", "."), ("{a", "{"), ("a}", "}"), ("a.\u{301}b", ".")])
  func namesMayNotHoldDotsOrBraces(name: String, character: String) throws {
    do {
      _ = try DMDesignTokens.table(
        from: "{\"g\": {\"\(name)\": {\"$type\": \"color\", \"$value\": \"#fff\"}}}")
      Issue.record("no error for \(name)")
    } catch {
      #expect(
        error.message == "the name \(ShownText.quoted(name)) holds \"\(character)\", which names may not",
        "\(error)")
      #expect(error.line == 1 && error.column == 8, "\(error)")
    }
  }

  /// A name or a path too long for a key is an error at its place, before each token holds it.
  @Test func namesAndPathsHaveALimit() throws {
    let long = String(repeating: "n", count: 1_025)
    do {
      _ = try DMDesignTokens.table(from: ##"{"g": {"\##(long)": {"$type": "color", "$value": "#fff"}}}"##)
      Issue.record("no error")
    } catch {
      #expect(error.message == "a name may be at most 1024 bytes long", "\(error)")
      #expect(error.line == 1 && error.column == 8, "\(error)")
      #expect(error.tokenPath == "g." + String(repeating: "n", count: 32) + "…", "\(error)")
    }
    let part = String(repeating: "p", count: 1_000)
    let nested =
      ##"{"\##(part)": {"\##(part)": {"\##(part)": {"\##(part)": {"\##(part)": {"$type": "color", "$value": "#fff"}}}}}}"##
    #expect(throws: DMDesignTokensError.self) { try DMDesignTokens.table(from: nested) }
    do {
      _ = try DMDesignTokens.table(from: nested)
    } catch {
      #expect(error.message == "the token's path is longer than 4096 bytes", "\(error)")
    }
    // Four parts of 1,000 bytes are within the limit.
    let within = try DMDesignTokens.table(
      from:
        ##"{"\##(part)": {"\##(part)": {"\##(part)": {"\##(part)": {"$type": "color", "$value": "#fff"}}}}}"##
    )
    #expect(within.keys == [[part, part, part, part].joined(separator: ".")])
  }

  /// A JSON Pointer to a token names the token of the tokens as merged, as a reference by name
  /// does: a context's token replaces the first sets' for a pointer in those sets too.
  @Test func aPointerInTheFirstSetsSeesAContextsToken() throws {
    for reference in [##""{a}""##, ##"{"$ref": "#/a/$value"}"##, ##"{"$ref": "#/a"}"##] {
      let table = try DMDesignTokens.table(
        from: ##"""
          {"version": "2025.10", "resolutionOrder": [
            {"type": "set", "name": "base", "sources": [{"$type": "color", "a": {"$value": "#111111"},
              "b": {"$value": \##(reference)}}]},
            {"type": "modifier", "name": "theme", "default": "NORMAL",
              "contexts": {"NORMAL": [], "X": [{"a": {"$type": "color", "$value": "#222222"}}]}}]}
          """##)
      #expect(table.color(forKey: "b", variant: "NORMAL") == DMColor(rgb: 0x111111), "\(reference)")
      #expect(table.color(forKey: "b", variant: "X") == DMColor(rgb: 0x222222), "\(reference)")
    }
  }

  /// A circle of references with no type anywhere is named as a circle; a chain of 63 references
  /// is read, of 64 is an error that says so.
  @Test func circlesWithoutATypeAndTheLongestChainSayWhatTheyAre() throws {
    do {
      _ = try DMDesignTokens.table(from: ##"{"a": {"$value": "{b}"}, "b": {"$value": "{a}"}}"##)
      Issue.record("no error")
    } catch {
      #expect(error.message == "the references from \"a\" go round in a circle", "\(error)")
    }
    func chain(_ references: Int) -> String {
      let links = (1...references).map { ##""t\##($0)": {"$value": "{t\##($0 - 1)}"}"## }
      return ##"{"t0": {"$type": "color", "$value": "#123456"}, \##(links.joined(separator: ", "))}"##
    }
    let table = try DMDesignTokens.table(from: chain(63))
    #expect(table.color(forKey: "t63", variant: "NORMAL") == DMColor(rgb: 0x123456))
    do {
      _ = try DMDesignTokens.table(from: chain(64))
      Issue.record("no error")
    } catch {
      #expect(error.message == "the references from \"t64\" go through more than 63 references", "\(error)")
    }
  }

  /// Tokens at the top named as columns are tokens: only groups make the columns of the form
  /// `dmkit` wrote before 2025.10.
  @Test func tokensNamedAsColumnsAreTokens() throws {
    let table = try DMDesignTokens.table(
      from: ##"""
        {"NORMAL": {"$type": "color", "$value": "#ffffff"}, "NIGHT": {"$type": "color", "$value": "#000000"}}
        """##)
    #expect(table.columnNames == ["NORMAL"])
    #expect(table.keys == ["NORMAL", "NIGHT"])
    #expect(table.color(forKey: "NIGHT", variant: "NORMAL") == DMColor(rgb: 0x000000))
  }

  /// A `$type` at the top holds for the tokens of the column groups under it.
  @Test func aTypeAtTheTopHoldsForTheColumnGroups() throws {
    let table = try DMDesignTokens.table(
      from: ##"""
        {"$type": "color", "NORMAL": {"bg": {"$value": "#ffffff"}}, "NIGHT": {"bg": {"$value": "#000000"}}}
        """##)
    #expect(table.columnNames == ["NORMAL", "NIGHT"])
    #expect(table.color(forKey: "bg", variant: "NORMAL") == DMColor(rgb: 0xFFFFFF))
    #expect(table.color(forKey: "bg", variant: "NIGHT") == DMColor(rgb: 0x000000))
  }

  /// `#/a.b` is the member named `a.b`, not the token `b` in the group `a`.
  @Test func aPointerPartWithADotNamesAMemberNotAToken() throws {
    let tokens =
      ##"{"a": {"b": {"$type": "color", "$value": "#111111"}}, "c": {"$type": "color", "$ref": "#/a.b"}}"##
    do {
      _ = try DMDesignTokens.table(from: tokens)
      Issue.record("no error")
    } catch {
      #expect(error.message == "$ref \"#/a.b\" names nothing: no \"a.b\"", "\(error)")
      #expect(error.tokenPath == "c", "\(error)")
    }
    let table = try DMDesignTokens.table(from: tokens.replacingOccurrences(of: "#/a.b", with: "#/a/b"))
    #expect(table.color(forKey: "c", variant: "NORMAL") == DMColor(rgb: 0x111111))
  }

  /// Names that differ in any scalar are two names, as JSON compares them, even where Unicode
  /// takes them for the same text (`é`, and `e` with a combining accent).
  @Test func namesThatDifferInAnyScalarAreTwoNames() throws {
    let table = try DMDesignTokens.table(
      from: """
        {"$type": "color", "caf\u{E9}": {"$value": "#111111"}, "cafe\u{301}": {"$value": "#222222"},
          "ref": {"$value": "{cafe\u{301}}"}, "\u{212A}": {"$value": "#333333"}, "K": {"$value": "#444444"}}
        """)
    #expect(table.keys == ["caf_", "cafe_", "ref", "_", "K"])
    #expect(table.color(forKey: "caf_", variant: "NORMAL") == DMColor(rgb: 0x111111))
    #expect(table.color(forKey: "cafe_", variant: "NORMAL") == DMColor(rgb: 0x222222))
    #expect(table.color(forKey: "ref", variant: "NORMAL") == DMColor(rgb: 0x222222))
    #expect(table.color(forKey: "_", variant: "NORMAL") == DMColor(rgb: 0x333333))
    // Two contexts of one modifier, told apart the same way.
    let document = try DMDesignTokens.table(
      from: """
        {"version": "2025.10", "resolutionOrder": [{"type": "modifier", "name": "theme", "default": "A",
          "contexts": {"A": [{"bg": {"$type": "color", "$value": "#000001"}}],
            "x\u{E9}": [{"bg": {"$type": "color", "$value": "#000002"}}],
            "xe\u{301}": [{"bg": {"$type": "color", "$value": "#000003"}}]}}]}
        """)
    #expect(document.columnNames == ["NORMAL", "x_", "xe_"])
    #expect(document.color(forKey: "bg", variant: "x_") == DMColor(rgb: 0x000002))
    #expect(document.color(forKey: "bg", variant: "xe_") == DMColor(rgb: 0x000003))
  }

  /// A colour is found once for each token, and kept with how many references it took: a token
  /// one reference further from a chain of 63 is one too many, by name or by pointer.
  @Test func aColourFoundOnceStillCountsTheReferencesAboveIt() throws {
    let links = (1...63).map { ##""t\##($0)": {"$value": "{t\##($0 - 1)}"}"## }
    for further in [##"{"$value": "{t63}"}"##, ##"{"$ref": "#/t63"}"##] {
      do {
        _ = try DMDesignTokens.table(
          from:
            ##"{"$type": "color", "t0": {"$value": "#123456"}, \##(links.joined(separator: ", ")), "x": \##(further)}"##
        )
        Issue.record("no error for \(further)")
      } catch {
        #expect(error.message == "the references from \"x\" go through more than 63 references", "\(error)")
      }
    }
    // Pointers through members of `$defs`: 63 steps, then one more by name.
    let steps = (0..<62).map { ##""d\##($0)": {"$ref": "#/$defs/d\##($0 + 1)"}"## }
    let document = """
      {"version": "2025.10", "$defs": {\(steps.joined(separator: ", ")), "d62": {"$value": "#123456"}},
        "resolutionOrder": [{"type": "set", "name": "s", "sources": [{"$type": "color",
          "p": {"$ref": "#/$defs/d0"}, "q": {"$value": "{p}"}}]}]}
      """
    do {
      _ = try DMDesignTokens.table(from: document)
      Issue.record("no error")
    } catch {
      #expect(error.message == "the references from \"q\" go through more than 63 references", "\(error)")
    }
    let within = try DMDesignTokens.table(
      from: document.replacingOccurrences(of: ##", "q": {"$value": "{p}"}"##, with: ""))
    #expect(within.color(forKey: "p", variant: "NORMAL") == DMColor(rgb: 0x123456))
  }

  /// A source named again in a set wins again over the sources between, and its tokens keep the
  /// place they first came in.
  @Test func aSourceNamedAgainWinsAgainAndKeepsItsFirstPlace() throws {
    func table(_ order: String) throws -> DMColorTable {
      try DMDesignTokens.table(
        from: ##"""
          {"version": "2025.10", "$defs": {
            "s": {"$type": "color", "a": {"$value": "#000001"}, "b": {"$value": "#000001"}},
            "t": {"$type": "color", "b": {"$value": "#000002"}, "c": {"$value": "#000002"}}},
            "sets": {"x": {"sources": [\##(order)]}}, "resolutionOrder": [{"$ref": "#/sets/x"}]}
          """##)
    }
    let s = ##"{"$ref": "#/$defs/s"}"##
    let t = ##"{"$ref": "#/$defs/t"}"##
    let sts = try table([s, t, s].joined(separator: ", "))
    #expect(sts.keys == ["a", "b", "c"])
    #expect(sts.color(forKey: "b", variant: "NORMAL") == DMColor(rgb: 1))
    let tst = try table([t, s, t, t].joined(separator: ", "))
    #expect(tst.keys == ["b", "c", "a"])
    #expect(tst.color(forKey: "b", variant: "NORMAL") == DMColor(rgb: 2))
  }

  /// Group types merge into each column as tokens do, and count toward the same bound: 2,000
  /// contexts each with 2,500 groups of a `$type` alone took minutes.
  @Test func groupTypesCountTowardTheColumnsBound() throws {
    let groups = (0..<2_500).map { ##""g\##($0)": {"$type": "color"}"## }.joined(separator: ", ")
    let contexts = (0..<2_000).map { ##""T\##($0)": [{"$ref": "#/$defs/g"}]"## }.joined(separator: ", ")
    do {
      _ = try DMDesignTokens.table(
        from: """
          {"version": "2025.10", "$defs": {"g": {\(groups)}}, "resolutionOrder": [
            {"type": "set", "name": "s", "sources": [{"k": {"$type": "color", "$value": "#123456"}}]},
            {"type": "modifier", "name": "theme", "contexts": {\(contexts)}}]}
          """)
      Issue.record("no error")
    } catch {
      #expect(
        error.message == "2000 columns of up to 2500 tokens and group types each come to more than 4000000 "
          + "tokens and group types (many contexts, each with the tokens of every set)", "\(error)")
    }
  }

  /// The paths of the tokens read may come to at most 64 MiB: 17,000 tokens in four groups with
  /// names of 1,000 bytes (a file of 500 KB) would each hold a path of 4 KB.
  @Test func thePathsOfTheTokensReadAreBounded() throws {
    let name = String(repeating: "n", count: 1_000)
    let tokens = (0..<17_000).map { ##""t\##($0)": {"$value": "#fff"}"## }.joined(separator: ", ")
    let text =
      ##"{"$type": "color", "\##(name)1": {"\##(name)2": {"\##(name)3": {"\##(name)4": {\##(tokens)}}}}}"##
    do {
      _ = try DMDesignTokens.table(from: text)
      Issue.record("no error")
    } catch {
      #expect(error.message.hasPrefix("the tokens' paths come to more than 64 MiB all together"), "\(error)")
      #expect(error.line == 1 && error.column > 4_000, "\(error)")
    }
  }

  /// Contexts that each name a large set with an inline source of their own make a tree each:
  /// the trees are refused once they hold more than the columns may read, before the others are
  /// built (1,100 such contexts took gigabytes before the columns' bound was checked).
  @Test func contextsThatEachHoldALargeSetAreRefusedAsTheyAreRead() throws {
    let long = String(repeating: "p", count: 1_000)
    let tokens = (0..<600).map { ##""x\##($0)": {"$type": "color", "$value": "#fff"}"## }.joined(
      separator: ", ")
    let set = [##""\##(long)": {"\##(long)": {"\##(long)": {"\##(long)": {\##(tokens)}}}}"##]
    let contexts = (0..<120).map {
      ##""T\##($0)": [{"$ref": "#/sets/big"}, {"own\##($0)": {"$type": "color", "$value": "#000"}}]"##
    }
    do {
      _ = try DMDesignTokens.table(
        from: """
          {"version": "2025.10", "sets": {"big": {"sources": [{\(set.joined(separator: ", "))}]}},
            "resolutionOrder": [{"type": "modifier", "name": "theme", "contexts": {\(contexts.joined(separator: ", "))}}]}
          """)
      Issue.record("no error")
    } catch {
      #expect(
        error.message == "the sets and contexts come to more than 268435456 bytes of merged paths (many "
          + "contexts, each with the tokens of a large set)", "\(error)")
      #expect(error.line == 1 && error.column > 0, "\(error)")
    }
  }

  /// A `$ref` longer than any token's pointer is an error, in a token and in a chain of pointers
  /// through `$defs`: each column would read it again.
  @Test func aPointerLongerThanAnyTokensIsAnError() throws {
    let long = "#/" + String(repeating: "d", count: 9_000)
    for text in [
      ##"{"a": {"$type": "color", "$ref": "\##(long)"}}"##,
      ##"{"version": "2025.10", "$defs": {"d": {"$ref": "\##(long)"}}, "resolutionOrder": [{"type": "set", "name": "s", "sources": [{"a": {"$type": "color", "$ref": "#/$defs/d"}}]}]}"##,
    ] {
      do {
        _ = try DMDesignTokens.table(from: text)
        Issue.record("no error")
      } catch {
        #expect(error.message == "$ref is longer than 8208 bytes: it can name no token", "\(error)")
        #expect(error.tokenPath == "a" && error.line == 1, "\(error)")
      }
    }
  }

  /// More than 100,000 columns are refused before anything is merged, even with no tokens.
  @Test func columnsAreBoundedEvenWithoutTokens() throws {
    let contexts = (0..<100_001).map { ##""T\##($0)": []"## }.joined(separator: ",")
    do {
      _ = try DMDesignTokens.table(
        from:
          ##"{"version": "2025.10", "resolutionOrder": [{"type": "modifier", "name": "theme", "contexts": {\##(contexts)}}]}"##
      )
      Issue.record("no error")
    } catch {
      #expect(error.message == "the modifiers make 100001 columns, more than 100000", "\(error)")
      #expect(error.tokenPath == "resolutionOrder.0", "\(error)")
    }
  }

  /// A token takes the type of its nearest group with one, whatever the depths in between.
  @Test func aTokenTakesTheTypeOfItsNearestTypedGroup() throws {
    let table = try DMDesignTokens.table(
      from: ##"""
        {"a": {"$type": "color", "b": {"$type": "dimension", "c": {"d": {"e": {"x": {"$value": {"value": 1, "unit": "px"}}}}}},
          "f": {"g": {"h": {"i": {"x": {"$value": "#123456"}}}}}}}
        """##)
    #expect(table.keys == ["a.f.g.h.i.x"])
    #expect(table.color(forKey: "a.f.g.h.i.x", variant: "NORMAL") == DMColor(rgb: 0x123456))
  }

  /// What DarkModeKit's `$extensions` name must be there: the listed columns' contexts (told
  /// apart scalar by scalar), a default context, a column at all; a modifier of three contexts
  /// is a theme, even if two are `light` and `dark`.
  @Test func ourExtensionsNameWhatIsThere() throws {
    func document(contexts: String, extensions: String) -> String {
      ##"""
      {"version": "2025.10", "sets": {"s": {"sources": [{"bg": {"$type": "color", "$value": "#111111"}}]}},
        "modifiers": {"theme": {"contexts": {\##(contexts)}, "default": "a",
          "$extensions": {"org.darkmodekit": {\##(extensions)}}}},
        "resolutionOrder": [{"$ref": "#/sets/s"}, {"$ref": "#/modifiers/theme"}]}
      """##
    }
    let contexts = ##""a": [], "NORMAL": [], "KELVIN": [{"bg": {"$type": "color", "$value": "#222222"}}]"##
    for (extensions, message) in [
      (##""columns": ["NORMAL", "KELVIN"]"##, "the column \"KELVIN\" has no context"),
      (##""columns": []"##, "the list of columns is empty: a table needs one"),
      (
        ##""defaultContext": "nope""##,
        "defaultContext must name one of the contexts, found the string \"nope\""
      ),
    ] {
      do {
        _ = try DMDesignTokens.table(from: document(contexts: contexts, extensions: extensions))
        Issue.record("no error for \(extensions)")
      } catch {
        #expect(error.message == message, "\(error)")
        #expect(error.line > 0, "\(error)")
      }
    }
    let three = try DMDesignTokens.table(
      from: document(
        contexts:
          ##""a": [], "light": [], "dark": [], "DARK": [{"bg": {"$type": "color", "$value": "#333333"}}]"##,
        extensions: ""))
    #expect(three.columnNames == ["NORMAL", "light", "dark", "DARK"])
    #expect(three.color(forKey: "bg", variant: "DARK") == DMColor(rgb: 0x333333))
  }

  /// Keys whose parts or paths are longer than the reader takes go out with names of their own,
  /// and come back.
  @Test func longKeysComeBack() throws {
    let keys = [
      String(repeating: "k", count: 1_025),
      (0..<33).map { "p\($0)" + String(repeating: "x", count: 30) }.joined(separator: "."),
      "a.." + String(repeating: "e", count: 1_200),
      (0..<4).map { _ in String(repeating: "q", count: 1_020) }.joined(separator: "."),
      "b.c",
    ]
    let table = try DMColorTable(
      string: "NORMAL NIGHT\n" + keys.map { "#fff #000 " + $0 }.joined(separator: "\n") + "\n")
    let back = try DMDesignTokens.table(from: table.exported(as: .json))
    #expect(back.keys == keys)
    #expect(back.exported(as: .text) == table.exported(as: .text))
  }

  /// Groups with a type hold their paths as tokens do, and count toward the same bound: 17,000
  /// groups of a `$type` alone under four names of 1,000 bytes (a file of 400 KB).
  @Test func typedGroupsCountTowardThePathsBound() throws {
    let name = String(repeating: "n", count: 1_000)
    let groups = (0..<17_000).map { ##""g\##($0)": {"$type": "color"}"## }.joined(separator: ", ")
    do {
      _ = try DMDesignTokens.table(
        from: ##"{"\##(name)1": {"\##(name)2": {"\##(name)3": {"\##(name)4": {\##(groups)}}}}}"##)
      Issue.record("no error")
    } catch {
      #expect(error.message.hasPrefix("the tokens' paths come to more than 64 MiB all together"), "\(error)")
      #expect(error.line == 1 && error.column > 4_000, "\(error)")
    }
  }

  /// What every column merges counts with the bytes of its paths, helper groups and group types
  /// included: 300 contexts each merging 300 typed groups of 4 KB paths.
  @Test func theBytesEachColumnMergesAreBounded() throws {
    let name = String(repeating: "n", count: 1_000)
    let groups = (0..<300).map { ##""g\##($0)": {"$type": "color"}"## }.joined(separator: ", ")
    let contexts = (0..<300).map { ##""T\##($0)": [{"$ref": "#/$defs/p"}]"## }.joined(separator: ", ")
    do {
      _ = try DMDesignTokens.table(
        from: ##"""
          {"version": "2025.10", "$defs": {"p": {"\##(name)1": {"\##(name)2": {"\##(name)3": {"\##(name)4": {\##(groups)}}}}}},
            "resolutionOrder": [{"type": "set", "name": "s", "sources": [{"k": {"$type": "color", "$value": "#fff"}}]},
              {"type": "modifier", "name": "theme", "contexts": {\##(contexts)}}]}
          """##)
      Issue.record("no error")
    } catch {
      #expect(error.message.contains("bytes of merged paths each come to more than 268435456"), "\(error)")
    }
  }

  /// A pointer to a token of the longest path, every part escaped, is within the limit.
  @Test func aPointerToTheLongestPathIsRead() throws {
    let part = String(repeating: "/", count: 1_023)
    let escaped = String(repeating: "~1", count: 1_023)
    let table = try DMDesignTokens.table(
      from: ##"""
        {"\##(part)": {"\##(part)": {"\##(part)": {"\##(part)": {"$type": "color", "$value": "#123456"}}}},
          "p": {"$type": "color", "$ref": "#/\##(escaped)/\##(escaped)/\##(escaped)/\##(escaped)/$value"}}
        """##)
    #expect(table.color(forKey: "p", variant: "NORMAL") == DMColor(rgb: 0x123456))
  }

  /// DarkModeKit's `$extensions` of the wrong shape are errors with a place.
  @Test func ourExtensionsOfTheWrongShapeAreErrors() throws {
    for (extensions, message) in [
      (##"{"org.darkmodekit": "x"}"##, "org.darkmodekit must be an object, found the string \"x\""),
      (
        ##"{"org.darkmodekit": {"columns": "NORMAL"}}"##,
        "columns must be an array, found the string \"NORMAL\""
      ),
      (##"{"org.darkmodekit": {"keys": "bg"}}"##, "keys must be an array, found the string \"bg\""),
      (##"{"org.darkmodekit": {"keys": ["bg", 3]}}"##, "a key must be a string, found the number 3"),
    ] {
      do {
        _ = try DMDesignTokens.table(
          from: ##"""
            {"version": "2025.10", "resolutionOrder": [{"type": "modifier", "name": "theme", "default": "a",
              "contexts": {"a": [{"bg": {"$type": "color", "$value": "#fff"}}], "b": []}, "$extensions": \##(extensions)}]}
            """##)
        Issue.record("no error for \(extensions)")
      } catch {
        #expect(error.message == message, "\(error)")
        #expect(error.line > 0, "\(error)")
      }
    }
  }

  /// A set named twice before the first modifier is read once: its paths count once.
  @Test func aSetNamedTwiceInTheOrderIsReadOnce() throws {
    let name = String(repeating: "n", count: 1_000)
    let tokens = (0..<10_000).map { ##""t\##($0)": {"$value": "#fff"}"## }.joined(separator: ", ")
    let table = try DMDesignTokens.table(
      from: ##"""
        {"version": "2025.10", "sets": {"s": {"sources": [{"$type": "color", "\##(name)1": {"\##(name)2": {"\##(name)3": {"\##(name)4": {\##(tokens)}}}}}]}},
          "resolutionOrder": [{"$ref": "#/sets/s"}, {"$ref": "#/sets/s"}]}
        """##)
    #expect(table.keys.count == 10_000)
  }

  /// Groups named as the helpers of DarkModeKit's export hold keys in any other document, in a
  /// resolver document as in a token file.
  @Test func groupsNamedAsOurHelpersHoldKeysInOtherDocuments() throws {
    let tokens =
      ##"{"DarkModeKit scheme": {"bg": {"$type": "color", "$value": "#111111"}}, "fg": {"$type": "color", "$value": "#222222"}}"##
    let file = try DMDesignTokens.table(from: tokens)
    let resolver = try DMDesignTokens.table(
      from: ##"""
        {"version": "2025.10", "resolutionOrder": [{"type": "set", "name": "s", "sources": [\##(tokens)]},
          {"type": "modifier", "name": "mode", "contexts": {"light": [],
            "dark": [{"DarkModeKit scheme": {"bg": {"$type": "color", "$value": "#333333"}}}]}}]}
        """##)
    for table in [file, resolver] {
      #expect(table.keys == ["DarkModeKit_scheme.bg", "fg"])
      #expect(table.color(forKey: "DarkModeKit_scheme.bg", variant: .normal) == DMColor(rgb: 0x111111))
    }
    #expect(resolver.color(forKey: "DarkModeKit_scheme.bg", variant: "NIGHT") == DMColor(rgb: 0x333333))

    // A token named as the group of the export's columns does not make the document an export.
    let token = try DMDesignTokens.table(
      from: ##"""
        {"version": "2025.10", "resolutionOrder": [{"type": "set", "name": "s", "sources": [{"DarkModeKit columns": {"$type": "color", "$value": "#444444"},
          "DarkModeKit scheme": {"bg": {"$type": "color", "$value": "#555555"}}}]}]}
        """##)
    #expect(token.keys == ["DarkModeKit_columns", "DarkModeKit_scheme.bg"])
  }

  /// A context named longer than a theme may be is an error at its modifier.
  @Test func aContextNamedLongerThanAThemeIsAnError() throws {
    let long = String(repeating: "c", count: 65)
    // `:` is no character of a theme name: the context gives the theme `b…_dark_high`.
    let mangled = String(repeating: "b", count: 64) + ":dark:high"
    for (name, message) in [
      (long, "gives the theme name \(ShownText.quoted(long)), 65 bytes long, more than 64"),
      (
        mangled,
        "gives the theme name \(ShownText.quoted(String(repeating: "b", count: 64) + "_dark_high")) "
          + "(a theme name has \"_\" for each character it cannot have), 74 bytes long, more than 64"
      ),
    ] {
      do {
        _ = try DMDesignTokens.table(
          from: ##"""
            {"version": "2025.10", "resolutionOrder": [{"type": "modifier", "name": "theme",
              "contexts": {"a": [{"bg": {"$type": "color", "$value": "#ffffff"}}], "\##(name)": []}}]}
            """##)
        Issue.record("no error for \(name)")
      } catch {
        #expect(error.message.hasSuffix(message), "\(error)")
        #expect(error.line == 1 && error.tokenPath == "resolutionOrder.0.contexts.\(name)", "\(error)")
      }
    }
  }

  /// Members beside the `$ref` of a set, a modifier or a source would override what it names:
  /// they are an error rather than silently left out.
  @Test func membersBesideAReferenceToASetOrASourceAreErrors() throws {
    let sets = ##""sets": {"s": {"sources": [{"x": {"$type": "color", "$value": "#111111"}}]}}"##
    let modifiers =
      ##""modifiers": {"t": {"contexts": {"a": [], "b": [{"x": {"$type": "color", "$value": "#222222"}}]}}}"##
    for (order, member) in [
      (##"[{"$ref": "#/sets/s", "sources": []}]"##, "sources"),
      (##"[{"$ref": "#/sets/s"}, {"$ref": "#/modifiers/t", "default": "b"}]"##, "default"),
      (
        ##"[{"type": "set", "name": "i", "sources": [{"$ref": "#/sets/s/sources/0", "x": {"$type": "color", "$value": "#999999"}}]}]"##,
        "x"
      ),
    ] {
      do {
        _ = try DMDesignTokens.table(
          from: ##"{"version": "2025.10", \##(sets), \##(modifiers), "resolutionOrder": \##(order)}"##)
        Issue.record("no error for \(order)")
      } catch {
        #expect(error.message.hasPrefix("\"\(member)\" beside $ref is not read"), "\(error)")
        #expect(error.line == 1 && error.tokenPath?.hasSuffix(member) == true, "\(error)")
      }
    }
    // A description changes no colour.
    let described = try DMDesignTokens.table(
      from:
        ##"{"version": "2025.10", \##(sets), "resolutionOrder": [{"$ref": "#/sets/s", "description": "base"}]}"##
    )
    #expect(described.color(forKey: "x", variant: .normal) == DMColor(rgb: 0x111111))
  }

  /// A `$ref` in the definition of a set or a modifier is an error at its place, rather than
  /// silently left out with what it names.
  @Test func aReferenceInTheDefinitionOfASetOrAModifierIsAnError() throws {
    let x = ##"{"x": {"$type": "color", "$value": "#111111"}}"##
    for (definitions, order, path) in [
      (
        ##""sets": {"a": {"$ref": "#/sets/c", "sources": [\##(x)]}, "c": {"sources": []}}"##,
        ##"[{"$ref": "#/sets/a"}]"##, "sets.a.$ref"
      ),
      (
        ##""modifiers": {"t": {"$ref": "#/modifiers/u", "contexts": {"a": [\##(x)], "b": []}}}"##,
        ##"[{"$ref": "#/modifiers/t"}]"##, "modifiers.t.$ref"
      ),
    ] {
      do {
        _ = try DMDesignTokens.table(
          from: ##"{"version": "2025.10", \##(definitions), "resolutionOrder": \##(order)}"##)
        Issue.record("no error for \(definitions)")
      } catch {
        #expect(
          error.message.hasPrefix("$ref in the definition of a set or a modifier is not read"), "\(error)")
        #expect(error.line == 1 && error.tokenPath == path, "\(error)")
      }
    }
  }

  /// A source may name a place that is itself a `$ref`: the references are followed, members
  /// beside an inner one are errors at that place, and a circle is an error.
  @Test func aSourceNamingAReferenceFollowsIt() throws {
    func document(_ p: String) -> String {
      ##"""
      {"version": "2025.10", "sets": {"base": {"sources": [{"$ref": "#/$defs/p"}]}},
        "resolutionOrder": [{"$ref": "#/sets/base"}],
        "$defs": {"p": \##(p), "q": {"bg": {"$type": "color", "$value": "#123456"}}}}
      """##
    }
    let table = try DMDesignTokens.table(from: document(##"{"$ref": "#/$defs/q"}"##))
    #expect(table.color(forKey: "bg", variant: .normal) == DMColor(rgb: 0x123456))
    for (p, path, message) in [
      (##"{"$ref": "#/$defs/q", "extra": 1}"##, "$defs.p.extra", ##""extra" beside $ref is not read"##),
      (##"{"$ref": "#/$defs/p"}"##, "$defs.p", "more than 32 deep or in a circle"),
      (##"{"$ref": 7}"##, "$defs.p", "$ref must be a string"),
    ] {
      do {
        _ = try DMDesignTokens.table(from: document(p))
        Issue.record("no error for \(p)")
      } catch {
        #expect(error.message.contains(message), "\(error)")
        #expect(error.tokenPath == path, "\(error)")
      }
    }
  }

  /// A member beside the `$ref` of a token's value (`alpha`) would change the colour it names:
  /// it is an error, not left out.
  @Test func aMemberBesideTheReferenceOfAValueIsAnError() throws {
    for value in [##"{"$ref": "#/a/$value", "alpha": 0.5}"##, ##"{"$ref": "#/a", "alpha": 0.5}"##] {
      do {
        _ = try DMDesignTokens.table(
          from: ##"""
            {"a": {"$type": "color", "$value": "#ffffff"},
             "b": {"$type": "color", "$value": \##(value)}}
            """##)
        Issue.record("no error for \(value)")
      } catch {
        #expect(error.message.hasPrefix(##""alpha" beside $ref is not read"##), "\(error)")
        #expect(error.line == 2 && error.tokenPath == "b", "\(error)")
      }
    }
    // The token's own members beside its `$ref` are read as before.
    let table = try DMDesignTokens.table(
      from: ##"""
        {"a": {"$type": "color", "$value": "#ffffff"},
         "b": {"$type": "color", "$description": "a's colour", "$ref": "#/a/$value"}}
        """##)
    #expect(table.color(forKey: "b", variant: .normal) == DMColor(rgb: 0xffffff))
  }

  /// A top-level group of a token file named as a column but for a theme name over 64 bytes is a
  /// column in error, not a group that turns the file into one column.
  @Test func aColumnGroupWithATooLongThemeNameIsAnError() throws {
    let name = String(repeating: "Y", count: 65) + ":dark"
    do {
      _ = try DMDesignTokens.table(
        from: ##"""
          {"NORMAL": {"BG": {"$type": "color", "$value": "#ffffff"}},
           "\##(name)": {"BG": {"$type": "color", "$value": "#000000"}}}
          """##)
      Issue.record("no error")
    } catch {
      #expect(
        error.message.hasSuffix("is not a column name: the theme name is 65 bytes long, more than 64"),
        "\(error)")
      #expect(error.line == 2 && error.tokenPath == name, "\(error)")
    }
  }

  /// A column DarkModeKit's `$extensions` list that is not a column name says why.
  @Test func aListedColumnThatIsNoColumnSaysWhy() throws {
    let name = String(repeating: "C", count: 65)
    do {
      _ = try DMDesignTokens.table(
        from: ##"""
          {"version": "2025.10", "resolutionOrder": [{"type": "modifier", "name": "theme",
            "contexts": {"a": [], "b": []},
            "$extensions": {"org.darkmodekit": {"columns": ["\##(name)"]}}}]}
          """##)
      Issue.record("no error")
    } catch {
      #expect(
        error.message.hasSuffix("is not a column name: the theme name is 65 bytes long, more than 64"),
        "\(error)")
      #expect(error.line == 3 && error.tokenPath == "resolutionOrder.0.$extensions", "\(error)")
    }
  }

  /// Two modifiers that both choose the style, or the contrast, are an error at the second,
  /// rather than the second read as the theme.
  @Test func twoModifiersOfTheStyleOrTheContrastAreAnError() throws {
    for (contexts, what) in [
      (##""light": [], "dark": [{"bg": {"$value": "#222222"}}]"##, "the style (light, dark)"),
      (##""normal": [], "more": [{"bg": {"$value": "#222222"}}]"##, "the contrast (normal, more)"),
    ] {
      do {
        _ = try DMDesignTokens.table(
          from: ##"""
            {"version": "2025.10", "sets": {"s": {"sources": [{"bg": {"$type": "color", "$value": "#ffffff"}}]}},
             "modifiers": {"t": {"contexts": {\##(contexts)}},
             "u": {"contexts": {\##(contexts)}}},
             "resolutionOrder": [{"$ref": "#/sets/s"}, {"$ref": "#/modifiers/t"}, {"$ref": "#/modifiers/u"}]}
            """##)
        Issue.record("no error for \(what)")
      } catch {
        #expect(
          error.message == ##"the modifiers "t" and "u" both choose \##(what): a table has one"##, "\(error)")
        #expect(error.line == 3 && error.tokenPath == "modifiers.u", "\(error)")
      }
    }
  }

  /// A document with a version and sets or modifiers but no resolution order says that it lacks
  /// one, rather than being read as tokens.
  @Test func aResolverDocumentWithoutItsResolutionOrderSaysSo() throws {
    do {
      _ = try DMDesignTokens.table(from: ##"{"version": "2025.10", "sets": {}, "modifiers": {}}"##)
      Issue.record("no error")
    } catch {
      #expect(error.message == "resolutionOrder must be a non-empty array", "\(error)")
      #expect(error.tokenPath == "resolutionOrder", "\(error)")
    }
  }

  /// Top-level groups with lower-case names and no side (`dark`, `button`) are groups of one
  /// column, even beside a group named as a column.
  @Test func lowerCaseGroupsBesideAColumnNameAreGroups() throws {
    let table = try DMDesignTokens.table(
      from: ##"""
        {"NORMAL": {"bg": {"$type": "color", "$value": "#ffffff"}},
         "dark": {"bg": {"$type": "color", "$value": "#000000"}}}
        """##)
    #expect(table.columnNames == ["NORMAL"])
    #expect(table.keys == ["NORMAL.bg", "dark.bg"])
    #expect(table.color(forKey: "dark.bg", variant: .normal) == DMColor(rgb: 0x000000))
    // With a side, a lower-case theme is a column.
    let columns = try DMDesignTokens.table(
      from: ##"""
        {"NORMAL": {"bg": {"$type": "color", "$value": "#ffffff"}},
         "sepia:light": {"bg": {"$type": "color", "$value": "#f4ecd8"}}}
        """##)
    #expect(columns.columnNames == ["NORMAL", "sepia"])
  }

  /// A context named as a side of the default theme (`NIGHT`) gives only that side: colours of
  /// its own on the other side are an error, not lost.
  @Test func aContextNamedAsADefaultSideWithColoursOnItsOtherSideIsAnError() throws {
    func document(night: String) -> String {
      ##"""
      {"version": "2025.10",
       "sets": {"base": {"sources": [{"$type": "color", "bg": {"$value": "#ffffff"}}]}},
       "modifiers": {
         "theme": {"contexts": {"default": [], "NIGHT": [\##(night)]}, "default": "default"},
         "color-scheme": {"contexts": {"light": [], "dark": [{"bg": {"$type": "color", "$value": "#444444"}}]}}},
       "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/theme"}, {"$ref": "#/modifiers/color-scheme"}]}
      """##
    }
    // `NIGHT` changes the light side only: its light side is #222222, its dark side the default's.
    do {
      _ = try DMDesignTokens.table(
        from: document(night: ##"{"bg": {"$type": "color", "$value": "#222222"}}"##))
      Issue.record("no error")
    } catch {
      #expect(
        error.message.hasPrefix(##"the context "NIGHT" gives its light side colours of its own"##), "\(error)"
      )
      #expect(error.tokenPath == "modifiers.theme.contexts.NIGHT", "\(error)")
    }
    // A `NIGHT` context that leaves the light side to the default theme is read.
    let table = try DMDesignTokens.table(from: document(night: ""))
    #expect(table.columnNames == ["NORMAL", "NIGHT"])
    #expect(table.color(forKey: "bg", variant: .night) == DMColor(rgb: 0x444444))
  }

  /// A theme whose sides are the same in normal contrast but differ in high contrast keeps both.
  @Test func aThemeWhoseSidesDifferOnlyInHighContrastKeepsBoth() throws {
    let table = try DMDesignTokens.table(
      from: ##"""
        {"version": "2025.10",
         "sets": {"base": {"sources": [{"$type": "color", "bg": {"$value": "#ffffff"}, "fg": {"$value": "#000000"}}]}},
         "modifiers": {
           "theme": {"contexts": {"default": [], "x": [{"fg": {"$type": "color", "$value": "#123456"}}]}},
           "color-scheme": {"contexts": {"light": [], "dark": [{"bg": {"$type": "color", "$value": "#444444"}}]}},
           "contrast": {"contexts": {"normal": [{"bg": {"$type": "color", "$value": "#ffffff"}}], "more": []}}},
         "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/theme"},
           {"$ref": "#/modifiers/color-scheme"}, {"$ref": "#/modifiers/contrast"}]}
        """##)
    #expect(table.color(forKey: "bg", variant: "x:dark:high") == DMColor(rgb: 0x444444))
    #expect(table.columnNames.filter { $0.hasPrefix("x") } == ["x:light", "x:dark", "x:dark:high"])
    #expect(table.color(forKey: "bg", variant: "x:dark") == DMColor(rgb: 0xFFFFFF))
  }

  /// A pointer with an escape other than `~0` and `~1` is told as such.
  @Test func aPointerWithABadEscapeSaysSo() throws {
    do {
      _ = try DMDesignTokens.table(from: ##"{"a": {"$type": "color", "$ref": "#/~"}}"##)
      Issue.record("no error")
    } catch {
      #expect(error.message.contains("names nothing: it has an escape other than ~0 and ~1"), "\(error)")
    }
  }

  /// Pointers follow RFC 6901: `~` escapes only `~0` and `~1`, and an array index has no leading
  /// zero.
  @Test func pointersWithBadEscapesOrIndicesNameNothing() throws {
    for pointer in ["#/$defs/a~2b", "#/$defs/list/00"] {
      do {
        _ = try DMDesignTokens.table(
          from: ##"""
            {"version": "2025.10", "$defs": {"a~2b": {"x": {"$type": "color", "$value": "#111111"}},
              "list": [{"x": {"$type": "color", "$value": "#222222"}}]},
              "resolutionOrder": [{"type": "set", "name": "s", "sources": [{"$ref": "\##(pointer)"}]}]}
            """##)
        Issue.record("no error for \(pointer)")
      } catch {
        #expect(error.message.contains("names no object of tokens"), "\(error)")
      }
    }
    let table = try DMDesignTokens.table(
      from: ##"""
        {"version": "2025.10", "$defs": {"list": [{"x": {"$type": "color", "$value": "#222222"}}]},
          "resolutionOrder": [{"type": "set", "name": "s", "sources": [{"$ref": "#/$defs/list/0"}]}]}
        """##)
    #expect(table.color(forKey: "x", variant: .normal) == DMColor(rgb: 0x222222))
  }

  /// Without a style modifier, contexts named as the default theme's sides are those columns.
  @Test func contextsNamedAsTheDefaultThemesSidesWithoutAStyleAreItsColumns() throws {
    let table = try DMDesignTokens.table(
      from: """
        {"version": "2025.10", "resolutionOrder": [{"type": "modifier", "name": "theme", "default": "NORMAL",
          "contexts": {"NORMAL": [{"bg": {"$type": "color", "$value": "#ffffff"}}],
                       "NIGHT": [{"bg": {"$type": "color", "$value": "#000000"}}]}}]}
        """)
    #expect(table.columnNames == ["NORMAL", "NIGHT"])
    #expect(table.color(forKey: "bg", variant: "NIGHT") == DMColor(rgb: 0x000000))
  }

  /// A source may be anywhere in the document, not only among its sets.
  @Test func aSourceAnywhereInTheDocumentIsRead() throws {
    let table = try DMDesignTokens.table(
      from: """
        {
          "version": "2025.10",
          "$defs": {"palette": {"c": {"$type": "color", "bg": {"$value": "#ffffff"}}}},
          "sets": {"base": {"sources": [{"$ref": "#/$defs/palette"}]}},
          "modifiers": {"mode": {"contexts": {"light": [], "dark": [{"c": {"bg": {"$value": "#000000"}}}]}}},
          "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/mode"}]
        }
        """)
    #expect(table.columnNames == ["NORMAL", "NIGHT"])
    #expect(table.color(forKey: "c.bg", variant: .normal) == DMColor(rgb: 0xFFFFFF))
    #expect(table.color(forKey: "c.bg", variant: "NIGHT") == DMColor(rgb: 0x000000))
    do {
      _ = try DMDesignTokens.table(
        from:
          ##"{"version": "2025.10", "sets": {"s": {"sources": [{"$ref": "#/nowhere"}]}}, "resolutionOrder": [{"$ref": "#/sets/s"}]}"##
      )
      Issue.record("no error")
    } catch {
      #expect(error.message.contains("names no object of tokens"), "\(error)")
      #expect(error.line == 1 && error.column > 0, "\(error)")
    }
  }

  // Alone among the tests that measure the process's memory (`.globalState`): it allocates a lot.
  @Test(.globalState) func setsThatNameEachOtherManyTimesAreBounded() throws {
    // 4^16 sources, from a few hundred bytes.
    let sets =
      (0..<16).map { index in
        "\"s\(index)\": {\"sources\": ["
          + Array(repeating: "{\"$ref\": \"#/sets/s\(index + 1)\"}", count: 4).joined(separator: ", ") + "]}"
      } + [##""s16": {"sources": [{"bg": {"$type": "color", "$value": "#ffffff"}}]}"##]
    let text =
      ##"{"version": "2025.10", "sets": {"## + sets.joined(separator: ", ")
      + ##"}, "resolutionOrder": [{"$ref": "#/sets/s0"}]}"##
    do {
      _ = try DMDesignTokens.tableText(from: text)
      Issue.record("no error")
    } catch {
      #expect(
        error.message
          == "the sets and contexts name more than 1000000 sources in all, their references to sets followed",
        "\(error)")
    }
  }

  // Alone among the tests that measure the process's memory (`.globalState`): it allocates a lot.
  @Test(.globalState) func aLongResolutionOrderIsReadInLinearTime() throws {
    let order = Array(repeating: ##"{"$ref": "#/sets/s"}"##, count: 10_000).joined(separator: ",")
    let text =
      ##"{"version": "2025.10", "sets": {"s": {"sources": [{"bg": {"$type": "color", "$value": "#ffffff"}}]}}, "resolutionOrder": ["##
      + order + "]}"
    #expect(try DMDesignTokens.tableText(from: text) == "NORMAL\n#FFFFFF bg\n")
  }

  // Alone among the tests that measure the process's memory (`.globalState`): it allocates a lot.
  @Test(.globalState) func aTableOfManyThemesComesBack() throws {
    let table = try DMColorTable(
      string: (0..<400).map { "T\($0)" }.joined(separator: " ") + "\n"
        + String(repeating: "#ffffff ", count: 400)
        + "BG\n")
    #expect(try DMDesignTokens.table(from: table.exported(as: .json)).columnNames == table.columnNames)
  }

  @Test func aKeyOfManyPartsComesBack() throws {
    let key = Array(repeating: "a", count: 80).joined(separator: ".")
    let table = try DMColorTable(string: "NORMAL\n#ffffff \(key)\n#000000 a.b\n")
    #expect(try DMDesignTokens.table(from: table.exported(as: .json)).keys == [key, "a.b"])
  }

  @Test(arguments: [
    ##"{"SEPIA:light": {"bg": {"$type": "color", "$value": "#ffffff"}}, "NIGHT": {"bg": {"$type": "color", "$value": "#000"}}}"##,
    ##"{"bg": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [1, 1, 1], "alpha": 0.999}}}"##,
  ])
  func tokensReadBackAfterAnExportGiveTheSameTable(json: String) throws {
    let table = try DMDesignTokens.table(from: json)
    #expect(
      try DMDesignTokens.table(from: table.exported(as: .json)).exported(as: .text)
        == table.exported(as: .text))
  }

  @Test func aPointerTokenTakesTheTypeOfItsTarget() throws {
    #expect(
      try DMDesignTokens.tableText(
        from: ##"{"a": {"$type": "color", "$value": "#FFFFFF"}, "b": {"$ref": "#/a/$value"}}"##)
        == "NORMAL\n#FFFFFF a\n#FFFFFF b\n")
  }

  @Test func aTypeFromTheFileIsEscapedInTheMessage() {
    do {
      _ = try DMDesignTokens.tableText(
        from: ##"{"a": {"value": "{b}", "type": "color"}, "b": {"value": "x", "type": "\u001b[31m"}}"##)
      Issue.record("no error")
    } catch {
      #expect(!error.description.unicodeScalars.contains("\u{1B}"), "\(error)")
      #expect(error.message.contains(#"a "\u{1B}[31m" token"#), "\(error)")
    }
  }

  @Test func nestingAndSizeAreBounded() throws {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(throws: DMDesignTokensError.self) { try DMDesignTokens.table(from: deep) }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let big = folder.appendingPathComponent("big.tokens.json")
    try Data(repeating: 0x20, count: 2_000).write(to: big)
    do {
      _ = try DMDesignTokens.table(contentsOf: big, maximumFileSize: 1_000)
      Issue.record("a file over the limit was read")
    } catch {
      #expect(error.path == big.path)
      #expect(error.message.contains("larger than the limit of 1000 bytes"))
    }
  }
}
