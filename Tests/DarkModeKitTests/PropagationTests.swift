import DarkModeKitTestSupport
import Testing

@testable import DarkModeKit

extension GlobalStateTests {
  @Suite @MainActor struct PropagationTests {
    let log = CallLog()

    init() { DarkModeManager.reset() }

    /// window → controller → its view → a, b; a → a1.
    private func makeTree() -> (LoggingWindow, LoggingController, LoggingView, LoggingView, LoggingView) {
      let window = LoggingWindow("window", log: log)
      let controller = LoggingController("controller", log: log, viewName: "root")
      window.rootViewController = controller
      let a = LoggingView("a", log: log)
      let b = LoggingView("b", log: log)
      let a1 = LoggingView("a1", log: log)
      controller.view.addSubview(a)
      controller.view.addSubview(b)
      a.addSubview(a1)
      return (window, controller, a, b, a1)
    }

    @Test func showingAWindowReportsEveryEnvironmentOnceParentsFirst() {
      let (window, _, _, _, _) = makeTree()
      #expect(log.calls.isEmpty)
      window.makeKeyAndVisible()
      #expect(log.names == ["window", "controller", "root", "a", "a1", "b"])
      #expect(log.calls.allSatisfy { $0.previous == nil && $0.current == .resolvedLight })
      #expect(DMApplication.shared.windows.map(ObjectIdentifier.init) == [ObjectIdentifier(window)])
      #expect(DMApplication.shared.keyWindow === window)
    }

