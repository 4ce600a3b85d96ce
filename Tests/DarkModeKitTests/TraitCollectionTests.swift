import Foundation
import Testing

@testable import DarkModeKit

@Suite struct TraitCollectionTests {
  @Test func newCollectionHasEveryTraitUnspecified() {
    let traits = DMTraitCollection()
    #expect(traits.userInterfaceStyle == .unspecified)
    #expect(traits.accessibilityContrast == .unspecified)
    #expect(traits.userInterfaceLevel == .unspecified)
    #expect(traits.theme == nil)
  }

  /// Every combination of the built-in traits reads back as set, through the properties and
  /// through encoding, and two collections are equal (and hash alike) exactly when their traits are.
  @Test func everyCombinationOfTraitsReadsBackAndComparesByItsTraits() throws {
    // The theme whose name has number 0 (whichever name was made first) is a theme, not none.
    let first = DMTheme(id: 0)
    let themes: [DMTheme?] =
      [nil, first] + (["SOLARIZED", "A-very-long-theme-name"] as [DMTheme]).filter { $0 != first }
    var seen: [DMTraitCollection: String] = [:]
    for style in DMUserInterfaceStyle.allCases {
      for contrast in DMAccessibilityContrast.allCases {
        for level in DMUserInterfaceLevel.allCases {
          for motion in DMAccessibilityMotion.allCases {
            for theme in themes {
              var traits = DMTraitCollection(accentColor: DMColor(rgb: 0x0A60D0))
              traits.userInterfaceStyle = style
              traits.accessibilityContrast = contrast
              traits.userInterfaceLevel = level
              traits.accessibilityMotion = motion
              traits.theme = theme
              #expect(traits.userInterfaceStyle == style && traits.accessibilityContrast == contrast)
              #expect(traits.userInterfaceLevel == level && traits.accessibilityMotion == motion)
              #expect(traits.theme == theme && traits.accentColor == DMColor(rgb: 0x0A60D0))
              let decoded = try JSONDecoder().decode(
                DMTraitCollection.self, from: JSONEncoder().encode(traits))
              #expect(decoded == traits)
              let name = "\(style) \(contrast) \(level) \(motion) \(theme?.rawValue ?? "-")"
              #expect(seen[traits] == nil, "\(name) equals \(seen[traits] ?? "")")
              seen[traits] = name
            }
          }
        }
      }
    }
    #expect(seen.count == 3 * 3 * 3 * 3 * themes.count)
  }

  @Test func aChangeOfMotionAloneKeepsTheColoursWhateverTheTheme() {
    let traits = DMTraitCollection(
      userInterfaceStyle: .dark, theme: "SOLARIZED", accessibilityMotion: .normal)
    var reduced = traits
    reduced.accessibilityMotion = .reduced
    #expect(reduced != traits)
    #expect(!traits.hasDifferentColorAppearance(comparedTo: reduced))
    var other = reduced
    other.theme = "SEPIA"
    #expect(traits.hasDifferentColorAppearance(comparedTo: other))
  }

