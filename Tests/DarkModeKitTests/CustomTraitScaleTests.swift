import DarkModeKitTestSupport
import Foundation
import Testing

@testable import DarkModeKit

/// Binary digits in a type, so that a test defines as many custom traits as it needs.
private protocol Bits {
  static var text: String { get }
}
private enum NoBits: Bits {
  static var text: String { "" }
}
private enum Bit0<Rest: Bits>: Bits {
  static var text: String { "0" + Rest.text }
}
private enum Bit1<Rest: Bits>: Bits {
  static var text: String { "1" + Rest.text }
}

/// Trait number `Digits`: an integer, 0 by default.
private enum NumberedTrait<Digits: Bits>: DMTraitDefinition {
  static var defaultValue: Int { 0 }
  static var identifier: String { "tests.numbered." + Digits.text }
}

/// Sets one numbered trait of a collection; `numberedTraits(count)` gives the first `count`.
private typealias SetTrait = (inout DMTraitCollection, Int) -> Void

private func numberedTraits(_ count: Int) -> [SetTrait] {
  func setter<Digits: Bits>(_ number: Int, _ bits: Int, _: Digits.Type) -> SetTrait {
    guard bits > 0 else { return { $0[NumberedTrait<Digits>.self] = $1 } }
    return number & 1 == 0
      ? setter(number >> 1, bits - 1, Bit0<Digits>.self) : setter(number >> 1, bits - 1, Bit1<Digits>.self)
  }
  return (0..<count).map { setter($0, 10, NoBits.self) }
}

/// A collection with the first `count` numbered traits set to `value`, in order or reversed.
private func collection(_ setters: [SetTrait], value: Int, reversed: Bool = false) -> DMTraitCollection {
  var traits = DMTraitCollection()
  for set in reversed ? setters.reversed() : setters { set(&traits, value) }
  return traits
}

@Suite struct CustomTraitStorageTests {
  @Test func aCopyChangedLeavesTheOriginalAsItWas() {
    var original = DMTraitCollection(Brand.self, "ocean")
    original[Density.self] = 0.8
    var copy = original
    copy[Brand.self] = "forest"
    copy.remove(.custom(Density.self))
    #expect(original[Brand.self] == "ocean")
    #expect(original[Density.self] == 0.8)
    #expect(copy[Brand.self] == "forest")
    #expect(!copy.contains(.custom(Density.self)))
    let merged = DMTraitCollection(traitsFrom: [original, DMTraitCollection(Brand.self, "forest")])
    #expect(merged[Brand.self] == "forest")
    #expect(original[Brand.self] == "ocean", "merging into a copy leaves the original alone")
  }

  @Test func collectionsSetInAnyOrderAreEqualAndHashAlike() {
    let setters = numberedTraits(300)
    let forward = collection(setters, value: 7)
    let backward = collection(setters, value: 7, reversed: true)
    #expect(forward == backward)
    #expect(Set([forward, backward]).count == 1)
    var other = backward
    setters[150](&other, 8)
    #expect(other != forward)
    #expect(Set([forward, other]).count == 2)
  }

  @Test func mergingManyCollectionsTakesEachTraitFromTheLastThatSetsIt() {
    let setters = numberedTraits(500)
    let singles = setters.enumerated().map { number, set in
      var traits = DMTraitCollection()
      set(&traits, number + 1)
      return traits
    }
    var later = DMTraitCollection(userInterfaceStyle: .dark)
    setters[10](&later, 1_000)
    let merged = DMTraitCollection(traitsFrom: singles + [later])
    var expected = DMTraitCollection()
    for (number, set) in setters.enumerated() { set(&expected, number == 10 ? 1_000 : number + 1) }
    expected.userInterfaceStyle = .dark
    #expect(merged == expected)
    var eleventh = DMTraitCollection()
    setters[10](&eleventh, 11)
    #expect(singles[10] == eleventh, "merging left the collections merged as they were")
  }

  @Test func customValuesGoWithTheLastCollectionThatHoldsThem() {
    weak var values: CustomTraitValues?
    do {
      var traits = collection(numberedTraits(200), value: 3)
      let copy = traits
      traits[Brand.self] = "ocean"
      values = copy.custom
      #expect(values != nil)
      #expect(copy[Brand.self] == "plain")
    }
    #expect(values == nil, "nothing keeps a collection's custom values after it goes")
  }

