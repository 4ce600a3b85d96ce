import DarkModeKitTestSupport
import Foundation
import Testing

@testable import DarkModeKit

/// A trait that changes colours: which brand a white-label app shows.
enum Brand: DMTraitDefinition {
  static let defaultValue = "plain"
}

/// A trait that changes layout, not colours.
enum Density: DMTraitDefinition {
  static let defaultValue = 1.0
  static let affectsColorAppearance = false
}

/// A colour that depends on the brand, as a colour table column would.
let brandColor = DMDynamic<DMColor>(dynamicProvider: { traits in
  switch traits[Brand.self] {
  case "ocean": DMColor(rgb: 0x0077BE)
  case "forest": DMColor(rgb: 0x228B22)
  default: traits.userInterfaceStyle == .dark ? .black : .white
  }
})

@Suite struct CustomTraitValueTests {
  @Test func aTraitReadsItsDefaultUntilSetAndTheValueSetAfter() {
    var traits = DMTraitCollection(userInterfaceStyle: .dark)
    #expect(traits[Density.self] == 1.0)
    #expect(!traits.contains(.custom(Density.self)))
    traits[Density.self] = 0.8
    #expect(traits[Density.self] == 0.8)
    #expect(traits.contains(.custom(Density.self)))
    #expect(traits.userInterfaceStyle == .dark)
    traits[Density.self] = 1.0
    #expect(traits.contains(.custom(Density.self)), "set to the default, it is still set")
    traits.remove(.custom(Density.self))
    #expect(traits == DMTraitCollection(userInterfaceStyle: .dark))
    #expect(DMTraitCollection(Density.self, 0.5)[Density.self] == 0.5)
  }

  @Test func collectionsWithTheSameValuesAreEqualAndHashAlike() {
    var a = DMTraitCollection(theme: "RED")
    a[Brand.self] = "ocean"
    a[Density.self] = 0.8
    var b = DMTraitCollection(theme: "RED")
    b[Density.self] = 0.8
    b[Brand.self] = "ocean"
    #expect(a == b)
    #expect(Set([a, b]).count == 1)
    b[Density.self] = 0.9
    #expect(a != b)
  }

  @Test func mergingTakesEachTraitFromTheLastCollectionThatSetsIt() {
    let base = DMTraitCollection(Brand.self, "ocean")
    var top = DMTraitCollection(Density.self, 0.8)
    #expect(DMTraitCollection(traitsFrom: [base, top])[Brand.self] == "ocean")
    #expect(DMTraitCollection(traitsFrom: [base, top])[Density.self] == 0.8)
    top[Brand.self] = "plain"
    let merged = DMTraitCollection(traitsFrom: [base, top])
    #expect(merged[Brand.self] == "plain", "a default set explicitly puts the default back")
    #expect(DMTraitCollection(traitsFrom: [merged, DMTraitCollection()])[Brand.self] == "plain")
  }

  @Test func onlyTraitsThatAffectColoursMakeADifferentColorAppearance() {
    let plain = DMTraitCollection(userInterfaceStyle: .light)
    var dense = plain
    dense[Density.self] = 0.5
    var branded = plain
    branded[Brand.self] = "forest"
    #expect(!plain.hasDifferentColorAppearance(comparedTo: dense))
    #expect(plain.hasDifferentColorAppearance(comparedTo: branded))
    #expect(
      dense.changedTraits([.userInterfaceStyle, .custom(Density.self)], comparedTo: plain) == [
        .custom(Density.self)
      ])
  }

  @Test func theDescriptionShowsCustomTraitsByName() {
    var traits = DMTraitCollection(userInterfaceStyle: .dark)
    traits[Density.self] = 0.75
    #expect(traits.description.hasSuffix(", Density: 0.75)"))
    #expect(DMTrait.custom(Density.self).description == "Density")
    #expect(DMTrait.accentColor.description == "accentColor")
  }

  @Test func encodingLeavesCustomTraitsOut() throws {
    var traits = DMTraitCollection(userInterfaceStyle: .dark)
    traits[Brand.self] = "ocean"
    let decoded = try JSONDecoder().decode(DMTraitCollection.self, from: JSONEncoder().encode(traits))
    #expect(decoded == DMTraitCollection(userInterfaceStyle: .dark))
  }

  @Test func dynamicValuesResolveWithACustomTrait() {
    #expect(brandColor.resolved(with: DMTraitCollection(Brand.self, "ocean")) == DMColor(rgb: 0x0077BE))
    #expect(brandColor.resolved(with: DMTraitCollection(userInterfaceStyle: .dark)) == .black)
  }

  @Test func manyDistinctValuesStayDistinct() {
    let values = (0..<2_000).map { Double($0) / 100 }
    let collections = values.map { DMTraitCollection(Density.self, $0) }
    #expect(collections.map { $0[Density.self] } == values)
    #expect(Set(collections).count == values.count)
  }
}

extension GlobalStateTests {
  @Suite @MainActor struct CustomTraitPropagationTests {
    let log = CallLog()

    init() { DarkModeManager.reset() }

