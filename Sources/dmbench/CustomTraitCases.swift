import DarkModeKit
import Foundation

/// Digits of a custom trait's number, in its type: `One<Zero<NoDigits>>` is trait "10". Types made
/// at run time, so that a benchmark can define as many custom traits as it needs.
protocol TraitDigits {
  static var digits: String { get }
}

enum NoDigits: TraitDigits {
  static var digits: String { "" }
}

enum Zero<Rest: TraitDigits>: TraitDigits {
  static var digits: String { "0" + Rest.digits }
}

enum One<Rest: TraitDigits>: TraitDigits {
  static var digits: String { "1" + Rest.digits }
}

/// A custom trait with a number of its own, an integer whose default is 0.
enum NumberedTrait<Digits: TraitDigits>: DMTraitDefinition {
  static var defaultValue: Int { 0 }
  static var identifier: String { "dmbench.trait." + Digits.digits }
}

/// The trait the custom-trait switch changes: it affects colours, as a trait that bound values
/// read does.
enum Emphasis: DMTraitDefinition {
  static let defaultValue = 0
}

/// A trait that does not affect colours, switched among many others.
enum Compactness: DMTraitDefinition {
  static let defaultValue = false
  static let affectsColorAppearance = false
}

/// Sets one numbered custom trait of a collection to a value.
typealias TraitSetter = (inout DMTraitCollection, Int) -> Void

/// 11. Custom traits against built-in ones, and how work with many of them grows.
@MainActor
struct CustomTraitCases {
  let runs: Int
  let quick: Bool

  /// A setter for each of the first `count` numbered traits.
  static func setters(count: Int) -> [TraitSetter] {
    (0..<count).map { setter(number: $0, bits: 14, NoDigits.self) }
  }

  private static func setter<Digits: TraitDigits>(number: Int, bits: Int, _: Digits.Type) -> TraitSetter {
    guard bits > 0 else { return { $0[NumberedTrait<Digits>.self] = $1 } }
    return number & 1 == 0
      ? setter(number: number >> 1, bits: bits - 1, Zero<Digits>.self)
      : setter(number: number >> 1, bits: bits - 1, One<Digits>.self)
  }

  /// Prints a switch of one custom trait next to a built-in switch over the same views, with and
  /// without a registration on each view; returns whether each is within 1.5× of the built-in one.
  func switches() -> Bool {
    let count = quick ? 1_000 : 10_000
    print("11. A switch of one custom trait against a built-in switch, \(count.formatted()) views")
    print("   (each view: two bound table colours, one bound number, a callback that counts)")
    var allMet = true
    for registered in [false, true] {
      let scene = Scene(count: count)
      var registrations: [DMTraitChangeRegistration] = []
      if registered {
        for view in scene.views {
          registrations.append(view.registerForTraitChanges([.userInterfaceStyle]) { _, _ in })
          registrations.append(view.registerForTraitChanges([.custom(Emphasis.self)]) { _, _ in })
        }
      }
      scene.window.makeKeyAndVisible()
      var light = DMTraitCollection(userInterfaceStyle: .light)
      let builtIn = Measure.time(
        runs: runs, prepare: { DMTraitCollection.setOverride(light, animated: false) }
      ) {
        DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
      }
      var emphasized = light
      emphasized[Emphasis.self] = 1
      light[Emphasis.self] = 0
      let custom = Measure.time(
        runs: runs, prepare: { DMTraitCollection.setOverride(light, animated: false) }
      ) {
        DMTraitCollection.setOverride(emphasized, animated: false)
      }
      let follows = scene.views.allSatisfy { $0.dmTraitCollection[Emphasis.self] == 1 }
      scene.window.isHidden = true
      DMTraitCollection.setOverride(DMTraitCollection(), animated: false)
      blackHole(registrations)
      let ratio = custom.median / builtIn.median
      let met = follows && ratio <= 1.5
      allMet = allMet && met
      let label = registered ? "with registrations" : "callbacks only"
      print(column("     built-in switch, \(label)", 48) + formatDuration(builtIn.median))
      print(
        column("     custom-trait switch, \(label)", 48) + formatDuration(custom.median)
          + String(format: "   %.2f× the built-in switch", ratio)
          + (follows ? "" : "  (the views do not follow!)"))
      print(
        "   target: a custom-trait switch \(label) within 1.5× of a built-in one: \(met ? "met" : "MISSED")")
    }
    allMet = manyTraitsSwitch(count: count) && allMet
    return allMet
  }

