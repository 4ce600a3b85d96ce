import Foundation
import Testing

@testable import DarkModeKit

extension GlobalStateTests {
  @Suite @MainActor struct ChangeReportingTests {
    let log = CallLog()

    init() { DarkModeManager.reset() }

    @Test func themeChangeHandlerRunsOncePerChangeAfterAllWindows() {
      let first = LoggingWindow("first", log: log)
      let second = LoggingWindow("second", log: log)
      first.makeKeyAndVisible()
      second.makeKeyAndVisible()
      var handlerSaw: [[DMUserInterfaceStyle]] = []
      DarkModeManager.setup(
        with: DMConfiguration(themeChangeHandler: {
          handlerSaw.append([first, second].map(\.dmTraitCollection.userInterfaceStyle))
        }))
      DMTraitCollection.setOverride(.dark, animated: false)
      DMTraitCollection.setOverride(.dark, animated: false)
      first.overrideUserInterfaceStyle = .light
      DMTraitCollection.setOverride(DMTraitCollection(theme: "RED"), animated: false)
      #expect(handlerSaw == [[.dark, .dark], [.light, .light]])
    }

    @Test func windowThemeChangeHandlerRunsForEachWindowWhoseStyleChanged() {
      let plain = LoggingWindow("plain", log: log)
      let pinned = LoggingWindow("pinned", log: log)
      pinned.overrideUserInterfaceStyle = .light
      plain.makeKeyAndVisible()
      pinned.makeKeyAndVisible()
      var restyled: [String] = []
      DarkModeManager.setup(
        with: DMConfiguration(windowThemeChangeHandler: { window in
          restyled.append((window as? LoggingWindow)?.name ?? "?")
        }))
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(restyled == ["plain"])
      pinned.overrideUserInterfaceStyle = .dark
      #expect(restyled == ["plain", "pinned"])
      DMTraitCollection.setOverride(
        DMTraitCollection(traitsFrom: [.dark, DMTraitCollection(theme: "RED")]), animated: false)
      #expect(restyled == ["plain", "pinned", "plain", "pinned"])  // the theme changed colours too
    }

    @Test func windowThemeChangeHandlerRunsForEveryTraitThatChangesColours() {
      let window = LoggingWindow("window", log: log)
      window.makeKeyAndVisible()
      var restyled = 0
      DarkModeManager.setup(
        with: DMConfiguration(windowThemeChangeHandler: { _ in restyled += 1 }))
      DMTraitCollection.setOverride(DMTraitCollection(theme: "SEPIA"), animated: false)
      #expect(restyled == 1)
      DMTraitCollection.setOverride(
        DMTraitCollection(traitsFrom: [
          DMTraitCollection(theme: "SEPIA"), DMTraitCollection(accessibilityContrast: .high),
        ]),
        animated: false)
      #expect(restyled == 2)
      window.overrideTraitCollection = DMTraitCollection(userInterfaceLevel: .elevated)
      #expect(restyled == 3)
      DMTraitCollection.setOverride(DMTraitCollection(theme: "SEPIA"), animated: false)  // contrast back
      #expect(restyled == 4)
      DMTraitCollection.setOverride(DMTraitCollection(theme: "SEPIA"), animated: false)  // no change
      #expect(restyled == 4)
    }

    @Test func windowThemeChangeHandlerRunsForTheWindowOfAViewWhoseOverrideChanged() {
      let first = LoggingWindow("first", log: log)
      let second = LoggingWindow("second", log: log)
      let sidebar = LoggingView("sidebar", log: log)
      first.addSubview(sidebar)
      first.makeKeyAndVisible()
      second.makeKeyAndVisible()
      var restyled: [String] = []
      DarkModeManager.setup(
        with: DMConfiguration(windowThemeChangeHandler: { window in
          restyled.append((window as? LoggingWindow)?.name ?? "?")
        }))
      sidebar.overrideUserInterfaceStyle = .dark
      #expect(restyled == ["first"])
      sidebar.overrideUserInterfaceStyle = .dark
      #expect(restyled == ["first"])
      let newView = LoggingView("new", log: log)
      second.addSubview(newView)  // a view just added: drawn anyway, not reported
      #expect(restyled == ["first"])
    }