    /// A window is a root: adding one to a view in another window does nothing, so the views in
    /// it follow the global collection with one call a change, whatever that view overrides.
    @Test func aWindowAddedAsASubviewStaysARootAndItsViewsAreCalledOnceAChange() {
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .light), animated: false)
      let outer = DMWindow()
      let darkPanel = DMView()
      darkPanel.overrideUserInterfaceStyle = .dark
      outer.addSubview(darkPanel)
      let inner = DMWindow()
      let probe = LoggingView("probe", log: log)
      inner.addSubview(probe)
      darkPanel.addSubview(inner)
      darkPanel.insertSubview(inner, at: 0)
      #expect(darkPanel.subviews.isEmpty && inner.superview == nil)
      inner.makeKeyAndVisible()
      outer.makeKeyAndVisible()
      #expect(probe.dmTraitCollection.userInterfaceStyle == .light && log.names == ["probe"])
      log.calls = []
      DMTraitCollection.setOverride(
        DMTraitCollection(userInterfaceStyle: .light, accessibilityContrast: .high), animated: false)
      #expect(log.names == ["probe"] && log.calls.first?.current.accessibilityContrast == .high)
      #expect(probe.dmTraitCollection.userInterfaceStyle == .light)
      log.calls = []
      darkPanel.overrideUserInterfaceStyle = .light
      darkPanel.overrideUserInterfaceStyle = .dark
      #expect(log.calls.isEmpty, "the panel's overrides do not reach the other window")
    }

    @Test func traitOverridesSetOneTraitAtATimeAndCallOncePerChange() {
      let window = LoggingWindow("window", log: log)
      let view = LoggingView("view", log: log)
      window.addSubview(view)
      window.makeKeyAndVisible()
      log.reset()
      view.traitOverrides.theme = "OVERRIDDEN"
      #expect(log.names == ["view"])
      view.traitOverrides.accessibilityContrast = .high
      #expect(log.names == ["view", "view"])
      #expect(
        view.overrideTraitCollection == DMTraitCollection(accessibilityContrast: .high, theme: "OVERRIDDEN"))
      #expect(view.dmTraitCollection.theme == "OVERRIDDEN")
      #expect(view.dmTraitCollection.accessibilityContrast == .high)
      view.traitOverrides.accessibilityContrast = .high
      #expect(log.names.count == 2, "the same value again calls nothing")
      view.traitOverrides = DMTraitCollection()
      #expect(view.overrideTraitCollection == nil)
      #expect(view.dmTraitCollection == window.dmTraitCollection)
      #expect(log.names.count == 3)
    }

    @Test func globalChangeCallsEachChangedEnvironmentOnceWithItsPreviousValue() {
      let (window, _, _, _, _) = makeTree()
      window.makeKeyAndVisible()
      log.reset()
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(log.names == ["window", "controller", "root", "a", "a1", "b"])
      #expect(log.calls.allSatisfy { $0.previous == .resolvedLight && $0.current == .resolvedDark })
    }

    @Test func settingAValueThatResolvesTheSameCallsNothingAndWalksNothing() {
      let (window, _, _, _, _) = makeTree()
      window.makeKeyAndVisible()
      DMTraitCollection.setOverride(.dark, animated: false)
      log.reset()
      let visits = TraitPropagator.shared.visitCount
      DMTraitCollection.setOverride(.dark, animated: false)
      DMTraitCollection.setOverride(
        DMTraitCollection(traitsFrom: [.dark, DMTraitCollection(userInterfaceLevel: .base)]), animated: false)
      #expect(log.calls.isEmpty)
      #expect(TraitPropagator.shared.visitCount == visits)
    }

    @Test func viewOverrideChangesOnlyItsSubtree() {
      let (window, _, a, _, a1) = makeTree()
      window.makeKeyAndVisible()
      log.reset()
      let visits = TraitPropagator.shared.visitCount
      a.overrideUserInterfaceStyle = .dark
      #expect(log.names == ["a", "a1"])
      #expect(a1.dmTraitCollection == .resolvedDark)
      #expect(TraitPropagator.shared.visitCount - visits == 2)
      #expect(a.currentInsideCallback == .resolvedDark)
    }

    @Test func globalChangeDoesNotWalkBelowAnOverrideThatShadowsIt() {
      let (window, controller, _, _, _) = makeTree()
      window.makeKeyAndVisible()
      controller.overrideUserInterfaceStyle = .light
      log.reset()
      let visits = TraitPropagator.shared.visitCount
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(log.names == ["window"])
      #expect(TraitPropagator.shared.visitCount - visits == 2)  // the window and the controller
      #expect(controller.view.dmTraitCollection == .resolvedLight)
    }

    @Test func overrideTraitCollectionAppliesEveryTraitButLosesTheStyleToOverrideStyle() {
      let (window, _, a, _, a1) = makeTree()
      window.makeKeyAndVisible()
      var traits = DMTraitCollection(userInterfaceStyle: .dark)
      traits.theme = "RED"
      traits.userInterfaceLevel = .elevated
      a.overrideTraitCollection = traits
      #expect(a1.dmTraitCollection.userInterfaceStyle == .dark)
      #expect(a1.dmTraitCollection.theme == "RED")
      #expect(a1.dmTraitCollection.userInterfaceLevel == .elevated)
      log.reset()
      a.overrideUserInterfaceStyle = .light
      #expect(log.names == ["a", "a1"])
      #expect(a1.dmTraitCollection.userInterfaceStyle == .light)
      #expect(a1.dmTraitCollection.theme == "RED")
    }

    @Test func windowOverrideAppliesToTheWholeWindowOnly() {
      let (window, _, _, _, a1) = makeTree()
      let other = LoggingWindow("other", log: log)
      window.makeKeyAndVisible()
      other.makeKeyAndVisible()
      log.reset()
      window.overrideUserInterfaceStyle = .dark
      #expect(log.names == ["window", "controller", "root", "a", "a1", "b"])
      #expect(a1.dmTraitCollection == .resolvedDark)
      #expect(other.dmTraitCollection == .resolvedLight)
    }

    @Test func viewMovedBetweenWindowsWithDifferentOverridesGetsOneCall() {
      let log = self.log
      let darkWindow = LoggingWindow("dark", log: log)
      darkWindow.overrideUserInterfaceStyle = .dark
      let lightWindow = LoggingWindow("light", log: log)
      let moving = LoggingView("moving", log: log)
      let child = LoggingView("child", log: log)
      moving.addSubview(child)
      lightWindow.addSubview(moving)
      darkWindow.makeKeyAndVisible()
      lightWindow.makeKeyAndVisible()
      log.reset()
      darkWindow.addSubview(moving)
      #expect(log.names == ["moving", "child"])
      #expect(log.calls.allSatisfy { $0.previous == .resolvedLight && $0.current == .resolvedDark })
      #expect(moving.window === darkWindow)
      #expect(lightWindow.subviews.isEmpty)
      log.reset()
      lightWindow.overrideUserInterfaceStyle = .dark
      darkWindow.insertSubview(LoggingView("new", log: log), at: 0)
      lightWindow.addSubview(moving)
      #expect(log.names == ["light", "new"])
    }

    @Test func controllerOverrideShadowsAGlobalChange() {
      let (window, controller, a, _, _) = makeTree()
      controller.overrideUserInterfaceStyle = .light
      window.makeKeyAndVisible()
      log.reset()
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(log.names == ["window"])
      #expect(a.dmTraitCollection == .resolvedLight)
      log.reset()
      controller.overrideUserInterfaceStyle = .unspecified
      #expect(log.names == ["controller", "root", "a", "a1", "b"])
      #expect(a.dmTraitCollection == .resolvedDark)
    }

    @Test func hiddenWindowGetsNoCallsAndCatchesUpWhenShown() {
      let (window, _, _, _, a1) = makeTree()
      window.makeKeyAndVisible()
      window.isHidden = true
      #expect(DMApplication.shared.windows.isEmpty)
      log.reset()
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(log.calls.isEmpty)
      #expect(a1.dmTraitCollection == .resolvedDark)  // computed while hidden
      window.isHidden = false
      #expect(log.names == ["window", "controller", "root", "a", "a1", "b"])
      #expect(log.calls.allSatisfy { $0.previous == .resolvedLight && $0.current == .resolvedDark })
      window.isHidden = true
      DMTraitCollection.setOverride(.light, animated: false)
      DMTraitCollection.setOverride(.dark, animated: false)
      log.reset()
      window.isHidden = false
      #expect(log.calls.isEmpty)  // same value as last reported
    }

    @Test func windowHiddenByACallbackDuringAChangeCatchesUpLater() {
      let (window, _, _, _, a1) = makeTree()
      window.makeKeyAndVisible()
      let hider = LoggingWindow("hider", log: log)
      hider.makeKeyAndVisible()
      // Show `window` again so that it comes after `hider` in the window list.
      window.isHidden = true
      window.isHidden = false
      hider.onChange = { _ in window.isHidden = true }
      log.reset()
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(log.names == ["hider"])  // `hider` is first now and hides `window` before it is reached
      #expect(window.isHidden)
      log.reset()
      window.isHidden = false
      #expect(log.calls(of: "a1").map(\.previous) == [.resolvedLight])
      #expect(a1.dmTraitCollection == .resolvedDark)
    }

    @Test func environmentsOutsideVisibleWindowsResolveFromTheGlobalCollectionWithoutCalls() {
      let loose = LoggingView("loose", log: log)
      let child = LoggingView("child", log: log)
      loose.addSubview(child)
      // A theme nothing declared sides for follows the style.
      loose.overrideTraitCollection = DMTraitCollection(theme: "UNDECLARED")
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(log.calls.isEmpty)
      #expect(child.dmTraitCollection.userInterfaceStyle == .dark)
      #expect(child.dmTraitCollection.theme == "UNDECLARED")
      let window = LoggingWindow("window", log: log)
      window.makeKeyAndVisible()
      log.reset()
      window.addSubview(loose)
      #expect(log.names == ["loose", "child"])
      #expect(log.calls.allSatisfy { $0.previous == nil })
      loose.removeFromSuperview()
      log.reset()
      DMTraitCollection.setOverride(.light, animated: false)
      #expect(log.names == ["window"])
      log.reset()
      window.addSubview(loose)
      #expect(log.names == ["loose", "child"])
      #expect(log.calls.allSatisfy { $0.previous?.userInterfaceStyle == .dark })
    }

    @Test func currentInsideACallbackIsTheEnvironmentsCollection() {
      let (window, _, a, b, _) = makeTree()
      a.overrideUserInterfaceStyle = .dark
      window.makeKeyAndVisible()
      #expect(a.currentInsideCallback == .resolvedDark)
      #expect(b.currentInsideCallback == .resolvedLight)
      var scoped: DMTraitCollection?
      b.onChange = { _ in
        scoped = DMTraitCollection(theme: "INNER").performAsCurrent { DMTraitCollection.current }
      }
      DMTraitCollection.setOverride(DMTraitCollection(theme: "OUTER"), animated: false)
      #expect(scoped?.theme == "INNER")
      #expect(b.currentInsideCallback?.theme == "OUTER")
      #expect(DMTraitCollection.current.theme == "OUTER")
    }

    @Test func setOverrideInsideACallbackIsAppliedAfterThePass() {
      let (window, _, a, _, _) = makeTree()
      window.makeKeyAndVisible()
      a.onChange = { view in
        if view.dmTraitCollection.userInterfaceStyle == .dark {
          DMTraitCollection.setOverride(
            DMTraitCollection(traitsFrom: [.dark, DMTraitCollection(theme: "RED")]), animated: false)
        }
      }
      log.reset()
      DMTraitCollection.setOverride(.dark, animated: false)
      // The first pass finishes (b is dark, no theme) before the second one starts.
      #expect(
        log.names == ["window", "controller", "root", "a", "a1", "b"] + [
          "window", "controller", "root", "a", "a1", "b",
        ])
      #expect(log.calls[5].current == .resolvedDark)
      #expect(log.calls[11].previous == .resolvedDark)
      #expect(log.calls[11].current.theme == "RED")
      #expect(DMTraitCollection.current.theme == "RED")
    }

    @Test func viewOverrideSetInsideACallbackIsAppliedAfterThePass() {
      let (window, _, a, b, _) = makeTree()
      window.makeKeyAndVisible()
      a.onChange = { _ in b.overrideUserInterfaceStyle = .light }
      log.reset()
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(log.names == ["window", "controller", "root", "a", "a1", "b", "b"])
      #expect(log.calls(of: "b").map(\.current.userInterfaceStyle) == [.dark, .light])
      #expect(b.overrideUserInterfaceStyle == .light)
      #expect(b.dmTraitCollection.userInterfaceStyle == .light)
    }

    @Test func viewRemovedByItsOwnCallbackIsNotWalkedFurther() {
      let (window, _, a, b, a1) = makeTree()
      window.makeKeyAndVisible()
      a.onChange = { view in view.removeFromSuperview() }
      log.reset()
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(log.names == ["window", "controller", "root", "a", "b"])
      #expect(a.superview == nil)
      log.reset()
      DMTraitCollection.setOverride(.light, animated: false)
      #expect(!log.names.contains("a"))
      a.onChange = nil
      log.reset()
      b.addSubview(a)
      // a last reported dark; a1 was never reached in the dark pass, so it last reported light.
      #expect(log.names == ["a"])
      #expect(log.calls.first?.previous == .resolvedDark)
      #expect(a1.dmTraitCollection == .resolvedLight)
    }

    @Test func viewsAddedAndRemovedInsideCallbacksEndInTheRightState() {
      let (window, _, a, b, a1) = makeTree()
      window.makeKeyAndVisible()
      let added = LoggingView("added", log: log)
      a.onChange = { _ in
        b.removeFromSuperview()  // a sibling still on the stack
        a1.addSubview(added)
        a1.removeFromSuperview()
        b.addSubview(a1)
      }
      log.reset()
      DMTraitCollection.setOverride(.dark, animated: false)
      // b was taken out before it was reached; a1 moved into b, which is out of the window.
      #expect(log.calls(of: "b").isEmpty)
      #expect(log.calls(of: "added").isEmpty)
      a.onChange = nil
      a.addSubview(b)
      #expect(log.calls(of: "b").count == 1)
      #expect(log.calls(of: "a1").count == 1)
      #expect(log.calls(of: "added").count == 1)
      for view in [b, a1, added] { #expect(view.dmTraitCollection == .resolvedDark) }
      #expect(added.window === window)
    }

    @Test func deepTreeOfTenThousandViewsDoesNotOverflowTheStack() {
      let window = DMWindow()
      var leaf: DMView = window
      var views: [CountingView] = []
      for _ in 0..<10_000 {
        let view = CountingView()
        leaf.addSubview(view)
        views.append(view)
        leaf = view
      }
      window.makeKeyAndVisible()
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(views.allSatisfy { $0.calls == 2 })
      #expect(views.last?.dmTraitCollection == .resolvedDark)
      window.isHidden = true
      #expect(views.last?.window === window)
    }

    @Test func rootControllerViewBecomesTheFirstSubview() {
      let window = LoggingWindow("window", log: log)
      let existing = DMView()
      window.addSubview(existing)
      let first = LoggingController("first", log: log, viewName: "first.view")
      window.rootViewController = first
      #expect(window.subviews.first === first.view)
      window.makeKeyAndVisible()
      log.reset()
      let second = LoggingController("second", log: log, viewName: "second.view")
      second.overrideUserInterfaceStyle = .dark
      window.rootViewController = second
      #expect(window.subviews.count == 2)
      #expect(window.subviews.first === second.view)
      #expect(first.view.superview == nil)
      #expect(log.names == ["second", "second.view"])
      #expect(second.view.dmTraitCollection == .resolvedDark)
    }

    @Test func controllerChildrenAndParent() {
      let parent = DMViewController()
      let child = DMViewController()
      parent.addChild(child)
      #expect(parent.children.first === child)
      #expect(child.parent === parent)
      let other = DMViewController()
      other.addChild(child)
      #expect(parent.children.isEmpty)
      child.removeFromParent()
      #expect(other.children.isEmpty)
      #expect(child.parent == nil)
      #expect(!child.isViewLoaded)
      _ = child.view
      #expect(child.isViewLoaded)
    }

    @Test func insertingClampsTheIndexAndRefusesCycles() {
      let root = DMView()
      let a = DMView()
      let b = DMView()
      root.insertSubview(a, at: 99)
      root.insertSubview(b, at: -3)
      #expect(root.subviews.map(ObjectIdentifier.init) == [ObjectIdentifier(b), ObjectIdentifier(a)])
      a.addSubview(root)  // root is an ancestor of a
      a.addSubview(a)
      #expect(root.superview == nil)
      #expect(a.subviews.isEmpty)
      root.addSubview(b)  // moves b to the front
      #expect(root.subviews.last === b)
      #expect(a.isDescendant(of: root))
    }

    @Test func visibleWindowsAreHeldAndReleasedWhenHidden() {
      weak var weakWindow: DMWindow?
      do {
        let window = DMWindow()
        weakWindow = window
        window.makeKeyAndVisible()
      }
      #expect(weakWindow != nil)
      weakWindow?.isHidden = true
      #expect(weakWindow == nil)
    }
  }
}

