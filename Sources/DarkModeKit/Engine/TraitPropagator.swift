import Foundation

/// Delivers trait changes through the hierarchy: one pass per event, parents before children,
/// only to environments whose resolved collection changed.
///
/// Events raised while a pass runs (from a callback, a binding or a handler) are queued and
/// processed, in order, after it; the structure itself changes at once, and a pass skips the
/// entries that a change made stale.
@MainActor
final class TraitPropagator {
  static let shared = TraitPropagator()

  enum Event {
    case global(animated: Bool)
    /// Clearing the queue releases no node for the last time: the node of the first event is held
    /// by the caller while it runs, and that of an event queued behind a pass is pinned.
    case position(DMResponder)
    case reapplyBindings
    /// A theme got or lost a side: resolve every collection again.
    case themeSides
  }

  /// The resolved global collection the hierarchy was last brought up to date with.
  var propagatedGlobal = DMTraitCollection().withDefaults
  /// What passes report to; handed in by `DarkModeManager.setup(with:)`.
  var handlers = ChangeHandlers()
  /// The transition of the running pass, ``DMTransition/none`` between passes.
  var transition = DMTransition.none

  /// How many nodes passes have visited since launch; tests read it to check what a pass touches.
  var visitCount = 0
  /// How many walks went through a window's recorded order; tests read it to check that they
  /// exercise that path.
  var orderedWalkCount = 0
  /// Whether walks record and use windows' orders; tests turn it off to compare with stack walks.
  var usesWalkOrders = true
  /// Windows with fewer environments keep no order: a walk of so few is as fast without one, and
  /// the order would cost an allocation each time the window is shown. Tests lower it.
  var minimumOrderCount = TraitPropagator.defaultMinimumOrderCount
  static let defaultMinimumOrderCount = 8
  /// Windows with more environments keep no order: its positions are 32-bit. Tests lower it.
  var maximumOrderCount = TraitPropagator.defaultMaximumOrderCount
  static let defaultMaximumOrderCount = Int(Int32.max)

  /// Counts structural changes, so that a walk checks each entry's parent only after one, and the
  /// root checkpoints of `DMView.window` know when they are stale.
  var structureVersion: UInt64 = 0 {
    didSet { RunBreaks.record() }
  }
  /// Counts events and passes: anything that may change how an environment outside visible
  /// windows resolves makes the checkpoints of `resolveDetached(_:)` stale.
  var resolutionVersion: UInt64 = 0
  /// Counts passes: what a pass does once per pass (load an image by name) it does for this number.
  var passNumber: UInt64 = 0
  var isRunning = false
  var events: [Event] = []
  let stack = UnsafeWalkStack()
  /// Where a walk from a window records its order; copied for the window when complete (see
  /// `UnsafeWalkOrder`).
  let recordingOrder = UnsafeWalkOrder(version: 0, capacity: 256)
  let detachStack = UnsafeWalkStack()
  /// Visible windows whose colours may differ since the last report to the window handler.
  var restyledWindows: [DMWindow] = []
  /// Whether the running walk changed, for any environment that had reported before, a trait that
  /// affects colours; see `walk(from:)`.
  var walkChangedColors = false
  /// Whether the running walk goes on below environments whose collection did not change, because
  /// something below them may resolve differently although nothing above it changed (new theme
  /// sides).
  var walksWholeTree = false
  /// Whether a `.themeSides` event waits in the queue.
  var isThemeSidesQueued = false
  /// Counts the times bound values changed without a trait change (colour-table reloads), so that
  /// a window shown again knows whether it missed one; see `DMWindow.seenBindingSourcesVersion`.
  var bindingSourcesVersion: UInt64 = 0
  /// What the running pass runs once it is over; see `bindingSourcesDidChange(completion:)`.
  var afterPass: [@MainActor () -> Void] = []
  /// Objects kept alive until the running pass ends; see `UnretainedEntry`.
  var pinned: [DMResponder] = []
  /// The views of freed controllers, held until a pass places them (see
  /// `controllerWasFreed(view:)`).
  private(set) var orphanedViews: [DMResponder] = []
  /// The last two sets of custom trait values the running pass compared; see
  /// `compareCustomTraits(_:_:)`. Let go when the pass ends.
  var customComparison: CustomComparison?
  struct CustomComparison {
    let previous: CustomTraitValues?
    let current: CustomTraitValues?
    let result: (equal: Bool, colorsDiffer: Bool)

    /// Whether this is the comparison of `previous` with `current`.
    @inline(__always)
    func compares(_ previous: CustomTraitValues?, _ current: CustomTraitValues?) -> Bool {
      self.previous === previous && self.current === current
    }
  }
  /// The last custom trait a registration in the running pass compared between two sets; see
  /// `trait(_:differsFrom:to:)`. Let go when the pass ends.
  var customTraitComparison: CustomTraitComparison?
  struct CustomTraitComparison {
    let identifier: String
    let previous: CustomTraitValues?
    let current: CustomTraitValues?
    let differs: Bool
  }
  /// Where a pass writes the collection of the environment it is calling.
  let currentSlot = UnsafeTraitsSlot()

  private init() {
    BindingRefresh.isListening
  }

  // MARK: Events

  /// The global state changed: bring every visible window up to date if the resolved collection did.
  func globalTraitsDidChange(animated: Bool) {
    perform(.global(animated: animated))
  }

  /// Values behind bindings changed (a colour table was reloaded): set every bound property in
  /// visible windows, and of themable objects, again, and tell the window handler that each visible
  /// window may look different (a hidden window is told when it is shown again); then, once the
  /// pass is over, run `completion`. No trait changed, so no environment is called. Inside a
  /// running pass all of this happens after the pass.
  func bindingSourcesDidChange(completion: (@MainActor () -> Void)? = nil) {
    // Kept apart from the event, so that events stay small values.
    if let completion { afterPass.append(completion) }
    perform(.reapplyBindings)
  }

