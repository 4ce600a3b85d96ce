import Foundation

/// The walk: how a pass brings the environments of visible windows up to date, and how an
/// environment outside them resolves its collection.
extension TraitPropagator {
  /// Brings visible windows up to date with the global collection if it changed; with
  /// `wholeTree`, walks every environment even if it did not, for changes that overrides below a
  /// window may resolve differently (new theme sides).
  func propagateGlobal(animated: Bool, wholeTree: Bool = false) {
    let resolved = GlobalTraits.state.withLock { $0.resolved }
    let globalChanged = resolved != propagatedGlobal
    guard globalChanged || wholeTree else { return }
    let previous = propagatedGlobal
    propagatedGlobal = resolved
    // The handlers in force when the change began, whatever a callback sets up meanwhile.
    let handlers = self.handlers
    // Reduced motion: shown at once, whatever the change asked for.
    let animates = animated && resolved.accessibilityMotion != .reduced
    transition = animates ? DMTransition(isAnimated: true, duration: handlers.animationDuration) : .none
    defer { transition = .none }
    walksWholeTree = wholeTree
    for window in DMApplication.shared.windows where window.isAttached {
      walk(from: window)
    }
    walksWholeTree = false
    guard globalChanged else { return reportRestyledWindows() }
    // Compared through the pass's comparison of custom traits, which the walk made for the same
    // two sets.
    if previous.builtInTraitsDiffer(from: resolved) || colorsDiffer(previous, resolved) {
      ThemableRegistry.shared.applyAll(resolved)
    }
    reportRestyledWindows()
    handlers.themeChangeHandler?()
    GlobalChangeReporter.report(previous: previous, current: resolved)
  }

