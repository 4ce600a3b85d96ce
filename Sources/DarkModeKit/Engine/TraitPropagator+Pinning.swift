/// What a pass borrows, and what keeps the borrowed objects alive until the pass ends.
extension TraitPropagator {
  /// One pending visit: a node and the parent it was reached from, neither retained.
  ///
  /// A walk touches every node it visits, and retaining each (and releasing it again) would cost
  /// more than the rest of the visit. Entries stay valid for a whole pass because nothing the
  /// tree holds can be freed before the pass ends: every structural change made meanwhile pins
  /// the node it moves (and with it the subtree below), and controllers, which the tree holds only
  /// weakly, are pinned when they are pushed. See ``pin(_:)``.
  ///
  /// A debug build checks the rule: each entry also holds its node weakly, and reading the node of
  /// an entry whose node was freed stops the program instead of reading freed memory.
  struct UnretainedEntry {
    private let unretainedNode: Unmanaged<DMResponder>
    private let unretainedParent: Unmanaged<DMResponder>?
    #if DEBUG
      private weak var liveNode: DMResponder?
      private weak var liveParent: DMResponder?
    #endif

    @inline(__always)
    init(node: DMResponder, parent: DMResponder?) {
      unretainedNode = Unmanaged.passUnretained(node)
      unretainedParent = parent.map { Unmanaged.passUnretained($0) }
      #if DEBUG
        liveNode = node
        liveParent = parent
      #endif
    }

    @inline(__always)
    init(node: Unmanaged<DMResponder>, parent: Unmanaged<DMResponder>) {
      unretainedNode = node
      unretainedParent = parent
      #if DEBUG
        liveNode = node.takeUnretainedValue()
        liveParent = parent.takeUnretainedValue()
      #endif
    }

    /// The node, not retained; valid while the pass runs (see above). Others borrow it through
    /// ``withNode(_:)``.
    @inline(__always)
    private var node: Unmanaged<DMResponder> {
      #if DEBUG
        assert(liveNode != nil, "a walk entry outlived its node: a change during the pass did not pin it")
      #endif
      return unretainedNode
    }

    /// The parent the entry was pushed from, not retained; valid while the pass runs.
    @inline(__always)
    private var parent: Unmanaged<DMResponder>? {
      #if DEBUG
        assert(
          unretainedParent == nil || liveParent != nil,
          "a walk entry outlived its parent: a change during the pass did not pin it")
      #endif
      return unretainedParent
    }

    /// Runs `body` with the node, borrowed: neither retained nor released.
    @inline(__always)
    func withNode<Result>(_ body: (DMResponder) -> Result) -> Result {
      node.borrow(body)
    }

    /// Whether the entry was pushed from a parent (a window's own entry is not).
    @inline(__always)
    var hasParentNode: Bool { unretainedParent != nil }

    /// Runs `body` with the parent, borrowed, and returns what it returns, or `nil` for an entry
    /// with no parent.
    @inline(__always)
    func withParent<Result>(_ body: (DMResponder) -> Result?) -> Result? {
      parent.flatMap { $0.borrow(body) }
    }

    /// Stops the program when the entry's node or parent was freed: a debug build checks that
    /// through its weak copies (any other build cannot tell, and checks nothing).
    func checkInvariants() {
      InternalChecks.counted()
      _ = node
      _ = parent
    }

    /// Whether `candidate` is the parent the entry was pushed from, comparing identities only.
    @inline(__always)
    func hasParent(_ candidate: DMResponder?) -> Bool {
      candidate.map { Unmanaged.passUnretained($0).toOpaque() } == unretainedParent?.toOpaque()
    }
  }

  /// Keeps `node` alive until the running pass ends, so that walk entries for it or for nodes
  /// below it stay valid while a callback moves it; nothing outside a pass.
  func pin(_ node: DMResponder) {
    if isRunning { pinned.append(node) }
  }
}
