import DarkModeKit
import DarkModeKitTools
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
}
