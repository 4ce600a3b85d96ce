import DarkModeKit
import DarkModeKitTestSupport
import DarkModeKitTools
import Foundation
import Testing

/// Colours in every colour space of the Design Tokens Color module, compared with ColorAide, an
/// implementation of CSS Color 4 of its own.
@Suite struct ColorSpaceTests {
  /// Why the comparison cannot run here: ColorAide is installed by `.ci/install-dependencies`.
  static let referenceMissing: String? = {
    let status = try? ChildProcess(
      "/usr/bin/env", ["python3", TestFixtures.referenceColors],
      environment: [
        "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin",
        "PYTHONPATH": TestFixtures.referencePython,
      ]
    ).wait(seconds: 30)
    guard status == 0 else {
      let reason = "Skipping the comparison with ColorAide: run .ci/install-dependencies to install it"
      print(reason)
      return reason
    }
    return nil
  }()

  /// The sRGB colours ColorAide gives for `colors`, and whether each had to be mapped.
  static func reference(_ colors: [(space: String, components: [Double])]) throws -> [(
    hex: String, mapped: Bool
  )] {
    try reference(
      lines: colors.map { "\($0.space) " + $0.components.map { "\($0)" }.joined(separator: " ") + "\n" }
        .joined())
  }

  /// What ColorAide gives for the lines of its script's input (see its header).
  static func reference(lines: String) throws -> [(hex: String, mapped: Bool)] {
    let input = FileManager.default.temporaryDirectory.appendingPathComponent("dmkit-colors-\(UUID()).txt")
    defer { try? FileManager.default.removeItem(at: input) }
    try lines.write(to: input, atomically: true, encoding: .utf8)
    let process = try ChildProcess(
      "/bin/sh", ["-c", "exec python3 \"$0\" < \"$1\"", TestFixtures.referenceColors, input.path],
      environment: [
        "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin",
        "PYTHONPATH": TestFixtures.referencePython,
      ], capturesOutput: true)
    let output = try #require(process.readToEnd(seconds: 60))
    return output.split(separator: "\n").map { line in
      let parts = line.split(separator: " ")
      return (String(parts[0]), parts[1] == "mapped")
    }
  }

  /// How far apart two `#RRGGBB` colours are, in the channel where they are furthest: a channel
  /// that lands on a half may round either way after the other implementation's last bits.
  static func channelsApart(_ one: String, _ other: String) -> Int {
    let channels = { (hex: String) in
      stride(from: 1, to: 7, by: 2).map { Int(hex.dropFirst($0).prefix(2), radix: 16) ?? -999 }
    }
    return zip(channels(one), channels(other)).map { abs($0 - $1) }.max() ?? 999
  }

  /// A token file with one colour token per colour, `c0`, `c1`, …
  static func tokens(_ colors: [(space: String, components: [Double])]) -> String {
    "{\"$type\": \"color\", "
      + colors.enumerated().map { index, color in
        "\"c\(index)\": {\"$value\": {\"colorSpace\": \"\(color.space)\", \"components\": [\(color.components.map { "\($0)" }.joined(separator: ", "))]}}"
      }.joined(separator: ", ") + "}"
  }

  /// Random colours of `space`, inside and outside sRGB, within the ranges the module gives.
  static func colors(of space: String, count: Int, using generator: inout some RandomNumberGenerator)
    -> [(space: String, components: [Double])]
  {
    (0..<count).map { _ in
      func random(_ range: ClosedRange<Double>) -> Double {
        (Double.random(in: range, using: &generator) * 10_000).rounded() / 10_000
      }
      let components: [Double] =
        switch space {
        case "hsl", "hwb": [random(0...360), random(0...100), random(0...100)]
        case "lab": [random(0...100), random(-125...125), random(-125...125)]
        case "lch": [random(0...100), random(0...150), random(0...360)]
        case "oklab": [random(0...1), random(-0.4...0.4), random(-0.4...0.4)]
        case "oklch": [random(0...1), random(0...0.4), random(0...360)]
        default: [random(0...1), random(0...1), random(0...1)]
        }
      return (space, components)
    }
  }

