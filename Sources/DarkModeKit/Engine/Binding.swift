/// One bound property: how to set it, and the dynamic value it follows. Two words.
@MainActor
@usableFromInline
struct Binding {
  /// Sets the property of `object` to `source` resolved for `traits`; `fresh` resolves the value
  /// anew rather than take the one remembered in the running pass.
  ///
  /// Made by the inlinable `DMBindings.bind` where the app binds, so that it is specialized for
  /// the object's and the value's types, and, for a key path the app writes there, the optimizer
  /// sets the property as `object.property = value` would (see `DMBindings.makeStore`).
  @usableFromInline
  typealias Store =
    @MainActor (_ object: AnyObject, _ source: AnyObject, _ traits: DMTraitCollection, _ fresh: Bool) -> Void

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

/// How one property is set on objects of one class: its key path and a function that sets it.
/// Every binding of that property through its key path on objects of that class shares one, so
/// that a binding costs two words in its object's list; a binding through a setter given with it
/// has one of its own (`own(keyPath:store:)`).
///
/// The function is made by the inlinable `DMBindings.bind` at the call site, where the root and
/// value types are known, so that resolving and storing are specialized for them; for a key-path
/// binding it captures nothing once specialized.
@MainActor
final class BoundProperty {
  let keyPath: AnyKeyPath
  let store: Binding.Store
  /// Whether bindings of this property on objects of one class share it (a key-path binding), so
  /// that lists of such bindings may be shared (see `BindingShapes`).
  let isShared: Bool

  private init(keyPath: AnyKeyPath, store: @escaping Binding.Store, isShared: Bool) {
    self.keyPath = keyPath
    self.store = store
    self.isShared = isShared
  }

  /// What identifies a shared description: its store function reads values of the dynamic
  /// value's own type, so one bound through `DMDynamic<V>` and one through `DMDynamic<V?>` into the
  /// same optional property differ.
  private struct Key: Hashable {
    /// The key path's object in ``BoundKeyPaths``, which keeps it.
    let keyPath: ObjectIdentifier
    let objectType: ObjectIdentifier
    let sourceType: ObjectIdentifier
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
    keyPath: \Unbound.nothing, store: { _, _, _, _ in }, isShared: false)

  /// A description of `keyPath` for one binding alone, whose `store` calls a setter given with
  /// it (`bind(_:to:set:)`): that setter may hold what it captured for that one object.
  static func own(keyPath: AnyKeyPath, store: @escaping Binding.Store) -> BoundProperty {
    BindingRefresh.isListening
    return BoundProperty(keyPath: keyPath, store: store, isShared: false)
  }

  /// The shared descriptions found last, by the key path object they were asked for with and
  /// the two types: objects bound alike in a loop find theirs again by identity.
  private static var recent = RecentAnswers<Types, BoundProperty>(limit: 8)

  private struct Types: Equatable {
    let objectType: ObjectIdentifier
    let sourceType: ObjectIdentifier
  }

  /// The shared description of `keyPath` (any object of the path: ``BoundKeyPaths`` gives the
  /// one that stands for it) on objects of `objectType` bound to dynamic values whose storage is
  /// of `sourceType`, made on first use with `store`.
  static func shared(
    keyPath: AnyKeyPath, objectType: AnyObject.Type, sourceType: AnyObject.Type,
    store: @escaping Binding.Store
  ) -> BoundProperty {
    let types = Types(objectType: ObjectIdentifier(objectType), sourceType: ObjectIdentifier(sourceType))
    if let property = recent.answer(for: keyPath, key: types) { return property }
    let bound = BoundKeyPaths.canonical(keyPath)
    let property = shared(
      Key(keyPath: ObjectIdentifier(bound), objectType: types.objectType, sourceType: types.sourceType),
      keyPath: bound, store: store)
    // What is let go of goes after the access to `recent`: what a key path's subscripts hold may
    // bind when it goes.
    extendLifetime(recent.remember(property, for: keyPath, key: types))
    return property
  }

  /// The shared description under `key`, made with `store` the first time; `keyPath` is the
  /// object of ``BoundKeyPaths`` whose identity the key holds.
  private static func shared(_ key: Key, keyPath: AnyKeyPath, store: @escaping Binding.Store) -> BoundProperty
  {
    if let property = known[key] { return property }
    // Bound values may come from colour tables, whose reloads must then reach the binding.
    BindingRefresh.isListening
    let property = BoundProperty(keyPath: keyPath, store: store, isShared: true)
    known[key] = property
    return property
  }
}

/// One object for each distinct key path bound so far, so that bindings find a key path by
/// identity (`===`) rather than with `==`, which compares the paths' parts and costs more than
/// the rest of finding a binding.
///
/// Every key path a binding holds is the object ``canonical(_:)`` gave for it, and so is every
/// key path a list is asked about (``existing(_:)``).
@MainActor
package enum BoundKeyPaths {
  /// Every distinct key path bound so far, by value; as many as the program has bound
  /// properties, never removed (see `BoundProperty.known`), whether bound through the key path or
  /// with a setter of its own.
  private static var objects: [AnyKeyPath: AnyKeyPath] = [:]

  /// Key path objects met lately, each with its object in `objects`. A key path written in the
  /// app's code is one object each time it runs, so this finds it again without hashing it. Each
  /// is held, so that no other object can later have its identity.
  private static var met: [ObjectIdentifier: (object: AnyKeyPath, bound: AnyKeyPath)] = [:]

  /// How many objects `met` holds before it starts again: key paths made at run time (by
  /// appending, say) are new objects each time.
  private static let metLimit = 1_024

  /// The object that stands for `keyPath` in bindings, made `keyPath` itself the first time.
  package static func canonical(_ keyPath: AnyKeyPath) -> AnyKeyPath {
    if let entry = met[ObjectIdentifier(keyPath)] { return entry.bound }
    let bound: AnyKeyPath
    if let known = objects[keyPath] {
      bound = known
    } else {
      objects[keyPath] = keyPath
      bound = keyPath
    }
    remember(keyPath, as: bound)
    return bound
  }

  /// The object that stands for `keyPath` in bindings, or `nil` when nothing ever bound it. A key
  /// path only asked about is not remembered: `met` would keep it, and what its subscripts hold.
  static func existing(_ keyPath: AnyKeyPath) -> AnyKeyPath? {
    if let entry = met[ObjectIdentifier(keyPath)] { return entry.bound }
    return objects[keyPath]
  }

  private static func remember(_ keyPath: AnyKeyPath, as bound: AnyKeyPath) {
    // The key paths let go of, and what their subscripts hold, go after the access to `met`: a
    // deinitializer they run may bind.
    var dropped: [ObjectIdentifier: (object: AnyKeyPath, bound: AnyKeyPath)] = [:]
    if met.count >= metLimit { swap(&dropped, &met) }
    met[ObjectIdentifier(keyPath)] = (keyPath, bound)
    extendLifetime(dropped)
  }
}
