/// The bindings of one object, at most one per key path, in the order they were made.
///
/// The bindings live in one immutable, tail-allocated ``BindingStorage``: binding or unbinding
/// builds a new one of exactly the new size (most objects bind a few properties once), so a list
/// has value semantics without copy-on-write checks, and a pass can read a list in place while a
/// setter changes it.
@MainActor
struct BindingList {
  private var storage: BindingStorage?

  nonisolated init() {}

  var isEmpty: Bool { storage == nil }

  mutating func set(_ binding: Binding) {
    let old = storage
    let oldCount = old?.count ?? 0
    let index = old?.index(of: binding.keyPath)
    replaceStorage(
      with: BindingStorage.make(count: index == nil ? oldCount + 1 : oldCount) { elements in
        for position in 0..<oldCount {
          (elements + position).initialize(to: position == index ? binding : old.unsafelyUnwrapped[position])
        }
        if index == nil { (elements + oldCount).initialize(to: binding) }
      })
  }

  mutating func remove(_ keyPath: AnyKeyPath) {
    guard let old = storage, let index = old.index(of: keyPath) else { return }
    let count = old.count - 1
    replaceStorage(
      with: count == 0
        ? nil
        : BindingStorage.make(count: count) { elements in
          for position in 0..<count {
            (elements + position).initialize(to: old[position < index ? position : position + 1])
          }
        })
  }

  func contains(_ keyPath: AnyKeyPath) -> Bool {
    storage?.index(of: keyPath) != nil
  }

  /// Whether the binding of `keyPath` writes its value straight into the object; `nil` when the
  /// key path is not bound. For tests.
  func writesInPlace(_ keyPath: AnyKeyPath) -> Bool? {
    guard let storage, let index = storage.index(of: keyPath) else { return nil }
    return storage[index].property.offset >= 0
  }

  /// Sets every bound property of `object` for `traits`.
  ///
  /// The bindings are read in place, without retaining the storage or what the bindings refer
  /// to: a pass sets the properties of every environment it reaches, and reference counting would
  /// cost more than the setting. A setter may still bind or unbind properties of `object`
  /// meanwhile: the list then gets new storage, and the propagator keeps the old one until the
  /// pass ends (see `replaceStorage(with:)`).
  ///
  /// The rule: only a pass reads a list in place, because only a pass keeps a replaced list alive
  /// until it is done with it. A debug build checks it.
  @inline(__always)
  func apply(to object: AnyObject, traits: DMTraitCollection) {
    assert(TraitPropagator.shared.isRunning, "bindings are read in place only during a pass")
    let unretained: Unmanaged<BindingStorage>
    if let storage { unretained = .passUnretained(storage) } else { return }
    unretained.borrow { storage in
      storage.withElements { elements, count in
        for index in 0..<count {
          let binding = elements + index
          let source = Unmanaged.passUnretained(binding.pointee.source)
          Unmanaged.passUnretained(binding.pointee.property).borrow { property in
            property.store(
              object, source, property.offset, Unmanaged.passUnretained(property.keyPath), traits)
          }
        }
      }
    }
  }

  /// Puts `new` in place of the current storage, which a running pass may still be reading: the
  /// propagator keeps it until the pass ends.
  private mutating func replaceStorage(with new: BindingStorage?) {
    if let old = storage { TraitPropagator.shared.keepUntilPassEnds(old) }
    storage = new
  }
}

/// A binding list's bindings, with their count, in one allocation; never changed once made.
final class BindingStorage: ManagedBuffer<Int, Binding> {
  /// Makes storage for `count` bindings; `initialize` must initialize all of them.
  static func make(
    count: Int, _ initialize: (UnsafeMutablePointer<Binding>) -> Void
  ) -> BindingStorage {
    let storage = unsafeDowncast(
      BindingStorage.create(minimumCapacity: count) { _ in count }, to: BindingStorage.self)
    storage.withUnsafeMutablePointerToElements(initialize)
    return storage
  }

  var count: Int { header }

  subscript(position: Int) -> Binding {
    withUnsafeMutablePointerToElements { $0[position] }
  }

  @MainActor
  func index(of keyPath: AnyKeyPath) -> Int? {
    withElements { elements, count in
      (0..<count).first { elements[$0].keyPath == keyPath }
    }
  }

  /// Runs `body` with the bindings in place and their count.
  ///
  /// Not isolated, so that a closure handed to it from main-actor code is not checked for
  /// running on the main actor each time it is called.
  @inline(__always)
  func withElements<Result>(_ body: (UnsafeMutablePointer<Binding>, Int) -> Result) -> Result {
    withUnsafeMutablePointers { count, elements in body(elements, count.pointee) }
  }

  deinit {
    withUnsafeMutablePointers { count, elements in _ = elements.deinitialize(count: count.pointee) }
  }
}
