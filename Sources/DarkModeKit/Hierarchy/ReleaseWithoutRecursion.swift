/// Lets go of `nodes` and of the trees below them that nothing else holds, one node at a time.
///
/// Released one inside the other, a deep tree would nest a deinitializer per level and overflow
/// the stack (at about 40,000 levels). Here the children of each node about to be freed are taken
/// out of it first (`takeChildren` empties the node's list and returns it), so that its
/// deinitializer returns at once, and they join the loop instead.
@MainActor
func releaseWithoutRecursion<Node: AnyObject>(_ nodes: consuming [Node], takeChildren: (Node) -> [Node]) {
  // Consumed, so that no other array holds the nodes and the check below can see a last reference.
  var pending = consume nodes
  while var node = pending.popLast() {
    // Only `node` holds it: it is freed at the end of this iteration, without its children.
    if isKnownUniquelyReferenced(&node) { pending.append(contentsOf: takeChildren(node)) }
  }
}
