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

  /// One pending visit: a node and the parent it was reached from, neither retained.
  ///
  /// A walk touches every node it visits, and retaining each (and releasing it again) would cost
  /// more than the rest of the visit. Entries stay valid for a whole pass because nothing the
  /// tree holds can be freed before the pass ends: every structural change made meanwhile pins
  /// the node it moves (and with it the subtree below), and controllers, which the tree holds only
  /// weakly, are pinned when they are pushed. See ``pin(_:)``.
  struct Entry {
    let unretainedNode: Unmanaged<DMResponder>
    let unretainedParent: Unmanaged<DMResponder>?

    @inline(__always)
    init(node: DMResponder, parent: DMResponder?) {
      unretainedNode = Unmanaged.passUnretained(node)
      unretainedParent = parent.map { Unmanaged.passUnretained($0) }
    }

    @inline(__always)
    init(node: Unmanaged<DMResponder>, parent: Unmanaged<DMResponder>) {
      unretainedNode = node
      unretainedParent = parent
    }

    /// Whether `candidate` is the parent the entry was pushed from, comparing identities only.
    @inline(__always)
    func hasParent(_ candidate: DMResponder?) -> Bool {
      candidate.map { Unmanaged.passUnretained($0).toOpaque() } == unretainedParent?.toOpaque()
    }
  }

  private enum Event {
    case global(animated: Bool)
    /// Not retained, so that clearing the queue runs no deinitializer: the node is held by the
    /// caller while the first event runs, and pinned when the event is queued behind a pass.
    case position(Unmanaged<DMResponder>)
    case reapplyBindings
  }

  /// The resolved global collection the hierarchy was last brought up to date with.
  @exclusivity(unchecked) private(set) var propagatedGlobal = DMTraitCollection().withDefaults
  /// The transition of the running pass, ``DMTransition/none`` between passes.
  private(set) var transition = DMTransition.none

  /// How many nodes passes have visited since launch; tests read it to check what a pass touches.
  @exclusivity(unchecked) private(set) var visitCount = 0

  /// Counts structural changes, so that a walk checks each entry's parent only after one.
  @exclusivity(unchecked) private var structureVersion: UInt64 = 0
  private var isRunning = false
  private var events: [Event] = []
  private var stack: [Entry] = []
  private var detachStack: [Entry] = []
  /// Visible windows whose colours may differ since the last report to the window handler.
  private var restyledWindows: [DMWindow] = []
  /// Whether the running walk changed, for any environment that had reported before, a trait that
  /// affects colours; see `walk(from:)`.
  @exclusivity(unchecked) private var walkChangedColors = false
  /// Counts the times bound values changed without a trait change (colour-table reloads), so that
  /// a window shown again knows whether it missed one; see `DMWindow.seenBindingSourcesVersion`.
  private var bindingSourcesVersion: UInt64 = 0
  /// What the running pass runs once it is over; see `bindingSourcesDidChange(completion:)`.
  @exclusivity(unchecked) private var afterPass: [@MainActor () -> Void] = []
  /// Objects kept alive until the running pass ends; see `Entry`.
  private var pinned: [DMResponder] = []
  /// Storage of binding lists that changed during the running pass, kept until it ends; see
  /// `BindingList.apply(to:traits:)`.
  private var retiredBindings: [BindingStorage] = []

  /// Where a pass writes the collection of the environment it is calling; see `PassContext`.
  private let currentSlot: UnsafeMutablePointer<DMTraitCollection> = {
    let slot = UnsafeMutablePointer<DMTraitCollection>.allocate(capacity: 1)
    slot.initialize(to: DMTraitCollection())
    return slot
  }()

  private init() {}

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
    // Kept apart from the event, so that events stay plain values that cost nothing to copy.
    if let completion { afterPass.append(completion) }
    perform(.reapplyBindings)
  }

  /// A node's public overrides changed.
  func overridesDidChange(_ node: DMResponder) {
    if !isRunning { node.applyOverrides() }
    perform(.position(.passUnretained(node)))
  }

  /// A node's trait parent may have changed (moved, a window shown or hidden, a root view swapped).
  func positionDidChange(_ node: DMResponder) {
    structureVersion &+= 1
    if isRunning && node.isAttached && !isPlacedInVisibleWindow(node) {
      // Detach at once, so that the running pass skips the entries of the removed subtree.
      // Outside a pass, the event below detaches it, inside a pass of its own.
      detach(node)
    }
    perform(.position(.passUnretained(node)))
  }

  private func perform(_ event: Event) {
    if case .position(let node) = event { pin(node.takeUnretainedValue()) }
    events.append(event)
    guard !isRunning else { return }
    isRunning = true
    var index = 0
    while index < events.count {
      let event = events[index]
      index += 1
      switch event {
      case .global(let animated): propagateGlobal(animated: animated)
      case .position(let node): reconcile(node.takeUnretainedValue())
      case .reapplyBindings: reapplyBindings()
      }
    }
    endPass()
    guard !afterPass.isEmpty else { return }
    // Outside the pass, so that what they start (a reload, an override) takes effect at once.
    let completions = afterPass
    afterPass = []
    for completion in completions { completion() }
  }

  @inline(__always)
  private func endPass() {
    events.removeAll(keepingCapacity: true)
    // Move out what the pass kept before letting go of it: a deinitializer run by the release
    // may start a pass of its own, which must find the propagator idle and its lists free.
    var finished = (pinned: [DMResponder](), retired: [BindingStorage]())
    swap(&finished.pinned, &pinned)
    swap(&finished.retired, &retiredBindings)
    isRunning = false
    // Only now: an optimized build may otherwise release `finished` right after its last use.
    withExtendedLifetime(finished) {}
  }

  /// Keeps `node` alive until the running pass ends, so that walk entries for it or for nodes
  /// below it stay valid while a callback moves it; nothing outside a pass.
  func pin(_ node: DMResponder) {
    if isRunning { pinned.append(node) }
  }

  /// Keeps a binding list's storage alive until the running pass ends; nothing outside a pass.
  func keepUntilPassEnds(_ bindings: BindingStorage) {
    if isRunning { retiredBindings.append(bindings) }
  }

  // MARK: Passes

  private func propagateGlobal(animated: Bool) {
    let resolved = GlobalTraits.state.withLock { $0.resolved }
    guard resolved != propagatedGlobal else { return }
    let previous = propagatedGlobal
    propagatedGlobal = resolved
    let configuration = DarkModeManager.configuration
    transition =
      animated ? DMTransition(isAnimated: true, duration: configuration.animationDuration) : .none
    defer { transition = .none }
    for window in DMApplication.shared.windows where window.isAttached {
      walk(from: window)
    }
    ThemableRegistry.shared.applyAll(resolved)
    reportRestyledWindows()
    configuration.themeChangeHandler?()
    GlobalChangeReporter.report(previous: previous, current: resolved)
  }

  private func reapplyBindings() {
    PassGeneration.advance()
    for window in DMApplication.shared.windows where window.isAttached {
      stack.append(Entry(node: window, parent: nil))
    }
    let savedContext = PassContext.enterSlot(currentSlot)
    defer { PassContext.leaveSlot(savedContext) }
    while let entry = stack.popLast() {
      entry.unretainedNode.borrow { node in
        guard node.isAttached, let traits = node.reported else { return }
        if !node.bindings.isEmpty { refreshBindings(of: node, traits: traits) }
        node.appendTraitChildren(to: &stack)
      }
    }
    ThemableRegistry.shared.applyAll(propagatedGlobal)
    bindingSourcesVersion &+= 1
    for window in DMApplication.shared.windows where window.isAttached {
      window.seenBindingSourcesVersion = bindingSourcesVersion
      markRestyled(window)
    }
    reportRestyledWindows()
  }

  private func reconcile(_ node: DMResponder) {
    node.applyOverrides()
    if isPlacedInVisibleWindow(node) {
      let window = node as? DMWindow
      let wasShownBefore = window?.reported != nil
      walk(from: node)
      if let window, window.seenBindingSourcesVersion != bindingSourcesVersion {
        // Shown again after missing a reload (the walk set its bindings again); a first show has
        // nothing to catch up with.
        if wasShownBefore { markRestyled(window) }
        window.seenBindingSourcesVersion = bindingSourcesVersion
      }
      reportRestyledWindows()
    } else if node.isAttached {
      detach(node)
    }
  }

  /// Whether `node` hangs from an attached parent, or is a visible window.
  ///
  /// Outside a pass every node in a visible window is attached, so this is exact. Inside one, a
  /// subtree just placed in a visible window is not attached until the queued event of its root
  /// walks it, and that walk reaches `node` too.
  private func isPlacedInVisibleWindow(_ node: DMResponder) -> Bool {
    if let parent = node.traitParent { return parent.isAttached }
    return (node as? DMWindow)?.isVisible == true
  }

  /// Visits `start` and its descendants, depth first with an explicit stack, calling each node
  /// whose resolved collection differs from what it last reported. Below an attached node whose
  /// collection did not change nothing can change, so the walk stops there.
  ///
  /// When an environment that had reported before now resolves a collection whose colours may
  /// differ, the window that holds `start` is marked for the window handler; a window shown for
  /// the first time, and views just added, are not.
  private func walk(from start: DMResponder) {
    walkChangedColors = false
    defer {
      if walkChangedColors, let window = windowHolding(start) { markRestyled(window) }
    }
    // Work on local copies: the stack keeps its capacity from pass to pass, and the loop does not
    // touch the propagator's own properties for every node.
    var stack = self.stack
    self.stack = []
    defer {
      stack.removeAll(keepingCapacity: true)
      self.stack = stack
    }
    var visits = 0
    defer { visitCount &+= visits }
    let structureAtStart = structureVersion
    PassGeneration.advance()
    // The entry does not hold the parent (see `Entry`); a controller's root view's parent is its
    // controller, which the tree does not hold.
    let startParent = start.traitParent
    if let startParent { pin(startParent) }
    stack.append(Entry(node: start, parent: startParent))
    let savedContext = PassContext.enterSlot(currentSlot)
    defer { PassContext.leaveSlot(savedContext) }
    while let entry = stack.popLast() {
      visits &+= 1
      let structureChanged = structureVersion != structureAtStart
      // Borrowed, not retained: see `Entry`.
      entry.unretainedNode.borrow { node in
        visit(node, from: entry, structureChanged: structureChanged, stack: &stack)
      }
    }
  }

  /// Brings one node up to date in a walk and pushes its children when they may need it too.
  @inline(__always)
  private func visit(
    _ node: DMResponder, from entry: Entry, structureChanged: Bool, stack: inout [Entry]
  ) {
    // A callback may have moved the node or detached its parent since the entry was pushed.
    if structureChanged {
      guard entry.hasParent(node.traitParent) else { return }
    }
    var traits: DMTraitCollection
    if let unretained = entry.unretainedParent {
      // Read without retaining (see `Entry`).
      unowned(unsafe) let parent = unretained.takeUnretainedValue()
      guard parent.isAttached, let parentTraits = parent.reported else { return }
      traits = parentTraits
    } else {
      guard (node as? DMWindow)?.isVisible == true else { return }
      traits = propagatedGlobal
    }
    if let applied = node.appliedOverride { traits = traits.overlaid(with: applied) }
    let wasAttached = node.isAttached
    node.isAttached = true
    if traits == node.reported {
      if wasAttached { return }
      // Just attached with the collection it last reported: no call, but its bindings may
      // have been set while it was away (for other traits) or their tables reloaded.
      if !node.bindings.isEmpty { refreshBindings(of: node, traits: traits) }
    } else {
      let previous = node.reported
      node.reported = traits
      // Any change of the collection may change colours (see `hasDifferentColorAppearance`).
      if previous != nil { walkChangedColors = true }
      deliver(to: node, previous: previous, traits: traits)
      // The callback may have removed the node; its new position is queued.
      guard node.isAttached else { return }
    }
    node.appendTraitChildren(to: &stack)
  }

  /// Sets a node's bound properties again for `traits`, with its collection current; no call.
  ///
  /// A binding's setter may bind or unbind properties of this node meanwhile: the list it
  /// replaces is kept until the pass ends (see `keepUntilPassEnds(_:)`).
  @inline(__always)
  private func refreshBindings(of node: DMResponder, traits: DMTraitCollection) {
    currentSlot.pointee = traits
    node.bindings.apply(to: node, traits: traits)
  }

  /// Updates a node's bindings, then calls it, with its collection current.
  @inline(__always)
  private func deliver(to node: DMResponder, previous: DMTraitCollection?, traits: DMTraitCollection) {
    refreshBindings(of: node, traits: traits)
    node.dmTraitCollectionDidChange(previous)
  }

  /// Marks `node` and its attached descendants as outside any visible window. No calls.
  private func detach(_ node: DMResponder) {
    detachStack.append(Entry(node: node, parent: nil))
    while let entry = detachStack.popLast() {
      unowned(unsafe) let node = entry.unretainedNode.takeUnretainedValue()
      guard node.isAttached else { continue }
      node.isAttached = false
      node.appendTraitChildren(to: &detachStack)
    }
  }

  /// The window at the root of `node`'s trait parents, if the root is a window.
  private func windowHolding(_ node: DMResponder) -> DMWindow? {
    var root = node
    while let parent = root.traitParent { root = parent }
    return root as? DMWindow
  }

  /// Marks a window for the window handler, once per report.
  private func markRestyled(_ window: DMWindow) {
    guard window.isVisible, !restyledWindows.contains(where: { $0 === window }) else { return }
    restyledWindows.append(window)
  }

  private func reportRestyledWindows() {
    guard !restyledWindows.isEmpty else { return }
    let windows = restyledWindows
    restyledWindows.removeAll(keepingCapacity: true)
    guard let handler = DarkModeManager.configuration.windowThemeChangeHandler else { return }
    // A callback, or the handler for an earlier window, may have hidden a window since.
    for window in windows where window.isVisible { handler(window) }
  }

  // MARK: Resolution outside visible windows

  /// The collection of a node that is in no visible window (or not yet reached): its ancestors'
  /// overrides over the nearest attached ancestor, or over the global collection.
  func resolveDetached(_ node: DMResponder) -> DMTraitCollection {
    var overrides: [DMTraitCollection] = []
    var base = propagatedGlobal
    var cursor: DMResponder? = node
    while let current = cursor {
      if current !== node, current.isAttached, let reported = current.reported {
        base = reported
        break
      }
      if let applied = current.appliedOverride { overrides.append(applied) }
      cursor = current.traitParent
    }
    for applied in overrides.reversed() { base = base.overlaid(with: applied) }
    return base
  }

  // MARK: Testing

  /// Forgets every queued event and the propagated global state; for tests only.
  func reset() {
    events.removeAll()
    stack.removeAll()
    restyledWindows.removeAll()
    propagatedGlobal = GlobalTraits.state.withLock { $0.resolved }
  }
}
