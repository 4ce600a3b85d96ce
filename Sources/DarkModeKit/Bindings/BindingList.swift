/// One bound property: its key path, the dynamic value it follows, where it lives in the object,
/// and a function that sets it for a trait collection.
///
/// The function is made by the inlinable `DMBindings.bind` at the call site, where the root and
/// value types are known, so that resolving and storing are specialized for them; it captures
/// nothing, so a binding is these few words in its object's list and nothing more.
@MainActor
@usableFromInline
struct Binding {
  /// Sets the property of `object` to `source` resolved for `traits`; the references are
  /// borrowed for the call, not retained.
  @usableFromInline
  typealias Store =
    @MainActor (
      _ object: AnyObject, _ source: Unmanaged<AnyObject>, _ offset: Int,
      _ keyPath: Unmanaged<AnyKeyPath>, _ traits: DMTraitCollection
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
}

/// The bindings of one object, at most one per key path, in the order they were made.
@MainActor
struct BindingList {
  private var entries: [Binding] = []

  var isEmpty: Bool { entries.isEmpty }

  mutating func set(_ binding: Binding) {
    retireStorageIfApplying()
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
    retireStorageIfApplying()
    entries.removeAll { $0.keyPath == keyPath }
  }

  func contains(_ keyPath: AnyKeyPath) -> Bool {
    entries.contains { $0.keyPath == keyPath }
  }

  /// Sets every bound property of `object` for `traits`.
  ///
  /// The bindings are read in place, without retaining what they refer to: a pass sets the
  /// properties of every environment it reaches, and reference counting would cost more than the
  /// setting. A setter may still bind or unbind properties of `object` meanwhile: while a pass
  /// runs, a list that changes first hands its old storage to the propagator, which keeps it
  /// until the pass ends (see ``retireStorageIfApplying()``).
  @inline(__always)
  func apply(to object: AnyObject, traits: DMTraitCollection) {
    entries.withElementsInPlace { buffer in
      for index in buffer.indices {
        let binding = buffer.baseAddress.unsafelyUnwrapped + index
        binding.pointee.store(
          object, Unmanaged.passUnretained(binding.pointee.source), binding.pointee.offset,
          Unmanaged.passUnretained(binding.pointee.keyPath), traits)
      }
    }
  }

  /// While a pass runs, hands the current storage to the propagator before it changes, so that
  /// an ``apply(to:traits:)`` reading it in place finds it intact.
  private mutating func retireStorageIfApplying() {
    TraitPropagator.shared.keepUntilPassEnds(entries)
  }
}
