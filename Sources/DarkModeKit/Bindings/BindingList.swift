/// One bound property: its key path, the dynamic value it follows, where it lives in the object,
/// and a function that sets it for a trait collection.
///
/// The function is made by the inlinable `DMBindings.bind` at the call site, where the root and
/// value types are known, so that resolving and storing are specialized for them; it captures
/// nothing, so a binding is these few words in its object's list and nothing more.
@MainActor
@usableFromInline
struct Binding {
  @usableFromInline
  typealias Store =
    @MainActor (
      _ object: AnyObject, _ source: AnyObject, _ offset: Int, _ keyPath: AnyKeyPath,
      _ traits: DMTraitCollection
    ) -> Void

  let keyPath: AnyKeyPath
  /// The dynamic value's storage.
  let source: AnyObject
  /// The stored property's offset in the object, or -1 to write through the key path.
  let offset: Int
  let store: Store

  @usableFromInline
  init(keyPath: AnyKeyPath, source: AnyObject, offset: Int, store: @escaping Store) {
    self.keyPath = keyPath
    self.source = source
    self.offset = offset
    self.store = store
  }

  /// Sets the property of `object` (of the binding's root type) for `traits`.
  @inline(__always)
  func apply(_ object: AnyObject, _ traits: DMTraitCollection) {
    store(object, source, offset, keyPath, traits)
  }
}

/// The bindings of one object, at most one per key path, in the order they were made.
@MainActor
struct BindingList {
  private var entries: [Binding] = []

  var isEmpty: Bool { entries.isEmpty }

  mutating func set(_ binding: Binding) {
    if let index = entries.firstIndex(where: { $0.keyPath == binding.keyPath }) {
      entries[index] = binding
    } else {
      // Grow to exactly the new count: most objects bind a few properties once, and doubling
      // would leave a quarter of the list's memory unused.
      entries.reserveCapacity(entries.count + 1)
      entries.append(binding)
    }
  }

  mutating func remove(_ keyPath: AnyKeyPath) {
    entries.removeAll { $0.keyPath == keyPath }
  }

  func contains(_ keyPath: AnyKeyPath) -> Bool {
    entries.contains { $0.keyPath == keyPath }
  }

  func apply(to object: AnyObject, traits: DMTraitCollection) {
    for binding in entries { binding.apply(object, traits) }
  }
}
