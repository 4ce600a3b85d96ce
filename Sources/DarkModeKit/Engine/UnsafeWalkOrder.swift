/// The environments of a visible window in the order a walk visits them, each with the position
/// of the one it inherits from: a walk over an unchanged structure runs through it as a flat list
/// instead of pushing and popping every node's children.
///
/// A walk from the window that visits every environment, with no structural change meanwhile,
/// records it (see `TraitPropagator.walk(from:)`); any structural change anywhere makes it stale
/// (see `isCurrent`), and the next complete walk records it again.
///
/// Positions are in visit order (parents before children, each subtree in one run), so that
/// the environments below position `i` are the run after it whose parents are at `i` or later.
///
/// Nodes are not retained, as in a walk's entries (see `TraitPropagator.UnretainedEntry`): while the
/// structure is unchanged the tree holds every view, and a walk keeps each controller alive once
/// it goes into the controller's parent (see `pinControllers(below:from:in:)`). A debug build also
/// holds each node weakly and stops the program on reading one that was freed.
///
/// Its invariants, which `checkInvariants()` checks (see `InternalChecks`): it owns `capacity` slots
/// at `nodes` and at `parents`, the first `count` of each initialized; each node's parent comes
/// before it; each controller's entry names a node of the order and that node's parent; and once
/// made, each subtree's end comes after its node and within the order.
@MainActor
final class UnsafeWalkOrder {
  /// The propagator's `structureVersion` when the order was recorded.
  private(set) var version: UInt64

  /// How many nodes the order holds.
  private(set) var count = 0
  private var capacity: Int
  // Kept in buffers of its own, as `UnsafeWalkStack`, so that a walk reads them without the checks an
  // array makes on each access.
  private var nodes: UnsafeMutablePointer<Unmanaged<DMResponder>>
  /// The position of each node's trait parent; `-1` for the window.
  private var parents: UnsafeMutablePointer<Int32>
  /// Where each node's subtree ends, once a walk needed one (see `subtreeEnd(of:)`).
  private var ends: UnsafeMutablePointer<Int32>?
  /// The view controllers, which the tree holds only weakly: each one's position and its
  /// parent's, in the order of the parents' positions once the order is recorded (see
  /// `pinControllers(below:from:in:)`).
  private var controllers: [(parent: Int32, position: Int32)] = []
  #if DEBUG
    private var liveNodes: [Weak] = []
    private struct Weak { weak var node: DMResponder? }
  #endif

  init(version: UInt64, capacity: Int) {
    self.version = version
    self.capacity = max(capacity, 1)
    nodes = .allocate(capacity: self.capacity)
    parents = .allocate(capacity: self.capacity)
  }

  isolated deinit {
    nodes.deallocate()
    parents.deallocate()
    ends?.deallocate()
  }

  /// Whether no structural change was made since the order was recorded.
  @inline(__always)
  func isCurrent(_ structureVersion: UInt64) -> Bool {
    version == structureVersion
  }

  /// Appends `node`, whose trait parent is at `parent` (`-1` for none), and returns its
  /// position; the caller keeps the count within `Int32.max` (see
  /// `TraitPropagator.maximumOrderCount`).
  func append(_ node: DMResponder, parent: Int32) -> Int32 {
    assert(ends == nil, "a walk order grew after a walk used it")
    precondition(count < Int(Int32.max), "a walk order past 32-bit positions")
    if count == capacity { grow() }
    let position = Int32(truncatingIfNeeded: count)
    (nodes + count).initialize(to: .passUnretained(node))
    (parents + count).initialize(to: parent)
    count &+= 1
    if node is DMViewController { controllers.append((parent, position)) }
    #if DEBUG
      liveNodes.append(Weak(node: node))
    #endif
    #if DARKMODEKIT_INTERNAL_CHECKS
      checkInvariants(from: count - 1)
    #endif
    return position
  }

  @inline(never)
  private func grow() {
    let larger = capacity * 2
    let largerNodes = UnsafeMutablePointer<Unmanaged<DMResponder>>.allocate(capacity: larger)
    largerNodes.moveInitialize(from: nodes, count: count)
    nodes.deallocate()
    nodes = largerNodes
    let largerParents = UnsafeMutablePointer<Int32>.allocate(capacity: larger)
    largerParents.moveInitialize(from: parents, count: count)
    parents.deallocate()
    parents = largerParents
    capacity = larger
  }

  /// Runs `body` with the node at `position`, borrowed: neither retained nor released; valid while
  /// the order is current and a pass runs.
  @inline(__always)
  func withNode<Result>(at position: Int, _ body: (DMResponder) -> Result) -> Result {
    node(at: position).borrow(body)
  }

  /// An entry for the node at `position` and its parent, as the stack walk would push it.
  func entry(at position: Int) -> TraitPropagator.UnretainedEntry {
    TraitPropagator.UnretainedEntry(node: node(at: position), parent: node(at: parent(at: position)))
  }

  /// The node at `position`, not retained; valid while the order is current and a pass runs.
  @inline(__always)
  private func node(at position: Int) -> Unmanaged<DMResponder> {
    assert(position >= 0 && position < count, "a position outside the walk order")
    #if DEBUG
      assert(liveNodes[position].node != nil, "a walk order outlived one of its nodes")
    #endif
    return nodes[position]
  }

  /// The position of the trait parent of the node at `position`; `-1` for the window.
  @inline(__always)
  func parent(at position: Int) -> Int {
    assert(position >= 0 && position < count, "a position outside the walk order")
    return Int(parents[position])
  }

