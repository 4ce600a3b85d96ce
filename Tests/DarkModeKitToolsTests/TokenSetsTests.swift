import DarkModeKit
import DarkModeKitTools
import Foundation
import Testing

/// Tokens Studio's single-file form, in which each top-level group is a token set, and its colour
/// modifiers.
@Suite struct TokenSetsTests {
  /// The colour of `key` in the column `variant` of a table.
  static func color(_ table: DMColorTable, _ key: String, _ variant: String) -> String? {
    table.color(forKey: key, variant: DMThemeVariant(variant)!)?.hexString
  }

  /// A base set and a light and a dark set, whose references name tokens by their path inside the
  /// sets, without the set's name: the sides of the default theme, each over the base set.
  @Test func setsNamedAsSidesAreTheDefaultThemesSides() throws {
    let table = try DMDesignTokens.table(
      from: """
        {
          "global": {"white": {"value": "#ffffff", "type": "color"}, "ink": {"value": "#111111", "type": "color"}},
          "light": {
            "grey": {"100": {"value": "#eeeeee", "type": "color"}},
            "surface": {"value": "{white}", "type": "color"},
            "text": {"value": "{grey.100}", "type": "color"}
          },
          "dark": {
            "grey": {"100": {"value": "#222222", "type": "color"}},
            "surface": {"value": "{ink}", "type": "color"},
            "text": {"value": "{grey.100}", "type": "color"}
          }
        }
        """)
    #expect(table.columnNames == ["NORMAL", "NIGHT"])
    #expect(table.keys == ["white", "ink", "grey.100", "surface", "text"])
    #expect(Self.color(table, "surface", "NORMAL") == "#FFFFFF")
    #expect(Self.color(table, "surface", "NIGHT") == "#111111")
    #expect(Self.color(table, "text", "NORMAL") == "#EEEEEE")
    #expect(Self.color(table, "text", "NIGHT") == "#222222")
  }

  /// With only a dark set, the light side is the other sets alone; references written `$a.b`, as
  /// Tokens Studio wrote them before braces, name tokens too; a set that names no side (`app`,
  /// after the dark set) is in every column.
  @Test func aDarkSetAloneIsTheDarkSideOfTheOtherSets() throws {
    let table = try DMDesignTokens.table(
      from: """
        {
          "core": {"core": {"teal": {"value": "#008184", "type": "color"},
                            "black": {"value": "#000000", "type": "color"}, "white": {"value": "#ffffff", "type": "color"}}},
          "ide-default": {"fg": {"value": "$core.black", "type": "color"}},
          "ide-dark": {"fg": {"value": "$core.white", "type": "color"}},
          "app": {"link": {"value": "$fg", "type": "color"}}
        }
        """)
    #expect(table.columnNames == ["NORMAL", "NIGHT"])
    #expect(Self.color(table, "fg", "NORMAL") == "#000000")
    #expect(Self.color(table, "fg", "NIGHT") == "#FFFFFF")
    #expect(Self.color(table, "link", "NORMAL") == "#000000")
    #expect(Self.color(table, "link", "NIGHT") == "#FFFFFF")
    #expect(Self.color(table, "core.teal", "NIGHT") == "#008184")
  }

  /// More sets that name a side are read by their names, as a resolver's contexts are; Tokens
  /// Studio's `$themes` and `$metadata` mark a file of sets even when every reference resolves
  /// from the top.
  @Test func setsOfOtherNamesAreThemesAndTokensStudiosMarksAreRead() throws {
    let table = try DMDesignTokens.table(
      from: """
        {
          "$themes": [], "$metadata": {"tokenSetOrder": ["base", "light", "dark", "dark-dimmed"]},
          "base": {"accent": {"value": "#0060df", "type": "color"}},
          "light": {"bg": {"value": "#ffffff", "type": "color"}},
          "dark": {"bg": {"value": "#0d1117", "type": "color"}},
          "dark-dimmed": {"bg": {"value": "#22272e", "type": "color"}}
        }
        """)
    #expect(table.columnNames == ["NORMAL", "NIGHT", "DIMMED:dark"])
    #expect(Self.color(table, "bg", "DIMMED:dark") == "#22272E")
    #expect(Self.color(table, "accent", "DIMMED:dark") == "#0060DF")
  }

  /// Groups whose references name tokens from the top of the file are a token file's groups,
  /// not sets.
  @Test func groupsReferredToFromTheTopAreNoSets() throws {
    let table = try DMDesignTokens.table(
      from: """
        {"light": {"white": {"$value": "#ffffff", "$type": "color"}},
         "dark": {"bg": {"$value": "{light.white}", "$type": "color"}}}
        """)
    #expect(table.columnNames == ["NORMAL"])
    #expect(table.keys == ["light.white", "dark.bg"])
  }

