import Observation
import Testing

@testable import DarkModeKit

/// A binding sets its property as an assignment through its key path would, or through the
/// setter given with the binding: observers, overrides, `_modify` accessors, lazy, weak and
/// `@Observable` properties behave as they do for any Swift code. These tests pin that down for
/// each kind of property an app may bind; CI runs them in debug and in release builds (where the
/// binding sets the property through code specialized where it was bound).

@MainActor
class BaseSwatch: DMView {
  var color = DMColor.clear
}

@MainActor
final class ObservingSwatch: BaseSwatch {
  var observed: [String] = []
  override var color: DMColor {
    didSet { observed.append(color.hexString) }
  }
}

/// A view with an optional reading, bound through a forced optional.
@MainActor
final class ReadingPanel: DMView {
  struct Reading {
    var level: UInt8 = 0
    var flag = false
  }

  var reading: Reading? = Reading()
}

@MainActor
final class PropertyKinds: DMView {
  var stored = DMColor.clear

  var didSetCalls: [String] = []
  var observed = DMColor.clear {
    didSet { didSetCalls.append(observed.hexString) }
  }

  var willSetCalls: [String] = []
  var announced = DMColor.clear {
    willSet { willSetCalls.append(newValue.hexString) }
  }

  private var modifiedStorage = DMColor.clear
  var sideEffects: [String] = []
  var modified: DMColor {
    get { modifiedStorage }
    set {
      modifiedStorage = newValue
      sideEffects.append("set \(newValue.hexString)")
    }
    _modify {
      yield &modifiedStorage
      sideEffects.append("modify \(modifiedStorage.hexString)")
    }
  }

  lazy var lazyColor = DMColor.clear

  var slots = [DMColor](repeating: .clear, count: 4)

  weak var target: Target?

  var metrics = SwatchView.Metrics(padding: 0, weight: "regular")

  /// Where `forwarded` leads: the view itself until it is set.
  weak var forward: PropertyKinds?
  var forwarded: PropertyKinds { forward ?? self }
}

/// An object that a weak property refers to.
final class Target: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

@Observable
final class ObservableModel: DMThemable {
  var color = DMColor.clear
}

/// Counts every value set through it, as a property wrapper that schedules a redraw would.
@propertyWrapper
struct CountedSets<Value> {
  private var value: Value
  private(set) var sets = 0

  init(wrappedValue: Value) {
    value = wrappedValue
  }

  var wrappedValue: Value {
    get { value }
    set {
      value = newValue
      sets += 1
    }
  }

  var projectedValue: Int { sets }
}

@MainActor
final class WrappedSwatch: BaseSwatch {
  @CountedSets var wrapped = DMColor.clear
}

/// A toolkit view whose colours are computed properties: each setter records that it ran, the
/// way a real one schedules a redraw.
@MainActor
final class ToolkitLabel: DMView {
  var calls: [String] = []
  private var storedText = DMColor.clear
  private var storedTint: DMColor?

  var textColor: DMColor {
    get { storedText }
    set { setTextColor(newValue, from: "property") }
  }

  var tint: DMColor? {
    get { storedTint }
    set { setTint(newValue, from: "property") }
  }

  func setTextColor(_ color: DMColor, from caller: String) {
    storedText = color
    calls.append("\(caller) \(color.hexString)")
  }

  func setTint(_ color: DMColor?, from caller: String) {
    storedTint = color
    calls.append("\(caller) \(color?.hexString ?? "nil")")
  }
}

/// The same kind of property on an object outside the view tree.
@MainActor
final class ToolkitPen: DMThemable {
  var calls: [String] = []
  var ink: DMColor {
    get { DMColor.clear }
    set { calls.append("property \(newValue.hexString)") }
  }
}

/// A toolkit's protocol whose colour is a computed property of a protocol extension, with a
/// binding overload that routes it through its setter, as `DarkModeKitGTK` does for its widgets.
@MainActor
protocol Tinted: DMView {
  var tintBox: TintBox { get }
}

@MainActor
final class TintBox {
  var color: DMColor?
  var calls: [String] = []
}

extension Tinted {
  var tint: DMColor? {
    get { tintBox.color }
    set {
      tintBox.calls.append("property")
      tintBox.color = newValue
    }
  }
}