  @Test func aStyleAndAThemeAreChosenTogether() {
    let traits = DMTraitCollection(userInterfaceStyle: .dark, theme: "SOLARIZED")
    #expect(traits.userInterfaceStyle == .dark)
    #expect(traits.theme == "SOLARIZED")
    #expect(traits.accessibilityContrast == .unspecified)
    #expect(traits.userInterfaceLevel == .unspecified)
    let all = DMTraitCollection(
      userInterfaceStyle: .light, accessibilityContrast: .high, userInterfaceLevel: .elevated, theme: "SEPIA")
    #expect(
      all
        == DMTraitCollection(traitsFrom: [
          .light, DMTraitCollection(accessibilityContrast: .high),
          DMTraitCollection(userInterfaceLevel: .elevated), DMTraitCollection(theme: "SEPIA"),
        ]))
  }

  @Test func rawValuesMatchTheContract() {
    #expect(DMUserInterfaceStyle.unspecified.rawValue == 0)
    #expect(DMUserInterfaceStyle.light.rawValue == 1)
    #expect(DMUserInterfaceStyle.dark.rawValue == 2)
    #expect(DMAccessibilityContrast.unspecified.rawValue == -1)
    #expect(DMAccessibilityContrast.high.rawValue == 1)
    #expect(DMUserInterfaceLevel.unspecified.rawValue == -1)
    #expect(DMUserInterfaceLevel.elevated.rawValue == 1)
    #expect(DMTheme.normal.rawValue == "NORMAL")
    #expect(DMTheme.night.rawValue == "NIGHT")
    #expect(DMTheme(rawValue: "RED") == "RED")
  }

  @Test func singleTraitInitialisersSetOnlyTheirTrait() {
    #expect(DMTraitCollection(userInterfaceStyle: .dark).accessibilityContrast == .unspecified)
    #expect(DMTraitCollection(accessibilityContrast: .high).accessibilityContrast == .high)
    #expect(DMTraitCollection(accessibilityContrast: .high).userInterfaceStyle == .unspecified)
    #expect(DMTraitCollection(userInterfaceLevel: .elevated).userInterfaceLevel == .elevated)
    #expect(DMTraitCollection(theme: "RED").theme == "RED")
    #expect(DMTraitCollection(theme: "RED").userInterfaceLevel == .unspecified)
  }

  @Test func mergeTakesTheLastSpecifiedTrait() {
    let merged = DMTraitCollection(traitsFrom: [
      DMTraitCollection(userInterfaceStyle: .dark), DMTraitCollection(theme: "RED"),
      DMTraitCollection(userInterfaceStyle: .light), DMTraitCollection(accessibilityContrast: .high),
      DMTraitCollection(),
    ])
    #expect(merged.userInterfaceStyle == .light)
    #expect(merged.theme == "RED")
    #expect(merged.accessibilityContrast == .high)
    #expect(merged.userInterfaceLevel == .unspecified)
  }

  @Test func mergeOfNothingIsUnspecified() {
    #expect(DMTraitCollection(traitsFrom: []) == DMTraitCollection())
  }

  @Test(arguments: [
    DMTraitCollection(userInterfaceStyle: .dark), DMTraitCollection(accessibilityContrast: .high),
    DMTraitCollection(userInterfaceLevel: .elevated), DMTraitCollection(theme: "RED"),
    DMTraitCollection(accentColor: DMColor(rgb: 0x336699)),
  ])
  func anyDifferentTraitChangesTheColourAppearance(_ other: DMTraitCollection) {
    #expect(DMTraitCollection().hasDifferentColorAppearance(comparedTo: other))
    #expect(!other.hasDifferentColorAppearance(comparedTo: other))
  }

  @Test func motionAloneDoesNotChangeTheColourAppearance() {
    let reduced = DMTraitCollection(accessibilityMotion: .reduced)
    #expect(!DMTraitCollection().hasDifferentColorAppearance(comparedTo: reduced))
    #expect(DMTraitCollection() != reduced)
  }

  @Test func motionAndAccentMergeAndTheAccentKeepsSixteenBits() {
    let accent = DMColor(red: 0.2, green: 0.4, blue: 0.6)
    let merged = DMTraitCollection(traitsFrom: [
      DMTraitCollection(accessibilityMotion: .reduced, accentColor: accent),
      DMTraitCollection(userInterfaceStyle: .dark),
    ])
    #expect(merged.accessibilityMotion == .reduced)
    #expect(merged.accentColor?.hexString == "#336699")
    #expect(abs((merged.accentColor?.green ?? 0) - 0.4) < 1.0 / 65_535)
    var cleared = merged
    cleared.accentColor = nil
    #expect(cleared.accentColor == nil)
    #expect(
      DMTraitCollection(traitsFrom: [merged, cleared]).accentColor?.hexString == "#336699", "nil inherits")
    var odd = DMColor.red
    odd.green = .nan
    odd.blue = .infinity
    cleared.accentColor = odd
    #expect(cleared.accentColor?.hexString == "#FF00FF", "NaN counts as 0, infinity as 1")
  }

  @Test func nilAlwaysHasADifferentColourAppearance() {
    #expect(DMTraitCollection().hasDifferentColorAppearance(comparedTo: nil))
  }

  @Test func collectionsRoundTripThroughJSON() throws {
    var traits = DMTraitCollection(userInterfaceStyle: .dark)
    traits.theme = "RED"
    traits.accessibilityContrast = .high
    traits.accessibilityMotion = .reduced
    traits.accentColor = DMColor(rgb: 0x336699)
    let data = try JSONEncoder().encode(traits)
    #expect(try JSONDecoder().decode(DMTraitCollection.self, from: data) == traits)
    // Data from before motion and accent existed reads with both unspecified.
    let old = Data(
      #"{"userInterfaceStyle":2,"accessibilityContrast":1,"userInterfaceLevel":-1,"theme":"RED"}"#.utf8)
    let decoded = try JSONDecoder().decode(DMTraitCollection.self, from: old)
    #expect(
      decoded == DMTraitCollection(userInterfaceStyle: .dark, accessibilityContrast: .high, theme: "RED"))
    let themeJSON = String(decoding: try JSONEncoder().encode(DMTheme.night), as: UTF8.self)
    #expect(themeJSON == "\"NIGHT\"")
  }

  @Test func descriptionNamesEveryTrait() {
    let text = DMTraitCollection(userInterfaceStyle: .dark).description
    #expect(text == "DMTraitCollection(style: dark, contrast: unspecified, level: unspecified, theme: nil)")
    let all = DMTraitCollection(accessibilityMotion: .reduced, accentColor: DMColor(rgb: 0x336699))
      .description
    #expect(all.hasSuffix("theme: nil, motion: reduced, accent: #336699)"))
  }
}
