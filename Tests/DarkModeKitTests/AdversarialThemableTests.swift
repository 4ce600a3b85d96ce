import Testing

@testable import DarkModeKit

/// Hostile uses of bound objects outside the hierarchy (`DMThemable`), aimed at the registry that
/// reaches them through unowned references, writes planned values straight into their memory and
/// remembers the plan entry it used last: what a user sees after each switch (values, untouched
/// neighbouring fields, deinitializer counts, `liveCount`), and no crash.
extension GlobalStateTests {
  @Suite @MainActor struct AdversarialThemableTests {
    init() { DarkModeManager.reset() }

    static let lightFill = DMColor(rgb: 0xFFFFFF)
    static let darkFill = DMColor(rgb: 0x101010)
    static let fill = DMDynamicColor(light: lightFill, dark: darkFill)
    static let lightRed = DMColor(rgb: 0xFF0000)
    static let darkRed = DMColor(rgb: 0x800000)
    static let red = DMDynamicColor(light: lightRed, dark: darkRed)
    static let alpha = DMDynamic(light: 1.0, dark: 0.5)

    /// A colour and a number, and code to run when freed.
    typealias Layer = ThemableLifetimeTests.Layer

    /// A layer bound to `fill` and `alpha`, as every layer bound alike.
    static func boundLayer() -> Layer {
      let layer = Layer()
      layer.dm.bind(\.fill, to: Self.fill)
      layer.dm.bind(\.alpha, to: Self.alpha)
      return layer
    }