@MainActor

extension GlobalStateTests {
  @Suite @MainActor struct DroppedDuringAPassTests {
    init() { DarkModeManager.reset() }

    @Test func siblingsAndSubtreesDroppedByACallbackAreSkippedAndFreed() {
      let log = CallLog()
      let window = DMWindow()
      let first = LoggingView("first", log: log)
      window.addSubview(first)
      weak var weakSibling: DMView?
      weak var weakGrandchild: DMView?
      do {
        let sibling = LoggingView("sibling", log: log)
        let grandchild = LoggingView("grandchild", log: log)
        sibling.addSubview(grandchild)
        window.addSubview(sibling)
        weakSibling = sibling
        weakGrandchild = grandchild
      }
      window.makeKeyAndVisible()
      // `first` is called before its sibling, which is still on the walk's stack; removing it drops
      // the last reference to it and its subview.
      first.onChange = { view in view.window?.subviews.last?.removeFromSuperview() }
      log.reset()
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(log.names == ["first"])
      #expect(weakSibling == nil)
      #expect(weakGrandchild == nil)
      first.onChange = { view in view.removeFromSuperview() }
      DMTraitCollection.setOverride(.light, animated: false)
      #expect(window.subviews.isEmpty)
    }

    @Test func aControllerFreedWhenThePassEndsMayStartAnotherPassFromItsDeinit() {
      let log = CallLog()
      let window = DMWindow()
      let first = LoggingView("first", log: log)
      window.addSubview(first)
      var owner: PopupOwner? = PopupOwner()
      owner!.popup.makeKeyAndVisible()
      window.addSubview(owner!.view)
      window.makeKeyAndVisible()
      // Only the pass keeps the controller once this runs; it is freed as the pass ends, and its
      // deinitializer hides its popup window: a pass of its own.
      first.onChange = { _ in owner = nil }
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(DMApplication.shared.windows.map(ObjectIdentifier.init) == [ObjectIdentifier(window)])
      #expect(window.subviews.count == 2)
      #expect(window.subviews.allSatisfy { $0.dmTraitCollection == .resolvedDark })
    }

