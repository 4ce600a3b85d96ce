import DarkModeKit
import Foundation

/// 9. How everyday operations on the hierarchy grow: each runs at two sizes 4× apart, and the
/// time may grow at most ``worstGrowth`` times (a quadratic step would grow 16×, and hash tables
/// 4× larger miss the cache more often); a miss is measured again, twice at most, and the best
/// measurement counts. Removing 20,000 siblings one by one must take under 50 ms from either end,
/// and an image by name must load once per name in a pass over views with alternating traits.
@MainActor
struct HierarchyScaleCases {
  let runs: Int

  /// Growth above this for 4× the input fails the run.
  static let worstGrowth = 6.0
  /// The most that removing 20,000 siblings one by one may take.
  static let removalLimit = 0.050

  /// Prints each case's times and growth; returns whether every target is met.
  func run() -> Bool {
    print(
      "9. Scale of hierarchy operations: the same work at two sizes, 4× apart (at most \(Int(Self.worstGrowth))×)"
    )
    var allMet = true
    /// Times `make(size)`'s body at each size, each run after its untimed preparation.
    func scale(
      _ name: String, sizes: [Int], unit: String,
      limit: (size: Int, seconds: Double)? = nil,
      _ make: (Int) -> Work
    ) {
      /// The medians at both sizes, printed.
      func measure() -> [Double] {
        sizes.map { size in
          let work = make(size)
          let timing = Measure.time(runs: max(5, runs / 3), prepare: work.prepare, work.body)
          work.finish()
          var line =
            column("     \(name), \(size.formatted()) \(unit)", 76)
            + formatDuration(timing.median)
          if let limit, limit.size == size {
            line +=
              timing.median < limit.seconds
              ? "  (under \(formatDuration(limit.seconds)))"
              : "  (MISSED: over \(formatDuration(limit.seconds)))"
          }
          print(line)
          return timing.median
        }
      }
      func met(_ medians: [Double]) -> Bool {
        medians[1] / max(medians[0], 1e-9) <= Self.worstGrowth
          && (limit.map { medians[$0.size == sizes[0] ? 0 : 1] < $0.seconds } ?? true)
      }
      var medians = measure()
      // A machine busy with something else, or a cache that the larger size overflows, can make
      // one measurement grow: a miss is measured again, twice at most, and the best one counts.
      for _ in 0..<2 where !met(medians) {
        print("   measured again:")
        let again = measure()
        if met(again) || again[1] / max(again[0], 1e-9) < medians[1] / max(medians[0], 1e-9) {
          medians = again
        }
      }
      let growth = medians[1] / max(medians[0], 1e-9)
      allMet = allMet && met(medians)
      print(
        String(
          format: "   growth: %.1f×%@", growth,
          growth <= Self.worstGrowth ? "" : "  (MISSED: above \(Int(Self.worstGrowth))×)")
      )
    }

    for fromFront in [false, true] {
      scale(
        "remove siblings one by one from the \(fromFront ? "front" : "end")", sizes: [5_000, 20_000],
        unit: "views", limit: (20_000, Self.removalLimit)
      ) { count in
        var views: [DMView] = []
        let parent = DMView()
        return Work(
          prepare: {
            views = (0..<count).map { _ in DMView() }
            for view in views { parent.addSubview(view) }
            if !fromFront { views.reverse() }
          },
          body: { for view in views { view.removeFromSuperview() } }
        )
      }
    }
    scale("remove views inserted at the front, from the end", sizes: [5_000, 20_000], unit: "views") {
      count in
      var views: [DMView] = []
      let parent = DMView()
      return Work(
        prepare: {
          views = (0..<count).map { _ in DMView() }
          for view in views { parent.insertSubview(view, at: 0) }
        },
        body: { for view in views { view.removeFromSuperview() } }
      )
    }
    scale("move children from one view to another", sizes: [5_000, 20_000], unit: "views") { count in
      let (from, to) = (DMView(), DMView())
      var views: [DMView] = []
      return Work(
        prepare: {
          views = (0..<count).map { _ in DMView() }
          for view in views { from.addSubview(view) }
        },
        body: { for view in views { to.addSubview(view) } }
      )
    }
    scale("moves made inside one callback", sizes: [5_000, 20_000], unit: "moves") { count in
      let window = DMWindow()
      let trigger = CallbackView()
      let (from, to) = (DMView(), DMView())
      window.addSubview(trigger)
      window.addSubview(from)
      window.addSubview(to)
      window.makeKeyAndVisible()
      let views = (0..<count).map { _ in DMView() }
      trigger.onChange = { for view in views { to.addSubview(view) } }
      return .switchToDark(in: window) { for view in views { from.addSubview(view) } }
    }
    scale("show, then hide, windows", sizes: [2_500, 10_000], unit: "windows") { count in
      let windows = (0..<count).map { _ in DMWindow() }
      return Work(
        prepare: {},
        body: {
          for window in windows { window.isHidden = false }
          for window in windows { window.isHidden = true }
        })
    }
    scale("remove child controllers from their parent", sizes: [2_500, 10_000], unit: "controllers") {
      count in
      let parent = DMViewController()
      var children: [DMViewController] = []
      return Work(
        prepare: {
          children = (0..<count).map { _ in DMViewController() }
          for child in children { parent.addChild(child) }
        },
        body: { for child in children { child.removeFromParent() } }
      )
    }
    scale("attach small subtrees at the bottom of a deep chain", sizes: [2_500, 10_000], unit: "levels") {
      depth in
      let top = DMView()
      let bottom = Self.chain(under: top, depth: depth, DMView.init).last!
      var subtrees: [DMView] = []
      return Work(
        prepare: {
          subtrees = (0..<depth).map { _ in
            let root = DMView()
            root.addSubview(DMView())
            return root
          }
        },
        body: {
          for subtree in subtrees { bottom.addSubview(subtree) }
          blackHole(top)
        }
      )
    }
    scale("window of every view of a deep chain", sizes: [10_000, 40_000], unit: "levels") { depth in
      let window = DMWindow()
      let chain = Self.chain(under: window, depth: depth, DMView.init)
      // From the bottom up, the order that walks farthest.
      return Work(
        prepare: { window.addSubview(DMView()) },
        body: {
          var found = 0
          for view in chain.reversed() where view.window === window { found += 1 }
          blackHole(found)
        })
    }
    scale("resolve and bind every view of a detached chain", sizes: [1_000, 4_000], unit: "levels") { depth in
      let top = BenchView()
      top.overrideUserInterfaceStyle = .dark
      let chain = Self.chain(under: top, depth: depth, BenchView.init)
      return Work(
        prepare: {
          for view in chain { view.dm.unbind(\.opacity) }
          // Anything that may change a resolution starts afresh.
          top.overrideUserInterfaceStyle = .light
          top.overrideUserInterfaceStyle = .dark
        },
        body: {
          var dark = 0
          for view in chain.reversed() {
            if view.dmTraitCollection.userInterfaceStyle == .dark { dark += 1 }
            view.dm.bind(\.opacity, to: Theme.opacity)
          }
          blackHole(dark)
        })
    }
    Self.customTraitCases { name, sizes, unit, make in scale(name, sizes: sizes, unit: unit, make) }
    for newestFirst in [true, false] {
      scale(
        "end registrations of one view, \(newestFirst ? "newest" : "oldest") first", sizes: [4_000, 16_000],
        unit: "registrations"
      ) { count in
        let view = DMView()
        var registrations: [DMTraitChangeRegistration] = []
        return Work(
          prepare: {
            registrations = (0..<count).map { _ in
              view.registerForTraitChanges([.userInterfaceStyle]) { _, _ in }
            }
            if newestFirst { registrations.reverse() }
          },
          body: { for registration in registrations { view.unregisterForTraitChanges(registration) } })
      }
    }
    scale("bind, ask about and unbind key paths of one view", sizes: [1_000, 4_000], unit: "key paths") {
      count in
      let view = ManyValues(count: count)
      let keyPaths = (0..<count).map { \ManyValues.[slot: $0] }
      return Work(
        prepare: {},
        body: {
          for keyPath in keyPaths { view.dm.bind(keyPath, to: Theme.opacity) }
          var bound = 0
          for keyPath in keyPaths where view.dm.isBound(keyPath) { bound += 1 }
          for keyPath in keyPaths { view.dm.unbind(keyPath) }
          blackHole(bound)
        })
    }
    scale("bind key paths of one view from a callback, in a pass", sizes: [1_000, 4_000], unit: "key paths") {
      count in
      let window = DMWindow()
      let trigger = CallbackView()
      let view = ManyValues(count: count)
      window.addSubview(trigger)
      window.addSubview(view)
      window.makeKeyAndVisible()
      let keyPaths = (0..<count).map { \ManyValues.[slot: $0] }
      trigger.onChange = { for keyPath in keyPaths { view.dm.bind(keyPath, to: Theme.opacity) } }
      return .switchToDark(in: window) { for keyPath in keyPaths { view.dm.unbind(keyPath) } }
    }
    // Small enough that both sizes fit in the cache: a chain of 4,000 controllers and their views
    // does not fit in a 2 MiB L2, and its time grew 5–7× for 4× the levels on a busy machine while
    // its instruction count grew 4.0×.
    scale("free a chain of controllers with overrides", sizes: [250, 1_000], unit: "levels") {
      depth in
      let window = DMWindow()
      window.makeKeyAndVisible()
      var top: DMViewController?
      return Work(
        prepare: {
          let first = DMViewController()
          first.overrideUserInterfaceStyle = .dark
          var parent = first
          for _ in 1..<depth {
            let child = DMViewController()
            child.overrideUserInterfaceStyle = .dark
            parent.addChild(child)
            parent.view.addSubview(child.view)
            parent = child
          }
          window.addSubview(first.view)
          top = first
        },
        body: {
          withExtendedLifetime(top) {}
          top = nil
          // The next event's pass places the views the controllers left.
          window.addSubview(DMView())
        },
        finish: { window.isHidden = true }
      )
    }
    allMet = imageLoads() && allMet
    print()
    return allMet
  }

