/// The explicit stack of a walk: it keeps its room from pass to pass, and pushes and pops without
/// the checks an array makes on each (that it alone holds its storage, that an index is in range),
/// which a walk would make for every node.
///
/// Main-actor state that no access holds across a call: its fields skip dynamic exclusivity
/// checks.
@MainActor
final class WalkStack {
  typealias Entry = TraitPropagator.Entry

  @exclusivity(unchecked) private(set) var count = 0
  @exclusivity(unchecked) private var capacity = 256
  @exclusivity(unchecked) private var base: UnsafeMutablePointer<Entry>

  init() {
    base = .allocate(capacity: capacity)
  }

  isolated deinit {
    base.deinitialize(count: count)
    base.deallocate()
  }

  @inline(__always)
  func push(_ entry: Entry) {
    if count == capacity { grow() }
    (base + count).initialize(to: entry)
    count &+= 1
  }

  @inline(__always)
  func pop() -> Entry? {
    guard count > 0 else { return nil }
    count &-= 1
    return (base + count).move()
  }

  /// Empties the stack, keeping its room.
  func removeAll() {
    base.deinitialize(count: count)
    count = 0
  }

  @inline(never)
  private func grow() {
    let larger = UnsafeMutablePointer<Entry>.allocate(capacity: capacity * 2)
    larger.moveInitialize(from: base, count: count)
    base.deallocate()
    base = larger
    capacity *= 2
  }
}