    private func switchTo(_ style: DMUserInterfaceStyle) {
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: style), animated: false)
    }

    final class Tally {
      var freed = 0
    }

    /// Two plain numbers; the second keeps 7 unless bound.
    final class Dot: DMThemable {
      var first = 7.0
      var second = 7.0
      let tally: Tally
      init(_ tally: Tally) { self.tally = tally }
      deinit { tally.freed += 1 }
    }

    // MARK: - Subclasses and superclasses

    /// A class hierarchy whose stored layouts differ: each subclass adds fields after its
    /// superclass's, and marks that no binding writes sit between and after the bound ones.
    /// `final` properties, so that bindings write them in place and switches copy planned values.
    class Base: DMThemable {
      final var fill = DMColor.clear
      final var alpha = 1.0
      final var baseMark: Int64 = 0x0B0B_0B0B
      var marksIntact: Bool { baseMark == 0x0B0B_0B0B }
    }

    class Wide: Base {
      final var padding = (1.0, 2.0, 3.0)
      final var tint = DMColor.clear
      final var wideMark: Int64 = 0x0C0C_0C0C
      override var marksIntact: Bool {
        super.marksIntact && padding == (1.0, 2.0, 3.0) && wideMark == 0x0C0C_0C0C
      }
    }

    final class Widest: Wide {
      final var flag = false
      final var level: Float = 0
      final var widestMark: Int64 = 0x0D0D_0D0D
      override var marksIntact: Bool { super.marksIntact && widestMark == 0x0D0D_0D0D }
    }

    final class Narrow: Base {
      final var bit: UInt8 = 0
      final var narrowMark: UInt8 = 0x7E
      override var marksIntact: Bool { super.marksIntact && narrowMark == 0x7E }
    }

    /// Objects of a base class, two subclasses of it and a subclass of a subclass, bound alike
    /// class by class (in different orders, some through the base class's key paths, one
    /// property through two key paths) and registered interleaved, so that the remembered plan
    /// entry changes at every object; twenty switches, one list changed and changed back
    /// between them. Each object holds its own values, and no field around them changes.
    @Test func subclassesAndSuperclassesBoundAlikeKeepTheirOwnLayoutsOverTwentySwitches() {
      let flag = DMDynamic(light: false, dark: true)
      let level = DMDynamic<Float>(light: 0.25, dark: 0.75)
      let bit = DMDynamic<UInt8>(light: 1, dark: 2)
      var bases: [Base] = []
      var wides: [Wide] = []
      var widests: [Widest] = []
      var narrows: [Narrow] = []
      var widesAsBase: [Base] = []
      var doubly: [Widest] = []
      for _ in 0..<8 {
        let base = Base()
        base.dm.bind(\.fill, to: Self.fill)
        base.dm.bind(\.alpha, to: Self.alpha)
        bases.append(base)
        let wide = Wide()
        wide.dm.bind(\.tint, to: Self.red)
        wide.dm.bind(\.fill, to: Self.fill)
        wide.dm.bind(\.alpha, to: Self.alpha)
        wides.append(wide)
        let widest = Widest()
        widest.dm.bind(\.level, to: level)
        widest.dm.bind(\.alpha, to: Self.alpha)
        widest.dm.bind(\.fill, to: Self.fill)
        widest.dm.bind(\.tint, to: Self.red)
        widest.dm.bind(\.flag, to: flag)
        widests.append(widest)
        let narrow = Narrow()
        narrow.dm.bind(\.bit, to: bit)
        narrow.dm.bind(\.fill, to: Self.fill)
        narrows.append(narrow)
        // A subclass's object bound through the base class's key paths.
        let asBase: Base = Wide()
        asBase.dm.bind(\.alpha, to: Self.alpha)
        asBase.dm.bind(\.fill, to: Self.fill)
        widesAsBase.append(asBase)
        // One property through two key paths: the later binding is applied last.
        let both = Widest()
        (both as Base).dm.bind(\.fill, to: Self.red)
        both.dm.bind(\.fill, to: Self.fill)
        both.dm.bind(\.tint, to: Self.red)
        doubly.append(both)
      }
      let all: [Base] = bases + wides + widests + narrows + widesAsBase + doubly
      #expect(Set(all.compactMap { ThemableRegistry.shared.storageIdentity(of: $0) }).count == 6)
      #expect((doubly[0] as Base).dm.isBound(\.fill) && doubly[0].dm.isBound(\.fill))

      var frozenTint: DMColor?
      for step in 0..<20 {
        let dark = step.isMultiple(of: 2)
        if step == 7 {
          widests[0].dm.unbind(\.tint)
          frozenTint = widests[0].tint
        }
        if step == 13 {
          widests[0].dm.bind(\.tint, to: Self.red)
          frozenTint = nil
        }
        switchTo(dark ? .dark : .light)
        let fill: DMColor = dark ? Self.darkFill : Self.lightFill
        let alpha: Double = dark ? 0.5 : 1.0
        let tint: DMColor = dark ? Self.darkRed : Self.lightRed
        let expectedLevel: Float = dark ? 0.75 : 0.25
        let bitValue: UInt8 = dark ? 2 : 1
        let unboundAlpha: Double = 1.0
        let unboundLevel: Float = 0
        var problems: [String] = []
        for (index, base) in bases.enumerated() {
          let holds = base.fill == fill && base.alpha == alpha
          if !holds || !base.marksIntact { problems.append("step \(step): base \(index)") }
        }
        for (index, wide) in wides.enumerated() {
          let holds = wide.fill == fill && wide.alpha == alpha && wide.tint == tint
          if !holds || !wide.marksIntact { problems.append("step \(step): wide \(index)") }
        }
        for (index, widest) in widests.enumerated() {
          let expectedTint: DMColor = index == 0 ? frozenTint ?? tint : tint
          let colours = widest.fill == fill && widest.tint == expectedTint
          let others = widest.alpha == alpha && widest.flag == dark && widest.level == expectedLevel
          if !colours || !others || !widest.marksIntact { problems.append("step \(step): widest \(index)") }
        }
        for (index, narrow) in narrows.enumerated() {
          let holds = narrow.fill == fill && narrow.bit == bitValue && narrow.alpha == unboundAlpha
          if !holds || !narrow.marksIntact { problems.append("step \(step): narrow \(index)") }
        }
        for (index, asBase) in widesAsBase.enumerated() {
          guard let wide = asBase as? Wide else { continue }
          let holds = wide.fill == fill && wide.alpha == alpha && wide.tint == DMColor.clear
          if !holds || !wide.marksIntact { problems.append("step \(step): wide as base \(index)") }
        }
        for (index, both) in doubly.enumerated() {
          let colours = both.fill == fill && both.tint == tint
          let unbound = both.alpha == unboundAlpha && !both.flag && both.level == unboundLevel
          if !colours || !unbound || !both.marksIntact {
            problems.append("step \(step): doubly bound \(index)")
          }
        }
        #expect(problems == [])
      }
      #expect(ThemableRegistry.shared.liveCount == all.count)
      withExtendedLifetime(all) {}
    }

    // MARK: - Plan table slots

    struct Block: Equatable, Sendable {
      var a, b, c, d, e, f, g, h: Double
      init(_ base: Double) {
        a = base
        b = base + 1
        c = base + 2
        d = base + 3
        e = base + 4
        f = base + 5
        g = base + 6
        h = base + 7
      }
    }

    /// 8 bytes bound, then 64 that a wrong 64-byte plan (a `Big`'s) or 32-byte one (a `Mid`'s)
    /// would overwrite.
    final class Small: DMThemable {
      var level = 0.0
      var band = Block(-1)
    }

    /// 64 bytes bound at the offset where a `Small` has its bound number.
    final class Big: DMThemable {
      var block = Block(0)
      var tail: Int64 = 0x7A11
    }

    /// 32 bytes bound between two marks.
    final class Mid: DMThemable {
      var mark: Int64 = 0x3A3A
      var tint = DMColor.clear
      var after: Int64 = 0x4B4B
    }

    /// Three lists of three classes with different layouts, whose objects alternate in the
    /// registry with the objects of twenty other lists: each object gets its own values, and
    /// nothing around them is written.
    @Test func listsOfThreeLayoutsAlternatingAmongTwentyOtherListsEachGetTheirOwnValues() {
      let level = DMDynamic(light: 1.0, dark: 2.0)
      let block = DMDynamic(light: Block(10), dark: Block(20))
      var smalls: [Small] = []
      var bigs: [Big] = []
      var mids: [Mid] = []
      var extras: [Small] = []
      let small = Small()
      small.dm.bind(\.level, to: level)
      smalls.append(small)
      let big = Big()
      big.dm.bind(\.block, to: block)
      bigs.append(big)
      let mid = Mid()
      mid.dm.bind(\.tint, to: Self.red)
      mids.append(mid)
      let lists: [ObjectIdentifier?] = [small, big, mid].map {
        ThemableRegistry.shared.storageIdentity(of: $0 as AnyObject)
      }
      #expect(!lists.contains(nil))
      #expect(Set(lists).count == 3)
      for index in 0..<20 {
        let extra = Small()
        extra.dm.bind(\.level, to: DMDynamic(light: 100 + Double(index), dark: 200 + Double(index)))
        extras.append(extra)
        let small = Small()
        small.dm.bind(\.level, to: level)
        smalls.append(small)
        let big = Big()
        big.dm.bind(\.block, to: block)
        bigs.append(big)
        let mid = Mid()
        mid.dm.bind(\.tint, to: Self.red)
        mids.append(mid)
      }
      #expect(Set(extras.map { ThemableRegistry.shared.storageIdentity(of: $0) }).count == 20)
      #expect(
        Set(smalls.map { ThemableRegistry.shared.storageIdentity(of: $0) }) == [lists[0]],
        "bound alike, one list")
      for step in 0..<6 {
        let dark = step.isMultiple(of: 2)
        switchTo(dark ? .dark : .light)
        let expectedLevel: Double = dark ? 2 : 1
        let expectedBlock = Block(dark ? 20 : 10)
        let tint: DMColor = dark ? Self.darkRed : Self.lightRed
        let extraBase: Double = dark ? 200 : 100
        let band = Block(-1)
        var problems: [String] = []
        for (index, small) in smalls.enumerated() where small.level != expectedLevel || small.band != band {
          problems.append("step \(step): small \(index) \(small.level)")
        }
        for (index, big) in bigs.enumerated() where big.block != expectedBlock || big.tail != 0x7A11 {
          problems.append("step \(step): big \(index) \(big.block.a)")
        }
        for (index, mid) in mids.enumerated() {
          let marks = mid.mark == 0x3A3A && mid.after == 0x4B4B
          if mid.tint != tint || !marks { problems.append("step \(step): mid \(index) \(mid.tint)") }
        }
        for (index, extra) in extras.enumerated()
        where extra.level != extraBase + Double(index) || extra.band != band {
          problems.append("step \(step): extra \(index) \(extra.level)")
        }
        #expect(problems == [])
      }
      #expect(ThemableRegistry.shared.liveCount == 83)
      withExtendedLifetime((smalls, bigs, mids, extras)) {}
    }

    // MARK: - Memory reuse

    /// A hundred and twenty times: a new object of the same class takes the place of the one
    /// bound before (whose memory the previous switch gave back), bound to a value of its own,
    /// and every third time to one more; a short-lived object bound otherwise is freed before the
    /// switch. Each new object gets its own values only (an object not bound to the second value
    /// keeps its 7), and the registry counts one object.
    @Test func objectsFreedAndReplacedByNewOnesOfTheSameClassBetweenSwitchesGetOnlyTheirOwnValues() {
      let tally = Tally()
      let second = DMDynamic(light: 3.0, dark: 4.0)
      var held: Dot?
      var problems: [String] = []
      for round in 1...120 {
        let value = Double(round)
        let dot = Dot(tally)
        dot.dm.bind(\.first, to: DMDynamic(light: value, dark: -value))
        let bindsSecond = round.isMultiple(of: 3)
        if bindsSecond { dot.dm.bind(\.second, to: second) }
        do {
          let brief = Dot(tally)
          brief.dm.bind(\.first, to: second)
        }
        held = dot
        let dark = !round.isMultiple(of: 2)
        switchTo(dark ? .dark : .light)
        let expectedFirst: Double = dark ? -value : value
        if dot.first != expectedFirst { problems.append("round \(round): first \(dot.first)") }
        let secondValue: Double = dark ? 4.0 : 3.0
        let expectedSecond: Double = bindsSecond ? secondValue : 7.0
        if dot.second != expectedSecond { problems.append("round \(round): second \(dot.second)") }
        let live = ThemableRegistry.shared.liveCount
        if live != 1 { problems.append("round \(round): \(live) live") }
        if tally.freed != 2 * round - 1 { problems.append("round \(round): \(tally.freed) freed") }
      }
      #expect(problems == [])
      #expect(held?.first == 120, "the last object, switched to light")
      held = nil
      #expect(tally.freed == 240)
      #expect(ThemableRegistry.shared.liveCount == 0)
    }

    // MARK: - Freed in an observer

    @MainActor final class Watched: DMThemable {
      var onFill: (@MainActor (DMColor) -> Void)?
      var fill = DMColor.clear {
        didSet { onFill?(fill) }
      }
    }

    final class Stage: @unchecked Sendable {
      var layers: [Layer?] = []
      var watched: Watched?
      var late: [Layer] = []
      var freed = 0
      var done = false
    }

    static func counted(_ stage: Stage) -> Layer {
      let layer = boundLayer()
      layer.onDeinit = { stage.freed += 1 }
      return layer
    }

    /// An observed property's `didSet`, run by the switch, frees a layer already set, a layer not
    /// reached yet and its own object, and binds seventy new layers, enough for the registry to
    /// sweep in the middle of the switch. The freed ones go and are not counted; the others,
    /// the new ones included, follow this switch and the next.
    @Test func objectsFreedAndBoundInADidSetDuringASwitchAreSkippedOrFollow() {
      let stage = Stage()
      stage.layers = [Self.counted(stage), Self.counted(stage)]
      weak var weakWatched: Watched?
      do {
        let watched = Watched()
        watched.dm.bind(\.fill, to: Self.red)
        watched.onFill = { color in
          guard color == Self.darkRed, !stage.done else { return }
          stage.done = true
          stage.layers[1] = nil
          stage.layers[3] = nil
          stage.watched = nil
          for _ in 0..<70 { stage.late.append(Self.counted(stage)) }
        }
        stage.watched = watched
        weakWatched = watched
      }
      stage.layers += [Self.counted(stage), Self.counted(stage)]
      switchTo(.dark)
      #expect(stage.done)
      #expect(stage.freed == 2)
      #expect(weakWatched == nil)
      let kept = [stage.layers[0], stage.layers[2]].compactMap { $0 } + stage.late
      #expect(kept.count == 72)
      #expect(kept.allSatisfy { $0.fill == Self.darkFill && $0.alpha == 0.5 })
      #expect(ThemableRegistry.shared.liveCount == 72)
      switchTo(.light)
      #expect(kept.allSatisfy { $0.fill == Self.lightFill && $0.alpha == 1.0 })
      #expect(stage.freed == 2)
      #expect(ThemableRegistry.shared.liveCount == 72)
    }

    // MARK: - Custom trait environments

    /// A trait environment of the app's own, outside the hierarchy, whose collection the app sets.
    @MainActor final class Panel: DMTraitEnvironment {
      var fill = DMColor.clear
      var alpha = 1.0
      var own: DMTraitCollection
      init(_ own: DMTraitCollection) { self.own = own }
      var dmTraitCollection: DMTraitCollection { own }
      func dmTraitCollectionDidChange(_ previousTraitCollection: DMTraitCollection?) {}
    }

    /// Panels bound alike, whose own collections differ from one to the next (by style, and by
    /// contrast alone), alternate with plain layers bound to the same values. Each panel holds
    /// the values of its own collection whatever the global style, and its new collection's
    /// after the app changes it; each layer follows the global style.
    @Test func customTraitEnvironmentsBoundAlikeFollowTheirOwnCollectionsAmongPlainObjects() {
      let light = DMColor(rgb: 0xEEEEEE)
      let dark = DMColor(rgb: 0x222222)
      let highLight = DMColor(rgb: 0xFAFAFA)
      let highDark = DMColor(rgb: 0x050505)
      let contrastFill = DMDynamicColor(
        light: light, dark: dark, highContrastLight: highLight, highContrastDark: highDark)
      let contrastAlpha = DMDynamic(light: 1.0, dark: 0.5, highContrastLight: 0.9, highContrastDark: 0.4)
      let collections: [(traits: DMTraitCollection, fill: DMColor, alpha: Double)] = [
        (DMTraitCollection(userInterfaceStyle: .dark), dark, 0.5),
        (DMTraitCollection(userInterfaceStyle: .dark, accessibilityContrast: .high), highDark, 0.4),
        (DMTraitCollection(userInterfaceStyle: .light, accessibilityContrast: .high), highLight, 0.9),
        (DMTraitCollection(userInterfaceStyle: .light), light, 1.0),
        (DMTraitCollection(), light, 1.0),
      ]
      var panels: [Panel] = []
      var layers: [Layer] = []
      for index in 0..<20 {
        let panel = Panel(collections[index % collections.count].traits)
        panel.dm.bind(\.fill, to: contrastFill)
        panel.dm.bind(\.alpha, to: contrastAlpha)
        panels.append(panel)
        let layer = Layer()
        layer.dm.bind(\.fill, to: contrastFill)
        layer.dm.bind(\.alpha, to: contrastAlpha)
        layers.append(layer)
      }
      #expect(ThemableRegistry.shared.storageIdentity(of: panels[0]) != nil)
      #expect(
        Set(panels.map { ThemableRegistry.shared.storageIdentity(of: $0) }).count == 1,
        "bound alike, one list")
      var shift = 0
      for step in 0..<4 {
        if step == 2 {
          shift = 1
          for (index, panel) in panels.enumerated() {
            panel.own = collections[(index + shift) % collections.count].traits
          }
        }
        let isDark = step.isMultiple(of: 2)
        switchTo(isDark ? .dark : .light)
        var problems: [String] = []
        for (index, panel) in panels.enumerated() {
          let expected = collections[(index + shift) % collections.count]
          if panel.fill != expected.fill || panel.alpha != expected.alpha {
            problems.append("step \(step): panel \(index) \(panel.fill) \(panel.alpha)")
          }
        }
        let layerFill: DMColor = isDark ? dark : light
        let layerAlpha: Double = isDark ? 0.5 : 1.0
        for (index, layer) in layers.enumerated() where layer.fill != layerFill || layer.alpha != layerAlpha {
          problems.append("step \(step): layer \(index) \(layer.fill) \(layer.alpha)")
        }
        #expect(problems == [])
      }
      #expect(ThemableRegistry.shared.liveCount == 40)
      withExtendedLifetime((panels, layers)) {}
    }

    // MARK: - Binding from deinitializers

    @MainActor final class Phoenix: DMThemable {
      var fill = DMColor.clear
      var alpha = 1.0
      var onDeinit: (@MainActor (Phoenix) -> Void)?
      isolated deinit { onDeinit?(self) }
    }

    final class Cast: @unchecked Sendable {
      var victim: Phoenix?
      var loner: Phoenix?
      var survivor: Layer?
      var other: Layer?
      var newcomers: [Layer] = []
      var phoenixesFreed = 0
    }

    /// A setter frees a bound object during a switch; its deinitializer binds a new object, binds
    /// another object to another value, unbinds a third before the switch reaches it, and binds
    /// the dying object itself. Later, outside a switch, an object never bound binds itself and a
    /// new object as it goes. The new objects follow, the dying ones are never counted, and the
    /// unbound one keeps what it had.
    @Test func deinitializersThatBindDuringAndOutsideASwitchLeaveTheRegistryRight() {
      let cast = Cast()
      let green = DMDynamicColor(light: DMColor(rgb: 0x00FF00), dark: DMColor(rgb: 0x008000))
      let trigger = Layer()
      trigger.dm.bind(\.fill, to: green) { layer, color in
        layer.fill = color
        if color == DMColor(rgb: 0x008000) { cast.victim = nil }
      }
      weak var weakVictim: Phoenix?
      do {
        let victim = Phoenix()
        victim.dm.bind(\.fill, to: Self.fill)
        victim.onDeinit = { dying in
          cast.phoenixesFreed += 1
          let newcomer = Layer()
          newcomer.dm.bind(\.fill, to: Self.fill)
          cast.newcomers.append(newcomer)
          cast.survivor?.dm.bind(\.fill, to: Self.red)
          cast.other?.dm.unbind(\.fill)
          cast.other?.dm.unbind(\.alpha)
          dying.dm.bind(\.alpha, to: Self.alpha)
        }
        cast.victim = victim
        weakVictim = victim
      }
      let survivor = Self.boundLayer()
      let other = Self.boundLayer()
      let tail = Self.boundLayer()
      cast.survivor = survivor
      cast.other = other

      switchTo(.dark)
      #expect(cast.phoenixesFreed == 1)
      #expect(weakVictim == nil)
      #expect(trigger.fill == DMColor(rgb: 0x008000))
      #expect(cast.newcomers.map(\.fill) == [Self.darkFill])
      #expect(survivor.fill == Self.darkRed && survivor.alpha == 0.5)
      #expect(other.fill == Self.lightFill && other.alpha == 1.0, "unbound before the switch reached it")
      #expect(!other.dm.isBound(\.fill) && !other.dm.isBound(\.alpha))
      #expect(tail.fill == Self.darkFill && tail.alpha == 0.5)
      #expect(ThemableRegistry.shared.liveCount == 4)

      do {
        let loner = Phoenix()
        loner.onDeinit = { dying in
          cast.phoenixesFreed += 1
          dying.dm.bind(\.fill, to: Self.fill)
          dying.dm.bind(\.alpha, to: Self.alpha)
          let newcomer = Layer()
          newcomer.dm.bind(\.fill, to: Self.red)
          cast.newcomers.append(newcomer)
        }
        cast.loner = loner
      }
      cast.loner = nil
      #expect(cast.phoenixesFreed == 2)
      #expect(cast.newcomers.map(\.fill) == [Self.darkFill, Self.darkRed])
      #expect(ThemableRegistry.shared.liveCount == 5)

      other.fill = DMColor(rgb: 0x123456)
      switchTo(.light)
      #expect(cast.newcomers.map(\.fill) == [Self.lightFill, Self.lightRed])
      #expect(survivor.fill == Self.lightRed && survivor.alpha == 1.0)
      #expect(tail.fill == Self.lightFill)
      #expect(other.fill == DMColor(rgb: 0x123456))
      #expect(ThemableRegistry.shared.liveCount == 5)
      switchTo(.dark)
      #expect(cast.newcomers.map(\.fill) == [Self.darkFill, Self.darkRed])
      #expect(cast.phoenixesFreed == 2)
      withExtendedLifetime((trigger, survivor, other, tail)) {}
    }

    // MARK: - Ten thousand

    final class Spot: DMThemable {
      var fill = DMColor.clear
      var alpha = 1.0
      let tally: Tally
      init(_ tally: Tally) { self.tally = tally }
      deinit { tally.freed += 1 }
    }

    struct Weak {
      weak var value: AnyObject?
      init(_ value: AnyObject) { self.value = value }
    }

    /// Ten thousand objects of two classes bound alike, some with weak references to them; every
    /// other one is freed, then the style switches. The registry counts the five thousand left,
    /// which all follow, and nothing once they are freed too.
    @Test func tenThousandObjectsWithEveryOtherFreedBeforeASwitch() {
      let tally = Tally()
      let number = DMDynamic(light: 3.0, dark: 4.0)
      var objects: [AnyObject?] = []
      objects.reserveCapacity(10_000)
      var watched: [Weak] = []
      for index in 0..<10_000 {
        if index % 3 == 0 {
          let dot = Dot(tally)
          dot.dm.bind(\.first, to: number)
          objects.append(dot)
        } else {
          let spot = Spot(tally)
          spot.dm.bind(\.fill, to: Self.fill)
          spot.dm.bind(\.alpha, to: Self.alpha)
          objects.append(spot)
        }
        if index % 97 == 0, let object = objects[index] { watched.append(Weak(object)) }
      }
      for index in stride(from: 1, to: objects.count, by: 2) { objects[index] = nil }
      #expect(tally.freed == 5_000)

      // The conditions are lists rather than `||`: its right side, an autoclosure, fails the
      // release build's data-race check here.
      func wrong(dark: Bool) -> [Int] {
        let number: Double = dark ? 4.0 : 3.0
        let unbound: Double = 7.0
        let fill: DMColor = dark ? Self.darkFill : Self.lightFill
        let alpha: Double = dark ? 0.5 : 1.0
        var found: [Int] = []
        for (index, object) in objects.enumerated() {
          let isWrong: Bool
          if let object {
            if let dot = object as? Dot {
              isWrong = [dot.first != number, dot.second != unbound].contains(true)
            } else if let spot = object as? Spot {
              isWrong = [spot.fill != fill, spot.alpha != alpha].contains(true)
            } else {
              isWrong = true
            }
          } else {
            isWrong = index.isMultiple(of: 2)
          }
          if isWrong { found.append(index) }
        }
        return found
      }
      switchTo(.dark)
      #expect(ThemableRegistry.shared.liveCount == 5_000)
      #expect(wrong(dark: true) == [])
      #expect(watched.indices.allSatisfy { (watched[$0].value == nil) == !(97 * $0).isMultiple(of: 2) })
      switchTo(.light)
      #expect(wrong(dark: false) == [])
      #expect(ThemableRegistry.shared.liveCount == 5_000)
      objects.removeAll()
      #expect(tally.freed == 10_000)
      switchTo(.dark)
      #expect(ThemableRegistry.shared.liveCount == 0)
      #expect(watched.allSatisfy { $0.value == nil })
    }

    // MARK: - Unbinding everything from a setter

    /// During a switch, an object's own setter unbinds every binding of its object (the running
    /// one included) and binds it again to other values, does the same three times over to an
    /// object after it, and unbinds every binding of a third and sets its colour. From then on
    /// only the new bindings count: the setter never runs again, the third keeps its colour, and
    /// the registry counts the unbound object no more.
    @Test func aSetterThatUnbindsEverythingAndRebindsDuringASwitchLeavesOnlyTheNewBindings() {
      final class Refs: @unchecked Sendable {
        var rebound: Layer?
        var emptied: Layer?
        var armed = false
        var calls = 0
      }
      let refs = Refs()
      let quarter = DMDynamic(light: 0.75, dark: 0.25)
      let first = Layer()
      first.dm.bind(\.alpha, to: Self.alpha)
      first.dm.bind(\.fill, to: Self.fill) { layer, color in
        refs.calls += 1
        layer.fill = color
        guard refs.armed, color == Self.darkFill else { return }
        refs.armed = false
        layer.dm.unbind(\.alpha)
        layer.dm.unbind(\.fill)
        layer.dm.bind(\.fill, to: Self.red)
        layer.dm.bind(\.alpha, to: quarter)
        if let rebound = refs.rebound {
          for _ in 0..<3 {
            rebound.dm.unbind(\.fill)
            rebound.dm.unbind(\.alpha)
            rebound.dm.bind(\.alpha, to: quarter)
            rebound.dm.bind(\.fill, to: Self.red)
          }
        }
        if let emptied = refs.emptied {
          emptied.dm.unbind(\.fill)
          emptied.dm.unbind(\.alpha)
          emptied.fill = DMColor(rgb: 0x123456)
        }
      }
      let rebound = Self.boundLayer()
      let emptied = Self.boundLayer()
      let others = [Self.boundLayer(), Self.boundLayer()]
      refs.rebound = rebound
      refs.emptied = emptied
      refs.armed = true

      switchTo(.dark)
      #expect(refs.calls == 2)
      #expect(first.fill == Self.darkRed && first.alpha == 0.25)
      #expect(first.dm.isBound(\.fill) && first.dm.isBound(\.alpha))
      #expect(rebound.fill == Self.darkRed && rebound.alpha == 0.25)
      #expect(emptied.fill == DMColor(rgb: 0x123456) && emptied.alpha == 1.0)
      #expect(!emptied.dm.isBound(\.fill) && !emptied.dm.isBound(\.alpha))
      #expect(others.allSatisfy { $0.fill == Self.darkFill && $0.alpha == 0.5 })
      #expect(ThemableRegistry.shared.liveCount == 4)

      switchTo(.light)
      #expect(refs.calls == 2, "the setter was unbound")
      #expect(first.fill == Self.lightRed && first.alpha == 0.75)
      #expect(rebound.fill == Self.lightRed && rebound.alpha == 0.75)
      #expect(emptied.fill == DMColor(rgb: 0x123456))
      #expect(others.allSatisfy { $0.fill == Self.lightFill && $0.alpha == 1.0 })
      switchTo(.dark)
      #expect(first.fill == Self.darkRed && first.alpha == 0.25)
      #expect(rebound.fill == Self.darkRed && rebound.alpha == 0.25)
      #expect(ThemableRegistry.shared.liveCount == 4)
      withExtendedLifetime((first, rebound, emptied, others)) {}
    }

    // MARK: - Colour tables

    final class Label: DMThemable {
      var text = DMColor.clear
      var back = DMColor.clear
    }

    final class ReloadState: @unchecked Sendable {
      var armed = false
      var reloads = 0
      var failures = 0
    }

    /// Objects of two classes bound alike to keys of a table (and a plain value), with the table
    /// reloaded between switches: with new colours, with the key's row moved and another key
    /// gone, back, and once from a setter in the middle of a switch, after some objects already
    /// got the old table's colours. After each step every object shows the current table's
    /// colours, and magenta for the missing key.
    @Test func aColourTableReloadedBetweenAndDuringSwitchesReachesEveryObjectBoundAlike() throws {
      let table = try DMColorTable(string: "NORMAL NIGHT\n#111111 #222222 BG\n#333333 #444444 FG\n")
      table.missingKeyHandler = { _ in }
      let bg = DMDynamicColor(key: "BG", in: table)
      let fg = DMDynamicColor(key: "FG", in: table)
      let state = ReloadState()
      let duringSwitch = "NORMAL NIGHT\n#0a0a0a #0b0b0b BG\n#0c0c0c #0d0d0d FG\n"
      let trigger = Layer()
      var layers: [Layer] = []
      var labels: [Label] = []
      for index in 0..<12 {
        if index == 6 {
          trigger.dm.bind(\.alpha, to: Self.alpha) { layer, value in
            layer.alpha = value
            guard value == 0.5, state.armed else { return }
            state.armed = false
            do {
              try table.reload(string: duringSwitch)
              state.reloads += 1
            } catch {
              state.failures += 1
            }
          }
        }
        let layer = Layer()
        layer.dm.bind(\.fill, to: index.isMultiple(of: 2) ? bg : fg)
        layer.dm.bind(\.alpha, to: Self.alpha)
        layers.append(layer)
        let label = Label()
        label.dm.bind(\.text, to: fg)
        label.dm.bind(\.back, to: bg)
        labels.append(label)
      }
      func problems(_ step: String, bg: DMColor, fg: DMColor, dark: Bool) -> [String] {
        let alpha: Double = dark ? 0.5 : 1.0
        var found: [String] = []
        for (index, layer) in layers.enumerated()
        where [layer.fill != (index.isMultiple(of: 2) ? bg : fg), layer.alpha != alpha].contains(true) {
          found.append("\(step): layer \(index) \(layer.fill)")
        }
        for (index, label) in labels.enumerated() where [label.text != fg, label.back != bg].contains(true) {
          found.append("\(step): label \(index) \(label.text) \(label.back)")
        }
        return found
      }
      #expect(problems("bound", bg: DMColor(rgb: 0x111111), fg: DMColor(rgb: 0x333333), dark: false) == [])
      try table.reload(string: "NORMAL NIGHT\n#aaaaaa #bbbbbb BG\n#cccccc #dddddd FG\n")
      #expect(problems("reloaded", bg: DMColor(rgb: 0xAAAAAA), fg: DMColor(rgb: 0xCCCCCC), dark: false) == [])
      switchTo(.dark)
      #expect(problems("dark", bg: DMColor(rgb: 0xBBBBBB), fg: DMColor(rgb: 0xDDDDDD), dark: true) == [])
      try table.reload(string: "NORMAL NIGHT\n#050505 #060606 NEW\n#020202 #030303 BG\n")
      #expect(problems("moved and missing", bg: DMColor(rgb: 0x030303), fg: .magenta, dark: true) == [])
      switchTo(.light)
      #expect(problems("missing, light", bg: DMColor(rgb: 0x020202), fg: .magenta, dark: false) == [])
      try table.reload(string: "NORMAL NIGHT\n#111111 #222222 BG\n#333333 #444444 FG\n")
      #expect(problems("back", bg: DMColor(rgb: 0x111111), fg: DMColor(rgb: 0x333333), dark: false) == [])
      state.armed = true
      switchTo(.dark)
      #expect(state.reloads == 1 && state.failures == 0)
      #expect(trigger.alpha == 0.5)
      let reloadedInASwitch = problems(
        "reloaded in a switch", bg: DMColor(rgb: 0x0B0B0B), fg: DMColor(rgb: 0x0D0D0D), dark: true)
      #expect(reloadedInASwitch == [])
      switchTo(.light)
      #expect(problems("after", bg: DMColor(rgb: 0x0A0A0A), fg: DMColor(rgb: 0x0C0C0C), dark: false) == [])
      #expect(state.reloads == 1)
      #expect(ThemableRegistry.shared.liveCount == 25)
      withExtendedLifetime((trigger, layers, labels)) {}
    }

    // MARK: - A key path through another object

    /// Reaches its colour through `target`: itself until it is redirected.
    final class Proxy: DMThemable {
      var fill = DMColor.clear
      var redirect: Proxy?
      var target: Proxy { redirect ?? self }
    }

    /// A key path through a reference (`\.target.fill`) that reaches the object itself when it
    /// is bound, and another object once the app redirects it: a switch sets the property the
    /// key path reaches then, as `object[keyPath: path] = value` would, and leaves the object's
    /// own property alone. The same path bound while it reaches another object, and then the
    /// object itself, does so too.
    @Test func aKeyPathThroughAReferenceSetsWhatItReachesAtEachSwitch() {
      let proxy = Proxy()
      let elsewhere = Proxy()
      proxy.dm.bind(\.target.fill, to: Self.fill)
      #expect(proxy.fill == Self.lightFill, "the path reaches the proxy itself for now")
      proxy.redirect = elsewhere

      let redirected = Proxy()
      let first = Proxy()
      redirected.redirect = first
      redirected.dm.bind(\.target.fill, to: Self.fill)
      #expect(first.fill == Self.lightFill)
      redirected.redirect = nil

      switchTo(.dark)
      #expect(elsewhere.fill == Self.darkFill, "what proxy[keyPath: \\.target.fill] = value sets")
      #expect(proxy.fill == Self.lightFill, "the proxy's own colour is not bound")
      #expect(redirected.fill == Self.darkFill)
      #expect(first.fill == Self.lightFill)
      withExtendedLifetime((proxy, elsewhere, redirected, first)) {}
    }
  }
}
