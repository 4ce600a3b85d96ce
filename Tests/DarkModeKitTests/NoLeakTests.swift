import DarkModeKitTestSupport
import Foundation
import Testing

@testable import DarkModeKit

#if canImport(Glibc)
  import Glibc
#endif

/// A controller whose view holds three bound subviews, as a screen of an app does.
@MainActor
final class LeakCheckController: DMViewController {
  static let background = DMDynamicColor(light: .white, dark: .black)
  static let radius = DMDynamic(light: 4.0, dark: 6.0)

  override func loadView() {
    let root = SwatchView()
    root.dm.bind(\.backgroundColor, to: Self.background)
    for _ in 0..<3 {
      let child = SwatchView()
      child.dm.bind(\.backgroundColor, to: Self.background)
      child.dm.bind(\.cornerRadius, to: Self.radius)
      root.addSubview(child)
    }
    view = root
  }
}

/// Something a `changes` consumer or a notification observer holds on to.
final class Sink: Sendable {
  let count = Locked(0)
}

/// A weak reference to any object.
func weakly(_ object: AnyObject) -> WeakBox<AnyObject> { WeakBox(object) }

/// The process's memory, as a leak grows it: under a sanitizer, the bytes its allocator holds for
/// live allocations (`Sanitizer.allocatedBytes`); otherwise resident memory, from
/// `/proc/self/statm`.
func memoryInUse() -> Int {
  if let bytes = Sanitizer.allocatedBytes { return bytes }
  guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
  let fields = text.split(separator: " ")
  guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Waits, without blocking a thread, until `condition` holds or ten seconds have passed.
@MainActor
func eventually(_ condition: () -> Bool) async -> Bool {
  let deadline = Date().addingTimeInterval(10)
  while !condition() {
    if Date() > deadline { return false }
    try? await Task.sleep(nanoseconds: 1_000_000)
  }
  return true
}

extension GlobalStateTests {
  @Suite @MainActor struct NoLeakTests {
    init() { DarkModeManager.reset() }

    @Test func windowsControllersAndViewsGoAwayWhenHiddenAndReleased() {
      var objects: [WeakBox<AnyObject>] = []
      var shownWindows: [WeakBox<DMWindow>] = []
      do {
        for index in 0..<1_000 {
          let window = DMWindow()
          let root = LeakCheckController()
          for _ in 0..<2 {
            let child = LeakCheckController()
            root.addChild(child)
            root.view.addSubview(child.view)
            objects.append(weakly(child))
            objects.append(weakly(child.view))
          }
          window.rootViewController = root
          objects += [weakly(window), weakly(root), weakly(root.view)]
          objects += root.view.subviews.map { weakly($0) }
          if index.isMultiple(of: 2) {
            window.makeKeyAndVisible()
            shownWindows.append(WeakBox(window))
          }
        }
        DMTraitCollection.setOverride(.dark, animated: false)
      }
      print("Windows, controllers and views: \(objects.count) objects")
      #expect(shownWindows.allSatisfy { $0.value != nil }, "a shown window is kept alive")
      #expect(DMApplication.shared.windows.count == 500)
      for window in DMApplication.shared.windows { window.isHidden = true }
      #expect(DMApplication.shared.windows.isEmpty)
      #expect(objects.filter { $0.value != nil }.count == 0)
      #expect(ThemableRegistry.shared.liveCount == 0)
    }

    @Test func valuesHeldByBindingsAreReleasedWhenReplacedUnboundOrTheirObjectGoesAway() {
      // Each dynamic value's provider holds a token: the token lives exactly as long as the value.
      func dynamic(_ token: Sink) -> DMDynamic<Double> {
        DMDynamic { _ in Double(token.count.withLock { $0 }) }
      }
      func text(_ token: Sink) -> DMDynamic<String> {
        DMDynamic { _ in "\(token.count.withLock { $0 })" }
      }
      let window = DMWindow()
      window.makeKeyAndVisible()
      defer { window.isHidden = true }
      var replaced: [WeakBox<AnyObject>] = []
      var unbound: [WeakBox<AnyObject>] = []
      var kept: [WeakBox<AnyObject>] = []
      var views: [SwatchView] = []
      for _ in 0..<200 {
        let view = SwatchView()
        window.addSubview(view)
        let first = Sink()
        let second = Sink()
        let third = Sink()
        view.dm.bind(\.cornerRadius, to: dynamic(first))
        view.dm.bind(\.cornerRadius, to: dynamic(second))  // replaces the first
        view.dm.bind(\.title, to: text(third))
        replaced.append(weakly(first))
        kept.append(weakly(second))
        unbound.append(weakly(third))
        views.append(view)
      }
      DMTraitCollection.setOverride(.dark, animated: false)
      for view in views { view.dm.unbind(\.title) }
      #expect(replaced.allSatisfy { $0.value == nil })
      #expect(unbound.allSatisfy { $0.value == nil })
      #expect(kept.allSatisfy { $0.value != nil })
      for view in views { view.removeFromSuperview() }
      views.removeAll()
      #expect(kept.allSatisfy { $0.value == nil })
    }

    @Test func viewsRemovedFromAShownWindowAndBoundObjectsGoAway() {
      let window = DMWindow()
      window.makeKeyAndVisible()
      defer { window.isHidden = true }
      var objects: [WeakBox<AnyObject>] = []
      do {
        var layers: [Layer] = []
        for _ in 0..<2_000 {
          let view = SwatchView()
          view.dm.bind(\.backgroundColor, to: LeakCheckController.background)
          window.addSubview(view)
          let layer = Layer()
          layer.dm.bind(\.fillColor, to: LeakCheckController.background)
          layers.append(layer)
          objects += [weakly(view), weakly(layer)]
        }
        DMTraitCollection.setOverride(.dark, animated: false)
        #expect(layers.allSatisfy { $0.fillColor == .black })
        for view in window.subviews { view.removeFromSuperview() }
        DMTraitCollection.setOverride(.light, animated: false)
      }
      print("Removed views and bound objects: \(objects.count) objects")
      #expect(objects.filter { $0.value != nil }.count == 0)
      #expect(ThemableRegistry.shared.liveCount == 0)
    }

    @Test func changesSubscriptionsEndWhenTheirTasksAreCancelledOrTheStreamIsDropped() async {
      let before = GlobalChangeReporter.subscriberCount
      var sinks: [WeakBox<Sink>] = []
      var tasks: [Task<Void, Never>] = []
      for _ in 0..<1_000 {
        let sink = Sink()
        sinks.append(WeakBox(sink))
        tasks.append(
          Task.detached {
            for await _ in DMTraitCollection.changes { sink.count.withLock { $0 += 1 } }
          })
      }
      #expect(await eventually { GlobalChangeReporter.subscriberCount == before + 1_000 })
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(await eventually { sinks.allSatisfy { $0.value?.count.withLock { $0 } == 1 } })
      for task in tasks { task.cancel() }
      for task in tasks { await task.value }
      tasks.removeAll()
      #expect(GlobalChangeReporter.subscriberCount == before)
      #expect(sinks.filter { $0.value != nil }.count == 0)
      for _ in 0..<1_000 { _ = DMTraitCollection.changes }
      #expect(GlobalChangeReporter.subscriberCount == before)
      print("changes: 2,000 subscriptions ended, \(GlobalChangeReporter.subscriberCount) left")
    }

    @Test func removedNotificationObserversAreReleasedAndNotCalled() {
      let center = NotificationCenter.default
      let calls = Sink()
      var sinks: [WeakBox<Sink>] = []
      do {
        var tokens: [any NSObjectProtocol] = []
        for _ in 0..<1_000 {
          let sink = Sink()
          sinks.append(WeakBox(sink))
          tokens.append(
            center.addObserver(forName: DMTraitCollection.didChangeNotification, object: nil, queue: nil) {
              [sink, calls] _ in
              sink.count.withLock { $0 += 1 }
              calls.count.withLock { $0 += 1 }
            })
        }
        DMTraitCollection.setOverride(.dark, animated: false)
        #expect(calls.count.withLock { $0 } == 1_000)
        for token in tokens { center.removeObserver(token) }
      }
      #expect(sinks.filter { $0.value != nil }.count == 0)
      DMTraitCollection.setOverride(.light, animated: false)
      #expect(calls.count.withLock { $0 } == 1_000)
    }

    /// The number of switches: `DM_LEAK_SWITCHES` when set (for a long run), else 1,000, or 250
    /// under the thread sanitizer. A debug build switches 1,000 bound views about 1,000 times a
    /// second.
    static let switches: Int = {
      if let text = ProcessInfo.processInfo.environment["DM_LEAK_SWITCHES"], let count = Int(text),
        count >= 10
      {
        return count
      }
      return Sanitizer.current == .thread ? 250 : 1_000
    }()

    @Test func aLongRunOfSwitchesKeepsMemoryFlat() {
      let switches = Self.switches
      let window = DMWindow()
      let root = SwatchView()
      window.addSubview(root)
      var level: [DMView] = [root]
      var views: [SwatchView] = []
      while views.count < 1_000 {
        var next: [DMView] = []
        for parent in level {
          for _ in 0..<8 where views.count < 1_000 {
            let view = SwatchView()
            view.dm.bind(\.backgroundColor, to: LeakCheckController.background)
            view.dm.bind(\.cornerRadius, to: LeakCheckController.radius)
            parent.addSubview(view)
            next.append(view)
            views.append(view)
          }
        }
        level = next
      }
      window.makeKeyAndVisible()
      defer { window.isHidden = true }
      let styles: [DMTraitCollection] = [
        .dark, .light, DMTraitCollection(theme: .night), DMTraitCollection(),
      ]
      func run(_ count: Int) {
        for index in 0..<count {
          DMTraitCollection.setOverride(styles[index % styles.count], animated: false)
        }
      }
      run(switches / 10)  // warm-up: caches and allocator pools reach their size
      // Other suites run at the same time in this process and may grow it. A leak grows it in
      // every half, so a half that grows more than the tolerance is followed by another, up to two.
      // 2 KiB a switch: 1 MiB for a half of the default run, less for the shorter one under the
      // thread sanitizer, so that both catch the same leak.
      let tolerance = switches / 2 * 2 << 10
      var samples = [memoryInUse()]
      var growths: [Int] = []
      repeat {
        run(switches / 2)
        samples.append(memoryInUse())
        growths.append(samples[samples.count - 1] - samples[samples.count - 2])
      } while growths.count < 2 || (growths.last! > tolerance && growths.count < 4)
      let kib = { (bytes: Int) in "\(bytes / 1024) KiB" }
      print(
        "\(switches / 10) + \(growths.count) × \(switches / 2) switches over \(views.count) bound views:"
          + " memory \(samples.map(kib).joined(separator: " → ")); growth per half"
          + " \(growths.map(kib).joined(separator: ", "))")
      #expect(growths.last! <= tolerance, "memory grew by \(kib(growths.last!)) in the last half")
      DMTraitCollection.setOverride(.light, animated: false)
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(views.allSatisfy { $0.backgroundColor == .black && $0.cornerRadius == 6 })
    }
  }
}
