import DarkModeKitTestSupport
import Foundation
import Testing

@testable import DarkModeKit

/// Themes with sides: which variant a table, a theme map, an image by name and a light/dark pair
/// show for every combination of style, contrast and theme, and that they never disagree on the
/// style.
///
/// Theme sides are process-wide, so the themes here have names no other test declares.
extension GlobalStateTests {
  @Suite @MainActor struct ThemeSidesTests {
    init() { DarkModeManager.reset() }

    /// A view with one property per kind of dynamic value.
    final class VariantView: DMView {
      var tableColor = DMColor.clear
      var mapName = ""
      var imageName: String? = ""
      var pairName = ""
      var calls = 0

      override func dmTraitCollectionDidChange(_ previousTraitCollection: DMTraitCollection?) {
        calls += 1
      }
    }

    static let header = [
      "NORMAL", "NIGHT", "NORMAL:high", "NIGHT:high", "SIDES_SEPIA", "SIDES_BLACK:dark", "SIDES_SOLAR:light",
      "SIDES_SOLAR:dark", "SIDES_SOLAR:dark:high",
    ]

    /// Each column's colour is its number plus one, so a colour names its column.
    static let table = try! DMColorTable(
      string: header.joined(separator: " ") + "\n"
        + header.indices.map { String(format: "#%06x", $0 + 1) }.joined(separator: " ") + " BG\n")

    static func column(of color: DMColor?) -> String {
      guard let color else { return "none" }
      let index = Int(color.hexString.dropFirst(), radix: 16)! - 1
      return header.indices.contains(index) ? table.variants[index].description : "?"
    }

    let map = DMDynamic(
      variants: Dictionary(uniqueKeysWithValues: Self.table.variants.map { ($0, $0.description) }),
      fallback: "fallback")
    let image = DMDynamicImage(
      variants: Dictionary(uniqueKeysWithValues: Self.table.variants.map { ($0, $0.description) })
    ) { $0 }
    let pair = DMDynamic(
      light: "light", dark: "dark", highContrastLight: "light high", highContrastDark: "dark high")

    enum Style: CustomStringConvertible, CaseIterable {
      case light, dark, systemLight, systemDark
      var chosen: DMUserInterfaceStyle {
        switch self {
        case .light: .light
        case .dark: .dark
        case .systemLight, .systemDark: .unspecified
        }
      }
      var system: DMUserInterfaceStyle { self == .systemDark || self == .dark ? .dark : .light }
      var description: String {
        switch self {
        case .light: "light"
        case .dark: "dark"
        case .systemLight: "unspecified over a light system"
        case .systemDark: "unspecified over a dark system"
        }
      }
    }

    /// The documented answer: a theme with one side makes its style unless the collection
    /// chooses a style; the theme's variant of that side (high contrast where it has one), else
    /// the default theme's.
    static func expected(_ style: Style, _ contrast: DMAccessibilityContrast, _ theme: String?) -> (
      side: DMUserInterfaceStyle, variant: String
    ) {
      let oneSided: [String: DMUserInterfaceStyle] = ["SIDES_SEPIA": .light, "SIDES_BLACK": .dark]
      let side = style.chosen != .unspecified ? style.chosen : theme.flatMap { oneSided[$0] } ?? style.system
      let high = contrast == .high
      let themeVariants: [String: [String]] = [
        "SIDES_SEPIA": ["SIDES_SEPIA"], "SIDES_BLACK": ["SIDES_BLACK:dark"],
        "SIDES_SOLAR": ["SIDES_SOLAR", "SIDES_SOLAR:dark", "SIDES_SOLAR:dark:high"],
      ]
      let suffix = side == .dark ? ":dark" : ":light"
      if let theme, let variants = themeVariants[theme] {
        let normal = variants.first { $0 == theme + suffix || ($0 == theme && side == .light) }
        let highVariant = variants.first { $0 == theme + suffix + ":high" }
        if let chosen = high ? highVariant ?? normal : normal { return (side, chosen) }
      }
      let base = side == .dark ? "NIGHT" : "NORMAL"
      return (side, high ? base + ":high" : base)
    }

