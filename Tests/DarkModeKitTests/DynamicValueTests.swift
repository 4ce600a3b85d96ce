import Testing

@testable import DarkModeKit

@Suite struct DynamicValueTests {
  private func traits(
    _ style: DMUserInterfaceStyle, contrast: DMAccessibilityContrast = .normal, theme: DMTheme? = nil
  ) -> DMTraitCollection {
    var traits = DMTraitCollection(userInterfaceStyle: style)
    traits.accessibilityContrast = contrast
    traits.theme = theme
    return traits
  }

  @Test func constantIgnoresTraits() {
    let value = DMDynamic(42)
    #expect(value.resolved(with: traits(.dark)) == 42)
    #expect(value.resolved(with: DMTraitCollection()) == 42)
  }

  @Test func pairPicksDarkOnlyForTheDarkStyle() {
    let value = DMDynamic(light: "light", dark: "dark")
    #expect(value.resolved(with: traits(.dark)) == "dark")
    #expect(value.resolved(with: traits(.light)) == "light")
    #expect(value.resolved(with: traits(.unspecified)) == "light")
    let color = DMDynamicColor(light: .white, dark: .black)
    #expect(color.resolvedColor(with: traits(.dark)) == .black)
    #expect(color.resolvedColor(with: traits(.light)) == .white)
  }

  @Test func highContrastVariantsWinWhereGiven() {
    let both = DMDynamic(light: 1, dark: 2, highContrastLight: 3, highContrastDark: 4)
    #expect(both.resolved(with: traits(.light, contrast: .high)) == 3)
    #expect(both.resolved(with: traits(.dark, contrast: .high)) == 4)
    #expect(both.resolved(with: traits(.dark, contrast: .normal)) == 2)
    let lightOnly = DMDynamic(light: 1, dark: 2, highContrastLight: 3)
    #expect(lightOnly.resolved(with: traits(.dark, contrast: .high)) == 2)
    #expect(lightOnly.resolved(with: traits(.light, contrast: .high)) == 3)
  }

  @Test func providerSeesTheTraits() {
    let value = DMDynamic { traits in traits.theme?.rawValue ?? "none" }
    #expect(value.resolved(with: traits(.light, theme: "RED")) == "RED")
    #expect(value.resolved(with: traits(.light)) == "none")
  }

  @Test func themeMapFallsBackByStyleThenNormalThenFallback() {
    let full = DMDynamic(themes: ["RED": "red", .night: "night", .normal: "normal"], fallback: "fallback")
    #expect(full.resolved(with: traits(.light, theme: "RED")) == "red")
    #expect(full.resolved(with: traits(.dark, theme: "BLUE")) == "night")
    #expect(full.resolved(with: traits(.light, theme: "BLUE")) == "normal")
    #expect(full.resolved(with: traits(.dark)) == "night")
    let noNormal = DMDynamic(themes: ["RED": "red"], fallback: "fallback")
    #expect(noNormal.resolved(with: traits(.dark)) == "fallback")
    #expect(noNormal.resolved(with: traits(.light, theme: "red")) == "fallback")
  }

  @Test func structsResolveLikeAnyValue() {
    struct Metrics: Equatable, Sendable {
      var padding: Double
      var font: String
    }
    let value = DMDynamic(
      light: Metrics(padding: 8, font: "Regular"), dark: Metrics(padding: 10, font: "Medium"))
    #expect(value.resolved(with: traits(.dark)) == Metrics(padding: 10, font: "Medium"))
  }

  @Test func resolutionIsSafeFromManyTasksAtOnce() async {
    let color = DMDynamicColor(light: .white, dark: .black)
    let provider = DMDynamic { traits in traits.userInterfaceStyle == .dark ? 1 : 0 }
    let mismatches = await withTaskGroup(of: Int.self) { group in
      for task in 0..<8 {
        group.addTask {
          var wrong = 0
          for index in 0..<2_000 {
            let style: DMUserInterfaceStyle = (index + task).isMultiple(of: 2) ? .dark : .light
            let traits = DMTraitCollection(userInterfaceStyle: style)
            let expected = style == .dark ? DMColor.black : .white
            if color.resolved(with: traits) != expected { wrong += 1 }
            if provider.resolved(with: traits) != (style == .dark ? 1 : 0) { wrong += 1 }
          }
          return wrong
        }
      }
      return await group.reduce(0, +)
    }
    #expect(mismatches == 0)
  }
}
