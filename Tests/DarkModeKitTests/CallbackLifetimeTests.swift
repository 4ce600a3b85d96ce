import Testing

@testable import DarkModeKit

/// Environments that let go of themselves in their own callback, with nothing else holding them:
/// each is called once, the structure changes as asked, and each is freed when the pass ends, not
/// while its call runs.
extension GlobalStateTests {
  @Suite @MainActor struct CallbackLifetimeTests {
    init() { DarkModeManager.reset() }

    /// What the environments did, kept outside them.
    @MainActor final class Record {
      var calls = 0
      /// Calls after which the environment, read again, showed what its call did.
      var done = 0
      var freed = 0
      var freedDuringPass = 0
      /// The superview each view had before its call (the same container for all).
      weak var superviewBefore: DMView?

      /// Counts a call with a previous collection, and runs `act`, which says whether the
      /// environment, read again, shows what it did.
      func call(_ previous: DMTraitCollection?, _ act: () -> Bool) {
        guard previous != nil else { return }
        calls += 1
        if act() { done += 1 }
      }

      func didFree() {
        freed += 1
        if TraitPropagator.shared.isRunning { freedDuringPass += 1 }
      }
    }

    /// A view that runs `act` on itself in its callback, after a first call.
    final class Acting: DMView {
      let record: Record
      let act: @MainActor (Acting) -> Void

      init(_ record: Record, act: @escaping @MainActor (Acting) -> Void) {
        self.record = record
        self.act = act
      }

      override func dmTraitCollectionDidChange(_ previousTraitCollection: DMTraitCollection?) {
        record.call(previousTraitCollection) {
          act(self)
          // Reads its own state after the call that let go of it.
          return superview !== record.superviewBefore
        }
      }

      isolated deinit { record.didFree() }
    }

    /// A container in a shown window with `count` views acting in their callbacks, held only by
    /// the container.
    func scene(_ record: Record, count: Int, act: @escaping @MainActor (Acting) -> Void) -> (DMWindow, DMView)
    {
      let window = DMWindow()
      let container = DMView()
      window.addSubview(container)
      for _ in 0..<count { container.addSubview(Acting(record, act: act)) }
      window.makeKeyAndVisible()
      return (window, container)
    }

    @Test(arguments: [1, 20], [false, true])
    func viewsThatRemoveThemselvesInTheirCallbackAreFreedWhenThePassEnds(count: Int, ordered: Bool) {
      // Shown, the window records its order when it may, and the switch runs through it.
      TraitPropagator.shared.minimumOrderCount = ordered ? 1 : .max
      defer { TraitPropagator.shared.minimumOrderCount = TraitPropagator.defaultMinimumOrderCount }
      let record = Record()
      let (window, container) = scene(record, count: count) { $0.removeFromSuperview() }
      record.superviewBefore = container
      let walksBefore = TraitPropagator.shared.orderedWalkCount
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
      #expect((TraitPropagator.shared.orderedWalkCount > walksBefore) == ordered)
      #expect(record.calls == count && record.done == count, "each view called once, and removed")
      #expect(container.subviews.isEmpty && window.subviews.count == 1 && window.subviews.first === container)
      #expect(record.freed == count && record.freedDuringPass == 0, "freed when the pass ended")
    }

    @Test(arguments: [false, true])
    func viewsThatMoveThemselvesUnderTheNextSiblingAreCalledOnceAndKept(ordered: Bool) {
      TraitPropagator.shared.minimumOrderCount = ordered ? 1 : .max
      defer { TraitPropagator.shared.minimumOrderCount = TraitPropagator.defaultMinimumOrderCount }
      let record = Record()
      let (_, container) = scene(record, count: 20) { view in
        // The next sibling alone, not the list of them, which would hold the view too.
        let next: DMView? = {
          guard let siblings = view.superview?.subviews,
            let index = siblings.firstIndex(where: { $0 === view }), index + 1 < siblings.count
          else { return nil }
          return siblings[index + 1]
        }()
        next?.addSubview(view)
      }
      record.superviewBefore = container
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
      #expect(record.freed == 0, "every view is still in the tree")
      var views = 0
      var level = container.subviews
      while !level.isEmpty {
        views += level.count
        level = level.flatMap(\.subviews)
      }
      #expect(views == 20)
      // The last stays; each of the others moved under the next, with all it holds.
      #expect(record.done == record.calls - 1 && record.calls >= 2 && record.calls <= 20)
    }

    /// A controller that removes itself from its parent in its callback.
    final class Leaving: DMViewController {
      let record: Record

      init(_ record: Record) { self.record = record }

      override func dmTraitCollectionDidChange(_ previousTraitCollection: DMTraitCollection?) {
        record.call(previousTraitCollection) {
          removeFromParent()
          return parent == nil
        }
      }

      isolated deinit { record.didFree() }
    }

    @Test func aControllerThatRemovesItselfFromItsParentInItsCallbackIsFreedWhenThePassEnds() {
      let record = Record()
      let window = DMWindow()
      let root = DMViewController()
      window.rootViewController = root
      do {
        let child = Leaving(record)
        root.addChild(child)
        root.view.addSubview(child.view)
      }
      window.makeKeyAndVisible()
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
      #expect(record.calls == 1 && record.done == 1 && root.children.isEmpty)
      #expect(record.freed == 1 && record.freedDuringPass == 0)
    }

    /// A window that hides itself in its callback.
    final class Hiding: DMWindow {
      let record: Record

      init(_ record: Record) { self.record = record }

      override func dmTraitCollectionDidChange(_ previousTraitCollection: DMTraitCollection?) {
        record.call(previousTraitCollection) {
          isHidden = true
          return isHidden
        }
      }

      isolated deinit { record.didFree() }
    }

    @Test func aWindowThatHidesItselfInItsCallbackIsFreedWhenThePassEnds() {
      let record = Record()
      do { Hiding(record).makeKeyAndVisible() }
      #expect(DMApplication.shared.windows.count == 1)
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
      #expect(record.calls == 1 && record.done == 1 && DMApplication.shared.windows.isEmpty)
      #expect(record.freed == 1 && record.freedDuringPass == 0)
    }
  }
}
