import Testing

@testable import DarkModeKit

/// Bound objects outside the hierarchy are reached without keeping them alive: objects freed at
/// any moment of a switch are skipped, and the others still follow.
extension GlobalStateTests {
  @Suite @MainActor struct ThemableLifetimeTests {
    init() { DarkModeManager.reset() }

    final class Layer: DMThemable {
      var fill = DMColor.clear
      var alpha = 1.0
      var onDeinit: (@MainActor () -> Void)?

      deinit {
        if let onDeinit { MainActor.assumeIsolated { onDeinit() } }
      }
    }

    /// What the app holds, which a value's code or a setter lets go of during a switch.
    final class Owner: @unchecked Sendable {
      var layers: [Layer?] = []
      var freedCount = 0
    }

    static let fill = DMDynamicColor(light: DMColor(rgb: 0xFFFFFF), dark: DMColor(rgb: 0x101010))
    static let dark = DMTraitCollection(userInterfaceStyle: .dark)
    static let light = DMTraitCollection(userInterfaceStyle: .light)

    func layers(_ count: Int, owner: Owner, alpha: DMDynamic<Double>) -> [Layer?] {
      (0..<count).map { _ in
        let layer = Layer()
        layer.dm.bind(\.fill, to: Self.fill)
        layer.dm.bind(\.alpha, to: alpha)
        layer.onDeinit = { owner.freedCount += 1 }
        return layer
      }
    }

    /// The values' code runs once for objects bound alike, while the first one is set: it frees
    /// that one, one in the middle and the last.
    @Test func objectsFreedByAValuesCodeDuringASwitchAreSkippedAndTheOthersFollow() {
      let owner = Owner()
      let alpha = DMDynamic<Double>(dynamicProvider: { traits in
        MainActor.assumeIsolated {
          if traits.userInterfaceStyle == .dark, owner.layers.count == 8, owner.layers[0] != nil {
            for index in [0, 3, 7] { owner.layers[index] = nil }
          }
        }
        return traits.userInterfaceStyle == .dark ? 0.5 : 1.0
      })
      owner.layers = layers(8, owner: owner, alpha: alpha)
      let watched = owner.layers.map { WeakBox($0!) }
      DMTraitCollection.setOverride(Self.dark, animated: false)
      #expect(owner.freedCount == 3)
      #expect(watched.map { $0.value == nil } == [true, false, false, true, false, false, false, true])
      let kept = owner.layers.compactMap { $0 }
      #expect(kept.map(\.fill) == Array(repeating: DMColor(rgb: 0x101010), count: 5))
      #expect(kept.map(\.alpha) == Array(repeating: 0.5, count: 5))
      #expect(ThemableRegistry.shared.liveCount == 5)
      DMTraitCollection.setOverride(Self.light, animated: false)
      #expect(kept.map(\.fill) == Array(repeating: DMColor(rgb: 0xFFFFFF), count: 5))
      #expect(owner.freedCount == 3)
    }

    /// A setter (a binding with a function of its own, which the switch calls with the object)
    /// frees the objects after it; one of them, as it goes, unbinds another.
    @Test func objectsFreedByASetterDuringASwitchAreSkippedAndWhatTheirDeinitializersDidStays() {
      let owner = Owner()
      let alpha = DMDynamic(light: 1.0, dark: 0.8)
      // The first is bound before the trigger, so the switch reaches it first; the others after.
      owner.layers = layers(1, owner: owner, alpha: alpha)
      let trigger = Layer()
      let tint = DMDynamicColor(light: DMColor(rgb: 0x00FF00), dark: DMColor(rgb: 0x008000))
      trigger.dm.bind(\.fill, to: tint) { layer, color in
        layer.fill = color
        if color == DMColor(rgb: 0x008000) {
          owner.layers[1] = nil
          owner.layers[2] = nil
        }
      }
      owner.layers += layers(4, owner: owner, alpha: alpha)
      // Not through `owner.layers`, which is being changed as it runs.
      owner.layers[2]?.onDeinit = { [weak fourth = owner.layers[3]] in
        owner.freedCount += 1
        fourth?.dm.unbind(\.fill)
      }
      DMTraitCollection.setOverride(Self.dark, animated: false)
      #expect(owner.freedCount == 2)
      #expect(owner.layers[1] == nil && owner.layers[2] == nil)
      #expect(trigger.fill == DMColor(rgb: 0x008000))
      #expect(owner.layers[0]?.fill == DMColor(rgb: 0x101010))
      #expect(owner.layers[3]?.fill == DMColor(rgb: 0xFFFFFF), "unbound before the switch reached it")
      #expect(owner.layers[3]?.alpha == 0.8)
      #expect(owner.layers[4]?.fill == DMColor(rgb: 0x101010))
      #expect(ThemableRegistry.shared.liveCount == 4)
    }