  /// Two trait types that share an identifier, by mistake: both read as the first one used.
  private enum SharedFirst: DMTraitDefinition {
    static let defaultValue = 0
    static var identifier: String { "tests.shared-identifier" }
  }
  private enum SharedSecond: DMTraitDefinition {
    static let defaultValue = 1
    static var identifier: String { "tests.shared-identifier" }
  }

  @Test func twoTraitTypesWithOneIdentifierReadAsTheFirstUsed() {
    var first = DMTraitCollection()
    first[SharedFirst.self] = 1
    var second = DMTraitCollection()
    second[SharedSecond.self] = 1
    #expect(first == second)
    let unset = DMTraitCollection()
    #expect(
      first.changedTraits([.custom(SharedFirst.self)], comparedTo: unset)
        == second.changedTraits([.custom(SharedFirst.self)], comparedTo: unset),
      "equal collections differ from a third alike")
    #expect(first.changedTraits([.custom(SharedFirst.self)], comparedTo: unset).count == 1)
    #expect(unset[SharedSecond.self] == 0, "unset, it reads as the first type's default")
    var setToThatDefault = DMTraitCollection()
    setToThatDefault[SharedSecond.self] = 0
    #expect(
      setToThatDefault.overlaid(with: DMTraitCollection()).withDefaults[SharedSecond.self] == 0,
      "a resolved collection drops it, and it still reads 0")
  }

  @Test func copiesChangedOnManyThreadsAtOnceStayTheirOwn() async {
    let shared = collection(numberedTraits(20), value: 1)
    let results = await withTaskGroup(of: Bool.self) { group in
      for task in 0..<8 {
        group.addTask {
          var mine = shared
          for round in 0..<2_000 {
            mine[Density.self] = Double(task * 10_000 + round)
            if mine[Density.self] != Double(task * 10_000 + round) { return false }
          }
          return mine != shared
        }
      }
      return await group.reduce(into: [Bool]()) { $0.append($1) }
    }
    #expect(results == Array(repeating: true, count: 8))
    #expect(shared == collection(numberedTraits(20), value: 1))
    #expect(!shared.contains(.custom(Density.self)))
  }
}

extension GlobalStateTests {
  @Suite @MainActor struct CustomTraitWalkTests {
    init() { DarkModeManager.reset() }

    /// A window of `count` views in rows of 10, each bound to the brand colour and counting its
    /// calls: enough views that a switch walks them through the window's recorded order.
    final class Swatch: DMView {
      var color = DMColor.clear
      var calls = 0
      override func dmTraitCollectionDidChange(_ previousTraitCollection: DMTraitCollection?) {
        calls += 1
      }
    }

    func window(of count: Int) -> (DMWindow, [Swatch]) {
      let window = DMWindow()
      var swatches: [Swatch] = []
      for _ in 0..<(count / 10) {
        let rowView = Swatch()
        window.addSubview(rowView)
        swatches.append(rowView)
        for _ in 0..<9 {
          let swatch = Swatch()
          rowView.addSubview(swatch)
          swatches.append(swatch)
        }
      }
      for swatch in swatches { swatch.dm.bind(\.color, to: brandColor) }
      window.makeKeyAndVisible()
      for swatch in swatches { swatch.calls = 0 }
      return (window, swatches)
    }

    @Test func aCustomTraitSwitchRecoloursEveryViewAndCallsEachOnce() {
      let (window, swatches) = window(of: 500)
      #expect(swatches.allSatisfy { $0.color == .white })
      for (round, brand) in ["ocean", "forest", "ocean", "plain"].enumerated() {
        DMTraitCollection.setOverride(DMTraitCollection(Brand.self, brand), animated: false)
        let expected: DMColor =
          brand == "ocean" ? DMColor(rgb: 0x0077BE) : brand == "forest" ? DMColor(rgb: 0x228B22) : .white
        #expect(swatches.allSatisfy { $0.color == expected }, "after \(brand)")
        #expect(swatches.allSatisfy { $0.calls == round + 1 })
      }
      #expect(TraitPropagator.shared.orderedWalkCount > 0, "the switches went through the recorded order")
      window.isHidden = true
    }

