import Foundation
import Testing

@testable import DarkModeKit

extension GlobalStateTests {
  @Suite @MainActor struct GlobalCollectionTests {
    init() { DarkModeManager.reset() }

    @Test func startsUnspecifiedAndResolvesToTheDefaults() {
      #expect(DMTraitCollection.override == DMTraitCollection())
      #expect(DMTraitCollection.system == DMTraitCollection())
      let current = DMTraitCollection.current
      #expect(current.userInterfaceStyle == .light)
      #expect(current.accessibilityContrast == .normal)
      #expect(current.userInterfaceLevel == .base)
      #expect(current.theme == nil)
    }

    @Test func overrideWinsOverTheSystemTraitByTrait() {
      let source = DMManualAppearanceSource(
        traitCollection: DMTraitCollection(traitsFrom: [
          .dark, DMTraitCollection(accessibilityContrast: .high),
        ]))
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: source))
      #expect(DMTraitCollection.current.userInterfaceStyle == .dark)
      DMTraitCollection.setOverride(
        DMTraitCollection(traitsFrom: [.light, DMTraitCollection(theme: "RED")]), animated: false)
      #expect(DMTraitCollection.current.userInterfaceStyle == .light)
      #expect(DMTraitCollection.current.accessibilityContrast == .high)
      #expect(DMTraitCollection.current.theme == "RED")
      #expect(DMTraitCollection.override.theme == "RED")
      #expect(DMTraitCollection.system.userInterfaceStyle == .dark)
    }

    @Test func theAppsDefaultStyleAppliesWhenNeitherTheOverrideNorTheSystemChooses() {
      let window = DMWindow()
      let view = DMView()
      window.addSubview(view)
      window.makeKeyAndVisible()
      let source = DMManualAppearanceSource()
      var configuration = DMConfiguration(systemAppearanceSource: source)
      configuration.defaultUserInterfaceStyle = .dark
      DarkModeManager.setup(with: configuration)
      #expect(DMTraitCollection.current.userInterfaceStyle == .dark)
      #expect(view.dmTraitCollection.userInterfaceStyle == .dark)
      source.traitCollection = .light
      #expect(view.dmTraitCollection.userInterfaceStyle == .light)
      source.traitCollection = DMTraitCollection()
      #expect(view.dmTraitCollection.userInterfaceStyle == .dark)
      DMTraitCollection.setOverride(.light, animated: false)
      #expect(view.dmTraitCollection.userInterfaceStyle == .light)
      DMTraitCollection.setOverride(DMTraitCollection(), animated: false)
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: source))
      #expect(view.dmTraitCollection.userInterfaceStyle == .light, "the default is light again")
    }

    @Test func whetherTheSystemHasAColorSchemeSettingIsWhatTheSourceSaid() {
      #expect(!DMTraitCollection.systemHasColorSchemeSetting, "no source")
      let source = DMManualAppearanceSource(traitCollection: .dark)
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: source))
      #expect(DMTraitCollection.systemHasColorSchemeSetting)
      source.traitCollection = DMTraitCollection(accessibilityContrast: .high)
      #expect(!DMTraitCollection.systemHasColorSchemeSetting, "a report without a style")
      final class NoPreferenceSource: DMSystemAppearanceSource {
        func start(reporting reporter: DMAppearanceReporter) {
          reporter.report(DMTraitCollection(), hasColorSchemeSetting: true)
        }
        func stop() {}
      }
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: NoPreferenceSource()))
      #expect(DMTraitCollection.systemHasColorSchemeSetting)
      #expect(DMTraitCollection.system.userInterfaceStyle == .unspecified)
      DarkModeManager.setup(with: DMConfiguration())
      #expect(!DMTraitCollection.systemHasColorSchemeSetting)
    }

    @Test func unspecifiedOverrideFollowsTheSystem() {
      let source = DMManualAppearanceSource()
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: source))
      DMTraitCollection.setOverride(.light, animated: false)
      source.traitCollection = .dark
      #expect(DMTraitCollection.current.userInterfaceStyle == .light)
      DMTraitCollection.setOverride(DMTraitCollection(), animated: false)
      #expect(DMTraitCollection.current.userInterfaceStyle == .dark)
      source.traitCollection = .light
      #expect(DMTraitCollection.current.userInterfaceStyle == .light)
    }

    @Test func theSystemHandlerHearsChangesTheResolvedCollectionHides() {
      DarkModeManager.setup(with: DMConfiguration())  // the system unknown, whatever ran before
      let source = DMManualAppearanceSource()
      var heard: [DMUserInterfaceStyle] = []
      var themeChanges = 0
      DarkModeManager.setup(
        with: DMConfiguration(
          themeChangeHandler: { themeChanges += 1 }, systemAppearanceSource: source,
          systemAppearanceChangeHandler: { heard.append($0.userInterfaceStyle) }))
      source.traitCollection = .light  // no preference → light: the default, nothing to redraw
      DMTraitCollection.setOverride(.dark, animated: false)
      source.traitCollection = .dark  // hidden by the override
      source.traitCollection = .dark  // the same again: not a change
      #expect(heard == [.light, .dark])
      #expect(themeChanges == 1)
      #expect(DMTraitCollection.system.userInterfaceStyle == .dark)
      DMTraitCollection.setOverride(DMTraitCollection(), animated: false)
    }

    @Test func performAsCurrentScopesNestAndRestore() {
      let outer = DMTraitCollection(theme: "OUTER")
      let inner = DMTraitCollection(theme: "INNER")
      let seen = outer.performAsCurrent {
        let innerSeen = inner.performAsCurrent { DMTraitCollection.current.theme }
        return [innerSeen, DMTraitCollection.current.theme]
      }
      #expect(seen == ["INNER", "OUTER"])
      #expect(DMTraitCollection.current.theme == nil)
    }

    @Test func performAsCurrentReachesTasksStartedInside() async {
      let scoped = DMTraitCollection(theme: "SCOPED")
      let task = scoped.performAsCurrent {
        Task.detached { DMTraitCollection.current.theme }
      }
      // A detached task does not inherit task-local values; a child task does.
      #expect(await task.value == nil)
      let child = scoped.performAsCurrent {
        Task { DMTraitCollection.current.theme }
      }
      #expect(await child.value == "SCOPED")
    }

    @Test func performAsCurrentRethrowsAndReturns() {
      struct Failure: Error {}
      #expect(throws: Failure.self) {
        try DMTraitCollection.dark.performAsCurrent { throw Failure() }
      }
      #expect(DMTraitCollection.dark.performAsCurrent { 7 } == 7)
    }

    @Test func currentIsSafeToReadFromManyTasksWhileTheMainActorFlips() async {
      let readers = Task.detached {
        await withTaskGroup(of: Int.self) { group in
          for _ in 0..<4 {
            group.addTask {
              var unresolved = 0
              for _ in 0..<5_000 {
                let current = DMTraitCollection.current
                if current.userInterfaceStyle == .unspecified || current.accessibilityContrast == .unspecified
                {
                  unresolved += 1
                }
                let scoped = DMTraitCollection(theme: "T").performAsCurrent {
                  DMTraitCollection.current.theme
                }
                if scoped != "T" { unresolved += 1 }
              }
              return unresolved
            }
          }
          return await group.reduce(0, +)
        }
      }
      for index in 0..<500 {
        DMTraitCollection.setOverride(index.isMultiple(of: 2) ? .dark : .light, animated: false)
        if index.isMultiple(of: 50) { await Task.yield() }
      }
      #expect(await readers.value == 0)
      #expect(DMTraitCollection.current.userInterfaceStyle == .light)
    }

    @Test func aSourceOnAnotherThreadIsDeliveredOnTheMainActor() async throws {
      let source = ThreadedSource()
      let window = DMWindow()
      let view = ThreadCheckingView()
      window.addSubview(view)
      window.makeKeyAndVisible()
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: source))
      source.report(.dark, fromAnotherThread: true)
      for _ in 0..<5_000 where view.dmTraitCollection.userInterfaceStyle != .dark {
        try await Task.sleep(for: .milliseconds(2))
      }
      #expect(DMTraitCollection.system.userInterfaceStyle == .dark)
      #expect(view.dmTraitCollection.userInterfaceStyle == .dark)
      #expect(view.calls == 2)
    }

    @Test func aFloodOfReportsFromAnotherThreadIsCoalescedToTheNewest() async throws {
      let source = ThreadedSource()
      let window = DMWindow()
      let view = ThreadCheckingView()
      window.addSubview(view)
      window.makeKeyAndVisible()
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: source))
      source.flood(10_000, last: .dark)
      for _ in 0..<5_000 where view.dmTraitCollection != .resolvedDark {
        try await Task.sleep(for: .milliseconds(2))
      }
      #expect(view.dmTraitCollection == .resolvedDark)
      #expect(view.calls < 10_000)
    }

    @Test func reportsOfAReplacedSourceAreIgnored() async throws {
      let old = ThreadedSource()
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: old))
      let new = DMManualAppearanceSource(traitCollection: .light)
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: new))
      #expect(old.isStopped)
      old.report(.dark, fromAnotherThread: false)
      old.report(.dark, fromAnotherThread: true)
      try await Task.sleep(for: .milliseconds(50))
      #expect(DMTraitCollection.system == .light)
      DarkModeManager.setup(with: DMConfiguration())
      #expect(DMTraitCollection.system == DMTraitCollection())
    }
  }
}

