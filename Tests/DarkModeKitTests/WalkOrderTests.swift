import Testing

@testable import DarkModeKit

/// A window walked whole records its order, and the next walk over the same structure runs
/// through it: with the same calls, in the same order, as a walk that pushes each node's children,
/// whatever the callbacks change meanwhile.
extension GlobalStateTests {
  @Suite @MainActor struct WalkOrderTests {
    init() {
      DarkModeManager.reset()
      // Some scenes are small.
      TraitPropagator.shared.minimumOrderCount = 1
    }

    /// window → a (a1, a2 (a21, a22)), b (b1, b2), the root view of a controller (cv (cv1)), d.
    @MainActor final class Scene {
      let log = CallLog()
      let window: LoggingWindow
      var views: [String: LoggingView] = [:]
      var controller: LoggingController?

      init() {
        window = LoggingWindow("window", log: log)
        func view(_ name: String, in parent: DMView) -> LoggingView {
          let made = LoggingView(name, log: log)
          parent.addSubview(made)
          views[name] = made
          return made
        }
        let a = view("a", in: window)
        _ = view("a1", in: a)
        let a2 = view("a2", in: a)
        _ = view("a21", in: a2)
        _ = view("a22", in: a2)
        let b = view("b", in: window)
        _ = view("b1", in: b)
        _ = view("b2", in: b)
        let controller = LoggingController("c", log: log, viewName: "cv")
        window.addSubview(controller.view)
        views["cv"] = controller.view as? LoggingView
        _ = view("cv1", in: controller.view)
        _ = view("d", in: window)
        self.controller = controller
        window.makeKeyAndVisible()
        log.reset()
      }

      subscript(name: String) -> LoggingView { views[name]! }
    }

    static func isCurrent(_ window: DMWindow) -> Bool {
      window.walkOrder?.isCurrent(TraitPropagator.shared.structureVersion) == true
    }

    /// Changes the structure outside any window, which makes every recorded order stale.
    static func makeOrdersStale() {
      DMView().addSubview(DMView())
    }

    @Test func aWholeWalkRecordsTheOrderAndTheNextSwitchGoesThroughIt() {
      let scene = Scene()
      #expect(Self.isCurrent(scene.window))
      #expect(scene.window.walkOrder?.count == 13)
      DMTraitCollection.setOverride(.dark, animated: false)
      let walks = TraitPropagator.shared.orderedWalkCount
      let first = scene.log.names
      scene.log.reset()
      DMTraitCollection.setOverride(.light, animated: false)
      #expect(TraitPropagator.shared.orderedWalkCount == walks + 1)
      #expect(scene.log.names == first)
      #expect(
        scene.log.names == [
          "window", "a", "a1", "a2", "a21", "a22", "b", "b1", "b2", "c", "cv", "cv1", "d",
        ])
      #expect(scene.log.calls.allSatisfy { $0.current == .resolvedLight && $0.previous == .resolvedDark })
    }

    @Test func overridesKeepTheOrderAndItsWalkSkipsWhatDidNotChange() {
      let scene = Scene()
      scene["a2"].overrideUserInterfaceStyle = .light
      scene["b"].overrideUserInterfaceStyle = .light
      #expect(Self.isCurrent(scene.window))
      scene.log.reset()
      let walks = TraitPropagator.shared.orderedWalkCount
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(TraitPropagator.shared.orderedWalkCount == walks + 1)
      #expect(scene.log.names == ["window", "a", "a1", "c", "cv", "cv1", "d"])
      #expect(scene["a21"].dmTraitCollection.userInterfaceStyle == .light)
      #expect(scene["b2"].dmTraitCollection.userInterfaceStyle == .light)
    }

    /// What the callbacks of one switch do: moves, removals, additions and a controller dropped,
    /// before and after the nodes concerned are reached.
    static func switchChangingTheStructure(_ scene: Scene) -> (calls: [CallLog.Call], added: LoggingView) {
      let added = LoggingView("n", log: scene.log)
      scene["a1"].onChange = { _ in scene["a22"].addSubview(scene["b1"]) }
      scene["a21"].onChange = { _ in
        scene["b2"].removeFromSuperview()
        scene["b"].addSubview(added)
        // Dropped: only the walk keeps the controller alive now.
        scene.controller = nil
      }
      scene["b"].onChange = { _ in scene["a"].addSubview(scene["d"]) }
      scene["cv1"].onChange = { _ in scene["cv"].removeFromSuperview() }
      scene.log.reset()
      DMTraitCollection.setOverride(.dark, animated: false)
      return (scene.log.calls, added)
    }