    @Test func aNodeFreedWithTheQueuedEventsMayStartAnotherPassFromItsDeinit() {
      let log = CallLog()
      let window = DMWindow()
      let first = LoggingView("first", log: log)
      window.addSubview(first)
      window.makeKeyAndVisible()
      // The override change on a view in no window is queued; the pass holds the last reference
      // to it, and its deinitializer sets the global override: a pass of its own.
      first.onChange = { _ in OverridingOnDeinitView().overrideUserInterfaceStyle = .dark }
      DMTraitCollection.setOverride(.dark, animated: false)
      first.onChange = nil
      #expect(DMTraitCollection.override.userInterfaceStyle == .light)
      #expect(first.dmTraitCollection == .resolvedLight)
    }

    /// The tree holds a controller only weakly: once it is freed, its view inherits from its
    /// superview. The view's collection reads right at once; its callbacks come once the main
    /// actor is free, not from inside the release, where the app's code may be in the middle of
    /// changing what they read.
    @Test func aViewWhoseControllerWithAnOverrideIsFreedTakesItsSuperviewsCollection() async {
      let log = CallLog()
      let window = DMWindow()
      window.makeKeyAndVisible()
      var controller: LoggingController? = LoggingController("controller", log: log, viewName: "root")
      controller!.overrideUserInterfaceStyle = .dark
      let root = controller!.view as! LoggingView
      let child = LoggingView("child", log: log)
      root.addSubview(child)
      window.addSubview(root)
      #expect(child.dmTraitCollection == .resolvedDark)
      weak let freed = controller
      log.reset()
      // Alive until here: an optimized build may free it after its last use.
      withExtendedLifetime(controller) {}
      controller = nil
      #expect(freed == nil)
      #expect(root.dmTraitCollection == .resolvedLight)
      #expect(child.dmTraitCollection == .resolvedLight)
      #expect(log.calls.isEmpty, "no callback from inside the release")
      #expect(await eventually { log.names == ["root", "child"] })
      #expect(log.calls.allSatisfy { $0.previous == .resolvedDark && $0.current == .resolvedLight })
      // And it follows the global collection from then on.
      log.reset()
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(log.names == ["root", "child"])
      #expect(child.dmTraitCollection == .resolvedDark)
    }

