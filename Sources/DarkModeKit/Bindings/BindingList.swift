/// One bound property: its key path, and a closure that sets it for a trait collection.
///
/// The closure is made by the inlinable `DMBindings.bind` at the call site, where the root and
/// value types are known, so that resolving and storing are specialized for them.
@MainActor
@usableFromInline
struct Binding {
  let keyPath: AnyKeyPath
  /// Sets the property of an object of the binding's root type for a trait collection.
  let apply: @MainActor (AnyObject, DMTraitCollection) -> Void

  @usableFromInline
  init(keyPath: AnyKeyPath, apply: @escaping @MainActor (AnyObject, DMTraitCollection) -> Void) {
    self.keyPath = keyPath
    self.apply = apply
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
