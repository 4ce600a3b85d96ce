import DarkModeKitTestSupport
import Foundation
import Testing

@testable import DarkModeKit

extension GlobalStateTests {
  @Suite @MainActor struct TraitObservationTests {
    let log = CallLog()

    init() { DarkModeManager.reset() }

    /// Registers `name` on `view` for `traits`, logging each call as `name!` after the view's own.
    private func observe(_ view: LoggingView, _ traits: [DMTrait], as name: String) {
      view.registerForTraitChanges(traits) { [log] view, previous in
        log.record(name, previous, view.dmTraitCollection)
      }
    }

    @Test func anObserverIsCalledOnlyWhenOneOfItsTraitsChangedAfterTheCallback() {
      let (_, a, _, _) = makeShownTree(log: log)
      observe(a, [.accessibilityContrast, .custom(Density.self)], as: "a!")
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(log.names == ["window", "a", "a1", "b"], "the style is not observed")
      log.reset()
      DMTraitCollection.setOverride(
        DMTraitCollection(userInterfaceStyle: .dark, accessibilityContrast: .high), animated: false)
      #expect(log.names == ["window", "a", "a!", "a1", "b"])
      let call = log.calls(of: "a!")[0]
      #expect(call.previous?.accessibilityContrast == .normal)
      #expect(call.current.accessibilityContrast == .high)
      log.reset()
      a.traitOverrides[Density.self] = 0.5
      #expect(log.names == ["a", "a!", "a1"])
    }

    @Test func observersAreCalledParentsFirstAndInTheOrderTheyRegistered() {
      let (window, a, a1, _) = makeShownTree(log: log)
      observe(a1, [.theme], as: "a1!")
      observe(a, [.theme], as: "a!first")
      observe(a, [.theme], as: "a!second")
      window.traitOverrides.theme = "SEPIA"
      #expect(log.names == ["window", "a", "a!first", "a!second", "a1", "a1!", "b"])
    }

    @Test func anObserverIsNotCalledForTheFirstCollection() {
      let window = LoggingWindow("window", log: log)
      let view = LoggingView("view", log: log)
      observe(view, [.userInterfaceStyle], as: "view!")
      window.addSubview(view)
      window.makeKeyAndVisible()
      #expect(log.names == ["window", "view"])
      #expect(log.calls(of: "view").first?.previous == nil)
    }

    @Test func unregisteringStopsCallsEvenFromAnEarlierHandlerOfTheSameChange() {
      let (_, a, _, _) = makeShownTree(log: log)
      final class Slot { var registration: DMTraitChangeRegistration? }
      let second = Slot()
      a.registerForTraitChanges([.userInterfaceStyle]) { [log] view, previous in
        log.record("a!first", previous, view.dmTraitCollection)
        if let registration = second.registration { view.unregisterForTraitChanges(registration) }
      }
      second.registration = a.registerForTraitChanges([.userInterfaceStyle]) { [log] view, previous in
        log.record("a!second", previous, view.dmTraitCollection)
      }
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(log.calls(of: "a!first").count == 1)
      #expect(log.calls(of: "a!second").isEmpty)
      a.unregisterForTraitChanges(second.registration!)  // twice: nothing
      DMTraitCollection.setOverride(.light, animated: false)
      #expect(log.calls(of: "a!first").count == 2)
    }

    /// Registrations ended in any order (oldest, newest, from the middle, another environment's,
    /// twice) leave the others called once each, in the order they were made, with those made
    /// after them last.
    @Test func registrationsEndedInAnyOrderLeaveTheRestCalledInOrder() {
      let (_, a, _, b) = makeShownTree(log: log)
      var registrations: [DMTraitChangeRegistration] = []
      for index in 0..<40 {
        registrations.append(
          a.registerForTraitChanges([.userInterfaceStyle]) { [log] view, previous in
            log.record("a!\(index)", previous, view.dmTraitCollection)
          })
      }
      var ended: Set<Int> = [0, 39, 20, 21, 5]
      ended.formUnion(stride(from: 1, to: 39, by: 3))
      for index in [0, 39, 20, 21, 5] + Array(stride(from: 1, to: 39, by: 3)) {
        a.unregisterForTraitChanges(registrations[index])
      }
      b.unregisterForTraitChanges(registrations[2])  // another environment's: nothing
      a.unregisterForTraitChanges(registrations[0])  // twice: nothing
      a.registerForTraitChanges([.userInterfaceStyle]) { [log] view, previous in
        log.record("a!late", previous, view.dmTraitCollection)
      }
      DMTraitCollection.setOverride(.dark, animated: false)
      let expected = (0..<40).filter { !ended.contains($0) }.map { "a!\($0)" } + ["a!late"]
      #expect(log.names.filter { $0.hasPrefix("a!") } == expected)
    }