    /// The same when a callback lets go of the controller after the walk reached it: it is freed
    /// as the pass ends, and its view then takes its superview's collection; a pass that comes
    /// first calls it.
    @Test func aViewWhoseControllerWithAnOverrideIsFreedAtTheEndOfAPassTakesItsSuperviewsCollection() {
      let log = CallLog()
      let window = DMWindow()
      var controller: LoggingController? = LoggingController("controller", log: log, viewName: "root")
      controller!.overrideTraitCollection = DMTraitCollection(userInterfaceStyle: .dark)
      let root = controller!.view as! LoggingView
      window.addSubview(root)
      window.makeKeyAndVisible()
      weak let freed = controller
      root.onChange = { _ in controller = nil }
      DMTraitCollection.setOverride(DMTraitCollection(accessibilityContrast: .high), animated: false)
      root.onChange = nil
      #expect(freed == nil)
      #expect(root.dmTraitCollection.userInterfaceStyle == .light)
      #expect(root.dmTraitCollection.accessibilityContrast == .high)
      #expect(root.dmTraitCollection == window.dmTraitCollection)
      log.reset()
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(root.dmTraitCollection == .resolvedDark)
      #expect(log.names == ["root"])
    }

    /// A chain of `depth` controllers, each a child of the one before with its view in that
    /// one's view, each with its own override; returns the first and the views, top first.
    func controllerChain(depth: Int, log: CallLog) -> (DMViewController, [LoggingView]) {
      let top = LoggingController("c0", log: log, viewName: "v0")
      top.overrideUserInterfaceStyle = .dark
      var views = [top.view as! LoggingView]
      var parent: DMViewController = top
      for level in 1..<depth {
        let controller = LoggingController("c\(level)", log: log, viewName: "v\(level)")
        parent.addChild(controller)
        parent.view.addSubview(controller.view)
        controller.overrideUserInterfaceStyle = .dark
        views.append(controller.view as! LoggingView)
        parent = controller
      }
      return (top, views)
    }