  @Test(
    .enabled(if: referenceMissing == nil),
    arguments: [
      "srgb", "srgb-linear", "hsl", "hwb", "lab", "lch", "oklab", "oklch", "display-p3", "a98-rgb",
      "prophoto-rgb",
      "rec2020", "xyz-d65", "xyz-d50",
    ])
  func everyColourSpaceGivesTheSRGBColourCSSColor4Gives(_ space: String) throws {
    var generator = SeededGenerator(seed: UInt64(space.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }))
    let colors = Self.colors(of: space, count: 400, using: &generator)
    var warned: Set<String> = []
    let table = try DMDesignTokens.table(from: Self.tokens(colors)) { warning in
      warned.insert(warning.tokenPath ?? "")
    }
    let expected = try Self.reference(colors)
    try #require(expected.count == colors.count)
    var mapped = 0
    for (index, reference) in expected.enumerated() {
      let color = try #require(table.color(forKey: "c\(index)", theme: .normal))
      let hex = color.hexString
      #expect(
        Self.channelsApart(hex, reference.hex) <= 1, "\(colors[index]): \(hex), ColorAide \(reference.hex)")
      // A colour brought into sRGB is said to be, and only such a colour.
      #expect(warned.contains("c\(index)") == reference.mapped, "\(colors[index])")
      if reference.mapped { mapped += 1 }
    }
    // The spaces wider than sRGB had colours outside it to map.
    if !["srgb", "srgb-linear", "hsl", "hwb"].contains(space) { #expect(mapped > 0) }
  }

  @Test(.enabled(if: referenceMissing == nil))
  func coloursWrittenAsCSSDoesAreReadAsCSSReadsThem() throws {
    let texts = [
      "rgb(0, 0, 0)", "rgb(255, 128, 0)", "rgba(255, 0, 0, 0.5)", "rgb(255 0 0 / 50%)", "rgb(10%, 20%, 30%)",
      "RGB(12 34 56)", "hsl(210deg 50% 40%)", "hsla(120, 100%, 25%, 1)", "hsl(300 20 90)", "hwb(30 10% 20%)",
      "lab(54.29 80.82 69.89)", "lab(50% 20% -30%)", "lch(60 40 140)", "oklab(0.6 -0.1 0.05)",
      "oklch(0.7 0.1 250)",
      "oklch(70% 50% 250deg)", "oklch(0.5 none 0)", "color(display-p3 1 0 0)",
      "color(srgb 0.2 0.4 0.6 / 0.25)",
      "color(rec2020 0.3 0.6 0.2)", "color(xyz-d50 0.3 0.4 0.5)", "color(prophoto-rgb 0.4 0.5 0.6)",
    ]
    var lines = ""
    var tokens: [String] = []
    for (index, text) in texts.enumerated() {
      lines += "css \(text)\n"
      tokens.append("\"c\(index)\": {\"$value\": \"\(text)\"}")
    }
    let table = try DMDesignTokens.table(
      from: "{\"$type\": \"color\", " + tokens.joined(separator: ", ") + "}")
    let expected = try Self.reference(lines: lines)
    for (index, reference) in expected.enumerated() {
      let hex = try #require(table.color(forKey: "c\(index)", theme: .normal)).hexString
      #expect(
        Self.channelsApart(hex, reference.hex) <= 1, "\(texts[index]): \(hex), ColorAide \(reference.hex)")
    }
    // The alpha is kept.
    #expect(table.color(forKey: "c2", theme: .normal)?.hexString == "#FF000080")
    #expect(table.color(forKey: "c18", theme: .normal)?.hexString == "#33669940")
  }

  @Test(arguments: [
    ("rgb(0, 0)", "rgb() needs three components, found 2"),
    ("color-mix(in srgb, red, blue)", "color-mix() is not a CSS colour function this reads"),
    ("rgb(a, 0, 0)", "\"a\" is not a component of rgb()"),
    ("color(hsl 1 2 3)", "color() needs a colour space such as srgb or display-p3 first"),
    ("blue", "expected #rrggbb, #rrggbbaa, #rgb or a CSS colour function such as rgb(…) or oklch(…)"),
  ])
  func aColourTextThatIsNotOneSaysWhy(_ text: String, _ reason: String) {
    #expect {
      _ = try DMDesignTokens.table(from: "{\"a\": {\"$type\": \"color\", \"$value\": \"\(text)\"}}")
    } throws: { error in
      (error as? DMDesignTokensError)?.message == "bad colour \"\(text)\": \(reason)"
    }
  }

  @Test func componentsOfAnySizeEndInAColourOrAnErrorAtOnce() throws {
    // A chroma of any size maps as a large one does; components that overflow are an error.
    let table = try DMDesignTokens.table(
      from: ##"{"$type": "color", "b": {"$value": {"colorSpace": "oklch", "components": [0.5, 1e300, 20]}}}"##
    )
    #expect(table.color(forKey: "b", theme: .normal)?.hexString == "#C10028")
    #expect {
      _ = try DMDesignTokens.table(
        from:
          ##"{"a": {"$type": "color", "$value": {"colorSpace": "lab", "components": [50, 1e200, 1e200]}}}"##)
    } throws: { error in
      (error as? DMDesignTokensError)?.message == "the colour's components are too large to convert to sRGB"
    }
  }

  @Test func aColourOutsideSRGBIsMappedAndSaysWhereAndToWhat() throws {
    let text = """
      {"$type": "color",
        "inside": {"$value": {"colorSpace": "oklch", "components": [0.5, 0.05, 200]}},
        "outside": {"$value": {"colorSpace": "oklch", "components": [0.6294, 0.355, 14.82]}},
        "withFallback": {"$value": {"colorSpace": "display-p3", "components": [1, 0, 0], "hex": "#ff1100"}}}
      """
    var warnings: [DMDesignTokensWarning] = []
    let table = try DMDesignTokens.table(from: text) { warnings.append($0) }
    #expect(table.color(forKey: "outside", theme: .normal)?.hexString == "#FF0051")
    // An out-of-gamut colour with a fallback of the author's own shows the fallback.
    #expect(table.color(forKey: "withFallback", theme: .normal)?.hexString == "#FF1100")
    #expect(warnings.count == 2)
    #expect(
      warnings.first?.description.hasPrefix(
        "line 3, column 25: token \"outside\": the colour oklch(0.6294 0.355 14.82) is outside sRGB; it is shown as #FF0051"
      ) == true,
      "\(warnings)")
    #expect(warnings.last?.line == 4)
    #expect(warnings.last?.message.contains("its hex fallback #FF1100 is used") == true, "\(warnings)")
  }

  /// A colour written out in one token and named by many: each gets its colour, and the warning
  /// that it was brought into sRGB is said once, at the colour, however often it is read.
  @Test func aMappedColourNamedByManyTokensIsSaidOnceAndGivesEachItsColour() throws {
    let referrers = (0..<50).map { ##""r\##($0)": {"$value": "{outside}"}"## }
    let text = """
      {"$type": "color",
        "outside": {"$value": {"colorSpace": "oklch", "components": [0.6294, 0.355, 14.82]}},
        "chain": {"$value": "{r7}"},
        \(referrers.joined(separator: ",\n  "))}
      """
    var warnings: [DMDesignTokensWarning] = []
    let table = try DMDesignTokens.table(from: text) { warnings.append($0) }
    #expect(table.keys.count == 52)
    #expect(table.keys.allSatisfy { table.color(forKey: $0, theme: .normal)?.hexString == "#FF0051" })
    #expect(warnings.map(\.line) == [2], "\(warnings)")
  }

  /// Every export of a table read from tokens says which colours came from a space wider than
  /// sRGB, on their rows only: the JSON export keeps the colour as written, with the colour the
  /// table shows as its fallback, so that reading the export gives the same table and says so again.
  @Test func exportsSayWhichColoursCameFromAWiderSpace() throws {
    let text = """
      {"version": "2025.10",
       "sets": {"base": {"sources": [{"brand": {"$type": "color", "$value": {"colorSpace": "display-p3", "components": [0, 1, 0]}},
                                      "plain": {"$type": "color", "$value": "#102030"}}]}},
       "modifiers": {"theme": {"contexts": {
         "light": [{"accent": {"$type": "color", "$value": "{brand}"}}],
         "dark": [{"accent": {"$type": "color", "$value": "oklch(0.7 0.3 145)"}}]}, "default": "light"}},
       "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/theme"}]}
      """
    let table = try DMDesignTokens.table(from: text) { _ in }
    let textExport = table.exported(as: .text)
    #expect(
      textExport.split(separator: "\n").filter { $0.contains("outside sRGB") } == [
        "#00FB29  #00FB29  brand // NORMAL: color(display-p3 0 1 0); NIGHT: color(display-p3 0 1 0), outside sRGB",
        "#00FB29  #00C300  accent // NORMAL: color(display-p3 0 1 0); NIGHT: oklch(0.7 0.3 145), outside sRGB",
      ], "\(textExport)")
    #expect(
      try DMColorTable(string: textExport).color(forKey: "accent", theme: .night)?.hexString == "#00C300")
    let css = table.exported(as: .css)
    #expect(
      css.contains(
        "--accent: light-dark(#00FB29, #00C300); /* from light: color(display-p3 0 1 0); dark: oklch(0.7 0.3 145), "
          + "outside sRGB */"))
    #expect(css.contains("--plain: #102030;\n"))
    let gtk = table.exported(as: .gtk)
    #expect(
      gtk.contains(
        "@define-color dm_night_accent rgba(0,195,0,1.0); /* from oklch(0.7 0.3 145), outside sRGB */"))
    let swift = table.exported(as: .swift)
    #expect(swift.contains("NIGHT #00C300 (from oklch(0.7 0.3 145), outside sRGB)"))
    let json = table.exported(as: .json)
    #expect(
      json.contains(
        ##""colorSpace": "oklch", "components": [0.7, 0.3, 145], "alpha": 1, "hex": "#00C300""##), "\(json)")
    let again = try DMDesignTokens.table(from: json) { _ in }
    #expect(again.keys == table.keys)
    for key in table.keys {
      for variant in table.variants {
        #expect(again.color(forKey: key, variant: variant) == table.color(forKey: key, variant: variant))
      }
    }
    #expect(again.exported(as: .text) == textExport)
    // A column whose token at the same path is an sRGB colour has no note, whichever is read
    // first; the note keeps the colour's alpha.
    for columns in [("NORMAL", "NIGHT"), ("NIGHT", "NORMAL")] {
      let mixed = try DMDesignTokens.table(
        from: """
          {"\(columns.0)": {"fg": {"$type": "color", "$value": "oklch(0.6 0.35 30 / 0.7)"}},
           "\(columns.1)": {"fg": {"$type": "color", "$value": "#222222"}}}
          """
      ) { _ in }
      let row = mixed.exported(as: .text).split(separator: "\n").last.map(String.init) ?? ""
      #expect(row.hasSuffix("fg // \(columns.0): oklch(0.6 0.35 30 / 0.7), outside sRGB"), "\(row)")
    }
  }

  @Test(arguments: [
    ("oklch", "[1.5, 0.1, 20]", "component 1 of a colour in oklch must be from 0 to 1, found 1.5"),
    ("hsl", "[20, 120, 50]", "component 2 of a colour in hsl must be from 0 to 100, found 120"),
    ("lch", "[50, -3, 20]", "component 2 of a colour in lch must be at least 0, found -3"),
    ("display-p3", "[0.5, 1.2, 0]", "component 2 of a colour in display-p3 must be from 0 to 1, found 1.2"),
  ])
  func aComponentOutOfItsRangeIsAnErrorAtItsPlace(_ space: String, _ components: String, _ message: String) {
    let text =
      "{\"a\": {\"$type\": \"color\", \"$value\": {\"colorSpace\": \"\(space)\", \"components\": \(components)}}}"
    #expect {
      _ = try DMDesignTokens.table(from: text)
    } throws: { error in
      (error as? DMDesignTokensError)?.message == message
    }
  }
}