    @Test func callbacksThatChangeTheStructureGetTheCallsOfAWalkWithoutOrder() {
      let ordered = Scene()
      #expect(Self.isCurrent(ordered.window))
      let walks = TraitPropagator.shared.orderedWalkCount
      weak let droppedController = ordered.controller
      let (orderedCalls, orderedAdded) = Self.switchChangingTheStructure(ordered)
      #expect(TraitPropagator.shared.orderedWalkCount == walks + 1)
      #expect(droppedController == nil)
      DMTraitCollection.setOverride(.light, animated: false)

      let unordered = Scene()
      Self.makeOrdersStale()
      #expect(!Self.isCurrent(unordered.window))
      let (unorderedCalls, unorderedAdded) = Self.switchChangingTheStructure(unordered)
      #expect(TraitPropagator.shared.orderedWalkCount == walks + 1)

      #expect(orderedCalls == unorderedCalls)
      // Each node that stayed in the window, moved or was added, once, with the new style; the
      // removed ones, and the controller's view once its controller was gone, not.
      #expect(
        orderedCalls.map(\.name) == [
          "window", "a", "a1", "a2", "a21", "a22", "b1", "b", "n", "c", "cv", "cv1", "d",
        ])
      #expect(orderedCalls.allSatisfy { $0.current == .resolvedDark })
      #expect(orderedAdded.dmTraitCollection == .resolvedDark)
      #expect(unorderedAdded.dmTraitCollection == .resolvedDark)
      #expect(ordered["d"].superview === ordered["a"] && ordered["cv"].superview == nil)
    }

    /// Runs `scenario` (which sets up callbacks) and a switch to dark on two fresh scenes, one
    /// walked through its recorded order and one with every order stale; returns both logs.
    static func bothWalks(_ scenario: (Scene) -> Void) -> (ordered: [CallLog.Call], stack: [CallLog.Call]) {
      var logs: [[CallLog.Call]] = []
      for usesOrder in [true, false] {
        let scene = Scene()
        if !usesOrder { makeOrdersStale() }
        #expect(isCurrent(scene.window) == usesOrder)
        scenario(scene)
        scene.log.reset()
        let walks = TraitPropagator.shared.orderedWalkCount
        DMTraitCollection.setOverride(.dark, animated: false)
        // The first walk went through the order, or did not.
        #expect(TraitPropagator.shared.orderedWalkCount == walks + (usesOrder ? 1 : 0))
        logs.append(scene.log.calls)
        DMTraitCollection.setOverride(DMTraitCollection(), animated: false)
        scene.window.isHidden = true
      }
      return (logs[0], logs[1])
    }

    @Test func aCallbackThatChangesItsOwnChildrenGetsTheCallsOfAWalkWithoutOrder() {
      // Views added by callbacks log to the scene's log, made anew for each scene.
      func added(_ scene: Scene) -> LoggingView { LoggingView("added", log: scene.log) }
      let scenarios: [(String, (Scene) -> Void)] = [
        (
          "adds a subview to itself",
          { scene in
            let view = added(scene)
            scene["a"].onChange = { $0.addSubview(view) }
          }
        ),
        (
          "moves its last subview to the front",
          { scene in scene["a2"].onChange = { $0.insertSubview(scene["a22"], at: 0) } }
        ),
        (
          "the last node adds a subview and removes another",
          { scene in
            let view = added(scene)
            scene["d"].onChange = { last in
              last.addSubview(view)
              scene["a1"].removeFromSuperview()
            }
          }
        ),
        (
          "the window swaps its root view controller",
          { scene in
            let controller = LoggingController("root", log: scene.log, viewName: "rootView")
            scene.window.onChange = { $0.rootViewController = controller }
          }
        ),
        (
          "an observer adds a subview to its own view",
          { scene in
            let view = added(scene)
            let registration = scene["b"].registerForTraitChanges([.userInterfaceStyle]) { b, _ in
              b.addSubview(view)
            }
            _ = registration
          }
        ),
      ]
      for (name, scenario) in scenarios {
        let (ordered, stack) = Self.bothWalks(scenario)
        #expect(ordered == stack, "\(name)")
        if name.contains("adds") {
          #expect(ordered.filter { $0.name == "added" }.count == 1, "\(name)")
        }
      }
    }

    @Test func aControllerDroppedBeforeItsParentIsReachedIsNotCalledAndItsViewInheritsFromItsSuperview() {
      let log = CallLog()
      let window = LoggingWindow("window", log: log)
      let x = LoggingView("x", log: log)
      let y = LoggingView("y", log: log)
      window.addSubview(x)
      window.addSubview(y)
      var controller: LoggingController? = LoggingController("c", log: log, viewName: "cv")
      controller?.overrideTraitCollection = DMTraitCollection(accessibilityContrast: .high)
      let view = controller!.view
      y.addSubview(view)
      window.makeKeyAndVisible()
      #expect(Self.isCurrent(window))
      weak let dropped = controller
      x.onChange = { _ in controller = nil }
      log.reset()
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(dropped == nil)
      #expect(log.names == ["window", "x", "y", "cv"])
      #expect(view.dmTraitCollection == .resolvedDark)
      #expect(log.calls.last?.current == .resolvedDark)
    }

    @Test func aControllerDroppedDuringAnOrderedWalkLivesUntilTheWalkEnds() {
      let scene = Scene()
      weak let controller = scene.controller
      scene["a"].onChange = { _ in scene.controller = nil }
      scene.log.reset()
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(controller == nil)
      // The view of the freed controller now inherits from its superview, the window.
      #expect(scene["cv"].dmTraitCollection == .resolvedDark)
      #expect(scene.log.names.filter { $0 == "cv" || $0 == "cv1" } == ["cv", "cv1"])
      scene.log.reset()
      DMTraitCollection.setOverride(.light, animated: false)
      #expect(!scene.log.names.contains("c"))
      #expect(scene.log.names.contains("cv"))
    }

    @Test func aWindowUnderItsOwnOverrideIsSkippedWholeAndADeepChainFromTheMiddle() {
      let log = CallLog()
      let window = LoggingWindow("window", log: log)
      var chain: [LoggingView] = []
      var parent: DMView = window
      for index in 0..<1_000 {
        let view = LoggingView("\(index)", log: log)
        parent.addSubview(view)
        chain.append(view)
        parent = view
      }
      let sibling = LoggingView("sibling", log: log)
      window.addSubview(sibling)
      window.makeKeyAndVisible()
      #expect(Self.isCurrent(window))

      chain[600].overrideUserInterfaceStyle = .light
      log.reset()
      let walks = TraitPropagator.shared.orderedWalkCount
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(TraitPropagator.shared.orderedWalkCount == walks + 1)
      #expect(log.names == ["window"] + (0..<600).map { "\($0)" } + ["sibling"])

      window.overrideUserInterfaceStyle = .light
      log.reset()
      let visits = TraitPropagator.shared.visitCount
      DMTraitCollection.setOverride(.light, animated: false)
      #expect(log.calls.isEmpty)
      #expect(TraitPropagator.shared.visitCount == visits + 1)
    }

    /// Positions are 32-bit: a window with more environments than an order can number is walked
    /// whole, every environment called, and keeps no order (the maximum is lowered here).
    @Test func aWindowWithMoreEnvironmentsThanAnOrderHoldsIsWalkedWholeWithoutOne() {
      TraitPropagator.shared.maximumOrderCount = 5
      let log = CallLog()
      let window = LoggingWindow("window", log: log)
      let names = (0..<9).map { "\($0)" }
      var parent: DMView = window
      for name in names {
        let view = LoggingView(name, log: log)
        parent.addSubview(view)
        if name == "3" { parent = view }
      }
      window.makeKeyAndVisible()
      #expect(log.names == ["window"] + names)
      #expect(window.walkOrder == nil)
      log.reset()
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(log.names == ["window"] + names)
      #expect(log.calls.allSatisfy { $0.current == .resolvedDark })
      TraitPropagator.shared.maximumOrderCount = TraitPropagator.defaultMaximumOrderCount
    }

    @Test func aWindowWithFewerEnvironmentsThanTheMinimumKeepsNoOrder() {
      TraitPropagator.shared.minimumOrderCount = TraitPropagator.defaultMinimumOrderCount
      let log = CallLog()
      let small = LoggingWindow("small", log: log)
      for index in 0..<(TraitPropagator.defaultMinimumOrderCount - 2) {
        small.addSubview(LoggingView("\(index)", log: log))
      }
      small.makeKeyAndVisible()
      #expect(small.walkOrder == nil)
      small.addSubview(LoggingView("one more", log: log))
      small.isHidden = true
      small.makeKeyAndVisible()
      #expect(small.walkOrder?.count == TraitPropagator.defaultMinimumOrderCount)
      log.reset()
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(log.calls.count == TraitPropagator.defaultMinimumOrderCount)
    }

    @Test func aLargeWindowsRecordingLeavesRoomForTheNextWindowsOrder() {
      let log = CallLog()
      let large = LoggingWindow("large", log: log)
      var views: [LoggingView] = []
      for index in 0..<5_000 {
        let view = LoggingView("\(index)", log: log)
        (index < 8 ? large : views[index / 8 - 1]).addSubview(view)
        views.append(view)
      }
      large.makeKeyAndVisible()
      #expect(large.walkOrder?.count == 5_001)
      let scene = Scene()
      #expect(scene.window.walkOrder?.count == 13)
      log.reset()
      scene.log.reset()
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(log.calls.count == 5_001 && scene.log.calls.count == 13)
      #expect(views.allSatisfy { $0.dmTraitCollection == .resolvedDark })
      #expect(scene.log.names.first == "window" && scene.log.names.last == "d")
    }

    @Test func aHiddenWindowLetsGoOfItsOrderAndShownAgainRecordsItAgain() {
      let scene = Scene()
      #expect(scene.window.walkOrder != nil)
      scene.window.isHidden = true
      #expect(scene.window.walkOrder == nil)
      DMTraitCollection.setOverride(.dark, animated: false)
      scene.log.reset()
      scene.window.makeKeyAndVisible()
      #expect(scene.log.calls.count == 13)
      #expect(Self.isCurrent(scene.window))
    }

    /// Callbacks that register for changes, override traits or read a window, on themselves or
    /// on a node the walk has not reached, without changing the structure.
    @Test func callbacksThatRegisterOrOverrideGetTheCallsOfAWalkWithoutOrder() {
      func observe(_ view: LoggingView, in scene: Scene) {
        _ = view.registerForTraitChanges([.userInterfaceStyle]) { view, previous in
          scene.log.record("observer of \(view.name)", previous, view.dmTraitCollection)
        }
      }
      let scenarios: [(String, (Scene) -> Void)] = [
        ("registers on itself", { scene in scene["a1"].onChange = { observe($0, in: scene) } }),
        (
          "registers on a node not reached",
          { scene in scene["a1"].onChange = { _ in observe(scene["b1"], in: scene) } }
        ),
        (
          "overrides a node not reached",
          { scene in scene["a21"].onChange = { _ in scene["b2"].overrideUserInterfaceStyle = .light } }
        ),
        (
          "reads the window of a node not reached",
          { scene in scene["a1"].onChange = { _ in _ = scene["b2"].window } }
        ),
      ]
      for (name, scenario) in scenarios {
        let (ordered, stack) = Self.bothWalks(scenario)
        #expect(ordered == stack, "\(name)")
        #expect(
          ordered.filter { $0.name.hasPrefix("observer") }.count == (name.hasPrefix("registers") ? 1 : 0),
          "\(name)")
        // An override set in a callback takes effect once the pass is over, in a pass of its own.
        let overridden = name.hasPrefix("overrides") ? ordered.last : nil
        #expect(
          overridden == nil || (overridden?.name == "b2" && overridden?.current.userInterfaceStyle == .light))
        #expect(
          ordered.dropLast(overridden == nil ? 0 : 1).allSatisfy { $0.current == .resolvedDark }, "\(name)")
      }
    }

    @Test func aViewAddedDuringAnOrderedWalkUnderANodeAlreadyVisitedIsCalledOnce() {
      let scene = Scene()
      let late = LoggingView("late", log: scene.log)
      scene["d"].onChange = { _ in scene["a"].addSubview(late) }
      scene.log.reset()
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(scene.log.names.filter { $0 == "late" }.count == 1)
      #expect(late.dmTraitCollection == .resolvedDark)
      #expect(scene.log.names.last == "late")
    }
  }
}