    /// A chain of controllers, each view in its parent's and each with its own override, freed
    /// at once: one pass places every view, and the window is reported once.
    @Test func aChainOfControllersFreedAtOnceIsPlacedInOnePass() async {
      let log = CallLog()
      var restyled = 0
      DarkModeManager.setup(with: DMConfiguration(windowThemeChangeHandler: { _ in restyled += 1 }))
      let window = DMWindow()
      window.makeKeyAndVisible()
      var (top, views): (DMViewController?, [LoggingView]) = controllerChain(depth: 500, log: log)
      window.addSubview(top!.view)
      #expect(views.allSatisfy { $0.dmTraitCollection == .resolvedDark })
      log.reset()
      restyled = 0
      withExtendedLifetime(top) {}
      top = nil
      #expect(views.allSatisfy { $0.dmTraitCollection == .resolvedLight })
      #expect(log.calls.isEmpty)
      #expect(await eventually { log.calls.count == 500 })
      #expect(log.names == views.map(\.name))
      #expect(restyled == 1)
    }

    /// Two screens whose controllers go at once, and an event before their pass: each view is
    /// called once, by whichever pass reaches it first, with the collection it last reported as
    /// the previous one.
    @Test func viewsOfFreedControllersAreCalledOnceWhicheverPassComesFirst() async {
      let log = CallLog()
      let window = DMWindow()
      window.makeKeyAndVisible()
      var screens: [LoggingController] = (0..<2).map {
        LoggingController("c\($0)", log: log, viewName: "v\($0)")
      }
      for screen in screens {
        screen.overrideUserInterfaceStyle = .dark
        window.addSubview(screen.view)
      }
      let views = screens.map { $0.view as! LoggingView }
      // Each view's callback reads the array the controllers leave: not while it changes.
      for view in views { view.onChange = { _ in _ = screens.count } }
      log.reset()
      screens.removeAll()
      #expect(log.calls.isEmpty)
      #expect(views.allSatisfy { $0.dmTraitCollection == .resolvedLight })
      // An event first: its pass places both views.
      DMTraitCollection.setOverride(DMTraitCollection(accessibilityContrast: .high), animated: false)
      #expect(log.names == ["v0", "v1"])
      #expect(log.calls(of: "v0").first?.previous == .resolvedDark)
      #expect(log.calls(of: "v0").first?.current.userInterfaceStyle == .light)
      // The scheduled pass finds nothing left.
      let calls = log.calls.count
      try? await Task.sleep(nanoseconds: 20_000_000)
      #expect(TraitPropagator.shared.orphanedViews.isEmpty)
      #expect(log.calls.count == calls)
    }

