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

  /// Resolves `source` for `traits` and writes the property's value, as the property stores it,
  /// to `destination`; for a property whose type is plain bytes (see
  /// `BoundProperty/valueSize`).
  @usableFromInline
  typealias Resolve =
    @MainActor (
      _ source: Unmanaged<AnyObject>, _ traits: DMTraitCollection, _ destination: UnsafeMutableRawPointer
    ) -> Void

  let property: BoundProperty
  /// The dynamic value's storage. Read off the main actor only for its identity, by a shared
  /// list's deinitializer (see `BindingShapes`).
  nonisolated(unsafe) let source: AnyObject

  var keyPath: AnyKeyPath { property.keyPath }

  /// What an unbound property leaves in a list until the list is compacted: it sets nothing, and
  /// its key path is no property's.
  static let tombstone = Binding(property: .tombstone, source: BoundProperty.tombstone)

  var isTombstone: Bool { property === BoundProperty.tombstone }
}

/// How one property is set on objects of one class: its key path, where it lives in the object,
/// and a function that sets it. Every binding of that property through its key path on objects of
/// that class shares one, so that a binding costs two words in its object's list; a binding
/// through a setter given with it has one of its own (`own(keyPath:store:)`).
///
/// The function is made by the inlinable `DMBindings.bind` at the call site, where the root and
/// value types are known, so that resolving and storing are specialized for them; for a
/// key-path binding it captures nothing.
@MainActor
final class BoundProperty {
  let keyPath: AnyKeyPath
  /// The stored property's offset in the object, -1 to write through the key path, or
  /// `StoredProperty.throughSetter`.
  let offset: Int
  let store: Binding.Store
  /// The size of the property's value when it is plain bytes (no references, nothing to do on a
  /// copy) and the property is stored at ``offset``: a pass may then copy a value resolved once
  /// into every object bound alike (see `BindingPlans`). 0 otherwise.
  let valueSize: Int
  /// Resolves the value into a buffer; `nil` when ``valueSize`` is 0.
  let resolve: Binding.Resolve?

  private init(
    keyPath: AnyKeyPath, offset: Int, store: @escaping Binding.Store, valueSize: Int = 0,
    resolve: Binding.Resolve? = nil
  ) {
    self.keyPath = keyPath
    self.offset = offset
    self.store = store
    let copies = offset >= 0 && resolve != nil && valueSize > 0
    self.valueSize = copies ? valueSize : 0
    self.resolve = copies ? resolve : nil
  }

  /// What identifies a shared description: its store function reads values of the dynamic
  /// value's own type, so one bound through `DMDynamic<V>` and one through `DMDynamic<V?>` into the
  /// same optional property differ.
  private struct Key: Hashable {
    let keyPath: AnyKeyPath
    let objectType: ObjectIdentifier
    let sourceType: ObjectIdentifier
    let offset: Int
  }

  /// Every property bound so far; as many as the program has bound properties, never removed.
  /// A key path with subscript arguments keeps them alive here, so a program that binds through
  /// ever new subscript arguments (`\.[token]`) grows this table.
  private static var known: [Key: BoundProperty] = [:]

  /// The key path of no property, for ``Binding/tombstone``.
  private final class Unbound {
    var nothing = 0
  }

  /// The property of ``Binding/tombstone``: setting it does nothing.
  static let tombstone = BoundProperty(
    keyPath: \Unbound.nothing, offset: StoredProperty.throughSetter, store: { _, _, _, _, _ in })

  /// A description of `keyPath` for one binding alone, whose `store` calls a setter given with
  /// it (`bind(_:to:set:)`): that setter may hold what it captured for that one object.
  static func own(keyPath: AnyKeyPath, store: @escaping Binding.Store) -> BoundProperty {
    BindingRefresh.isListening
    return BoundProperty(keyPath: keyPath, offset: StoredProperty.throughSetter, store: store)
  }

  /// The shared description of `keyPath` on objects of `objectType` bound to dynamic values whose
  /// storage is of `sourceType`, made on first use.
  static func shared(
    keyPath: AnyKeyPath, objectType: AnyObject.Type, sourceType: AnyObject.Type, offset: Int,
    store: @escaping Binding.Store, valueSize: Int, resolve: @escaping Binding.Resolve
  ) -> BoundProperty {
    let key = Key(
      keyPath: keyPath, objectType: ObjectIdentifier(objectType), sourceType: ObjectIdentifier(sourceType),
      offset: offset)
    if let property = known[key] { return property }
    // Bound values may come from colour tables, whose reloads must then reach the binding.
    BindingRefresh.isListening
    // A path through a forced optional (`\.inner!.flag`) reaches the property only while the
    // optional has a value: it is set through the key path, as an assignment would be, never in
    // place into an optional set to `nil` since.
    let inPlace = offset >= 0 && StoredProperty.forcesAnOptional(keyPath) ? -1 : offset
    let property = BoundProperty(
      keyPath: keyPath, offset: inPlace, store: store, valueSize: valueSize, resolve: resolve)
    known[key] = property
    return property
  }
}