  /// `rgba({a.b}, 50%)` is the token's colour with that alpha; an alpha out of range is an error at
  /// the token's place.
  @Test func rgbaOfAReferenceGivesTheColourAnotherAlpha() throws {
    let table = try DMDesignTokens.table(
      from: ##"""
        {"$type": "color", "blue": {"$value": "#0000ff"},
         "half": {"$value": "rgba({blue}, 50%)"}, "quarter": {"$value": "rgba( $blue , 0.25)"}}
        """##)
    #expect(Self.color(table, "half", "NORMAL") == "#0000FF80")
    #expect(Self.color(table, "quarter", "NORMAL") == "#0000FF40")
    do {
      _ = try DMDesignTokens.table(
        from:
          ##"{"$type": "color", "blue": {"$value": "#0000ff"}, "over": {"$value": "rgba({blue}, 150%)"}}"##)
      Issue.record("no error")
    } catch {
      #expect(error.line == 1 && error.column == 70, "\(error)")
      #expect(
        error.explanation
          == "token \"over\": the alpha \"150%\" of \"rgba({blue}, 150%)\" must be a number from 0 to 1 or a percentage"
      )
    }
  }

  /// Only `rgba(`, in any case, starts the form: a control character where the `(` is (U+0008,
  /// which folded to lower case reads as `(`) is a bad colour, with or without a `(` later on.
  @Test(arguments: ["rgba\\b{blue}, 50%)", "RGBA\\b{blue}, (50%)"])
  func rgbaWithAControlCharacterForItsParenthesisIsABadColour(value: String) throws {
    let text =
      "{\"$type\": \"color\", \"blue\": {\"$value\": \"#0000ff\"}, \"odd\": {\"$value\": \"\(value)\"}}"
    do {
      let table = try DMDesignTokens.table(from: text)
      Issue.record("read as \(String(describing: table.color(forKey: "odd", theme: .normal)))")
    } catch {
      #expect(error.explanation.hasPrefix("token \"odd\": bad colour"), "\(error)")
    }
  }

  /// A token file of ordinary groups with one reference that names a token inside one of them,
  /// not from the top, is a token file with a reference to nothing: no group's tokens are lost.
  @Test func oneStrayReferenceDoesNotMakeGroupsIntoSets() throws {
    let text = """
      {"button": {"bg": {"$value": "#111111", "$type": "color"}, "fg": {"$value": "{fg}", "$type": "color"}},
       "card": {"bg": {"$value": "#222222", "$type": "color"}, "fg": {"$value": "#333333", "$type": "color"}}}
      """
    do {
      _ = try DMDesignTokens.table(from: text)
      Issue.record("no error")
    } catch {
      #expect(error.explanation == "token \"button.fg\": refers to \"fg\", which is not a token", "\(error)")
    }
  }

  /// A file read as sets by its references alone says so in a note.
  @Test func aFileTakenForSetsByItsReferencesSaysSo() throws {
    var notes: [String] = []
    let table = try DMDesignTokens.table(
      from: """
        {"base": {"ink": {"value": "#111111", "type": "color"}, "paper": {"value": "#eeeeee", "type": "color"}},
         "theme": {"fg": {"value": "{ink}", "type": "color"}, "bg": {"value": "{paper}", "type": "color"}}}
        """
    ) { if $0.kind == .note { notes.append($0.message) } }
    #expect(Self.color(table, "fg", "NORMAL") == "#111111")
    #expect(
      notes.contains(
        "read as Tokens Studio's token sets (\"base\", \"theme\"): references such as {ink} name tokens inside "
          + "the sets, not from the top of the file"), "\(notes)")
  }

  /// A set's name says a side as a resolver's context name does: `light2` is one word, no side, so
  /// it is in every column, and the `dark` set stays the dark side.
  @Test func aDigitAfterASideIsPartOfTheWord() throws {
    let table = try DMDesignTokens.table(
      from: """
        {"$themes": [],
         "global": {"bg": {"value": "#888888", "type": "color"}, "accent": {"value": "#0000ff", "type": "color"}},
         "light": {"bg": {"value": "#ffffff", "type": "color"}},
         "light2": {"accent": {"value": "#00ff00", "type": "color"}},
         "dark": {"bg": {"value": "#000000", "type": "color"}}}
        """
    ) { _ in }
    #expect(table.columnNames == ["NORMAL", "NIGHT"])
    #expect(Self.color(table, "bg", "NORMAL") == "#FFFFFF")
    #expect(Self.color(table, "bg", "NIGHT") == "#000000")
    #expect(Self.color(table, "accent", "NIGHT") == "#00FF00")
  }

  /// A light set with no dark one is the light side of every column; two sets that give one column
  /// are an error at the second, naming both.
  @Test func aLightSetAloneAndTwoSetsOfOneColumn() throws {
    let table = try DMDesignTokens.table(
      from: """
        {"$themes": [],
         "global": {"a": {"value": "#112233", "type": "color"}, "b": {"value": "#445566", "type": "color"}},
         "light": {"a": {"value": "#ffffff", "type": "color"}}}
        """
    ) { _ in }
    #expect(table.columnNames == ["NORMAL"])
    #expect(Self.color(table, "a", "NORMAL") == "#FFFFFF")
    #expect(Self.color(table, "b", "NORMAL") == "#445566")
    do {
      _ = try DMDesignTokens.table(
        from: """
          {"$themes": [],
           "global": {"a": {"value": "#112233", "type": "color"}},
           "dark": {"a": {"value": "#000000", "type": "color"}},
           "Dark": {"a": {"value": "#010101", "type": "color"}}}
          """
      ) { _ in }
      Issue.record("no error")
    } catch {
      #expect(error.line == 4 && error.column == 2, "\(error)")
      #expect(
        error.explanation
          == "token \"Dark\": the sets \"dark\" and \"Dark\" both give the column NIGHT: rename one")
    }
  }

  /// A `$ref` pointer in a file of sets names a place in that file.
  @Test func aPointerInAFileOfSetsNamesAPlaceInIt() throws {
    let table = try DMDesignTokens.table(
      from: """
        {"$themes": [],
         "global": {"blue": {"$type": "color", "$value": "#0000ff"}, "ink": {"$type": "color", "$value": "#111111"}},
         "light": {"fg": {"$type": "color", "$ref": "#/global/ink/$value"}},
         "dark": {"fg": {"$type": "color", "$ref": "#/global/blue/$value"}}}
        """
    ) { _ in }
    #expect(Self.color(table, "fg", "NORMAL") == "#111111")
    #expect(Self.color(table, "fg", "NIGHT") == "#0000FF")
  }

  /// Tokens Studio's `$themes` gives the columns: each theme a column read from its name (`Dark` →
  /// NIGHT, `B` a theme of its own), of the sets it enables or uses as a source, in the order of
  /// `$metadata.tokenSetOrder`; a disabled set is not read.
  @Test func tokensStudiosThemesGiveTheColumns() throws {
    let table = try DMDesignTokens.table(
      from: """
        {"core": {"white": {"value": "#ffffff", "type": "color"}, "ink": {"value": "#111111", "type": "color"}},
         "dark": {"bg": {"value": "{ink}", "type": "color"}},
         "light": {"bg": {"value": "{white}", "type": "color"}},
         "unused": {"bg": {"value": "#ff00ff", "type": "color"}},
         "$themes": [
           {"id": "1", "name": "Dark", "group": "Mode", "selectedTokenSets": {"core": "source", "dark": "enabled", "unused": "disabled"}},
           {"id": "2", "name": "Light", "group": "Mode", "selectedTokenSets": {"light": "enabled", "core": "source"}}],
         "$metadata": {"tokenSetOrder": ["core", "light", "dark", "unused"]}}
        """
    ) { _ in }
    #expect(table.columnNames == ["NORMAL", "NIGHT"])
    #expect(Self.color(table, "bg", "NORMAL") == "#FFFFFF")
    #expect(Self.color(table, "bg", "NIGHT") == "#111111")
    let brands = try DMDesignTokens.table(
      from: """
        {"core": {"blue": {"$type": "color", "$value": "#0000ff"}},
         "brand-a": {"primary": {"$type": "color", "$value": "#ff0000"}},
         "brand-b": {"primary": {"$type": "color", "$value": "{blue}"}},
         "$themes": [
           {"id": "1", "name": "A", "selectedTokenSets": {"core": "source", "brand-a": "enabled"}},
           {"id": "2", "name": "B", "selectedTokenSets": {"core": "source", "brand-b": "enabled"}}]}
        """
    ) { _ in }
    #expect(brands.columnNames == ["NORMAL", "B"])
    #expect(Self.color(brands, "primary", "NORMAL") == "#FF0000")
    #expect(Self.color(brands, "primary", "B") == "#0000FF")
    // A theme whose name says no side beside `Light` and `Dark` is a theme of its own, and they
    // keep their sides; one theme alone is the one column; two of one name are an error.
    let sets =
      ##""core": {"blue": {"value": "#0000ff", "type": "color"}}, "light": {"bg": {"value": "#ffffff", "type": "color"}}, "##
      + ##""dark": {"bg": {"value": "#000000", "type": "color"}}, "sepia": {"bg": {"value": "#f4ecd8", "type": "color"}}"##
    func theme(_ name: String, _ set: String) -> String {
      ##"{"id": "\##(name)", "name": "\##(name)", "selectedTokenSets": {"core": "source", "\##(set)": "enabled"}}"##
    }
    let three = try DMDesignTokens.table(
      from:
        "{\(sets), \"$themes\": [\(theme("Light", "light")), \(theme("Dark", "dark")), \(theme("Sepia", "sepia"))]}"
    ) { _ in }
    #expect(three.columnNames == ["NORMAL", "NIGHT", "Sepia"])
    #expect(Self.color(three, "bg", "NIGHT") == "#000000")
    #expect(Self.color(three, "bg", "Sepia") == "#F4ECD8")
    let one = try DMDesignTokens.table(from: "{\(sets), \"$themes\": [\(theme("Sepia", "sepia"))]}") { _ in }
    #expect(one.columnNames == ["NORMAL"])
    #expect(Self.color(one, "bg", "NORMAL") == "#F4ECD8")
    do {
      _ = try DMDesignTokens.table(
        from: "{\(sets), \"$themes\": [\(theme("Sepia", "sepia")), \(theme("Sepia", "light"))]}"
      ) { _ in }
      Issue.record("no error")
    } catch {
      #expect(error.explanation == "token \"$themes.Sepia\": two themes are named \"Sepia\": rename one")
    }
  }

  /// Themes in two groups, which one column cannot combine, leave the sets' names to give the
  /// columns, with a warning; a theme that reads a set the file does not have is an error at it.
  @Test func themesThatCannotBeReadAreNamed() throws {
    var warnings: [String] = []
    let table = try DMDesignTokens.table(
      from: """
        {"$themes": [{"id": "a", "name": "Light", "group": "Mode", "selectedTokenSets": {"light": "enabled"}},
                     {"id": "b", "name": "Brand", "group": "Brand", "selectedTokenSets": {"global": "enabled"}}],
         "global": {"blue": {"value": "#0000ff", "type": "color"}},
         "light": {"bg": {"value": "#ffffff", "type": "color"}}}
        """
    ) { if $0.kind == .warning { warnings.append($0.description) } }
    #expect(table.columnNames == ["NORMAL"])
    #expect(
      warnings.contains(
        "line 1, column 13: token \"$themes\": Tokens Studio's $themes is not read (its themes are in 2 groups, "
          + "and one column cannot combine them): the sets give the columns their names say (light, dark), and "
          + "the others are merged, in file order, into every column"),
      "\(warnings)")
    do {
      _ = try DMDesignTokens.table(
        from: """
          {"$themes": [{"id": "a", "name": "Light", "selectedTokenSets": {"light": "enabled", "colours": "source"}}],
           "light": {"bg": {"value": "#ffffff", "type": "color"}}, "other": {}}
          """
      ) { _ in }
      Issue.record("no error")
    } catch {
      #expect(error.line == 1 && error.column == 85, "\(error)")
      #expect(
        error.explanation
          == "token \"$themes.Light\": the theme \"Light\" reads the set \"colours\", which the file does not have"
      )
    }
  }

  /// Tokens Studio's `alpha` modifier gives the colour its alpha; a modifier that is not applied
  /// (`darken`) leaves the token out, and those that refer to it, with a warning naming it.
  @Test func tokensStudiosAlphaModifierIsAppliedAndTheOthersLeaveTheTokenOut() throws {
    var warnings: [String] = []
    let table = try DMDesignTokens.table(
      from: """
        {"red": {"value": "#ff0000", "type": "color"},
         "veil": {"value": "{red}", "type": "color",
                  "$extensions": {"studio.tokens": {"modify": {"type": "alpha", "value": "0.5", "space": "srgb"}}}},
         "danger": {"value": "{red}", "type": "color",
                    "$extensions": {"studio.tokens": {"modify": {"type": "darken", "value": "0.75", "space": "hsl"}}}},
         "error": {"value": "{danger}", "type": "color"}}
        """
    ) { warnings.append($0.description) }
    #expect(table.keys == ["red", "veil"])
    #expect(Self.color(table, "veil", "NORMAL") == "#FF000080")
    #expect(
      warnings.prefix(2) == [
        "line 4, column 12: token \"danger\": Tokens Studio's colour modifier \"darken\" is not applied (only "
          + "\"alpha\" is): the token is left out",
        "line 6, column 11: token \"error\": Tokens Studio's colour modifier \"darken\" is not applied (only "
          + "\"alpha\" is): the token is left out",
      ], "\(warnings)")
  }

  /// Without a type, a colour function (`rgb(…)`, `oklch(…)`) or `rgba({a}, 50%)` is a colour, as
  /// a `#` colour is; a circle through `rgba(…)` is named a circle; `rgba(…)` of a gradient is
  /// left out as the gradient is.
  @Test func untypedColourFunctionsAndRGBAReferencesAreColours() throws {
    var warnings: [String] = []
    let table = try DMDesignTokens.table(
      from: """
        {"base": {"blue": {"$value": "#0000ff", "$type": "color"}},
         "a": {"$value": "rgb(255, 0, 0)"}, "c": {"$value": "rgba({base.blue}, 50%)"},
         "e": {"$value": "oklch(0.7 0.1 250)"}, "font": {"$value": "Helvetica"},
         "g": {"$type": "color", "$value": "linear-gradient(90deg, #000 0%, #fff 100%)"},
         "h": {"$type": "color", "$value": "rgba({g}, 50%)"}}
        """
    ) { warnings.append($0.description) }
    #expect(table.keys == ["base.blue", "a", "c", "e"])
    #expect(Self.color(table, "a", "NORMAL") == "#FF0000")
    #expect(Self.color(table, "c", "NORMAL") == "#0000FF80")
    #expect(
      warnings.contains("line 5, column 7: token \"h\": a gradient, not a colour: the token is left out"))
    do {
      _ = try DMDesignTokens.table(
        from: """
          {"$type": "color", "a": {"$value": "rgba({b}, 50%)"}, "b": {"$value": "rgba({a}, 50%)"}}
          """)
      Issue.record("no error")
    } catch {
      #expect(error.message.hasSuffix("go round in a circle"), "\(error)")
    }
  }

  /// Found by attack: a lone light set first in the file still wins over the others; Tokens
  /// Studio's alpha of a reference leaves the token out (a percentage is read); an untyped
  /// `rgba({typo}, 50%)` is reported, not lost; a circle through a token with a modifier is called
  /// a circle.
  @Test func setsModifiersAndReferencesFoundByAttack() throws {
    let table = try DMDesignTokens.table(
      from: """
        {"$themes": [],
         "light": {"bg": {"value": "#ffffff", "type": "color"}, "fg": {"value": "{ink}", "type": "color"}},
         "global": {"ink": {"value": "#111111", "type": "color"}, "bg": {"value": "#000000", "type": "color"}}}
        """
    ) { _ in }
    #expect(Self.color(table, "bg", "NORMAL") == "#FFFFFF")
    #expect(Self.color(table, "fg", "NORMAL") == "#111111")
    var warnings: [String] = []
    let modified = try DMDesignTokens.table(
      from: """
        {"$type": "color", "blue": {"$value": "#0000ff"},
         "veil": {"$value": "{blue}", "$extensions": {"studio.tokens": {"modify": {"type": "alpha", "value": "{opacity}"}}}},
         "half": {"$value": "{blue}", "$extensions": {"studio.tokens": {"modify": {"type": "alpha", "value": "50%"}}}}}
        """
    ) { warnings.append($0.description) }
    #expect(modified.keys == ["blue", "half"])
    #expect(Self.color(modified, "half", "NORMAL") == "#0000FF80")
    #expect(
      warnings.first
        == "line 2, column 10: token \"veil\": Tokens Studio's alpha modifier of the string \"{opacity}\" is not "
        + "applied (only a number from 0 to 1 or a percentage is): the token is left out")
    for (text, message) in [
      (
        ##"{"b": {"$value": "{typo}"}, "c": {"$value": "rgba({typo}, 50%)"}}"##,
        "refers to \"typo\", which is not a token"
      ),
      (
        ##"{"$type": "color", "a": {"$value": "{b}"}, "b": {"$value": "{a}", "$extensions": {"studio.tokens": {"modify": {"type": "lighten", "value": "0.5"}}}}}"##,
        "go round in a circle"
      ),
    ] {
      let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "attack-\(UUID().uuidString).tokens.json")
      try text.write(to: url, atomically: true, encoding: .utf8)
      defer { try? FileManager.default.removeItem(at: url) }
      let problems = DMDesignTokens.lint(contentsOf: url)
      #expect(!problems.isEmpty && problems.allSatisfy { $0.message.contains(message) }, "\(problems)")
      if text.contains("rgba") { #expect(problems.map(\.tokenPath) == ["b", "c"]) }
    }
  }
}