    @Test func aControllerReleasedByACallbackWhileOnTheStackIsStillCalledThenFreed() {
      // The tree holds a controller only weakly (through its view); the walk keeps it for the pass.
      let log = CallLog()
      let window = DMWindow()
      let first = LoggingView("first", log: log)
      window.addSubview(first)
      var controller: LoggingController? = LoggingController("controller", log: log, viewName: "root")
      weak let weakController = controller
      window.addSubview(controller!.view)
      let root = window.subviews.last!
      window.makeKeyAndVisible()
      first.onChange = { _ in controller = nil }
      log.reset()
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(log.names == ["first", "controller", "root"])
      #expect(log.calls.allSatisfy { $0.current == .resolvedDark })
      #expect(weakController == nil)
      // The view now inherits straight from its superview.
      first.onChange = nil
      log.reset()
      DMTraitCollection.setOverride(.light, animated: false)
      #expect(log.names == ["first", "root"])
      #expect(root.dmTraitCollection == .resolvedLight)
    }
  }
}

/// Hides a window of its own when it goes away.
@MainActor
final class PopupOwner: DMViewController {
  let popup = DMWindow()

  isolated deinit {
    popup.isHidden = true
  }
}

/// Sets the global override when it goes away.
@MainActor
final class OverridingOnDeinitView: DMView {
  isolated deinit {
    DMTraitCollection.setOverride(.light, animated: false)
  }
}