    @Test func windowThemeChangeHandlerSkipsAWindowHiddenDuringThePass() {
      let first = LoggingWindow("first", log: log)
      let second = LoggingWindow("second", log: log)
      let view = LoggingView("view", log: log)
      second.addSubview(view)
      first.makeKeyAndVisible()
      second.makeKeyAndVisible()
      view.onChange = { _ in first.isHidden = true }
      var restyled: [String] = []
      DarkModeManager.setup(
        with: DMConfiguration(windowThemeChangeHandler: { window in
          restyled.append((window as? LoggingWindow)?.name ?? "?")
        }))
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(first.isHidden)
      #expect(restyled == ["second"])
    }

    @Test func windowThemeChangeHandlerRunsForAWindowThatCatchesUpWhenShownAgain() {
      let window = LoggingWindow("window", log: log)
      var restyled: [String] = []
      DarkModeManager.setup(
        with: DMConfiguration(windowThemeChangeHandler: { window in
          restyled.append((window as? LoggingWindow)?.name ?? "?")
        }))
      window.makeKeyAndVisible()
      #expect(restyled == [])  // the first show
      window.isHidden = true
      window.isHidden = false
      #expect(restyled == [])  // nothing changed while hidden
      window.isHidden = true
      DMTraitCollection.setOverride(DMTraitCollection(theme: "SEPIA"), animated: false)
      #expect(restyled == [])  // hidden windows are not reported
      window.isHidden = false
      #expect(restyled == ["window"])
    }

    @Test func didChangeNotificationCarriesThePreviousAndNewCollections() {
      var received: [(DMTraitCollection?, DMTraitCollection?)] = []
      let observer = NotificationCenter.default.addObserver(
        forName: DMTraitCollection.didChangeNotification, object: nil, queue: nil
      ) { notification in
        let info = notification.userInfo
        let previous = info?[DMTraitCollection.previousTraitCollectionUserInfoKey] as? DMTraitCollection
        let new = info?[DMTraitCollection.newTraitCollectionUserInfoKey] as? DMTraitCollection
        MainActor.assumeIsolated { received.append((previous, new)) }
      }
      defer { NotificationCenter.default.removeObserver(observer) }
      DMTraitCollection.setOverride(.dark, animated: false)
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(received.count == 1)
      #expect(received.first?.0 == .resolvedLight)
      #expect(received.first?.1 == .resolvedDark)
    }

    @Test func eachChangesSubscriberGetsEveryChange() async {
      let first = DMTraitCollection.changes
      let second = DMTraitCollection.changes
      DMTraitCollection.setOverride(.dark, animated: false)
      DMTraitCollection.setOverride(DMTraitCollection(theme: "RED"), animated: false)
      var firstIterator = first.makeAsyncIterator()
      var secondIterator = second.makeAsyncIterator()
      let a = [await firstIterator.next(), await firstIterator.next()]
      let b = [await secondIterator.next(), await secondIterator.next()]
      #expect(a.map { $0?.userInterfaceStyle } == [.dark, .light])
      #expect(a.last??.theme == "RED")
      #expect(a == b)
    }

    @Test func endingASubscriptionFreesIt() async {
      let before = GlobalChangeReporter.subscriberCount
      let consumer = Task {
        for await _ in DMTraitCollection.changes {}
      }
      for _ in 0..<200 where GlobalChangeReporter.subscriberCount == before { await Task.yield() }
      #expect(GlobalChangeReporter.subscriberCount == before + 1)
      consumer.cancel()
      await consumer.value
      #expect(GlobalChangeReporter.subscriberCount == before)
      do { _ = DMTraitCollection.changes }
      #expect(GlobalChangeReporter.subscriberCount == before)
    }