    @Test func aChangeMadeInsideAHandlerIsReportedAfterThePassOnce() {
      let (window, a, _, _) = makeShownTree(log: log)
      a.registerForTraitChanges([.userInterfaceStyle]) { [log] view, previous in
        log.record("a!", previous, view.dmTraitCollection)
        if view.dmTraitCollection.userInterfaceStyle == .dark { window.traitOverrides[Density.self] = 0.5 }
      }
      observe(a, [.custom(Density.self)], as: "a!density")
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(log.names == ["window", "a", "a!", "a1", "b", "window", "a", "a!density", "a1", "b"])
      #expect(log.calls(of: "a!density")[0].previous?.userInterfaceStyle == .dark)
    }

    @Test func aHiddenWindowsObserverIsCalledOnceWhenShownWithTheCollectionBeforeHiding() {
      let (window, a, _, _) = makeShownTree(log: log)
      a.registerForTraitChanges([.userInterfaceStyle]) { [log] view, previous in
        log.record("a!", previous, view.dmTraitCollection)
      }
      window.isHidden = true
      DMTraitCollection.setOverride(.dark, animated: false)
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark, theme: "X"), animated: false)
      #expect(log.calls.isEmpty)
      window.isHidden = false
      #expect(log.names == ["window", "a", "a!", "a1", "b"])
      #expect(log.calls(of: "a!")[0].previous?.userInterfaceStyle == .light)
      #expect(log.calls(of: "a!")[0].current.userInterfaceStyle == .dark)
      log.reset()
      window.isHidden = true
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark, theme: "Y"), animated: false)
      window.isHidden = false
      #expect(log.names == ["window", "a", "a1", "b"], "the style did not change while hidden")
    }

    @Test func anEnvironmentIsFreedWithItsRegistrations() {
      weak var weakView: LoggingView?
      do {
        let (window, _, _, _) = makeShownTree(log: log)
        let view = LoggingView("view", log: log)
        observe(view, [.userInterfaceStyle], as: "view!")
        window.addSubview(view)
        weakView = view
        view.removeFromSuperview()
      }
      #expect(weakView == nil)
    }

    @Test func aGlobalObserverIsCalledForItsTraitsWhileItsTokenIsKept() {
      var calls: [(DMTraitCollection, DMTraitCollection)] = []
      var order: [String] = []
      let notification = NotificationCenter.default.addObserver(
        forName: DMTraitCollection.didChangeNotification, object: nil, queue: nil
      ) { _ in MainActor.assumeIsolated { order.append("notification") } }
      defer { NotificationCenter.default.removeObserver(notification) }
      var token: DMTraitObservation? = DMTraitCollection.registerForTraitChanges([.userInterfaceStyle]) {
        previous, current in
        calls.append((previous, current))
        order.append("observer")
      }
      DMTraitCollection.setOverride(DMTraitCollection(theme: "RED"), animated: false)
      #expect(calls.isEmpty, "RED is light, as before")
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(calls.count == 1)
      #expect(calls.first?.0.userInterfaceStyle == .light)
      #expect(calls.first?.1.userInterfaceStyle == .dark)
      #expect(order == ["notification", "observer", "notification"])
      withExtendedLifetime(token) {}
      token = nil
      DMTraitCollection.setOverride(.light, animated: false)
      #expect(calls.count == 1, "freeing the token ends the observation")
    }

    @Test func cancellingFromAnEarlierObserverSkipsALaterOne() {
      var calls: [String] = []
      var second: DMTraitObservation?
      let first = DMTraitCollection.registerForTraitChanges([.custom(Density.self)]) { _, _ in
        calls.append("first")
        second?.cancel()
      }
      second = DMTraitCollection.registerForTraitChanges([.custom(Density.self)]) { _, _ in
        calls.append("second")
      }
      DMTraitCollection.setOverride(DMTraitCollection(Density.self, 0.5), animated: false)
      #expect(calls == ["first"])
      withExtendedLifetime(first) {}
    }
  }
}

extension GlobalStateTests {
  /// What the review of custom traits found.
  @Suite @MainActor struct CustomTraitEdgeTests {
    let log = CallLog()

    init() { DarkModeManager.reset() }