  /// A theme got or lost a side, which may change the style that choosing it makes: resolve the
  /// global collection and every environment's again, and call those whose collection changed.
  func themeSidesDidChange() {
    // One walk for every side declared before it runs: a queued one reads the latest sides.
    guard !isThemeSidesQueued else { return }
    isThemeSidesQueued = true
    perform(.themeSides)
  }

  /// A node's public overrides changed.
  func overridesDidChange(_ node: DMResponder) {
    if !isRunning { node.applyOverrides() }
    perform(.position(node))
  }

  /// Nodes lost their parent without a move: a view was freed while its subviews live on (none of
  /// them attached, as the freed view was in no visible window; for a freed controller's view,
  /// see `controllerWasFreed(view:)`).
  func parentsWereFreed() {
    structureVersion &+= 1
    resolutionVersion &+= 1
  }

  /// The view of a view controller that was just freed, which may live on in a visible window: it
  /// now inherits from its superview.
  ///
  /// Its collection reads right at once: the view and its subtree are detached, so they resolve
  /// from their ancestors. The pass that calls them runs later, once the main actor is free, or
  /// at the start of the next pass if that comes first: a controller goes when the app lets go of
  /// it (an array of screens emptied, say), and a pass run from its deinitializer would call the
  /// app's code in the middle of that change. The views of a chain of controllers freed together
  /// are placed in one pass.
  func controllerWasFreed(view: DMResponder) {
    structureVersion &+= 1
    resolutionVersion &+= 1
    guard view.isAttached else { return }
    // Freed during a pass (a callback let go of it before the walk reached it): the pass places
    // the view after what it is doing, as for any move.
    if isRunning { return positionDidChange(view) }
    detach(view)
    orphanedViews.append(view)
    guard orphanedViews.count == 1 else { return }
    Task { @MainActor in self.placeOrphanedViews() }
  }

  /// Runs the pass that places the views of freed controllers, if none did yet.
  func placeOrphanedViews() {
    guard !isRunning, let first = orphanedViews.first else { return }
    // The others are queued at the start of the pass (see `perform(_:)`).
    orphanedViews.removeFirst()
    positionDidChange(first)
  }

  /// A node's trait parent may have changed (moved, a window shown or hidden, a root view swapped).
  func positionDidChange(_ node: DMResponder) {
    structureVersion &+= 1
    if isRunning && node.isAttached && !isPlacedInVisibleWindow(node) {
      // Detach at once, so that the running pass skips the entries of the removed subtree.
      // Outside a pass, the event below detaches it, inside a pass of its own.
      detach(node)
    }
    perform(.position(node))
  }

  private func perform(_ event: Event) {
    resolutionVersion &+= 1
    if case .position(let node) = event { pin(node) }
    events.append(event)
    guard !isRunning else { return }
    isRunning = true
    passNumber &+= 1
    if !orphanedViews.isEmpty { queueOrphanedViews() }
    var index = 0
    while index < events.count {
      let event = events[index]
      index += 1
      switch event {
      case .global(let animated): propagateGlobal(animated: animated)
      case .position(let node): reconcile(node)
      case .reapplyBindings: reapplyBindings()
      case .themeSides:
        isThemeSidesQueued = false
        propagateGlobal(animated: false, wholeTree: true)
      }
    }
    endPass()
    guard !afterPass.isEmpty else { return }
    // Outside the pass, so that what they start (a reload, an override) takes effect at once.
    let completions = afterPass
    afterPass = []
    for completion in completions { completion() }
  }

  /// Queues the placing of every view a freed controller left, in the pass that starts.
  private func queueOrphanedViews() {
    let views = orphanedViews
    orphanedViews = []
    for view in views {
      pin(view)
      events.append(.position(view))
    }
  }

  @inline(__always)
  private func endPass() {
    resolutionVersion &+= 1
    events.removeAll(keepingCapacity: true)
    // Move out what the pass kept before letting go of it: a deinitializer run by the release
    // (of an object, or of a custom trait's value) may start a pass of its own, which must find
    // the propagator idle and its lists free.
    var finished: [DMResponder] = []
    swap(&finished, &pinned)
    let comparisons = (customComparison, customTraitComparison)
    customComparison = nil
    customTraitComparison = nil
    isRunning = false
    // Only now: an optimized build may otherwise release them right after their last use.
    extendLifetime((finished, comparisons))
  }

  // MARK: Testing

  /// Forgets every queued event and the propagated global state; for tests only.
  func reset() {
    events.removeAll()
    orphanedViews.removeAll()
    stack.removeAll()
    restyledWindows.removeAll()
    isThemeSidesQueued = false
    usesWalkOrders = true
    minimumOrderCount = Self.defaultMinimumOrderCount
    maximumOrderCount = Self.defaultMaximumOrderCount
    propagatedGlobal = GlobalTraits.state.withLock { $0.resolved }
  }
}

/// Counts what the app's code can do in a callback that a walk's run of common cases must look
/// at: a structural change (which a node moved by its own call is), extras made for any
/// environment (registrations, overrides, checkpoints), and a change of any binding list (after
/// which the run does not rely on the list it holds). One number, so that the run checks one
/// after each call.
///
/// The count changes only through ``record()``.
@MainActor
enum RunBreaks {
  private(set) static var count: UInt64 = 0

  /// Counts one thing a run of common cases must look at.
  @inline(__always)
  static func record() {
    count &+= 1
  }
}
