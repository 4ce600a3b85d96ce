import Testing

@testable import DarkModeKit

@MainActor
final class SwatchView: DMView {
  var backgroundColor = DMColor.clear
  var cornerRadius = 0.0
  var title = ""
  var backgroundSeenInCallback: DMColor?
  var currentSeenInBinding: DMTraitCollection?
  var metrics = Metrics(padding: 0, weight: "")

  struct Metrics: Equatable, Sendable {
    var padding: Double
    var weight: String
  }

  override func dmTraitCollectionDidChange(_ previousTraitCollection: DMTraitCollection?) {
    backgroundSeenInCallback = backgroundColor
  }
}

/// A subscript argument that says when it is freed.
final class Ticket: Hashable, @unchecked Sendable {
  nonisolated(unsafe) static var onFree: (() -> Void)?
  let number: Int
  init(_ number: Int) { self.number = number }
  deinit { Ticket.onFree?() }
  static func == (lhs: Ticket, rhs: Ticket) -> Bool { lhs.number == rhs.number }
  func hash(into hasher: inout Hasher) { hasher.combine(number) }
}

/// A view with a property for each ticket.
@MainActor
final class TicketedView: DMView {
  var levels: [Int: Double] = [:]
  subscript(ticket: Ticket) -> Double {
    get { levels[ticket.number] ?? 0 }
    set { levels[ticket.number] = newValue }
  }
}

/// An object with a row of numbers.
final class Dial: DMThemable {
  var values: [Double]
  init(count: Int) { values = Array(repeating: 0, count: count) }
}

final class Gauge: DMThemable {
  struct Reading { var value = 0.0 }
  var reading = Reading()
}

final class Layer: DMThemable {
  var fillColor = DMColor.clear
  var opacity = 1.0
}

extension GlobalStateTests {
  @Suite @MainActor struct BindingTests {
    init() { DarkModeManager.reset() }

    private let background = DMDynamicColor(light: .white, dark: .black)

    @Test func bindingSetsTheValueAtOnceAndBeforeTheCallback() {
      let window = DMWindow()
      let view = SwatchView()
      view.overrideUserInterfaceStyle = .dark
      view.dm.bind(\.backgroundColor, to: background)
      #expect(view.backgroundColor == .black)  // detached: resolved for its own traits
      window.addSubview(view)
      window.makeKeyAndVisible()
      view.overrideUserInterfaceStyle = .unspecified
      #expect(view.backgroundColor == .white)
      #expect(view.backgroundSeenInCallback == .white)
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(view.backgroundColor == .black)
      #expect(view.backgroundSeenInCallback == .black)
    }

    @Test func valuesOfAnyTypeBind() {
      let window = DMWindow()
      let view = SwatchView()
      window.addSubview(view)
      window.makeKeyAndVisible()
      view.dm.bind(\.cornerRadius, to: DMDynamic(light: 4, dark: 6))
      view.dm.bind(\.title, to: DMDynamic(themes: ["RED": "red"], fallback: "plain"))
      view.dm.bind(
        \.metrics,
        to: DMDynamic(light: .init(padding: 8, weight: "regular"), dark: .init(padding: 10, weight: "medium"))
      )
      #expect(view.cornerRadius == 4)
      #expect(view.title == "plain")
      // RED, a bare name, is a light theme: choosing it keeps the light values.
      DMTraitCollection.setOverride(DMTraitCollection(theme: "RED"), animated: false)
      #expect(view.cornerRadius == 4)
      #expect(view.title == "red")
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(view.cornerRadius == 6)
      #expect(view.title == "plain")
      #expect(view.metrics == .init(padding: 10, weight: "medium"))
    }

    @Test func currentInsideABindingUpdateIsTheEnvironmentsCollection() {
      let window = DMWindow()
      let view = SwatchView()
      view.overrideTraitCollection = DMTraitCollection(theme: "RED")
      window.addSubview(view)
      window.makeKeyAndVisible()
      let probe = DMDynamic { _ in DMTraitCollection.current.theme?.rawValue ?? "none" }
      view.dm.bind(\.title, to: probe)
      #expect(view.title == "RED")
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(view.title == "RED")
    }

