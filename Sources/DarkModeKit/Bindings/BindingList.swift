/// One bound property: how to set it, and the dynamic value it follows. Two words.
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

  let property: BoundProperty
  /// The dynamic value's storage.
  let source: AnyObject

  var keyPath: AnyKeyPath { property.keyPath }
}

/// How one property is set on objects of one class: its key path, where it lives in the object,
/// and a function that sets it. Every binding of that property on objects of that class shares
/// one, so that a binding costs two words in its object's list.
///
/// The function is made by the inlinable `DMBindings.bind` at the call site, where the root and
/// value types are known, so that resolving and storing are specialized for them; it captures
/// nothing.
@MainActor
final class BoundProperty {
  let keyPath: AnyKeyPath
  /// The stored property's offset in the object, or -1 to write through the key path.
  let offset: Int
  let store: Binding.Store

  private init(keyPath: AnyKeyPath, offset: Int, store: @escaping Binding.Store) {
    self.keyPath = keyPath
    self.offset = offset
    self.store = store
  }

  private struct Key: Hashable {
    let keyPath: AnyKeyPath
    let objectType: ObjectIdentifier
    let offset: Int
  }

  /// Every property bound so far; as many as the program has bound properties, never removed.
  /// A key path with subscript arguments keeps them alive here, so a program that binds through
  /// ever new subscript arguments (`\.[token]`) grows this table.
  private static var known: [Key: BoundProperty] = [:]

  /// The shared description of `keyPath` on objects of `objectType`, made on first use.
  static func shared(
    keyPath: AnyKeyPath, objectType: AnyObject.Type, offset: Int, store: @escaping Binding.Store
  ) -> BoundProperty {
    let key = Key(keyPath: keyPath, objectType: ObjectIdentifier(objectType), offset: offset)
    if let property = known[key] { return property }
    let property = BoundProperty(keyPath: keyPath, offset: offset, store: store)
    known[key] = property
    return property
  }
}

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
  @inline(__always)
  func apply(to object: AnyObject, traits: DMTraitCollection) {
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