  func reapplyBindings() {
    PassGeneration.advance()
    for window in DMApplication.shared.windows where window.isAttached {
      stack.push(UnretainedEntry(node: window, parent: nil))
    }
    let savedContext = currentSlot.enter()
    defer { currentSlot.leave(savedContext) }
    while let entry = stack.pop() {
      entry.withNode { node in
        guard node.isAttached, let traits = node.reported else { return }
        if !node.bindings.isEmpty { refreshBindings(of: node, traits: traits) }
        node.appendTraitChildren(to: stack)
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

  func reconcile(_ node: DMResponder) {
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
  func isPlacedInVisibleWindow(_ node: DMResponder) -> Bool {
    if let parent = node.traitParent { return parent.isAttached }
    return (node as? DMWindow)?.isVisible == true
  }

  /// Visits `start` and its descendants, depth first with an explicit stack, calling each node
  /// whose resolved collection differs from what it last reported. Below an attached node whose
  /// collection did not change nothing can change, so the walk stops there.
  ///
  /// A walk from a visible window whose structure did not change since a walk visited all of it
  /// runs through the window's ``UnsafeWalkOrder`` instead, in the same order; once a callback changes
  /// the structure, it hands the subtrees it has not reached to the stack, as the walk would
  /// have pushed them. A walk from a window that visits every environment, with no structural
  /// change, records the order.
  ///
  /// When an environment that had reported before now resolves a collection whose colours may
  /// differ, the window that holds `start` is marked for the window handler; a window shown for
  /// the first time, and views just added, are not.
  func walk(from start: DMResponder) {
    walkChangedColors = false
    defer {
      if walkChangedColors, let window = windowHolding(start) { markRestyled(window) }
    }
    // The stack keeps its room from pass to pass; the loop reads it from a local constant.
    let stack = self.stack
    defer { stack.removeAll() }
    var visits = 0
    defer { visitCount &+= visits }
    let structureAtStart = structureVersion
    PassGeneration.advance()
    let savedContext = currentSlot.enter()
    defer { currentSlot.leave(savedContext) }
    let window = usesWalkOrders ? start as? DMWindow : nil
    var recording: UnsafeWalkOrder?
    if let window, let order = window.walkOrder, order.isCurrent(structureAtStart) {
      walk(window, in: order, visits: &visits)
    } else {
      // The entry does not hold the parent (see `UnretainedEntry`); a controller's root view's parent is
      // its controller, which the tree does not hold.
      let startParent = start.traitParent
      if let startParent { pin(startParent) }
      stack.push(UnretainedEntry(node: start, parent: startParent))
      if let window {
        recordingOrder.restart(version: structureAtStart)
        recording = recordingOrder
        window.walkOrder = nil
      }
    }
    while let entry = stack.pop() {
      visits &+= 1
      let structureChanged = structureVersion != structureAtStart
      // Borrowed, not retained: see `UnretainedEntry`.
      let descended = entry.withNode { node in
        visit(node, from: entry, structureChanged: structureChanged, stack: stack, recording: &recording)
      }
      // A node not gone into leaves the recording incomplete: it stops.
      if !descended { recording = nil }
    }
    if let window, let recording, structureVersion == structureAtStart,
      recording.count >= minimumOrderCount
    {
      window.walkOrder = recording.finished()
    }
    // The propagator keeps room for windows of a few thousand environments between walks.
    recordingOrder.shrink(to: 4_096)
  }

  /// The walk of a window through its order; see `walk(from:)`. After a node whose visit changed
  /// the structure, it pushes what the stack walk would hold then (the node's children as they
  /// are now, and the subtrees it has not reached), for the walk to go on with the stack.
  private func walk(_ window: DMWindow, in order: UnsafeWalkOrder, visits: inout Int) {
    let structureAtStart = structureVersion
    orderedWalkCount &+= 1
    var controllers = 0
    var position = 0
    let count = order.count
    while position < count {
      let run = walkCommonCases(
        of: order, from: position, controllers: controllers)
      visits &+= run.visits
      position = run.position
      let descended: Bool
      if let visited = run.descended {
        descended = visited
      } else {
        guard position < count else { break }
        visits &+= 1
        let parentPosition = order.parent(at: position)
        descended = order.withNode(at: position) { node in
          guard parentPosition >= 0 else {
            return window.isVisible && update(node, inheriting: propagatedGlobal)
          }
          // Borrowed, not retained: the order's nodes live while it is current.
          guard
            let inherited = order.withNode(
              at: parentPosition,
              { parent -> DMTraitCollection? in parent.isAttached ? parent.reported : nil })
          else { return false }
          return update(node, inheriting: inherited)
        }
      }
      // The controllers below a node the walk goes into are kept from now on, as the stack walk
      // keeps them when it pushes them.
      let isCurrent =
        structureVersion == structureAtStart
        && (!descended || order.pinControllers(below: position, from: &controllers, in: self))
      guard isCurrent else {
        // Neither the node's children as recorded nor, when it was not gone into, as they are.
        pushSubtrees(of: order, from: order.subtreeEnd(of: position))
        if descended { order.withNode(at: position) { $0.appendTraitChildren(to: stack) } }
        // Stale now: let go of it (the walk's entries hold what they need).
        window.walkOrder = nil
        return
      }
      position = descended ? position + 1 : order.subtreeEnd(of: position)
    }
  }

  /// Where ``walkCommonCases(of:from:controllers:)`` stopped: at `position`, which it
  /// visited, with the walk going on below it or not (`descended`), when the app's code did
  /// something there that the walk must look at or the run reached its end; which it did not
  /// visit otherwise (`descended` is `nil`).
  struct CommonRun {
    var position: Int
    var descended: Bool?
    var visits: Int
  }

  /// What ``walkCommonCases(of:from:controllers:)`` did with one node.
  private enum CommonStep {
    /// Nothing: the node is not a common case.
    case other
    /// Visited it, and goes on with the next.
    case next
    /// Visited it, and stops there.
    case visited(descended: Bool)
  }

  /// Visits the nodes of `order` from `start` on for as long as each is the common case of a
  /// switch, in a loop of its own: a node attached since the last walk, with no overrides and no
  /// registrations, whose collection changed, below the window. It marks the window restyled
  /// (`walkChangedColors`) when colours changed, as `update(_:inheriting:)` does for such a node
  /// with the checks it needs for every other.
  ///
  /// It stops before the first node of another kind, and after the last node, one whose call
  /// moved it, gave it registrations, changed the structure, or that has controllers below it:
  /// what the walk does for those, it does after the visit.
  @inline(never)
  private func walkCommonCases(of order: UnsafeWalkOrder, from start: Int, controllers: Int)
    -> CommonRun
  {
    guard !walksWholeTree else { return CommonRun(position: start, descended: nil, visits: 0) }
    // The run stops after visiting this position: the last node, or the first from which
    // controllers may hang.
    let last = min(order.count - 1, order.firstControllerParent(from: controllers))
    // Anything a callback does that the walk must look at counts here (see `RunBreaks`).
    let breaks = RunBreaks.count
    // The collection handed to the callbacks as the previous one: the same for most nodes of a
    // switch, so the loop writes it only when it differs.
    var previous = DMTraitCollection()
    var held: UnsafeBindingStorage?
    var position = start
    while true {
      let parentPosition = order.parent(at: position)
      guard parentPosition >= 0 else { break }
      // The parent's collection, read once for its children: they come one after the other, and
      // a parent's collection stays as it is until the structure changes, which ends the run.
      // Borrowed, not retained: the order's nodes live while it is current.
      guard
        let inherited = order.withNode(
          at: parentPosition, { parent -> DMTraitCollection? in parent.isAttached ? parent.reported : nil })
      else { break }
      // The current collection's slot, which only a walk writes.
      if !currentSlot.holds(inherited) { currentSlot.write(inherited) }
      repeat {
        // Borrowed, not retained: see `UnretainedEntry`.
        let step = order.withNode(at: position) { node in
          commonStep(
            node, inheriting: inherited, isLast: position >= last, breaks: breaks, previous: &previous,
            held: &held)
        }
        switch step {
        case .other:
          return CommonRun(position: position, descended: nil, visits: position - start)
        case .visited(let descended):
          return CommonRun(position: position, descended: descended, visits: position - start + 1)
        case .next:
          position += 1
        }
      } while order.parent(at: position) == parentPosition
    }
    return CommonRun(position: position, descended: nil, visits: position - start)
  }

  /// One node of a run of common cases: brings it up to date with `inherited`, its parent's
  /// collection, and calls it with `previous`, which it updates; or, for a node that is not a
  /// common case, does nothing. `breaks` is `RunBreaks.count` when the run began; `held`, the
  /// bindings the run set last.
  @inline(__always)
  private func commonStep(
    _ node: DMResponder, inheriting inherited: DMTraitCollection, isLast: Bool, breaks: UInt64,
    previous: inout DMTraitCollection, held: inout UnsafeBindingStorage?
  ) -> CommonStep {
    guard node.extras == nil, node.isAttached, let bits = node.reported?.traitBits else { return .other }
    let accent = node.reported.unsafelyUnwrapped.accentBits
    let bindingsChange: Bool
    if node.reported.unsafelyUnwrapped.custom === inherited.custom {
      // The same custom traits: changed when a built-in trait changed, and then only the built-in
      // traits are written; the collection is read in place, field by field, as copying it would
      // cost reference counting.
      guard bits != inherited.traitBits || accent != inherited.accentBits else { return .other }
      if !walkChangedColors {
        // The window is restyled (see `walk(from:)`) when colours changed.
        walkChangedColors = DMTraitCollection.builtInColorsDiffer(
          bits, accent, inherited.traitBits, inherited.accentBits)
      }
      if bits != previous.traitBits || accent != previous.accentBits
        || previous.custom !== inherited.custom
      {
        previous = node.reported.unsafelyUnwrapped
      }
      node.reported?.traitBits = inherited.traitBits
      node.reported?.accentBits = inherited.accentBits
      assert(
        node.reported == inherited, "a node's collection written in part differs from the one it inherits")
      bindingsChange = true
    } else {
      guard let changes = takeCustomTraits(of: node, inherited: inherited, previous: &previous) else {
        return .other
      }
      bindingsChange = changes
    }
    if bindingsChange {
      node.bindings.hold(in: &held)
      held?.apply(to: node, traits: inherited)
    }
    node.dmTraitCollectionDidChange(previous)
    guard RunBreaks.count == breaks else {
      return afterBreak(node, previous: previous, current: inherited)
    }
    return isLast ? .visited(descended: true) : .next
  }

  /// For the run of common cases, a node whose custom traits are another set than its parent's
  /// (the same two sets for every node under a change): writes the node's collection, and its
  /// previous one in `previous`, and tells whether its bound values change; or returns `nil`,
  /// writing nothing, when the collection did not change. Out of the loop, whose other nodes then
  /// cost no reference counting.
  @inline(never)
  private func takeCustomTraits(
    of node: DMResponder, inherited: DMTraitCollection, previous: inout DMTraitCollection
  ) -> Bool? {
    // Read in place: a copy of the collection would retain its custom values.
    guard node.reported != nil else { return nil }
    let custom = compareCustomTraits(node.reported.unsafelyUnwrapped.custom, inherited.custom)
    let builtInChanged = node.reported.unsafelyUnwrapped.builtInTraitsDiffer(from: inherited)
    guard builtInChanged || !custom.equal else { return nil }
    if !walkChangedColors {
      walkChangedColors =
        node.reported.unsafelyUnwrapped.builtInColorsDiffer(from: inherited) || custom.colorsDiffer
    }
    if node.reported.unsafelyUnwrapped != previous { previous = node.reported.unsafelyUnwrapped }
    node.reported = inherited
    return builtInChanged || custom.colorsDiffer
  }

  /// What the run of common cases does after a call that did something the walk must look at
  /// (see `RunBreaks`): what `update(_:inheriting:)` does after a call, and ends there.
  private func afterBreak(_ node: DMResponder, previous: DMTraitCollection, current: DMTraitCollection)
    -> CommonStep
  {
    .visited(descended: notifyAfterCall(node, previous: previous, current: current))
  }

  /// Pushes the subtrees of `order` from `position` on, as the stack walk would hold them when
  /// it reached that node: each with the parent it hangs from, the first on top. Every node at
  /// `position` or after whose parent comes before it starts such a subtree, and its parent was
  /// visited and gone into.
  private func pushSubtrees(of order: UnsafeWalkOrder, from position: Int) {
    var roots: [Int] = []
    var root = position
    while root < order.count {
      roots.append(root)
      root = order.subtreeEnd(of: root)
    }
    for root in roots.reversed() {
      stack.push(order.entry(at: root))
    }
  }

  /// Brings one node up to date in a stack walk, recording it when `recording` is set (and
  /// setting `recording` to `nil` when the order would grow past `maximumOrderCount`); returns
  /// whether it pushed its children.
  @inline(__always)
  func visit(
    _ node: DMResponder, from entry: UnretainedEntry, structureChanged: Bool, stack: UnsafeWalkStack,
    recording: inout UnsafeWalkOrder?
  ) -> Bool {
    // A callback may have moved the node or detached its parent since the entry was pushed.
    if structureChanged {
      guard entry.hasParent(node.traitParent) else { return false }
    }
    let inherited: DMTraitCollection
    var parentPosition: Int32 = -1
    if entry.hasParentNode {
      // Borrowed, not retained (see `UnretainedEntry`).
      guard
        let (parentTraits, position) = entry.withParent({ parent -> (DMTraitCollection, Int32)? in
          guard parent.isAttached, let traits = parent.reported else { return nil }
          return (traits, parent.walkPosition)
        })
      else { return false }
      inherited = parentTraits
      parentPosition = position
    } else {
      guard (node as? DMWindow)?.isVisible == true else { return false }
      inherited = propagatedGlobal
    }
    if let order = recording {
      if order.count < maximumOrderCount {
        node.walkPosition = order.append(node, parent: parentPosition)
      } else {
        // Too many environments to number: the walk goes on without recording.
        recording = nil
      }
    }
    guard update(node, inheriting: inherited) else { return false }
    node.appendTraitChildren(to: stack)
    return true
  }

  /// Brings one node that inherits `inherited` up to date: calls it if its resolved collection
  /// changed, sets its bindings if it was just attached; returns whether the walk goes on below it.
  @inline(__always)
  func update(_ node: DMResponder, inheriting inherited: DMTraitCollection) -> Bool {
    var traits = inherited
    if let applied = node.appliedOverride { traits = traits.resolved(under: applied) }
    let wasAttached = node.isAttached
    node.isAttached = true
    // Compared in place: a copy of the collection would retain its custom values.
    if node.reported != nil, isUnchanged(node.reported.unsafelyUnwrapped, traits) {
      if wasAttached { return walksWholeTree }
      // Just attached with the collection it last reported: no call, but its bindings may
      // have been set while it was away (for other traits) or their tables reloaded.
      if !node.bindings.isEmpty { refreshBindings(of: node, traits: traits) }
    } else {
      let previous = node.reported
      node.reported = traits
      // A change of the motion alone does not change colours (see `hasDifferentColorAppearance`).
      // Once one environment's colours changed, the others need not be compared.
      if !walkChangedColors, let previous, colorsDiffer(previous, traits) {
        walkChangedColors = true
      }
      deliver(to: node, previous: previous, traits: traits, wasAttached: wasAttached)
      return notifyAfterCall(node, previous: previous, current: traits)
    }
    return true
  }

  /// Calls the registrations of `node` after its own call changed it from `previous` to
  /// `current`, if the call left it where it was or in a visible window; returns whether the walk
  /// goes on below it (the call left it where it was).
  @inline(__always)
  func notifyAfterCall(_ node: DMResponder, previous: DMTraitCollection?, current: DMTraitCollection) -> Bool
  {
    guard node.isAttached else {
      // The callback moved the node (its new position is queued): its registrations are called
      // if it is still in a visible window.
      if let previous, hangsFromVisibleWindow(node) {
        node.notifyTraitObservers(previous: previous, current: current)
      }
      return false
    }
    if let previous { node.notifyTraitObservers(previous: previous, current: current) }
    return true
  }

  /// Whether `node` is in a visible window, or in a subtree just placed in one whose queued event
  /// has not walked it yet (see `isPlacedInVisibleWindow(_:)`).
  func hangsFromVisibleWindow(_ node: DMResponder) -> Bool {
    var current = node
    while let parent = current.traitParent {
      if parent.isAttached { return true }
      current = parent
    }
    return (current as? DMWindow)?.isVisible == true
  }

  /// Sets a node's bound properties again for `traits`, with its collection current; no call.
  ///
  /// A binding's setter may bind or unbind properties of this node meanwhile: the list read here
  /// is a copy, which keeps the storage it reads (see `BindingList.apply(to:traits:)`).
  @inline(__always)
  func refreshBindings(of node: DMResponder, traits: DMTraitCollection) {
    currentSlot.write(traits)
    let list = node.bindings
    list.apply(to: node, traits: traits)
  }

  /// Updates a node's bindings, then calls it, with its collection current; the walk then calls
  /// its registrations for the traits that changed, if the call left it in place.
  ///
  /// A change of custom traits that do not affect colours alone leaves the bindings of a node
  /// that stayed attached alone: they hold the values for `previous`. A node just attached may
  /// have had bindings set, or their tables reloaded, while it was away.
  @inline(__always)
  func deliver(
    to node: DMResponder, previous: DMTraitCollection?, traits: DMTraitCollection, wasAttached: Bool
  ) {
    guard let previous else {
      refreshBindings(of: node, traits: traits)
      return node.dmTraitCollectionDidChange(nil)
    }
    // The collections differ, so with the same custom traits, a built-in trait changed.
    if previous.custom === traits.custom || !wasAttached || previous.builtInTraitsDiffer(from: traits)
      || compareCustomTraits(previous.custom, traits.custom).colorsDiffer
    {
      refreshBindings(of: node, traits: traits)
    } else {
      currentSlot.write(traits)
    }
    node.dmTraitCollectionDidChange(previous)
  }

  /// Whether two sets of custom trait values are equal, and whether a trait that affects colours
  /// differs between them; remembered for the rest of the pass, in which every environment under
  /// a change of custom traits compares the same two sets (so a pass costs the same whatever the
  /// number of custom traits).
  @inline(__always)
  func compareCustomTraits(_ previous: CustomTraitValues?, _ current: CustomTraitValues?)
    -> (equal: Bool, colorsDiffer: Bool)
  {
    // Compared in place: a copy of the remembered comparison would retain both sets.
    if customComparison?.compares(previous, current) == true {
      return customComparison.unsafelyUnwrapped.result
    }
    return compareCustomTraitsAnew(previous, current)
  }

  @inline(never)
  private func compareCustomTraitsAnew(_ previous: CustomTraitValues?, _ current: CustomTraitValues?)
    -> (equal: Bool, colorsDiffer: Bool)
  {
    let equal = CustomTraits.equal(previous, current)
    let result = (equal: equal, colorsDiffer: !equal && CustomTraits.colorsDiffer(previous, current))
    customComparison = CustomComparison(previous: previous, current: current, result: result)
    return result
  }

  /// Whether an environment's collection is the same after a change as before it; custom traits
  /// are compared through `compareCustomTraits(_:_:)`, once a pass for the two sets every
  /// environment under a change compares.
  @inline(__always)
  func isUnchanged(_ previous: DMTraitCollection, _ current: DMTraitCollection) -> Bool {
    guard !previous.builtInTraitsDiffer(from: current) else { return false }
    return previous.custom === current.custom || compareCustomTraits(previous.custom, current.custom).equal
  }

  /// Whether colours resolved for `current` may differ from colours resolved for `previous`, as
  /// `DMTraitCollection.hasDifferentColorAppearance(comparedTo:)` tells, with custom traits
  /// compared through `compareCustomTraits(_:_:)`.
  func colorsDiffer(_ previous: DMTraitCollection, _ current: DMTraitCollection) -> Bool {
    previous.builtInColorsDiffer(from: current)
      || (previous.custom !== current.custom
        && compareCustomTraits(previous.custom, current.custom).colorsDiffer)
  }

  /// Whether `trait` differs between two collections, for a registration called in a pass: a
  /// custom trait compared between two sets is remembered for the rest of the pass, in which every
  /// registration under a change of custom traits compares the same two.
  func trait(_ trait: DMTrait, differsFrom previous: DMTraitCollection, to current: DMTraitCollection) -> Bool
  {
    guard case .custom(let identifier) = trait.kind, previous.custom !== current.custom else {
      return trait.differs(previous, current)
    }
    if let known = customTraitComparison, known.previous === previous.custom,
      known.current === current.custom,
      known.identifier == identifier
    {
      return known.differs
    }
    let differs = trait.differs(previous, current)
    customTraitComparison = CustomTraitComparison(
      identifier: identifier, previous: previous.custom, current: current.custom, differs: differs)
    return differs
  }

  /// Marks `node` and its attached descendants as outside any visible window. No calls.
  func detach(_ node: DMResponder) {
    detachStack.push(UnretainedEntry(node: node, parent: nil))
    while let entry = detachStack.pop() {
      entry.withNode { node in
        guard node.isAttached else { return }
        node.isAttached = false
        node.appendTraitChildren(to: detachStack)
      }
    }
  }

  // MARK: Resolution outside visible windows

  /// The collection of a node that is in no visible window (or not yet reached): its ancestors'
  /// overrides over the nearest attached ancestor, or over the global collection.
  ///
  /// Outside a pass, a walk of more than `checkpointSpacing` environments leaves checkpoints
  /// along the chain (see `DMResponder.Extras`), so that resolving every environment of a long
  /// chain costs a bounded walk each; any event makes them stale.
  func resolveDetached(_ node: DMResponder) -> DMTraitCollection {
    // A node on its own, with no override: a view being built, before it is added.
    if node.appliedOverride == nil, node.traitParent == nil { return propagatedGlobal }
    // During a pass, collections change as the walk goes: no checkpoints.
    let version = isRunning ? nil : resolutionVersion
    let sides = ThemeCatalog.generation
    var overrides: [DMTraitCollection] = []
    var base = propagatedGlobal
    var steps = 0
    var cursor: DMResponder? = node
    while let current = cursor {
      if current !== node, current.isAttached, let reported = current.reported {
        base = reported
        break
      }
      if let version, let extras = current.extras, extras.detachedVersion == version,
        extras.detachedSides == sides, let traits = extras.detachedTraits
      {
        base = traits
        break
      }
      if let applied = current.appliedOverride { overrides.append(applied) }
      steps += 1
      cursor = current.traitParent
    }
    let start = base
    for applied in overrides.reversed() { base = base.resolved(under: applied) }
    if let version, steps > Self.checkpointSpacing {
      placeCheckpoints(below: start, from: node, steps: steps, version: version, sides: sides)
    }
    return base
  }

  /// How many environments apart the checkpoints of a long chain are.
  static let checkpointSpacing = 32

  /// Stores the collection of every `checkpointSpacing`-th of the `steps` environments from
  /// `node` up, counted from the top, resolved over `start`.
  private func placeCheckpoints(
    below start: DMTraitCollection, from node: DMResponder, steps: Int, version: UInt64, sides: UInt64
  ) {
    var chain: [DMResponder] = []
    chain.reserveCapacity(steps)
    var cursor: DMResponder? = node
    while let current = cursor, chain.count < steps {
      chain.append(current)
      cursor = current.traitParent
    }
    var traits = start
    for (index, current) in chain.reversed().enumerated() {
      if let applied = current.appliedOverride { traits = traits.resolved(under: applied) }
      guard (index + 1).isMultiple(of: Self.checkpointSpacing), current !== node else { continue }
      current.extrasBox.detachedTraits = traits
      current.extrasBox.detachedVersion = version
      current.extrasBox.detachedSides = sides
    }
  }
}