  /// A chain of `depth` views made by `make`, each the only subview of the one before, under
  /// `top`.
  static func chain<View: DMView>(under top: DMView, depth: Int, _ make: () -> View) -> [View] {
    var views: [View] = []
    var bottom = top
    for _ in 0..<depth {
      let view = make()
      bottom.addSubview(view)
      views.append(view)
      bottom = view
    }
    return views
  }

  /// Views with alternating traits bound to one image by name: each pass, the one that shows the
  /// window included, must load each of the two names at most once.
  private func imageLoads() -> Bool {
    let loads = LoadCounter()
    let image = DMDynamicImage(names: [.normal: "light", .night: "dark"]) { name -> String? in
      loads.add()
      return name
    }
    let window = DMWindow()
    for index in 0..<10_000 {
      let view = ImageView()
      view.overrideUserInterfaceStyle = index.isMultiple(of: 2) ? .dark : .light
      view.dm.bind(\.image, to: image)
      window.addSubview(view)
    }
    loads.reset()
    // Showing the window is the first pass; each later one sets every view's image again, light
    // and dark in turn.
    window.makeKeyAndVisible()
    DMTraitCollection.setOverride(DMTraitCollection(accessibilityContrast: .high), animated: false)
    DMTraitCollection.setOverride(DMTraitCollection(), animated: false)
    let (names, passes) = (2, 3)
    let met = loads.count <= names * passes
    print(
      column("     image by name bound to 10,000 views with alternating traits", 76)
        + "\(loads.count) loads of \(names) names in \(passes) passes"
        + (met ? "" : "  (MISSED: more than one per name per pass)"))
    window.isHidden = true
    return met
  }
}

