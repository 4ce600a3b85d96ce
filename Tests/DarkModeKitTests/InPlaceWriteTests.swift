import Observation
import Testing

@testable import DarkModeKit

/// A binding writes a stored property straight into its object, and goes through the setter for
/// every other kind of property, or through the setter given with the binding. These tests pin
/// that rule down for each kind of property an app may bind; CI runs them in debug and in release
/// builds.

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
  @Suite @MainActor struct InPlaceWriteTests {
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

    /// Whether the binding of `keyPath` on `view` writes into the object.
    private func writesInPlace(_ view: DMView, _ keyPath: AnyKeyPath) -> Bool? {
      view.bindings.writesInPlace(keyPath)
    }

    private func switchStyle(_ style: DMUserInterfaceStyle) {
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: style), animated: false)
    }

    @Test func aStoredPropertyIsWrittenInPlace() {
      let view = shown(PropertyKinds())
      view.dm.bind(\.stored, to: pair)
      #expect(writesInPlace(view, \PropertyKinds.stored) == true)
      switchStyle(.dark)
      #expect(view.stored == dark)
      switchStyle(.light)
      #expect(view.stored == light)
    }

    @Test func observersRunOnEveryChange() {
      let view = shown(PropertyKinds())
      view.dm.bind(\.observed, to: pair)
      view.dm.bind(\.announced, to: pair)
      #expect(writesInPlace(view, \PropertyKinds.observed) == false)
      #expect(writesInPlace(view, \PropertyKinds.announced) == false)
      switchStyle(.dark)
      switchStyle(.light)
      #expect(view.didSetCalls == ["#F0F0F0", "#101010", "#F0F0F0"])
      #expect(view.willSetCalls == ["#F0F0F0", "#101010", "#F0F0F0"])
    }

    @Test func aModifyAccessorRunsItsCodeAfterTheYield() {
      let view = shown(PropertyKinds())
      view.dm.bind(\.modified, to: pair)
      #expect(writesInPlace(view, \PropertyKinds.modified) == false)
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
      #expect(writesInPlace(view, \PropertyKinds.target) == false)
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
      #expect(writesInPlace(view, \PropertyKinds.metrics.padding) == true)
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
      #expect(writesInPlace(view, \ReadingPanel.reading!.flag) == false)
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
      #expect(writesInPlace(view, \PropertyKinds.forwarded.stored) == false)
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