    @Test func bindingTheSameKeyPathAgainReplacesIt() {
      let window = DMWindow()
      let view = SwatchView()
      window.addSubview(view)
      window.makeKeyAndVisible()
      view.dm.bind(\.backgroundColor, to: background)
      view.dm.bind(\.backgroundColor, to: DMDynamic(light: .red, dark: .blue))
      #expect(view.backgroundColor == .red)
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(view.backgroundColor == .blue)
    }

    @Test func unbindStopsUpdatesAndKeepsTheValue() {
      let window = DMWindow()
      let view = SwatchView()
      window.addSubview(view)
      window.makeKeyAndVisible()
      view.dm.bind(\.backgroundColor, to: background)
      view.dm.bind(\.cornerRadius, to: DMDynamic(light: 4, dark: 6))
      #expect(view.dm.isBound(\.backgroundColor))
      view.dm.unbind(\.backgroundColor)
      #expect(!view.dm.isBound(\.backgroundColor))
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(view.backgroundColor == .white)
      #expect(view.cornerRadius == 6)
    }

    /// A key path made at run time is a new object each time; bindings still know it as the
    /// property it names, past the number of key path objects remembered by identity.
    @Test func aKeyPathMadeAnewEachTimeFindsItsBindingAgain() {
      func padding() -> ReferenceWritableKeyPath<SwatchView, Double> {
        (\SwatchView.metrics).appending(path: \.padding)
      }
      func value() -> ReferenceWritableKeyPath<Gauge, Double> {
        let reading: ReferenceWritableKeyPath<Gauge, Gauge.Reading> = \.reading
        return reading.appending(path: \.value)
      }
      #expect(padding() !== padding())
      let window = DMWindow()
      window.makeKeyAndVisible()
      let views = (0..<1_500).map { _ in SwatchView() }
      let gauges = (0..<1_500).map { _ in Gauge() }
      for (view, gauge) in zip(views, gauges) {
        window.addSubview(view)
        view.dm.bind(padding(), to: DMDynamic(light: 4, dark: 6))
        view.dm.bind(padding(), to: DMDynamic(light: 8, dark: 10))
        gauge.dm.bind(value(), to: DMDynamic(light: 1, dark: 0.5))
      }
      let bound = views.indices.filter { views[$0].dm.isBound(padding()) && gauges[$0].dm.isBound(value()) }
      #expect(bound.count == 1_500)
      for (view, gauge) in zip(views, gauges).prefix(750) {
        view.dm.unbind(padding())
        gauge.dm.unbind(value())
      }
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(views.prefix(750).allSatisfy { $0.metrics.padding == 8 && !$0.dm.isBound(\.metrics.padding) })
      #expect(views.suffix(750).allSatisfy { $0.metrics.padding == 10 })
      #expect(gauges.prefix(750).allSatisfy { $0.reading.value == 1 })
      #expect(gauges.suffix(750).allSatisfy { $0.reading.value == 0.5 })
      #expect(!views[0].dm.isBound(\.title))
    }

    /// A list of 32 bindings or more finds them through an index: key paths made anew each time
    /// find theirs there too.
    @Test func aLongListFindsKeyPathsMadeAnewEachTime() {
      func slot(_ index: Int) -> ReferenceWritableKeyPath<Dial, Double> {
        let values: ReferenceWritableKeyPath<Dial, [Double]> = \.values
        return values.appending(path: \.[index])
      }
      #expect(slot(3) !== slot(3))
      let dial = Dial(count: 40)
      for index in 0..<40 { dial.dm.bind(slot(index), to: DMDynamic(light: 1, dark: Double(index))) }
      #expect((0..<40).allSatisfy { dial.dm.isBound(slot($0)) })
      for index in stride(from: 0, to: 40, by: 2) { dial.dm.unbind(slot(index)) }
      #expect((0..<40).filter { dial.dm.isBound(slot($0)) } == Array(stride(from: 1, to: 40, by: 2)))
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(dial.values == (0..<40).map { $0.isMultiple(of: 2) ? 1 : Double($0) })
    }