    @Test func everyValueShowsTheDocumentedVariantAndAllAgreeOnTheStyle() {
      let source = DMManualAppearanceSource()
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: source))
      let window = DMWindow()
      let view = VariantView()
      window.addSubview(view)
      window.makeKeyAndVisible()
      view.dm.bind(\.tableColor, to: DMDynamicColor(key: "BG", in: Self.table))
      view.dm.bind(\.mapName, to: map)
      view.dm.bind(\.imageName, to: image.dynamic)
      view.dm.bind(\.pairName, to: pair)
      var cases = 0
      for place in ["global override", "window override"] {
        for style in Style.allCases {
          for contrast in [DMAccessibilityContrast.normal, .high] {
            for theme in [nil, "SIDES_SEPIA", "SIDES_BLACK", "SIDES_SOLAR", "SIDES_UNKNOWN"] {
              cases += 1
              source.traitCollection = DMTraitCollection(userInterfaceStyle: style.system)
              let chosen = DMTraitCollection(
                userInterfaceStyle: style.chosen, accessibilityContrast: contrast,
                theme: theme.map { DMTheme(rawValue: $0) })
              if place == "global override" {
                window.overrideTraitCollection = nil
                DMTraitCollection.setOverride(chosen, animated: false)
              } else {
                DMTraitCollection.setOverride(DMTraitCollection(), animated: false)
                window.overrideTraitCollection = chosen
              }
              let (side, variant) = Self.expected(style, contrast, theme)
              let label = "\(place), style \(style), contrast \(contrast), theme \(theme ?? "none")"
              let traits = view.dmTraitCollection
              let pairSide = "\(side)" + (contrast == .high ? " high" : "")
              #expect(traits.userInterfaceStyle == side, "\(label): style")
              // What the view shows, and what resolving in its collection gives.
              #expect(Self.column(of: view.tableColor) == variant, "\(label): table")
              #expect(view.mapName == variant, "\(label): theme map")
              #expect(view.imageName == variant, "\(label): image")
              #expect(view.pairName == pairSide, "\(label): pair")
              #expect(
                Self.table.variant(for: traits)?.description == variant, "\(label): table.variant(for:)")
              #expect(image.name(for: traits) == variant, "\(label): image.name(for:)")
              // The variant on screen, as DKNightVersion's themeVersion named it.
              #expect(traits.themeVariant.description == variant, "\(label): themeVariant")
              if place == "global override" {
                let current = DMTraitCollection.current
                #expect(current.userInterfaceStyle == side, "\(label): current")
                #expect(Self.column(of: Self.table.color(forKey: "BG", traitCollection: current)) == variant)
                #expect(map.resolved(with: current) == variant, "\(label): current, map")
                #expect(pair.resolved(with: current) == pairSide, "\(label): current, pair")
              }
            }
          }
        }
      }
      #expect(cases == 80)
    }

    @Test func theNearestChoiceOfAStyleOrAOneSidedThemeWins() {
      let window = DMWindow()
      let view = VariantView()
      window.addSubview(view)
      window.makeKeyAndVisible()
      view.dm.bind(\.pairName, to: pair)
      view.dm.bind(\.tableColor, to: DMDynamicColor(key: "BG", in: Self.table))
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .light), animated: false)
      view.overrideTraitCollection = DMTraitCollection(theme: "SIDES_BLACK")
      #expect(view.pairName == "dark")
      #expect(Self.column(of: view.tableColor) == "SIDES_BLACK:dark")
      DMTraitCollection.setOverride(DMTraitCollection(theme: "SIDES_SEPIA"), animated: false)
      view.overrideTraitCollection = DMTraitCollection(userInterfaceStyle: .dark)
      #expect(view.pairName == "dark")
      #expect(Self.column(of: view.tableColor) == "NIGHT")
      #expect(window.dmTraitCollection.userInterfaceStyle == .light)
      #expect(
        Self.column(of: Self.table.color(forKey: "BG", traitCollection: window.dmTraitCollection))
          == "SIDES_SEPIA")
    }

    @Test func aCollectionMadeByHandResolvesItsOneSidedThemesSide() {
      let night = DMTraitCollection(theme: .night)
      #expect(pair.resolved(with: night) == "dark")
      #expect(Self.column(of: Self.table.color(forKey: "BG", traitCollection: night)) == "NIGHT")
      let black = DMTraitCollection(theme: "SIDES_BLACK")
      #expect(map.resolved(with: black) == "SIDES_BLACK:dark")
      #expect(DMDynamicImage(light: "sun", dark: "moon").resolved(with: black) == "moon")
    }

    /// The README's DKNightVersion table, chosen as an app would: each case with the colour it
    /// gave before theme sides, and the colour and style now. Only the cases that used to mix a
    /// theme's colours with the other style's changed.
    @Test func aDKNightVersionTableResolvesAsBeforeExceptWhereItMixedStyles() throws {
      let table = try ExampleTables.load("DKColorTable.txt")
      let source = DMManualAppearanceSource()
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: source))
      let cases:
        [(DMUserInterfaceStyle, DMTraitCollection, before: UInt32, now: UInt32, DMUserInterfaceStyle)] = [
          (.light, DMTraitCollection(), 0xFFFFFF, 0xFFFFFF, .light),
          (.dark, DMTraitCollection(), 0x343434, 0x343434, .dark),
          (.light, DMTraitCollection(userInterfaceStyle: .dark), 0x343434, 0x343434, .dark),
          (.dark, DMTraitCollection(userInterfaceStyle: .light), 0xFFFFFF, 0xFFFFFF, .light),
          (.light, DMTraitCollection(theme: "RED"), 0xFAFAFA, 0xFAFAFA, .light),
          (.light, DMTraitCollection(theme: "BLUE"), 0xFFFFFF, 0xFFFFFF, .light),
          (.dark, DMTraitCollection(theme: "BLUE"), 0x343434, 0x343434, .dark),
          (.dark, DMTraitCollection(userInterfaceStyle: .dark, theme: .night), 0x343434, 0x343434, .dark),
          (.light, DMTraitCollection(userInterfaceStyle: .light, theme: "RED"), 0xFAFAFA, 0xFAFAFA, .light),
          (.light, DMTraitCollection(theme: .normal), 0xFFFFFF, 0xFFFFFF, .light),
          // Mixes before: the theme's column with pairs of the other style.
          (.light, DMTraitCollection(theme: .night), 0x343434, 0x343434, .dark),
          (.dark, DMTraitCollection(theme: .normal), 0xFFFFFF, 0xFFFFFF, .light),
          (.dark, DMTraitCollection(theme: "RED"), 0xFAFAFA, 0xFAFAFA, .light),
          (.light, DMTraitCollection(userInterfaceStyle: .dark, theme: "RED"), 0xFAFAFA, 0x343434, .dark),
          (.dark, DMTraitCollection(userInterfaceStyle: .light, theme: .night), 0x343434, 0xFFFFFF, .light),
        ]
      for (system, override, before, now, style) in cases {
        source.traitCollection = DMTraitCollection(userInterfaceStyle: system)
        DMTraitCollection.setOverride(override, animated: false)
        let current = DMTraitCollection.current
        let label = "system \(system), override \(override) (before: \(DMColor(rgb: before)))"
        #expect(table.color(forKey: "BG", traitCollection: current) == DMColor(rgb: now), "\(label)")
        #expect(current.userInterfaceStyle == style, "\(label)")
      }
      // A lookup by theme, as DKNightVersion's own, is what it always was.
      for (theme, color) in [("NORMAL", 0xFFFFFF), ("NIGHT", 0x343434), ("RED", 0xFAFAFA)]
        as [(DMTheme, UInt32)]
      {
        #expect(table.color(forKey: "BG", theme: theme) == DMColor(rgb: color))
        #expect(
          table.color(forKey: "BG", traitCollection: DMTraitCollection(theme: theme)) == DMColor(rgb: color))
      }
    }

    @Test func aSideDeclaredLaterChangesTheStyleOfThoseWhoChoseTheTheme() {
      let window = DMWindow()
      let container = DMView()
      let view = VariantView()
      let nested = VariantView()
      window.addSubview(container)
      container.addSubview(view)
      window.addSubview(nested)
      window.makeKeyAndVisible()
      view.dm.bind(\.pairName, to: pair)
      nested.dm.bind(\.pairName, to: pair)
      DMTraitCollection.setOverride(DMTraitCollection(theme: "SIDES_LATE_GLOBAL"), animated: false)
      nested.overrideTraitCollection = DMTraitCollection(theme: "SIDES_LATE_NESTED")
      #expect(view.pairName == "light")
      #expect(nested.pairName == "light")
      let callsBefore = view.calls
      // Declared by a table made on the main actor: everything is up to date when it returns.
      let table = try? DMColorTable(string: "SIDES_LATE_GLOBAL:dark\n#000 BG\n")
      #expect(DMTheme(rawValue: "SIDES_LATE_GLOBAL").sides == .dark)
      #expect(DMTraitCollection.current.userInterfaceStyle == .dark)
      #expect(view.pairName == "dark")
      #expect(view.calls == callsBefore + 1)
      #expect(nested.pairName == "dark", "its own theme has no side yet, so it follows the style")
      // A window whose collection does not change, and a view below it whose own theme gets a side.
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .light), animated: false)
      #expect(nested.pairName == "light")
      let windowCalls = window.dmTraitCollection
      let nestedCalls = nested.calls
      DMTheme.declare(["SIDES_LATE_NESTED:dark"])
      #expect(nested.pairName == "dark")
      #expect(nested.calls == nestedCalls + 1)
      #expect(window.dmTraitCollection == windowCalls)
      #expect(view.pairName == "light")
      DMTheme.declare(["SIDES_LATE_NESTED:dark"])
      #expect(nested.calls == nestedCalls + 1, "declaring a known side again changes nothing")
      extendLifetime(table)
    }

    @Test func aSideDeclaredOnAnotherThreadReachesTheMainActor() async throws {
      let window = DMWindow()
      let view = VariantView()
      window.addSubview(view)
      window.makeKeyAndVisible()
      view.dm.bind(\.pairName, to: pair)
      DMTraitCollection.setOverride(DMTraitCollection(theme: "SIDES_LATE_THREAD"), animated: false)
      #expect(view.pairName == "light")
      await Task.detached { DMTheme.declare(["SIDES_LATE_THREAD:dark"]) }.value
      #expect(DMTraitCollection.current.userInterfaceStyle == .dark, "readable at once from any thread")
      let deadline = Date().addingTimeInterval(10)
      while view.pairName != "dark", Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
      #expect(view.pairName == "dark")
    }

    @Test func aSideWithOnlyOneContrastShowsItInTheOtherAndNeverTheOtherSide() throws {
      let highOnly = try DMColorTable(string: "NORMAL:high NIGHT SEPIA\n#fefefe #010101 #f4ecd8 BG\n")
      let light = DMTraitCollection(traitsFrom: [.light])
      #expect(highOnly.variant(for: light)?.description == "NORMAL:high")
      let darkHigh = try DMColorTable(string: "NORMAL NIGHT:high DARK\n#fff #010101 #111 BG\n")
      #expect(
        darkHigh.variant(for: DMTraitCollection(userInterfaceStyle: .dark))?.description == "NIGHT:high")
      let map = DMDynamic(variants: ["NORMAL:high": "light high", "NIGHT": "dark"], fallback: "none")
      #expect(map.resolved(with: light) == "light high")
      // The variant on screen says the same, for a theme of its own (the default theme's
      // variants are process-wide, and other tables declare them all).
      let table = try DMColorTable(string: "NORMAL NIGHT SIDES_HC_ONLY:dark:high\n#fff #000 #010101 BG\n")
      let chosen = DMTraitCollection(traitsFrom: [DMTraitCollection(theme: "SIDES_HC_ONLY")])
      #expect(chosen.themeVariant.description == "SIDES_HC_ONLY:dark:high")
      let chosenHigh = DMTraitCollection(traitsFrom: [
        DMTraitCollection(accessibilityContrast: .high, theme: "SIDES_HC_ONLY")
      ])
      #expect(chosenHigh.themeVariant.description == "SIDES_HC_ONLY:dark:high")
      extendLifetime(table)
    }

    @Test func aThemeMapKeyWrittenAsAVariantIsThatVariant() {
      let map = DMDynamic(themes: ["SIDES_KEYED": "light", "SIDES_KEYED:dark": "dark"], fallback: "none")
      #expect(DMTheme(rawValue: "SIDES_KEYED").sides == [.light, .dark])
      #expect(
        map.resolved(with: DMTraitCollection(userInterfaceStyle: .dark, theme: "SIDES_KEYED")) == "dark")
      #expect(
        map.resolved(with: DMTraitCollection(userInterfaceStyle: .light, theme: "SIDES_KEYED")) == "light")
    }

    @Test func sidesDeclaredDuringAPassAreResolvedOnceAfterIt() {
      final class Declaring: DMView {
        override func dmTraitCollectionDidChange(_ previousTraitCollection: DMTraitCollection?) {
          guard dmTraitCollection.userInterfaceStyle == .dark else { return }
          DMTheme.declare(["SIDES_DURING_A"])
          DMTheme.declare(["SIDES_DURING_B"])
        }
      }
      let window = DMWindow()
      window.addSubview(Declaring())
      window.makeKeyAndVisible()
      let visits = TraitPropagator.shared.visitCount
      DMTraitCollection.setOverride(.dark, animated: false)
      // The change's walk (window and view), then one walk of the whole tree for both sides.
      #expect(TraitPropagator.shared.visitCount - visits == 4)
    }

    /// A view bound to ``pair`` in a visible window.
    func shownPairView() -> (window: DMWindow, view: VariantView) {
      let window = DMWindow()
      let view = VariantView()
      window.addSubview(view)
      window.makeKeyAndVisible()
      view.dm.bind(\.pairName, to: pair)
      return (window, view)
    }

    @Test func aTableThatGoesTakesItsSidesWithIt() async throws {
      let (window, view) = shownPairView()
      DMTraitCollection.setOverride(DMTraitCollection(theme: "SIDES_GONE"), animated: false)
      var table: DMColorTable? = try DMColorTable(string: "NORMAL NIGHT SIDES_GONE:dark\n#fff #000 #111 BG\n")
      #expect(DMTheme(rawValue: "SIDES_GONE").sides == .dark)
      #expect(view.pairName == "dark")
      let calls = view.calls
      table = nil
      // At once for what is read; the views follow after the deinitializer, never inside it.
      #expect(DMTheme(rawValue: "SIDES_GONE").sides == [])
      #expect(
        DMTraitCollection.current.userInterfaceStyle == .light, "a theme no one declares follows the style")
      let deadline = Date().addingTimeInterval(10)
      while view.pairName != "light", Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
      #expect(view.pairName == "light")
      #expect(view.calls == calls + 1)
      extendLifetime(table)
      extendLifetime(window)
    }

    @Test func aReloadThatDropsAColumnWithdrawsItsSideUnlessAnotherDeclaresIt() throws {
      let (window, view) = shownPairView()
      let table = try DMColorTable(string: "NORMAL NIGHT SIDES_RELOAD:dark\n#fff #000 #111 BG\n")
      DMTraitCollection.setOverride(DMTraitCollection(theme: "SIDES_RELOAD"), animated: false)
      #expect(view.pairName == "dark")
      try table.reload(string: "NORMAL NIGHT SIDES_RELOAD:light\n#fff #000 #eee BG\n")
      #expect(DMTheme(rawValue: "SIDES_RELOAD").sides == .light)
      #expect(view.pairName == "light")
      // A second table with the dark side keeps it through the first table's reloads.
      let other = try DMColorTable(string: "SIDES_RELOAD:dark\n#111 BG\n")
      try table.reload(string: "NORMAL NIGHT\n#fff #000 BG\n")
      #expect(DMTheme(rawValue: "SIDES_RELOAD").sides == .dark)
      #expect(view.pairName == "dark")
      // A side declared for good stays when no table has it.
      DMTheme.declare(["SIDES_RELOAD:light"])
      try other.reload(string: "NORMAL\n#fff BG\n")
      #expect(DMTheme(rawValue: "SIDES_RELOAD").sides == .light)
      #expect(view.pairName == "light")
      extendLifetime(window)
    }

    @Test func aThemeWithBothSidesFollowsTheStyle() {
      DMTheme.declare(["SIDES_TWO:light", "SIDES_TWO:dark"])
      #expect(DMTheme(rawValue: "SIDES_TWO").sides == [.light, .dark])
      DMTraitCollection.setOverride(
        DMTraitCollection(userInterfaceStyle: .dark, theme: "SIDES_TWO"), animated: false)
      #expect(DMTraitCollection.current.userInterfaceStyle == .dark)
      DMTraitCollection.setOverride(DMTraitCollection(theme: "SIDES_TWO"), animated: false)
      #expect(DMTraitCollection.current.userInterfaceStyle == .light)
      #expect(DMTheme(rawValue: "SIDES_NOBODY").sides == [])
      #expect(DMTheme.normal.sides == .light)
      #expect(DMTheme.night.sides == .dark)
    }
  }
}