/// One case at one size: what each run needs first (untimed), the timed work, and what undoes
/// the case once its runs are over.
struct Work {
  var prepare: () -> Void
  var body: () -> Void
  var finish: () -> Void = {}

  /// A switch from light to dark of the shown `window`, whose callbacks do the work; `undo`
  /// puts back what they did, untimed, before each run.
  @MainActor
  static func switchToDark(in window: DMWindow, undo: @escaping () -> Void) -> Work {
    Work(
      prepare: {
        DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .light), animated: false)
        undo()
      },
      body: {
        DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
      },
      finish: {
        window.isHidden = true
        DMTraitCollection.setOverride(DMTraitCollection(), animated: false)
      }
    )
  }
}

/// A view that runs `onChange` from its trait callback.
private final class CallbackView: DMView {
  var onChange: () -> Void = {}
  override func dmTraitCollectionDidChange(_ previousTraitCollection: DMTraitCollection?) {
    if previousTraitCollection != nil, dmTraitCollection.userInterfaceStyle == .dark { onChange() }
  }
}

/// A view with many numbers to bind, each through a subscript of its own (a key path into the
/// array itself would copy the array on each write, which is Swift's cost, not the binding's).
private final class ManyValues: DMView {
  private var values: [Double]
  init(count: Int) { values = Array(repeating: 0, count: count) }
  subscript(slot slot: Int) -> Double {
    get { values[slot] }
    set { values[slot] = newValue }
  }
}

/// A view that shows an image.
private final class ImageView: DMView {
  var image: String?
}

/// Counts the loads of an image loader, which may run on any thread.
private final class LoadCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0
  var count: Int { lock.withLock { value } }
  func add() { lock.withLock { value += 1 } }
  func reset() { lock.withLock { value = 0 } }
}
