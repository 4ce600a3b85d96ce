import DarkModeKit
import DarkModeKitTools
import Foundation
import Testing

/// Resolver documents whose one modifier mixes the style with other variants, as the
/// specification's own example and GitHub Primer have it.
@Suite struct TokenContextTests {
  /// A resolver document with one modifier `theme` of `contexts`, each with a token `bg` of its
  /// colour, and `extensions` on the modifier.
  static func document(_ contexts: [(String, String)], extensions: String = "") -> String {
    let list = contexts.map { name, hex in
      "\"\(name)\": [{\"bg\": {\"$type\": \"color\", \"$value\": \"\(hex)\"}}]"
    }.joined(separator: ", ")
    return """
      {"version": "2025.10",
       "modifiers": {"theme": {"contexts": {\(list)}, "default": "\(contexts[0].0)"\(extensions)}},
       "resolutionOrder": [{"$ref": "#/modifiers/theme"}]}
      """
  }

  @Test func theSpecificationsThemeModifierGivesBothSidesInBothContrasts() throws {
    let text = Self.document([
      ("light", "#ffffff"), ("lightHighContrast", "#fafafa"), ("dark", "#101010"),
      ("darkHighContrast", "#000000"),
    ])
    var notes: [String] = []
    let table = try DMDesignTokens.table(from: text) { if $0.kind == .note { notes.append($0.message) } }
    #expect(table.columnNames == ["NORMAL", "NORMAL:high", "NIGHT", "NIGHT:high"])
    #expect(table.color(forKey: "bg", variant: DMThemeVariant("NIGHT:high")) == DMColor(rgb: 0x000000))
    #expect(table.color(forKey: "bg", variant: DMThemeVariant("NORMAL:high")) == DMColor(rgb: 0xFAFAFA))
    #expect(notes.contains("the context \"lightHighContrast\" is read as the column NORMAL:high"), "\(notes)")
  }

  @Test func primersModesGiveTheDefaultThemeAndThemesOfTheirOtherWords() throws {
    let text = Self.document([
      ("light", "#ffffff"), ("light-colorblind", "#fffffe"), ("light-high-contrast", "#fffffd"),
      ("dark", "#0d1117"),
      ("dark-dimmed", "#22272e"), ("dark-high-contrast", "#010409"), ("dark-colorblind", "#0d1118"),
    ])
    let table = try DMDesignTokens.table(from: text)
    #expect(
      table.columnNames == [
        "NORMAL", "NORMAL:high", "NIGHT", "NIGHT:high", "COLORBLIND:light", "DIMMED:dark", "COLORBLIND:dark",
      ])
    // dark-dimmed is the dark side of DIMMED, a theme with that side only.
    #expect(table.color(forKey: "bg", variant: DMThemeVariant("DIMMED:dark")) == DMColor(rgb: 0x22272E))
    #expect(table.color(forKey: "bg", variant: DMThemeVariant("COLORBLIND:light")) == DMColor(rgb: 0xFFFFFE))
    // The CSS export shows the dark contexts dark.
    let css = table.exported(as: .css)
    #expect(css.contains("color-scheme: light dark"))
    #expect(!css.contains("color-scheme: light;\n  --bg: #22272E"))
  }

  @Test func contextsWhoseNamesSayNoSideTakeTheirColumnFromExtensions() throws {
    let extensions =
      #", "$extensions": {"org.darkmodekit": {"contexts": {"day": "NORMAL", "midnight": "NIGHT"}}}"#
    let table = try DMDesignTokens.table(
      from: Self.document([("day", "#ffffff"), ("midnight", "#000000")], extensions: extensions))
    #expect(table.columnNames == ["NORMAL", "NIGHT"])
    #expect(table.color(forKey: "bg", theme: .night) == DMColor(rgb: 0x000000))
    // A context neither its name nor the extensions place is an error that says what to add.
    #expect {
      _ = try DMDesignTokens.table(
        from: Self.document(
          [("day", "#ffffff"), ("midnight", "#000000"), ("sepia", "#f4ecd8")], extensions: extensions))
    } throws: { error in
      (error as? DMDesignTokensError)?.message.hasPrefix("the context \"sepia\" says no side (light or dark)")
        == true
    }
  }

  @Test func twoContextsOfOneColumnAreAnError() {
    #expect {
      _ = try DMDesignTokens.table(
        from: Self.document([("light", "#ffffff"), ("Light", "#fefefe"), ("dark", "#000000")]))
    } throws: { error in
      (error as? DMDesignTokensError)?.message.hasPrefix(
        "the contexts \"light\" and \"Light\" both give the column \"NORMAL\"") == true
    }
  }

  @Test(arguments: [
    ("light", "NORMAL"), ("dark", "NIGHT"), ("lightHighContrast", "NORMAL:high"), ("dark_hc", "NIGHT:high"),
    ("dark-dimmed", "DIMMED:dark"), ("Solarized Light", "SOLARIZED:light"),
    ("brand-b-dark-high-contrast", "BRAND_B:dark:high"),
    ("sepia", nil), ("light-dark", nil),
  ])
  func aContextsNameSaysItsColumn(_ name: String, _ column: String?) throws {
    // Beside `light` or `dark`, whichever side the name does not take.
    let other = column?.contains("dark") == true || column?.hasPrefix("NIGHT") == true ? "light" : "dark"
    let table = try DMDesignTokens.table(from: Self.document([(other, "#808080"), (name, "#123456")]))
    if let column {
      #expect(
        table.color(forKey: "bg", variant: DMThemeVariant(column)!) == DMColor(rgb: 0x123456),
        "\(table.columnNames)")
    } else {
      // A name without one side makes the contexts themes, as before.
      #expect(!table.columnNames.contains("NIGHT"), "\(table.columnNames)")
    }
  }
}