    @Test func aStyleAndACustomTraitChangedTogetherRecolourOnce() {
      let (window, swatches) = window(of: 200)
      let resolutions = Locked(0)
      let counted = DMDynamic<DMColor>(dynamicProvider: { traits in
        resolutions.withLock { $0 += 1 }
        return traits[Brand.self] == "ocean" && traits.userInterfaceStyle == .dark ? .black : .white
      })
      for swatch in swatches { swatch.dm.bind(\.color, to: counted) }
      resolutions.withLock { $0 = 0 }
      var both = DMTraitCollection(userInterfaceStyle: .dark)
      both[Brand.self] = "ocean"
      DMTraitCollection.setOverride(both, animated: false)
      #expect(swatches.allSatisfy { $0.color == .black && $0.calls == 1 })
      #expect(resolutions.withLock { $0 } == 1, "one resolution for the pass, shared by every view")
      var densityToo = both
      densityToo[Density.self] = 0.5
      DMTraitCollection.setOverride(densityToo, animated: false)
      #expect(swatches.allSatisfy { $0.calls == 2 }, "a trait that does not affect colours still calls")
      #expect(resolutions.withLock { $0 } == 1, "and sets no bound value again")
      window.isHidden = true
    }

    @Test func registrationsForTwoCustomTraitsInOnePassHearOnlyTheirOwnTrait() {
      let (window, swatches) = window(of: 100)
      var brandCalls = 0
      var densityCalls = 0
      var registrations: [DMTraitChangeRegistration] = []
      for (index, swatch) in swatches.enumerated() {
        let brand = swatch.registerForTraitChanges([.custom(Brand.self)]) { _, _ in brandCalls += 1 }
        let density = swatch.registerForTraitChanges([.custom(Density.self)]) { _, _ in densityCalls += 1 }
        registrations += index.isMultiple(of: 2) ? [brand, density] : [density, brand]
      }
      DMTraitCollection.setOverride(DMTraitCollection(Brand.self, "ocean"), animated: false)
      #expect(brandCalls == 100)
      #expect(densityCalls == 0)
      var both = DMTraitCollection(Brand.self, "ocean")
      both[Density.self] = 0.5
      DMTraitCollection.setOverride(both, animated: false)
      #expect(brandCalls == 100, "the brand did not change")
      #expect(densityCalls == 100)
      #expect(registrations.count == 200)
      window.isHidden = true
    }

    @Test func theWindowHandlerHearsOnlyOfChangesThatChangeColours() {
      var restyled = 0
      DarkModeManager.setup(with: DMConfiguration(windowThemeChangeHandler: { _ in restyled += 1 }))
      let (window, swatches) = window(of: 300)
      var traits = DMTraitCollection(Density.self, 0.5)
      DMTraitCollection.setOverride(traits, animated: false)
      #expect(restyled == 0, "a trait that does not affect colours")
      traits.accessibilityMotion = .reduced
      DMTraitCollection.setOverride(traits, animated: false)
      #expect(restyled == 0, "the motion alone")
      #expect(swatches.allSatisfy { $0.calls == 2 })
      traits[Brand.self] = "ocean"
      DMTraitCollection.setOverride(traits, animated: false)
      #expect(restyled == 1, "a custom trait that affects colours")
      #expect(swatches.allSatisfy { $0.color == DMColor(rgb: 0x0077BE) })
      traits.userInterfaceStyle = .dark
      DMTraitCollection.setOverride(traits, animated: false)
      #expect(restyled == 2, "the style")
      #expect(swatches.allSatisfy { $0.calls == 4 })
      window.isHidden = true
    }

    @Test func manyCustomTraitsSetOneAtATimeReachEveryView() {
      let (window, swatches) = window(of: 200)
      let before = window.dmTraitCollection
      let setters = numberedTraits(40)
      for set in setters { set(&window.traitOverrides, 5) }
      let expected = DMTraitCollection(traitsFrom: [before, collection(setters, value: 5)])
      #expect(window.dmTraitCollection == expected)
      #expect(swatches.allSatisfy { $0.calls == setters.count })
      #expect(swatches.allSatisfy { $0.dmTraitCollection == expected })
      window.isHidden = true
    }

    @Test func aPassKeepsNoCustomValuesOnceItEnds() {
      let (window, _) = window(of: 100)
      weak var values: CustomTraitValues?
      do {
        var traits = collection(numberedTraits(30), value: 2)
        values = traits.custom
        DMTraitCollection.setOverride(traits, animated: false)
        traits = DMTraitCollection()
        DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
      }
      window.isHidden = true
      #expect(values == nil, "the views, the pass and the global state let the values go")
    }
  }
}