    @Test func animatedChangesCarryTheirTransitionToCallbacksAndHandlers() {
      let window = TransitionRecordingWindow()
      window.makeKeyAndVisible()
      var handlerTransition: DMTransition?
      DarkModeManager.setup(
        with: DMConfiguration(themeChangeHandler: { handlerTransition = DMTransition.current }))
      DMTraitCollection.setOverride(.dark, animated: true)
      #expect(window.seen.last == DMTransition(isAnimated: true, duration: 0.25))
      #expect(handlerTransition == DMTransition(isAnimated: true, duration: 0.25))
      #expect(DMTransition.current == .none)
      DMTraitCollection.setOverride(.light, animated: false)
      #expect(window.seen.last == DMTransition.none)
      DarkModeManager.setup(with: DMConfiguration(animationDuration: 0.6))
      DMTraitCollection.setOverride(.dark, animated: true)
      #expect(window.seen.last == DMTransition(isAnimated: true, duration: 0.6))
    }

    @Test func reducedMotionShowsEveryChangeAtOnce() {
      let window = TransitionRecordingWindow()
      window.makeKeyAndVisible()
      let source = DMManualAppearanceSource(traitCollection: DMTraitCollection(accessibilityMotion: .reduced))
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: source))
      DMTraitCollection.setOverride(.dark, animated: true)
      #expect(window.dmTraitCollection.userInterfaceStyle == .dark)
      #expect(window.seen.last == DMTransition.none)
      source.traitCollection = DMTraitCollection(accessibilityMotion: .normal)
      DMTraitCollection.setOverride(.light, animated: true)
      #expect(window.seen.last == DMTransition(isAnimated: true, duration: 0.25))
      // A window that asks for reduced motion itself is not animated either.
      window.traitOverrides.accessibilityMotion = .reduced
      DMTraitCollection.setOverride(.dark, animated: true)
      #expect(window.dmTraitCollection.userInterfaceStyle == .dark)
      #expect(window.seen.last == DMTransition.none)
    }

    @Test func aChangeOfTheMotionAloneRestylesNoWindow() {
      let window = DMWindow()
      window.makeKeyAndVisible()
      var restyled = 0
      let source = DMManualAppearanceSource()
      DarkModeManager.setup(
        with: DMConfiguration(
          windowThemeChangeHandler: { _ in restyled += 1 }, systemAppearanceSource: source))
      source.traitCollection = DMTraitCollection(accessibilityMotion: .reduced)
      #expect(window.dmTraitCollection.accessibilityMotion == .reduced)
      #expect(restyled == 0)
      source.traitCollection = DMTraitCollection(accessibilityMotion: .reduced, accentColor: .red)
      #expect(restyled == 1, "the accent may change colours")
    }

    @Test func setupAgainStopsTheEarlierSource() {
      let first = DMManualAppearanceSource(traitCollection: .dark)
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: first))
      #expect(DMTraitCollection.current.userInterfaceStyle == .dark)
      var calls = 0
      DarkModeManager.setup(with: DMConfiguration(themeChangeHandler: { calls += 1 }))
      #expect(DMTraitCollection.current.userInterfaceStyle == .light)
      #expect(calls == 1)  // dropping the dark source is itself a change
      first.traitCollection = .dark
      #expect(DMTraitCollection.current.userInterfaceStyle == .light)
      #expect(calls == 1)
    }

    @Test func everythingWorksWithoutSetup() {
      let window = LoggingWindow("window", log: log)
      window.makeKeyAndVisible()
      DMTraitCollection.setOverride(.dark, animated: true)
      #expect(window.dmTraitCollection == .resolvedDark)
      #expect(DMTraitCollection.system == DMTraitCollection())
    }
  }
}

@MainActor
final class TransitionRecordingWindow: DMWindow {
  var seen: [DMTransition] = []

  override func dmTraitCollectionDidChange(_ previousTraitCollection: DMTraitCollection?) {
    seen.append(DMTransition.current)
  }
}
