import Testing

@testable import DarkModeKit

/// The engine's unsafe types check their invariants (`checkInvariants()`); the internal-checks
/// build calls the checks after every mutation (see `InternalChecks`). Each test here breaks an
/// invariant in a child process and expects the check to stop it with its message, which only a
/// debug build prints; the tests below run a switch and expect the checks to pass, and the
/// internal-checks build to have checked.
#if DEBUG
  @Suite @MainActor struct InternalChecksTests {
    /// Whether a child stopped with `message` on its standard error.
    private static func stops(_ result: ExitTest.Result?, saying message: String) -> Bool {
      String(decoding: result?.standardErrorContent ?? [], as: UTF8.self).contains(message)
    }

    @Test func aWalkOrderWhoseNodeComesBeforeItsParentFailsItsCheck() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        await MainActor.run {
          let order = UnsafeWalkOrder(version: 0, capacity: 4)
          let views = [DMView(), DMView()]
          _ = order.append(views[0], parent: -1)
          // Not reached in the internal-checks build, which checks the append itself.
          _ = order.append(views[1], parent: 1)
          order.checkInvariants()
          withExtendedLifetime(views) {}
        }
      }
      #expect(Self.stops(result, saying: "a walk order's node comes before its parent"))
    }

    @Test func aTraitsSlotThatIsNotTheCurrentCollectionWhileEnteredFailsItsCheck() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        await MainActor.run {
          let slot = UnsafeTraitsSlot()
          let saved = slot.enter()
          slot.checkInvariants()
          PassContext.withCurrent(DMTraitCollection()) { slot.checkInvariants() }
          slot.leave(saved)
        }
      }
      #expect(Self.stops(result, saying: "a pass's traits slot is not the current collection"))
    }

    @Test func aTraitsSlotPassesItsCheckWhileCurrentAndAfterItIsLeft() {
      let slot = UnsafeTraitsSlot()
      let saved = slot.enter()
      slot.write(DMTraitCollection(userInterfaceStyle: .dark))
      slot.checkInvariants()
      #expect(PassContext.current?.userInterfaceStyle == .dark)
      slot.leave(saved)
      slot.checkInvariants()
      #expect(PassContext.current == nil)
    }

    @Test func aBindingStorageWhoseTombstonesOutnumberItsSlotsFailsItsCheck() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        await MainActor.run {
          let storage = UnsafeBindingStorage.make(count: 0, capacity: 4) { _ in }
          storage.header.tombstones = 1
          storage.checkInvariants()
        }
      }
      #expect(Self.stops(result, saying: "a binding storage's slots in use are outside its room"))
    }

    @Test func aWalkStackWhoseTopEntryOutlivedItsNodeFailsItsCheck() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        await MainActor.run {
          let stack = UnsafeWalkStack()
          let kept = DMView()
          do {
            let dropped = DMView()
            stack.push(TraitPropagator.UnretainedEntry(node: dropped, parent: kept))
          }
          stack.checkInvariants()
          withExtendedLifetime(kept) {}
        }
      }
      #expect(Self.stops(result, saying: "a walk entry outlived its node"))
    }
  }
#endif

extension GlobalStateTests {
  /// The checks of walk orders and binding storage, after switches of real windows.
  @Suite @MainActor struct InternalChecksSwitchTests {
    init() { DarkModeManager.reset() }

    private final class Faded: DMView {
      var alpha = 1.0
    }

    @Test func aWalkOrderRecordedByAWalkPassesItsCheck() {
      let window = DMWindow()
      for _ in 0..<20 {
        let view = DMView()
        view.addSubview(DMView())
        window.addSubview(view)
      }
      window.makeKeyAndVisible()
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
      defer { DMTraitCollection.setOverride(DMTraitCollection(), animated: false) }
      let order = window.walkOrder
      #expect(order?.count == 41)
      order?.checkInvariants()
      #expect(order?.subtreeEnd(of: 1) == 3)
      order?.checkInvariants()
    }

    #if DARKMODEKIT_INTERNAL_CHECKS
      /// CI's internal-checks build really checks: a switch of bound views runs the checks.
      @Test func theInternalChecksBuildChecksDuringASwitch() {
        #expect(InternalChecks.isEnabled)
        let before = InternalChecks.count.withLock { $0 }
        let window = DMWindow()
        let views = (0..<50).map { _ in Faded() }
        for view in views {
          view.dm.bind(\.alpha, to: DMDynamic(light: 1.0, dark: 0.5))
          window.addSubview(view)
        }
        window.makeKeyAndVisible()
        DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
        defer { DMTraitCollection.setOverride(DMTraitCollection(), animated: false) }
        #expect(views.allSatisfy { $0.alpha == 0.5 })
        #expect(InternalChecks.count.withLock { $0 } > before + 50)
      }
    #endif
  }
}
