import Testing

@testable import DarkModeKit

@Suite struct TraitCollectionTests {
  @Test func mergeTakesTheLastSpecifiedTrait() {
    let merged = DMTraitCollection(traitsFrom: [
      DMTraitCollection(userInterfaceStyle: .dark), DMTraitCollection(theme: "RED"),
      DMTraitCollection(userInterfaceStyle: .light),
    ])
    #expect(merged.userInterfaceStyle == .light)
    #expect(merged.theme == "RED")
  }
}