    @Test func aViewPutBackAfterABindingWasSetAwayShowsTheValueForItsTraits() {
      let (_, a, _, _) = makeShownTree(log: log)
      final class Swatch: DMView { var color = DMColor.clear }
      let swatch = Swatch()
      a.addSubview(swatch)
      swatch.removeFromSuperview()
      DMTraitCollection.setOverride(.dark, animated: false)
      swatch.dm.bind(\.color, to: DMDynamic(light: .white, dark: .black))
      #expect(swatch.color == .black)
      var light = DMTraitCollection.light
      light[Density.self] = 0.5
      DMTraitCollection.setOverride(light, animated: false)
      a.addSubview(swatch)
      #expect(swatch.color == .white)
    }

    @Test func aHiddenWindowShownAfterAReloadShowsTheNewTableWhenOnlyADensityChanged() throws {
      let (window, a, _, _) = makeShownTree(log: log)
      let table = try DMColorTable(string: "NORMAL NIGHT\n#111111 #222222 BG\n")
      final class Swatch: DMView { var color = DMColor.clear }
      let swatch = Swatch()
      a.addSubview(swatch)
      swatch.dm.bind(\.color, to: DMDynamicColor(key: "BG", in: table))
      window.isHidden = true
      try table.reload(string: "NORMAL NIGHT\n#333333 #444444 BG\n")
      DMTraitCollection.setOverride(DMTraitCollection(Density.self, 0.5), animated: false)
      window.isHidden = false
      #expect(swatch.color == DMColor(rgb: 0x333333))
    }

    @Test func anEnvironmentItsOwnCallbackRemovedIsNotCalledBackForItsTraits() {
      let (_, a, _, _) = makeShownTree(log: log)
      a.onChange = { $0.removeFromSuperview() }
      a.registerForTraitChanges([.userInterfaceStyle]) { [log] view, previous in
        log.record("a!", previous, view.dmTraitCollection)
      }
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(log.calls(of: "a").count == 1)
      #expect(log.calls(of: "a!").isEmpty)
    }

    /// Taken out and put back in a visible window by its own callback: still in one, so its
    /// registrations are called for the change, once, after the callback.
    @Test func anEnvironmentItsOwnCallbackMovesWithinTheVisibleWindowsIsCalledBackForItsTraits() {
      let (_, a, _, b) = makeShownTree(log: log)
      a.onChange = { view in
        view.onChange = nil
        view.removeFromSuperview()
        b.addSubview(view)
      }
      // The handler is told the change the callback was: `DMTraitCollection.current` is the
      // collection the callback got, while the view's own is read where it now is.
      a.registerForTraitChanges([.userInterfaceStyle]) { [log] _, previous in
        log.record("a!", previous, DMTraitCollection.current)
      }
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(a.superview === b)
      #expect(log.calls(of: "a").count == 1)
      #expect(log.calls(of: "a!").count == 1)
      #expect(log.calls(of: "a!").first?.previous == .resolvedLight)
      #expect(log.calls(of: "a!").first?.current == .resolvedDark)
      #expect(log.names.firstIndex(of: "a!")! > log.names.firstIndex(of: "a")!)
    }

    /// The same when the new superview is itself just placed in a visible window, and when the new
    /// place resolves another collection: each change the callback is called for is observed,
    /// right after it.
    @Test func anEnvironmentItsOwnCallbackMovesUnderANewContainerIsCalledBackForEachChange() {
      let (window, a, _, _) = makeShownTree(log: log)
      let container = LoggingView("container", log: log)
      container.overrideUserInterfaceStyle = .light
      a.onChange = { view in
        view.onChange = nil
        view.removeFromSuperview()
        container.addSubview(view)
        window.addSubview(container)
      }
      a.registerForTraitChanges([.userInterfaceStyle]) { [log] view, previous in
        log.record("a!", previous, view.dmTraitCollection)
      }
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(a.superview === container)
      #expect(a.dmTraitCollection.userInterfaceStyle == .light)
      let calls = log.calls.filter { $0.name == "a" || $0.name == "a!" }
      #expect(calls.map(\.name) == ["a", "a!", "a", "a!"])
      #expect(calls.map { $0.previous?.userInterfaceStyle } == [.light, .light, .dark, .dark])
      // The callbacks' collections; a handler reads the view's collection where it is by then.
      #expect(log.calls(of: "a").map { $0.current.userInterfaceStyle } == [.dark, .light])
    }

    @Test func aValueNotEqualToItselfIsStoredAsTheDefault() {
      let traits = DMTraitCollection(Density.self, .nan)
      #expect(traits[Density.self] == 1.0)
      #expect(traits == DMTraitCollection(Density.self, .nan))
    }
  }
}