  /// The position after the subtree of the node at `position`.
  ///
  /// Worked out for every node the first time a walk skips a subtree or falls back to the stack
  /// (a window that never does keeps no room for them): a node's subtree ends where the last of its
  /// children's ends, and children come after their parent, so one pass from the last node back
  /// gives every end.
  func subtreeEnd(of position: Int) -> Int {
    assert(position >= 0 && position < count, "a position outside the walk order")
    if ends == nil {
      let made = UnsafeMutablePointer<Int32>.allocate(capacity: max(count, 1))
      for index in 0..<count { (made + index).initialize(to: Int32(truncatingIfNeeded: index + 1)) }
      var index = count - 1
      while index > 0 {
        let parent = Int(parents[index])
        if parent >= 0, made[parent] < made[index] { made[parent] = made[index] }
        index -= 1
      }
      ends = made
      #if DARKMODEKIT_INTERNAL_CHECKS
        checkInvariants()
      #endif
    }
    return Int(ends.unsafelyUnwrapped[position])
  }

  /// Empties the order, keeping its room, for a recording of `version`: the propagator records
  /// every walk into one order of its own, and copies only a complete one for its window.
  func restart(version: UInt64) {
    assert(ends == nil, "the recording order was walked")
    self.version = version
    count = 0
    controllers.removeAll(keepingCapacity: true)
    #if DEBUG
      liveNodes.removeAll(keepingCapacity: true)
    #endif
    #if DARKMODEKIT_INTERNAL_CHECKS
      checkInvariants()
    #endif
  }

  /// Empties the order and lets go of room beyond `limit` nodes, so that recording a large window
  /// once does not keep twice its order's memory.
  func shrink(to limit: Int) {
    guard capacity > limit else { return }
    nodes.deallocate()
    nodes = .allocate(capacity: limit)
    parents.deallocate()
    parents = .allocate(capacity: limit)
    capacity = limit
    count = 0
    controllers = []
    #if DEBUG
      liveNodes = []
    #endif
    #if DARKMODEKIT_INTERNAL_CHECKS
      checkInvariants()
    #endif
  }

  /// A copy of this recording, of its size, with the controllers in the order of their parents'
  /// positions, as a walk reaches the parents.
  func finished() -> UnsafeWalkOrder {
    let copy = UnsafeWalkOrder(version: version, capacity: count)
    copy.nodes.initialize(from: nodes, count: count)
    copy.parents.initialize(from: parents, count: count)
    copy.count = count
    copy.controllers = controllers.sorted { ($0.parent, $0.position) < ($1.parent, $1.position) }
    #if DEBUG
      copy.liveNodes = liveNodes
    #endif
    #if DARKMODEKIT_INTERNAL_CHECKS
      copy.checkInvariants()
    #endif
    return copy
  }

  /// Keeps the controllers whose parent is at `parent` alive until the running pass ends, as the
  /// stack walk does when it pushes a view's children, and tells whether each is still the
  /// controller of its view. `cursor` is where the controllers of the parents after the ones a
  /// walk has reached begin; a walk reaches parents in the order of their positions.
  ///
  /// Each controller is reached through its root view, which its parent holds, with a weak load:
  /// one that was freed, or is being freed, reads as none, and its recorded position is not read.
  ///
  /// - Returns: `false` when a controller is no longer its view's: the order no longer describes
  ///   the tree, and the walk must go on without it.
  @inline(__always)
  func pinControllers(below parent: Int, from cursor: inout Int, in propagator: TraitPropagator) -> Bool {
    // Most nodes have no controller below them: one comparison.
    guard parent >= firstControllerParent(from: cursor) else { return true }
    return pinControllersFound(below: parent, from: &cursor, in: propagator)
  }

  /// The position of the parent of the controller at `cursor` (see
  /// `pinControllers(below:from:in:)`), or `Int.max` when none is left: no node before it has
  /// controllers below it that a walk has not kept.
  @inline(__always)
  func firstControllerParent(from cursor: Int) -> Int {
    cursor < controllers.count ? Int(controllers[cursor].parent) : Int.max
  }

  @inline(never)
  private func pinControllersFound(below parent: Int, from cursor: inout Int, in propagator: TraitPropagator)
    -> Bool
  {
    let parent = Int32(truncatingIfNeeded: parent)
    while cursor < controllers.count, controllers[cursor].parent < parent { cursor += 1 }
    while cursor < controllers.count, controllers[cursor].parent == parent {
      let position = Int(controllers[cursor].position)
      cursor += 1
      // A controller's only child is its root view, right after it.
      guard position + 1 < count, parents[position + 1] == Int32(truncatingIfNeeded: position) else {
        return false
      }
      unowned(unsafe) let view = node(at: position + 1).takeUnretainedValue()
      guard let controller = (view as? DMView)?.owningController,
        Unmanaged.passUnretained(controller).toOpaque() == nodes[position].toOpaque()
      else { return false }
      propagator.pin(controller)
    }
    return true
  }

  /// Stops the program when the order's invariants do not hold (see the type's documentation), for
  /// the nodes and controllers at positions from `start` on; the subtree ends are checked whole.
  func checkInvariants(from start: Int = 0) {
    InternalChecks.counted()
    precondition(count >= 0 && count <= capacity, "a walk order's count is outside its room")
    for position in max(start, 0)..<count {
      let parent = Int(parents[position])
      precondition(parent >= -1 && parent < position, "a walk order's node comes before its parent")
    }
    for controller in controllers.reversed() {
      if Int(controller.position) < start { break }
      precondition(
        controller.position >= 0 && Int(controller.position) < count
          && parents[Int(controller.position)] == controller.parent,
        "a walk order's controller entry names no node of the order")
    }
    if let ends {
      for position in 0..<count {
        precondition(
          Int(ends[position]) > position && Int(ends[position]) <= count,
          "a walk order's subtree ends outside the order")
      }
    }
  }
}