    /// Key paths let go of by the bindings' memory of them may hold objects whose deinitializers
    /// bind: they run after that memory is changed, not during it.
    @Test func aKeyPathLetGoOfMayFreeAnObjectThatBinds() {
      let window = DMWindow()
      window.makeKeyAndVisible()
      let view = TicketedView()
      let other = SwatchView()
      window.addSubview(view)
      window.addSubview(other)
      nonisolated(unsafe) var freed = 0
      Ticket.onFree = {
        MainActor.assumeIsolated {
          freed += 1
          _ = other.dm.isBound(\.title)
          other.dm.bind(\.title, to: DMDynamic(light: "light \(freed)", dark: "dark"))
        }
      }
      defer { Ticket.onFree = nil }
      // Equal key paths, each a new object holding a ticket of its own: more of them than the
      // number of key path objects remembered.
      for _ in 0..<2_000 { view.dm.bind(\.[Ticket(1)], to: DMDynamic(light: 1, dark: 2)) }
      #expect(freed >= 2_000)
      #expect(view[Ticket(1)] == 1 && other.title.hasPrefix("light"))
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(view[Ticket(1)] == 2 && other.title == "dark")
    }

    @Test func setResolvesOnceWithoutFollowing() {
      let window = DMWindow()
      let view = SwatchView()
      window.addSubview(view)
      window.makeKeyAndVisible()
      view.dm.set(\.backgroundColor, to: background)
      #expect(view.backgroundColor == .white)
      #expect(!view.dm.isBound(\.backgroundColor))
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(view.backgroundColor == .white)
    }

    @Test func bindingsOnAViewControllerFollowItsTraits() {
      final class Controller: DMViewController {
        var tint = DMColor.clear
      }
      let window = DMWindow()
      let controller = Controller()
      window.rootViewController = controller
      window.makeKeyAndVisible()
      controller.dm.bind(\.tint, to: background)
      controller.overrideUserInterfaceStyle = .dark
      #expect(controller.tint == .black)
    }

    @Test func anyThemableObjectFollowsTheGlobalCollection() {
      let layer = Layer()
      layer.dm.bind(\.fillColor, to: background)
      layer.dm.bind(\.opacity, to: DMDynamic(light: 1, dark: 0.8))
      #expect(layer.fillColor == .white)
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(layer.fillColor == .black)
      #expect(layer.opacity == 0.8)
      layer.dm.unbind(\.opacity)
      DMTraitCollection.setOverride(.light, animated: false)
      #expect(layer.fillColor == .white)
      #expect(layer.opacity == 0.8)
    }

    @Test func boundViewsAndControllersDeallocate() {
      weak var weakView: SwatchView?
      weak var weakWindow: DMWindow?
      do {
        let window = DMWindow()
        let view = SwatchView()
        weakView = view
        weakWindow = window
        window.addSubview(view)
        window.makeKeyAndVisible()
        view.dm.bind(\.backgroundColor, to: background)
        view.dm.bind(\.cornerRadius, to: DMDynamic(light: 4, dark: 6))
        DMTraitCollection.setOverride(.dark, animated: false)
        window.isHidden = true
      }
      #expect(weakView == nil)
      #expect(weakWindow == nil)
    }

    @Test func thousandsOfBoundObjectsLeaveNothingBehindWhenDropped() {
      var weakLayers: [WeakBox<Layer>] = []
      do {
        var layers: [Layer] = []
        for _ in 0..<5_000 {
          let layer = Layer()
          layer.dm.bind(\.fillColor, to: background)
          layers.append(layer)
          weakLayers.append(WeakBox(layer))
        }
        #expect(ThemableRegistry.shared.liveCount == 5_000)
        DMTraitCollection.setOverride(.dark, animated: false)
        #expect(layers.allSatisfy { $0.fillColor == .black })
      }
      #expect(weakLayers.allSatisfy { $0.value == nil })
      #expect(ThemableRegistry.shared.liveCount == 0)
      DMTraitCollection.setOverride(.light, animated: false)
    }
  }
}

struct WeakBox<Object: AnyObject> {
  weak var value: Object?
  init(_ value: Object) { self.value = value }
}

@MainActor
class ObservedView: DMView {
  var observedSets = 0
  var computedSets = 0
  var overriddenSets = 0
  var stored = 0.0
  var observed = DMColor.clear {
    didSet { observedSets += 1 }
  }
  private var backing = 0.0
  var computed: Double {
    get { backing }
    set {
      backing = newValue
      computedSets += 1
    }
  }
  var overridable = 0.0
}