/// Written variants: `NAME[:light|:dark][:high]`.
@Suite struct ThemeVariantTests {
  @Test(arguments: [
    ("SEPIA", "SEPIA", DMUserInterfaceStyle.light, DMAccessibilityContrast.normal, "SEPIA"),
    ("SEPIA:light", "SEPIA", .light, .normal, "SEPIA"),
    ("SOLARIZED:dark", "SOLARIZED", .dark, .normal, "SOLARIZED:dark"),
    ("SOLARIZED:dark:high", "SOLARIZED", .dark, .high, "SOLARIZED:dark:high"),
    ("NIGHT", "NIGHT", .dark, .normal, "NIGHT"),
    ("NIGHT:high", "NIGHT", .dark, .high, "NIGHT:high"),
    ("DARK:dark", "DARK", .dark, .normal, "DARK"),
    ("NORMAL:high", "NORMAL", .light, .high, "NORMAL:high"),
    ("a.b-c_d:light:high", "a.b-c_d", .light, .high, "a.b-c_d:high"),
  ])
  func variantsAreReadAndWrittenShortest(
    text: String, theme: String, style: DMUserInterfaceStyle, contrast: DMAccessibilityContrast,
    shortest: String
  ) throws {
    let variant = try #require(DMThemeVariant(text))
    #expect(variant.theme == DMTheme(rawValue: theme))
    #expect(variant.userInterfaceStyle == style)
    #expect(variant.accessibilityContrast == contrast)
    #expect(variant.description == shortest)
    #expect(DMThemeVariant(shortest) == variant)
    let json = try JSONEncoder().encode([variant])
    #expect(String(decoding: json, as: UTF8.self) == "[\"\(shortest)\"]")
    #expect(try JSONDecoder().decode([DMThemeVariant].self, from: json) == [variant])
  }