/// A source that reports from a thread of its own when asked.
@MainActor
final class ThreadedSource: DMSystemAppearanceSource {
  private var reporter: DMAppearanceReporter?
  private(set) var isStopped = false

  func start(reporting reporter: DMAppearanceReporter) {
    self.reporter = reporter
  }

  func stop() {
    isStopped = true
  }

  /// Reports through the reporter it was started with, even after being stopped.
  func report(_ traits: DMTraitCollection, fromAnotherThread: Bool) {
    guard let reporter else { return }
    if fromAnotherThread {
      Thread { reporter.send(traits) }.start()
    } else {
      reporter.report(traits)
    }
  }

  /// Sends `count` reports from another thread as fast as it can, ending with `last`.
  func flood(_ count: Int, last: DMTraitCollection) {
    guard let reporter else { return }
    Thread {
      for index in 0..<count { reporter.send(DMTraitCollection(theme: DMTheme(rawValue: "T\(index)"))) }
      reporter.send(last)
    }.start()
  }
}

@MainActor
final class ThreadCheckingView: DMView {
  var calls = 0

  override func dmTraitCollectionDidChange(_ previousTraitCollection: DMTraitCollection?) {
    MainActor.preconditionIsolated("trait changes are delivered on the main actor")
    calls += 1
  }
}