    /// Objects bound alike reuse the plan entry found for the one before. A setter frees an
    /// object whose list was just set (the list goes with its entry) and binds another object,
    /// whose new list is allocated where the freed one was: that object gets its own values, not
    /// the freed list's (which write 40 bytes from offset 16, past the end of a `Dot`).
    ///
    /// The C library usually hands the freed list's memory to the next allocation of its size,
    /// but need not (the sanitizers hold freed memory back, and other threads allocate too): where
    /// it does not, the test checks only that each list gets its own values. Where it does, a kept
    /// entry matched by address alone failed this test (a debug build's check of the kept entry
    /// stopped it).
    @Test func aListMadeDuringASwitchWhereAFreedOneWasGetsItsOwnValues() {
      final class Dot: DMThemable {
        var first = 1.0
        var second = 1.0
      }
      final class Held {
        var layer: Layer?
        var freedList: ObjectIdentifier?
        var newList: ObjectIdentifier?
      }
      let held = Held()
      let quarter = DMDynamic(light: 1.0, dark: 0.25)
      let threeQuarters = DMDynamic(light: 1.0, dark: 0.75)
      let tint = DMDynamicColor(light: DMColor(rgb: 0x00FF00), dark: DMColor(rgb: 0x008000))
      let darkTint = DMColor(rgb: 0x008000)
      // The description of `\Dot.second` made now, not during the switch.
      Dot().dm.bind(\.second, to: threeQuarters)
      // The registry's order: trigger, layer, freer, dot.
      let trigger = Layer()
      trigger.dm.bind(\.fill, to: tint) { layer, color in
        layer.fill = color
        // A new list for the layer, which the switch then sets as it is now.
        guard color == darkTint, let bound = held.layer else { return }
        bound.dm.bind(\.alpha, to: quarter)
        held.freedList = ThemableRegistry.shared.storageIdentity(of: bound)
      }
      held.layer = Layer()
      held.layer?.dm.bind(\.fill, to: Self.fill)
      let dot = Dot()
      let freer = Layer()
      freer.dm.bind(\.fill, to: tint) { layer, color in
        layer.fill = color
        guard color == darkTint else { return }
        held.layer = nil
        // Drops the freed layer's entry, and its list with it.
        _ = ThemableRegistry.shared.liveCount
        dot.dm.bind(\.second, to: threeQuarters)
        held.newList = ThemableRegistry.shared.storageIdentity(of: dot)
      }
      dot.dm.bind(\.first, to: threeQuarters)
      DMTraitCollection.setOverride(Self.dark, animated: false)
      #expect(dot.first == 0.75)
      #expect(dot.second == 0.75)
      #expect(held.layer == nil)
      #expect(held.freedList != nil && held.newList != nil)
    }

    /// A new object may get the identity of a freed bound object before the freed one's entry
    /// goes: it is not taken for the freed one, neither bound nor set by a switch.
    @Test func aNewObjectWithAFreedBoundObjectsIdentityIsNotTakenForIt() {
      var layer: Layer? = Layer()
      layer?.dm.bind(\.fill, to: Self.fill)
      layer = nil
      let others = (0..<1_000).map { _ in Layer() }
      #expect(others.allSatisfy { !$0.dm.isBound(\.fill) })
      DMTraitCollection.setOverride(Self.dark, animated: false)
      #expect(others.allSatisfy { $0.fill == Layer().fill }, "unbound objects keep their own values")
      #expect(ThemableRegistry.shared.liveCount == 0)
    }
  }
}