@MainActor
final class OverridingView: ObservedView {
  override var overridable: Double {
    didSet { overriddenSets += 1 }
  }
}

extension GlobalStateTests {
  @Suite @MainActor struct BindingStoreTests {
    init() { DarkModeManager.reset() }

    private let number = DMDynamic(light: 1.0, dark: 2.0)

    @Test func observedComputedAndOverriddenPropertiesRunTheirAccessorsOncePerChange() {
      let window = DMWindow()
      let view = OverridingView()
      window.addSubview(view)
      window.makeKeyAndVisible()
      view.dm.bind(\.observed, to: DMDynamicColor(light: .white, dark: .black))
      view.dm.bind(\.computed, to: number)
      view.dm.bind(\.overridable, to: number)
      view.dm.bind(\.stored, to: number)
      #expect([view.observedSets, view.computedSets, view.overriddenSets] == [1, 1, 1])
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect([view.observedSets, view.computedSets, view.overriddenSets] == [2, 2, 2])
      #expect(view.observed == .black)
      #expect(view.computed == 2)
      #expect(view.overridable == 2)
      #expect(view.stored == 2)
    }

    @Test func oneKeyPathBoundOnABaseAndAnOverridingSubclassKeepsEachClassesAccessors() {
      let window = DMWindow()
      let base = ObservedView()
      let overriding = OverridingView()
      window.addSubview(base)
      window.addSubview(overriding)
      window.makeKeyAndVisible()
      // The same key path: stored on the base class, observed in the subclass.
      let keyPath: ReferenceWritableKeyPath<ObservedView, Double> = \.overridable
      base.dm.bind(keyPath, to: number)
      (overriding as ObservedView).dm.bind(keyPath, to: number)
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(base.overridable == 2)
      #expect(overriding.overridable == 2)
      #expect(overriding.overriddenSets == 2)
      DMTraitCollection.setOverride(.light, animated: false)
      #expect(base.overridable == 1)
      #expect(overriding.overriddenSets == 3)
    }

    @Test func storedPropertiesOfEveryKindFollowChanges() {
      final class Mixed: DMThemable {
        var small: UInt8 = 0
        var name = ""
        var color = DMColor.clear
        var optional: Double?
        var array: [Int] = []
      }
      let object = Mixed()
      object.dm.bind(\.small, to: DMDynamic(light: 1, dark: 2))
      object.dm.bind(\.name, to: DMDynamic(light: "a long light string that is not small", dark: "dark"))
      object.dm.bind(\.color, to: DMDynamicColor(light: .white, dark: .black))
      object.dm.bind(\.optional, to: DMDynamic(light: nil, dark: 3.5))
      object.dm.bind(\.array, to: DMDynamic(light: [1], dark: [1, 2, 3]))
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(object.small == 2)
      #expect(object.name == "dark")
      #expect(object.color == .black)
      #expect(object.optional == 3.5)
      #expect(object.array == [1, 2, 3])
      DMTraitCollection.setOverride(.light, animated: false)
      #expect(object.name == "a long light string that is not small")
      #expect(object.optional == nil)
      #expect(object.array == [1])
    }
  }
}

extension GlobalStateTests {
  @Suite @MainActor struct DetachedBindingTests {
    init() { DarkModeManager.reset() }

    @Test func aViewBoundWhileAwayIsSetForItsTraitsWhenItReturns() {
      let window = DMWindow()
      let view = SwatchView()
      window.addSubview(view)
      window.makeKeyAndVisible()
      view.removeFromSuperview()
      view.overrideUserInterfaceStyle = .dark  // away: resolves dark
      view.dm.bind(\.backgroundColor, to: DMDynamicColor(light: .white, dark: .black))
      #expect(view.backgroundColor == .black)
      view.overrideUserInterfaceStyle = .unspecified
      window.addSubview(view)  // back, with the light collection it last reported: no call
      #expect(view.backgroundColor == .white)
    }

    @Test func aTableReloadedWhileAViewIsAwayShowsWhenItReturns() throws {
      let table = try DMColorTable(string: "NORMAL NIGHT\n#ffffff #000000 BG\n")
      let window = DMWindow()
      let view = SwatchView()
      window.addSubview(view)
      window.makeKeyAndVisible()
      view.dm.bind(\.backgroundColor, to: DMDynamicColor(key: "BG", in: table))
      view.removeFromSuperview()
      try table.reload(string: "NORMAL NIGHT\n#123456 #000000 BG\n")
      window.addSubview(view)
      #expect(view.backgroundColor == DMColor(rgb: 0x123456))
    }
  }
}