  /// Prints what 1,000 custom traits set add to a switch of a trait that does not affect colours,
  /// at 1,000 and at 10,000 views; returns whether the second is within 2× of the first: the
  /// traits cost something once a pass, not for each view (which would make it 10×).
  private func manyTraitsSwitch(count: Int) -> Bool {
    let sizes = [count / 10, count]
    var added: [Double] = []
    for size in sizes {
      let scene = Scene(count: size)
      scene.window.makeKeyAndVisible()
      func compactSwitch(others: Int) -> Timing {
        var plain = DMTraitCollection(userInterfaceStyle: .light)
        for setter in Self.setters(count: others) { setter(&plain, 1) }
        var compact = plain
        compact[Compactness.self] = true
        return Measure.time(runs: runs, prepare: { DMTraitCollection.setOverride(plain, animated: false) }) {
          DMTraitCollection.setOverride(compact, animated: false)
        }
      }
      let alone = compactSwitch(others: 0)
      let among = compactSwitch(others: 1_000)
      let follows = scene.views.allSatisfy { $0.dmTraitCollection[Compactness.self] }
      scene.window.isHidden = true
      DMTraitCollection.setOverride(DMTraitCollection(), animated: false)
      added.append(among.median - alone.median)
      print(
        column("     a trait that leaves colours, \(size.formatted()) views", 48)
          + formatDuration(alone.median))
      print(
        column("     the same among 1,000 custom traits", 48) + formatDuration(among.median)
          + (follows ? "" : "  (the views do not follow!)"))
      if !follows { return false }
    }
    let growth = added[1] / max(added[0], 1e-9)
    let met = growth <= 2
    print(
      String(format: "   what 1,000 custom traits add grows %.1f× for 10× the views", growth)
        + " (once a pass: about 1×; for each view: 10×)")
    print(
      "   target: what many custom traits add to a switch grows at most 2× for 10× the views: \(met ? "met" : "MISSED")"
    )
    return met
  }

  /// Prints the memory a process keeps after building collections of many custom traits one at a
  /// time and letting them go; returns whether it is under 1 MiB.
  func memoryKept() -> Bool {
    let setters = Self.setters(count: 1_000)
    // The traits' definitions are the program's, not the collections': made known first.
    var warm = DMTraitCollection()
    for setter in setters { setter(&warm, 0) }
    let before = Measure.residentBytes()
    for round in 0..<10 {
      var traits = DMTraitCollection()
      for setter in setters { setter(&traits, round + 1) }
      blackHole(traits)
    }
    let kept = Measure.residentBytes() - before
    let met = kept < 1 << 20
    print("   10 collections of 1,000 custom traits, built one trait at a time and gone")
    print("     the process keeps                          \(formatBytes(Double(kept)))")
    print("   target: under 1 MiB kept: \(met ? "met" : "MISSED")")
    return met
  }
}

extension HierarchyScaleCases {
  /// The custom-trait cases of section 9, through its `scale`.
  static func customTraitCases(_ scale: (String, [Int], String, (Int) -> Work) -> Void) {
    // At 250 and 1,000: with more, the benchmark's own trait types (one generic type each, made
    // at run time) overflow the caches of the runtime's metadata, which the setters go through.
    scale("build a collection one custom trait at a time", [250, 1_000], "traits") { count in
      let setters = CustomTraitCases.setters(count: count)
      return Work(
        prepare: {},
        body: {
          var traits = DMTraitCollection()
          for setter in setters { setter(&traits, 1) }
          blackHole(traits)
        })
    }
    scale("merge collections of one custom trait each", [250, 1_000], "collections") { count in
      let setters = CustomTraitCases.setters(count: count)
      let collections = setters.map { setter in
        var traits = DMTraitCollection()
        setter(&traits, 2)
        return traits
      }
      return Work(prepare: {}, body: { blackHole(DMTraitCollection(traitsFrom: collections)) })
    }
    scale("merge two collections of many custom traits", [250, 1_000], "traits") { count in
      let setters = CustomTraitCases.setters(count: count)
      var base = DMTraitCollection()
      var top = DMTraitCollection(userInterfaceStyle: .dark)
      for (number, setter) in setters.enumerated() {
        setter(&base, 1)
        if number.isMultiple(of: 2) { setter(&top, 3) }
      }
      return Work(prepare: {}, body: { blackHole(DMTraitCollection(traitsFrom: [base, top])) })
    }
    scale("set custom traits one at a time on a window of 2,000 views", [20, 80], "traits") { count in
      let setters = CustomTraitCases.setters(count: count)
      var scene: Scene?
      return Work(
        prepare: {
          scene?.window.isHidden = true
          let made = Scene(count: 2_000)
          made.window.makeKeyAndVisible()
          scene = made
        },
        body: {
          guard let window = scene?.window else { return }
          for setter in setters { setter(&window.traitOverrides, 1) }
        },
        finish: { scene?.window.isHidden = true })
    }
  }
}
