/// The explicit stack of a walk: it keeps its room from pass to pass, and pushes and pops without
/// the checks an array makes on each (that it alone holds its storage, that an index is in range),
/// which a walk would make for every node.
///
/// Its invariant: it owns `capacity` entries of memory at `base`, the first `count` initialized and
/// none above; `checkInvariants()` checks it (see `InternalChecks`).
@MainActor
final class UnsafeWalkStack {
  typealias UnretainedEntry = TraitPropagator.UnretainedEntry

  private(set) var count = 0
  private var capacity = 256
  private var base: UnsafeMutablePointer<UnretainedEntry>

  init() {
    base = .allocate(capacity: capacity)
  }

  isolated deinit {
    base.deinitialize(count: count)
    base.deallocate()
  }

  @inline(__always)
  func push(_ entry: UnretainedEntry) {
    if count == capacity { grow() }
    (base + count).initialize(to: entry)
    count &+= 1
    #if DARKMODEKIT_INTERNAL_CHECKS
      checkInvariants()
    #endif
  }

  @inline(__always)
  func pop() -> UnretainedEntry? {
    guard count > 0 else { return nil }
    count &-= 1
    #if DARKMODEKIT_INTERNAL_CHECKS
      defer { checkInvariants() }
    #endif
    return (base + count).move()
  }

  /// Pushes an entry for each subview of `parent`, the last first, with `parent` as the parent,
  /// skipping the holes of its list (``SubviewList/hole``). The root view of a controller is
  /// replaced by its controller, which the tree holds only weakly and which is pinned for the pass
  /// (see `TraitPropagator.pin(_:)`).
  ///
  /// Neither the views nor `parent` are retained, for the entries or to read them: the list is read
  /// where it lies, and holds the views while this runs; the rules of `UnretainedEntry` keep them
  /// afterwards.
  @inline(__always)
  func pushSubviews(of parent: DMView) {
    let unretainedParent = Unmanaged<DMResponder>.passUnretained(parent)
    let skippingHoles = parent.subviewList.hasHoles
    var index = parent.subviewList.storage.count
    while index > 0 {
      index -= 1
      unowned(unsafe) let view = parent.subviewList.storage[index]
      if skippingHoles, view === SubviewList.hole { continue }
      if view.isRootViewOfController, let controller = view.owningController {
        TraitPropagator.shared.pin(controller)
        push(UnretainedEntry(node: controller, parent: parent))
      } else {
        push(UnretainedEntry(node: Unmanaged.passUnretained(view), parent: unretainedParent))
      }
    }
  }

  /// Empties the stack, keeping its room.
  func removeAll() {
    base.deinitialize(count: count)
    count = 0
    #if DARKMODEKIT_INTERNAL_CHECKS
      checkInvariants()
    #endif
  }

  @inline(never)
  private func grow() {
    let larger = UnsafeMutablePointer<UnretainedEntry>.allocate(capacity: capacity * 2)
    larger.moveInitialize(from: base, count: count)
    base.deallocate()
    base = larger
    capacity *= 2
  }

  /// Stops the program when the stack's invariants do not hold: its count within its room, which
  /// is what it started with doubled some times, and the entry on top of a live node and parent
  /// (a debug build checks that through the entry's weak copies).
  func checkInvariants() {
    InternalChecks.counted()
    precondition(count >= 0 && count <= capacity, "a walk stack's count is outside its room")
    precondition(capacity >= 256 && capacity.nonzeroBitCount == 1, "a walk stack's room was not doubled")
    if count > 0 { base[count - 1].checkInvariants() }
  }
}
