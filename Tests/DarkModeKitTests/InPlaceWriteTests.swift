import Observation
import Testing

@testable import DarkModeKit

/// A binding writes a stored property straight into its object, and goes through the setter for
/// every other kind of property. These tests pin that rule down for each kind of property an app
/// may bind; CI runs them in debug and in release builds.

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
      switchStyle(.dark)
      #expect(view.metrics.padding == 8)
      #expect(view.metrics.weight == "regular")
      view.metrics.weight = "bold"
      switchStyle(.light)
      #expect(view.metrics.padding == 4)
      #expect(view.metrics.weight == "bold")
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
  }
}
