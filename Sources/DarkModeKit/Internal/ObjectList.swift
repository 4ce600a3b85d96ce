/// How an ``ObjectList`` keeps its elements: the placeholder that fills the place of a removed
/// element, and where each element remembers its place.
@MainActor
protocol ObjectListKind {
  associatedtype Element: AnyObject
  /// An object of the element type that is never in a list, put where an element was removed.
  static var hole: Element { get }
  /// Where `element` was put in the list it is in.
  static func position(of element: Element) -> Int
  static func setPosition(_ position: Int, of element: Element)
}

/// The list of a hierarchy's children (subviews, child controllers, visible windows): in order,
/// with removals in constant time from anywhere.
///
/// Each element remembers its place. Removing the last element shortens the list; removing any
/// other puts ``ObjectListKind/hole`` in its place (the element is released at once) and leaves
/// the others where they are, until holes make up half the list or the list is read as an array,
/// when the holes are squeezed out in one pass that tells each element its new place. An
/// insertion before the end moves the elements after it; their places are told again, in one
/// pass, when one of them is next removed. So removing
/// every element one by one, from either end or in any order, costs time in proportion to their
/// number. Main-actor state, like the hierarchy.
@MainActor
struct ObjectList<Kind: ObjectListKind> {
  typealias Element = Kind.Element

  /// The elements and the holes, in order.
  private(set) var storage: [Element] = []
  /// The number of holes, and in the top bit whether places may be stale (see
  /// `placesAreExact`): one word, so that a view's fields take no more room than they need.
  private var bits: UInt32 = 0
  private static var staleBit: UInt32 { 1 << 31 }

  private var holes: Int32 {
    get { Int32(bitPattern: bits & ~Self.staleBit) }
    set { bits = bits & Self.staleBit | UInt32(bitPattern: newValue) }
  }

  /// Whether every element's remembered place is where it is: an insertion before the end moves
  /// the elements after it, whose places are then set again when one is next looked for.
  private var placesAreExact: Bool {
    get { bits & Self.staleBit == 0 }
    set { bits = newValue ? bits & ~Self.staleBit : bits | Self.staleBit }
  }

  nonisolated init() {}

  /// The elements, in order, without holes.
  var elements: [Element] {
    mutating get {
      if holes > 0 { squeeze() }
      return storage
    }
  }

  /// Whether the list has no element.
  var isEmpty: Bool { storage.count == Int(holes) }

  /// How many elements the list has.
  var count: Int { storage.count - Int(holes) }

  /// Adds `element` at `index` of ``elements``, clamped to the valid range; at the end without
  /// touching the holes.
  mutating func insert(_ element: Element, at index: Int) {
    if index >= count {
      Kind.setPosition(storage.count, of: element)
      storage.append(element)
      return
    }
    if holes > 0 { squeeze() }
    let position = Swift.max(index, 0)
    storage.insert(element, at: position)
    Kind.setPosition(position, of: element)
    // The elements after it moved one place.
    placesAreExact = false
  }

  /// Removes `element`, compared by identity; returns whether it was in the list.
  @discardableResult
  mutating func remove(_ element: Element) -> Bool {
    if !placesAreExact, !isAtItsPlace(element) { renumber() }
    guard let position = position(of: element) else { return false }
    if position == storage.count - 1 {
      storage.removeLast()
      while holes > 0, let last = storage.last, last === Kind.hole {
        storage.removeLast()
        holes -= 1
      }
    } else {
      storage[position] = Kind.hole
      holes += 1
      if Int(holes) * 2 > storage.count { squeeze() }
    }
    return true
  }

  /// Whether removed elements left holes in ``storage``; walks that read ``storage`` skip them.
  var hasHoles: Bool { holes > 0 }

  /// Empties the list and returns its elements.
  mutating func takeAll() -> [Element] {
    defer {
      storage = []
      holes = 0
    }
    return elements
  }

  /// The place of `element` in ``storage``: where it remembers, else a search, down from there
  /// first, comparing addresses without retaining.
  private func position(of element: Element) -> Int? {
    let target = ObjectIdentifier(element)
    let start = Kind.position(of: element)
    return storage.withUnsafeBufferPointer { buffer -> Int? in
      guard !buffer.isEmpty else { return nil }
      func isTarget(_ index: Int) -> Bool { ObjectIdentifier(buffer[index]) == target }
      var index = Swift.min(Swift.max(start, 0), buffer.count - 1)
      let first = index
      while index >= 0 {
        if isTarget(index) { return index }
        index -= 1
      }
      index = first + 1
      while index < buffer.count {
        if isTarget(index) { return index }
        index += 1
      }
      return nil
    }
  }

  /// Whether `element` is at the place it remembers.
  private func isAtItsPlace(_ element: Element) -> Bool {
    let place = Kind.position(of: element)
    return storage.indices.contains(place) && storage[place] === element
  }

  /// Takes the holes out, telling each element its new place.
  private mutating func squeeze() {
    let hole = ObjectIdentifier(Kind.hole)
    storage.removeAll { ObjectIdentifier($0) == hole }
    holes = 0
    renumber()
  }

  /// Tells each element its place.
  private mutating func renumber() {
    for (position, element) in storage.enumerated() { Kind.setPosition(position, of: element) }
    placesAreExact = true
  }
}