extension DMBindings where Root: Tinted {
  func bind(_ keyPath: ReferenceWritableKeyPath<Root, DMColor?>, to color: DMDynamic<DMColor>) {
    switch keyPath {
    case \Root.tint:
      bind(keyPath, to: color) { object, color in
        object.tintBox.calls.append("setter")
        object.tintBox.color = color
      }
    default: Issue.record("a key path other than tint: \(keyPath)")
    }
  }
}

@MainActor
class TintedView: DMView, Tinted {
  let tintBox = TintBox()
}

@MainActor
final class TintedSubview: TintedView {}

extension GlobalStateTests {
  @Suite @MainActor struct BoundPropertyKindsTests {
    private let light = DMColor(rgb: 0xF0F0F0)
    private let dark = DMColor(rgb: 0x101010)
    private var pair: DMDynamicColor { DMDynamicColor(light: light, dark: dark) }

    init() { DarkModeManager.reset() }

    private func shown<View: DMView>(_ view: View) -> View {
      let window = DMWindow()
      window.addSubview(view)
      window.makeKeyAndVisible()
      return view
    }

    private func switchStyle(_ style: DMUserInterfaceStyle) {
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: style), animated: false)
    }

    @Test func aStoredPropertyFollows() {
      let view = shown(PropertyKinds())
      view.dm.bind(\.stored, to: pair)
      switchStyle(.dark)
      #expect(view.stored == dark)
      switchStyle(.light)
      #expect(view.stored == light)
    }

    @Test func observersRunOnEveryChange() {
      let view = shown(PropertyKinds())
      view.dm.bind(\.observed, to: pair)
      view.dm.bind(\.announced, to: pair)
      switchStyle(.dark)
      switchStyle(.light)
      #expect(view.didSetCalls == ["#F0F0F0", "#101010", "#F0F0F0"])
      #expect(view.willSetCalls == ["#F0F0F0", "#101010", "#F0F0F0"])
    }

    @Test func aModifyAccessorRunsItsCodeAfterTheYield() {
      let view = shown(PropertyKinds())
      view.dm.bind(\.modified, to: pair)
      view.sideEffects.removeAll()
      switchStyle(.dark)
      #expect(view.modified == dark)
      #expect(view.sideEffects.count == 1)
      #expect(view.sideEffects.first?.hasSuffix("#101010") == true)
    }

    @Test func anOverridingSubclassSeesEveryChange() {
      let view = shown(ObservingSwatch())
      let base: BaseSwatch = view  // bound through the base class's key path
      base.dm.bind(\.color, to: pair)
      switchStyle(.dark)
      switchStyle(.light)
      #expect(view.color == light)
      #expect(view.observed == ["#F0F0F0", "#101010", "#F0F0F0"])
      let other = shown(ObservingSwatch())
      other.dm.bind(\ObservingSwatch.color, to: pair)
      switchStyle(.dark)
      #expect(other.observed == ["#F0F0F0", "#101010"])  // set when bound, then switched
    }

    /// Siblings bound alike to the same values, in one window: plain views, subclasses that
    /// observe the property, views whose bound property has a wrapper, and `@Observable` objects
    /// beside them. Switched many times, every object holds the value, and each observer, wrapper
    /// and observation runs once per change.
    @Test func siblingsBoundAlikeAmongSubclassesWrappersAndObservablesSeeEachChangeOnce() {
      let window = DMWindow()
      window.makeKeyAndVisible()
      var plain: [BaseSwatch] = []
      var observing: [ObservingSwatch] = []
      var wrapped: [WrappedSwatch] = []
      for _ in 0..<50 {
        let base = BaseSwatch()
        let observer = ObservingSwatch()
        let wrapper = WrappedSwatch()
        for view in [base, observer, wrapper] as [BaseSwatch] {
          window.addSubview(view)
          view.dm.bind(\.color, to: pair)
        }
        wrapper.dm.bind(\.wrapped, to: pair)
        plain.append(base)
        observing.append(observer)
        wrapped.append(wrapper)
      }
      let models = (0..<50).map { _ in ObservableModel() }
      let changes = Locked(0)
      for model in models {
        model.dm.bind(\.color, to: pair)
        withObservationTracking {
          _ = model.color
        } onChange: {
          changes.withLock { $0 += 1 }
        }
      }
      let styles = (0..<10).map { $0.isMultiple(of: 2) ? DMUserInterfaceStyle.dark : .light }
      for style in styles {
        switchStyle(style)
        let expected = style == .dark ? dark : light
        #expect(plain.allSatisfy { $0.color == expected })
        #expect(observing.allSatisfy { $0.color == expected })
        #expect(wrapped.allSatisfy { $0.color == expected && $0.wrapped == expected })
        #expect(models.allSatisfy { $0.color == expected })
      }
      // Set when bound, then once per switch.
      let seen = [light.hexString] + styles.map { ($0 == .dark ? dark : light).hexString }
      #expect(observing.allSatisfy { $0.observed == seen })
      #expect(wrapped.allSatisfy { $0.$wrapped == 1 + styles.count })
      #expect(changes.withLock { $0 } == models.count, "each observation fires at the first change")
      window.isHidden = true
    }

    /// A key path expression with a side effect gives another key path at each evaluation: the
    /// binding sets the property its first evaluation names, and no other.
    @Test func aKeyPathExpressionWithASideEffectBindsThePropertyOfItsFirstEvaluation() {
      let view = shown(PropertyKinds())
      var next = 0
      func slot() -> Int {
        defer { next += 1 }
        return next
      }
      view.dm.bind(\.slots[slot()], to: pair)
      #expect(next >= 2, "evaluated more than once")
      #expect(view.dm.isBound(\.slots[0]))
      #expect(!view.dm.isBound(\.slots[1]))
      switchStyle(.dark)
      #expect(view.slots == [dark, .clear, .clear, .clear])
      // A pure binding of the same property on another view shares its description, and follows.
      let other = shown(PropertyKinds())
      other.dm.bind(\.slots[0], to: pair)
      switchStyle(.light)
      #expect(view.slots == [light, .clear, .clear, .clear])
      #expect(other.slots == [light, .clear, .clear, .clear])
    }

    /// A key path found by code that throws is bound with `try`.
    @Test func aKeyPathFoundByThrowingCodeIsBoundWithTry() throws {
      struct Unknown: Error {}
      func path(named name: String) throws -> ReferenceWritableKeyPath<PropertyKinds, DMColor> {
        guard name == "stored" else { throw Unknown() }
        return \.stored
      }
      let view = shown(PropertyKinds())
      try view.dm.bind(path(named: "stored"), to: pair)
      #expect(throws: Unknown.self) { try view.dm.bind(path(named: "nothing"), to: pair) }
      switchStyle(.dark)
      #expect(view.stored == dark)
    }

    @Test func aLazyPropertyFollows() {
      let view = shown(PropertyKinds())
      view.dm.bind(\.lazyColor, to: pair)
      switchStyle(.dark)
      #expect(view.lazyColor == dark)
      switchStyle(.light)
      #expect(view.lazyColor == light)
    }

    @Test func aWeakPropertyStaysWeak() {
      let view = shown(PropertyKinds())
      var day: Target? = Target("day")
      var night: Target? = Target("night")
      view.dm.bind(\.target, to: DMDynamic(light: day, dark: night))
      #expect(view.target?.name == "day")
      switchStyle(.dark)
      #expect(view.target?.name == "night")
      // The binding holds its values, as any dynamic value does; once the view is rebound and the
      // last strong reference goes, the weak property lets go.
      view.dm.set(\.target, to: DMDynamic(light: night, dark: night))
      view.dm.unbind(\.target)
      day = nil
      night = nil
      #expect(view.target == nil)
    }

    @Test func aPathIntoAStructWritesOnlyThatField() {
      let view = shown(PropertyKinds())
      view.dm.bind(\.metrics.padding, to: DMDynamic(light: 4.0, dark: 8.0))
      switchStyle(.dark)
      #expect(view.metrics.padding == 8)
      #expect(view.metrics.weight == "regular")
      view.metrics.weight = "bold"
      switchStyle(.light)
      #expect(view.metrics.padding == 4)
      #expect(view.metrics.weight == "bold")
    }

    /// A path through a forced optional sets the field while the optional has a value, through
    /// the key path: the optional's other fields stay as the app set them.
    @Test func aPathThroughAForcedOptionalIsSetThroughTheKeyPath() {
      let view = shown(ReadingPanel())
      view.dm.bind(\.reading!.flag, to: DMDynamic(light: false, dark: true))
      view.reading?.level = 7
      switchStyle(.dark)
      #expect(view.reading?.flag == true && view.reading?.level == 7)
      switchStyle(.light)
      #expect(view.reading?.flag == false && view.reading?.level == 7)
    }

    /// `\.target.stored` reads `target` on each access: it reaches the view itself when bound,
    /// and the other view once `target` is redirected.
    @Test func aPathThroughAReferenceSetsWhatItReachesThen() {
      let view = shown(PropertyKinds())
      let other = shown(PropertyKinds())
      view.dm.bind(\.forwarded.stored, to: pair)
      #expect(view.stored == light)
      view.forward = other
      switchStyle(.dark)
      #expect(other.stored == dark)
      #expect(view.stored == light)
      view.forward = nil
      switchStyle(.light)
      #expect(view.stored == light)
      #expect(other.stored == dark)
    }

    @Test func anObservableObjectTellsItsObservers() {
      let model = ObservableModel()
      model.dm.bind(\.color, to: pair)
      let changes = Locked(0)
      withObservationTracking {
        _ = model.color
      } onChange: {
        changes.withLock { $0 += 1 }
      }
      switchStyle(.dark)
      #expect(model.color == dark)
      #expect(changes.withLock { $0 } == 1)
    }

    // MARK: Bound through a setter given with the binding

    @Test func everyUpdateCallsTheGivenSetterAndNotTheKeyPath() {
      let label = shown(ToolkitLabel())
      label.dm.bind(\.textColor, to: pair, set: { $0.setTextColor($1, from: "setter") })
      #expect(label.dm.isBound(\.textColor))
      switchStyle(.dark)
      switchStyle(.light)
      #expect(label.calls == ["setter #F0F0F0", "setter #101010", "setter #F0F0F0"])
      label.dm.unbind(\.textColor)
      switchStyle(.dark)
      #expect(label.textColor == light)
      #expect(label.calls.count == 3)
    }

    @Test func anOptionalPropertyGetsTheValueWrapped() {
      let label = shown(ToolkitLabel())
      label.dm.bind(\.tint, to: pair, set: { $0.setTint($1, from: "setter") })
      switchStyle(.dark)
      #expect(label.tint == dark)
      #expect(label.calls == ["setter #F0F0F0", "setter #101010"])
    }

    @Test func aTableReloadCallsTheSetter() throws {
      let table = try DMColorTable(string: "NORMAL NIGHT\n#111111 #222222 FG\n")
      let label = shown(ToolkitLabel())
      label.dm.bind(
        \.textColor, to: DMDynamicColor(key: "FG", in: table), set: { $0.setTextColor($1, from: "setter") })
      try table.reload(string: "NORMAL NIGHT\n#333333 #444444 FG\n")
      #expect(label.calls == ["setter #111111", "setter #333333"])
    }

    @Test func aKeyPathBindingOfTheSamePropertyKeepsItsOwnWay() {
      let throughKeyPath = shown(ToolkitLabel())
      let throughSetter = shown(ToolkitLabel())
      throughKeyPath.dm.bind(\.textColor, to: pair)
      throughSetter.dm.bind(\.textColor, to: pair, set: { $0.setTextColor($1, from: "setter") })
      let again = shown(ToolkitLabel())
      again.dm.bind(\.textColor, to: pair)
      switchStyle(.dark)
      #expect(throughKeyPath.calls == ["property #F0F0F0", "property #101010"])
      #expect(throughSetter.calls == ["setter #F0F0F0", "setter #101010"])
      #expect(again.calls == ["property #F0F0F0", "property #101010"])
    }

    @Test func objectsOutsideTheTreeEachKeepTheirOwnSetter() {
      var first: [String] = []
      var second: [String] = []
      let pens = [ToolkitPen(), ToolkitPen()]
      pens[0].dm.bind(\.ink, to: pair, set: { _, color in first.append(color.hexString) })
      pens[1].dm.bind(\.ink, to: pair, set: { _, color in second.append("second " + color.hexString) })
      switchStyle(.dark)
      #expect(first == ["#F0F0F0", "#101010"])
      #expect(second == ["second #F0F0F0", "second #101010"])
      #expect(pens.allSatisfy { $0.calls.isEmpty })
    }

    @Test func aToolkitsOverloadFindsItsKeyPathForSubclassesToo() {
      for view in [shown(TintedView()), shown(TintedSubview())] {
        view.dm.bind(\.tint, to: pair)
        switchStyle(.dark)
        #expect(view.tint == dark)
        #expect(view.tintBox.calls == ["setter", "setter"])
        switchStyle(.light)
      }
      let subview = shown(TintedSubview())
      subview.dm.bind(\TintedSubview.tint, to: pair)
      #expect(subview.tintBox.calls == ["setter"])
    }
  }
}