  @Test func badVariantsAreNotVariants() {
    for text in [
      "", ":dark", "SEPIA:", "SEPIA:dusk", "SEPIA:high:dark", "SEPIA:light:dark", "SEPIA:high:high",
      "NIGHT:light", "NORMAL:dark", "2ND", "A B",
    ] {
      #expect(DMThemeVariant(text) == nil, "\(text)")
    }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([DMThemeVariant].self, from: Data(#"["X:y"]"#.utf8))
    }
  }

  @Test func aVariantMadeInCodeTakesTheBareSideWhenNoneIsGiven() {
    #expect(DMThemeVariant(.night).userInterfaceStyle == .dark)
    #expect(DMThemeVariant("RED" as DMTheme).userInterfaceStyle == .light)
    #expect(
      DMThemeVariant("RED", userInterfaceStyle: .dark, accessibilityContrast: .unspecified).description
        == "RED:dark")
    #expect(DMThemeVariant.normal.description == "NORMAL")
    // The default theme's names keep their side, so that no map can turn NORMAL dark.
    #expect(DMThemeVariant(.normal, userInterfaceStyle: .dark).description == "NORMAL")
    #expect(
      DMThemeVariant(.night, userInterfaceStyle: .light, accessibilityContrast: .high).description
        == "NIGHT:high")
  }
}