    @Test func aCustomTraitInTheGlobalOverrideReachesEveryEnvironmentOnceParentsFirst() {
      let (_, _, a1, _) = makeShownTree(log: log)
      DMTraitCollection.setOverride(DMTraitCollection(Density.self, 0.8), animated: false)
      #expect(log.names == ["window", "a", "a1", "b"])
      #expect(log.calls.allSatisfy { $0.previous?[Density.self] == 1.0 && $0.current[Density.self] == 0.8 })
      #expect(a1.dmTraitCollection[Density.self] == 0.8)
      #expect(DMTraitCollection.current[Density.self] == 0.8)
      log.reset()
      DMTraitCollection.setOverride(DMTraitCollection(Density.self, 0.8), animated: false)
      #expect(log.calls.isEmpty, "the same value again changes nothing")
    }

    @Test func settingTheDefaultExplicitlyChangesNothingThatReadsTheSame() {
      let (_, a, _, _) = makeShownTree(log: log)
      let visits = TraitPropagator.shared.visitCount
      DMTraitCollection.setOverride(DMTraitCollection(Density.self, 1.0), animated: false)
      #expect(log.calls.isEmpty)
      #expect(TraitPropagator.shared.visitCount == visits)
      a.traitOverrides[Brand.self] = "plain"
      #expect(log.calls.isEmpty, "an environment's override to the default it inherits")
    }

    @Test func anEnvironmentsOverrideAppliesToItsSubtreeAndTheNearestWins() {
      let (_, a, a1, b) = makeShownTree(log: log)
      DMTraitCollection.setOverride(DMTraitCollection(Density.self, 0.8), animated: false)
      log.reset()
      a.traitOverrides[Density.self] = 0.5
      #expect(log.names == ["a", "a1"])
      #expect(a1.dmTraitCollection[Density.self] == 0.5)
      #expect(b.dmTraitCollection[Density.self] == 0.8)
      log.reset()
      a1.traitOverrides[Density.self] = 1.0
      #expect(log.names == ["a1"])
      #expect(a1.dmTraitCollection[Density.self] == 1.0, "a default set below an ancestor's value wins")
      log.reset()
      a.traitOverrides.remove(.custom(Density.self))
      #expect(a.overrideTraitCollection == nil)
      #expect(log.names == ["a"], "a1 sets its own value")
      #expect(a.dmTraitCollection[Density.self] == 0.8)
    }

    @Test func aTraitThatDoesNotAffectColoursLeavesBindingsAndTheWindowHandlerAlone() {
      var restyled = 0
      DarkModeManager.setup(with: DMConfiguration(windowThemeChangeHandler: { _ in restyled += 1 }))
      let (_, a, _, _) = makeShownTree(log: log)
      let resolutions = Locked(0)
      let counted = DMDynamic<Double>(dynamicProvider: { traits in
        resolutions.withLock { $0 += 1 }
        return traits.userInterfaceStyle == .dark ? 2 : 1
      })
      final class Holder: DMView { var value = 0.0 }
      let holder = Holder()
      a.addSubview(holder)
      holder.dm.bind(\.value, to: counted)
      let before = resolutions.withLock { $0 }
      DMTraitCollection.setOverride(DMTraitCollection(Density.self, 0.5), animated: false)
      #expect(log.names == ["window", "a", "a1", "b"], "the environments are still called")
      #expect(resolutions.withLock { $0 } == before, "no binding resolved again")
      #expect(restyled == 0)
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
      #expect(holder.value == 2)
      #expect(resolutions.withLock { $0 } > before)
      #expect(restyled == 1)
    }

    @Test func aTraitThatAffectsColoursSetsBoundColoursAgain() {
      var restyled = 0
      DarkModeManager.setup(with: DMConfiguration(windowThemeChangeHandler: { _ in restyled += 1 }))
      let (window, a, _, _) = makeShownTree(log: log)
      final class Swatch: DMView { var color = DMColor.clear }
      let swatch = Swatch()
      a.addSubview(swatch)
      swatch.dm.bind(\.color, to: brandColor)
      #expect(swatch.color == .white)
      a.traitOverrides[Brand.self] = "forest"
      #expect(swatch.color == DMColor(rgb: 0x228B22))
      DMTraitCollection.setOverride(DMTraitCollection(Brand.self, "ocean"), animated: false)
      #expect(swatch.color == DMColor(rgb: 0x228B22), "the nearer choice wins")
      #expect(window.dmTraitCollection[Brand.self] == "ocean")
      #expect(restyled == 2)
    }

    @Test func aSystemSourceCanReportCustomTraits() {
      let source = DMManualAppearanceSource(traitCollection: DMTraitCollection(Density.self, 0.75))
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: source))
      let (window, _, _, _) = makeShownTree(log: log)
      #expect(window.dmTraitCollection[Density.self] == 0.75)
      DMTraitCollection.setOverride(DMTraitCollection(Density.self, 1.25), animated: false)
      #expect(window.dmTraitCollection[Density.self] == 1.25)
    }
  }
}