@MainActor
final class RebindingView: DMView {
  var extra = 0.0
  var trigger = DMColor.clear {
    didSet {
      // Binds and unbinds on this very object while its bindings are being applied.
      dm.bind(\.extra, to: DMDynamic(light: 1, dark: 2))
      dm.unbind(\.extra)
      dm.bind(\.extra, to: DMDynamic(light: 10, dark: 20))
    }
  }
}

@MainActor
final class UnbindingView: DMView {
  var later = 0.0
  var other = DMColor.clear
  var rebinds = false
  var trigger = DMColor.clear {
    didSet {
      // Removes a binding that comes after this one, and replaces another, mid-pass.
      guard rebinds else { return }
      dm.unbind(\.later)
      dm.bind(\.other, to: DMDynamicColor(light: .green, dark: .yellow))
    }
  }
}

extension GlobalStateTests {
  @Suite @MainActor struct RebindingDuringAPassTests {
    init() { DarkModeManager.reset() }

    @Test func aSetterThatBindsOnItsOwnObjectDuringAPassIsSafe() {
      let window = DMWindow()
      let view = RebindingView()
      window.addSubview(view)
      window.makeKeyAndVisible()
      view.dm.bind(\.trigger, to: DMDynamicColor(light: .white, dark: .black))
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(view.trigger == .black)
      #expect(view.extra == 20)
      DMTraitCollection.setOverride(.light, animated: false)
      #expect(view.extra == 10)
    }

    @Test func bindingsASetterRemovesOrReplacesApplyOnceMoreInThatPassThenNotAgain() {
      let window = DMWindow()
      let view = UnbindingView()
      window.addSubview(view)
      window.makeKeyAndVisible()
      view.dm.bind(\.trigger, to: DMDynamicColor(light: .white, dark: .black))
      view.dm.bind(\.later, to: DMDynamic(light: 1, dark: 2))
      view.dm.bind(\.other, to: DMDynamicColor(light: .red, dark: .blue))
      view.rebinds = true
      // The pass that runs the setter still works through the bindings it started with, where
      // `later` and `other` come after `trigger`: the removed binding sets its property once more,
      // and the replaced one sets its old value over the new one's.
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(view.later == 2)
      #expect(view.other == .blue)
      #expect(!view.dm.isBound(\.later))
      #expect(view.dm.isBound(\.other))
      // From the next change on, only the bindings made by the setter count.
      DMTraitCollection.setOverride(.light, animated: false)
      #expect(view.later == 2)
      #expect(view.other == .green)
    }
  }
}

extension GlobalStateTests {
  @Suite @MainActor struct OptionalPropertyBindingTests {
    init() { DarkModeManager.reset() }

    @Test func anOptionalPropertyFollowsADynamicValueOfItsWrappedType() {
      final class Widget: DMView { var backgroundColor: DMColor? }
      let window = DMWindow()
      let widget = Widget()
      window.addSubview(widget)
      window.makeKeyAndVisible()
      widget.dm.bind(\.backgroundColor, to: DMDynamicColor(light: .white, dark: .black))
      #expect(widget.backgroundColor == .white)
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
      #expect(widget.backgroundColor == .black)
      #expect(widget.dm.isBound(\.backgroundColor))
    }
  }
}

extension GlobalStateTests {
  @Suite @MainActor struct OptionalComputedPropertyBindingTests {
    init() { DarkModeManager.reset() }

    @Test func anOptionalComputedPropertyHasItsSetterCalledOnEachChange() {
      final class Widget: DMView {
        var sets: [DMColor?] = []
        var tint: DMColor? {
          get { sets.last ?? nil }
          set { sets.append(newValue) }
        }
      }
      let window = DMWindow()
      let widget = Widget()
      window.addSubview(widget)
      window.makeKeyAndVisible()
      widget.dm.bind(\.tint, to: DMDynamicColor(light: .white, dark: .black))
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
      #expect(widget.sets.last == .black)
      #expect(widget.sets.contains(.white))
    }
  }
}
