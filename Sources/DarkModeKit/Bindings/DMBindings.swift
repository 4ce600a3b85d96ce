/// Binds an object's properties to dynamic values; reached through ``DMThemable/dm``.
///
/// A bound property is set at once to the value resolved for the object's traits, and again each
/// time they change, before the object's
/// ``DMTraitEnvironment/dmTraitCollectionDidChange(_:)`` runs.
///
/// ```swift
/// view.dm.bind(\.backgroundColor, to: DMDynamicColor(key: "BG"))
/// view.dm.bind(\.cornerRadius, to: DMDynamic(light: 4.0, dark: 6.0))
/// view.dm.unbind(\.cornerRadius)
/// ```
@MainActor
public struct DMBindings<Root: AnyObject> {
  @usableFromInline
  let object: Root

  init(_ object: Root) {
    self.object = object
  }

  /// Keeps a property set to a dynamic value.
  ///
  /// Binding the same key path again replaces the earlier binding. Key paths are compared as
  /// Swift compares them, root type included: a property bound through a superclass's key path
  /// and through a subclass's (`\Card.tint`, `\PromoCard.tint`) has two bindings, so bind, ask
  /// about and unbind it through key paths of one type. The binding does not retain the object.
  /// Each distinct key path bound is kept for the life of the process, with what its subscripts
  /// hold (`\.[token]` keeps `token`), so that bindings find it again by identity; a program that
  /// binds through ever new subscript arguments keeps them all.
  /// Each update sets what the key path reaches then, as `object[keyPath: keyPath] = value` would:
  /// setters, observers and overrides run, a path through a reference (`\.target.fill`) follows
  /// `target` when it changes, and one through a forced optional (`\.reading!.flag`) stops the
  /// program if the optional is `nil` then.
  ///
  /// In an optimized build, a key path written where the app binds (`\.fill`) is compiled into
  /// the update: it sets the property as `object.fill = value` would, exclusivity check included,
  /// in a few nanoseconds, where applying a key path object costs some hundred. For that the key
  /// path expression is evaluated up to three times: for the update, to name the binding, and to
  /// check that it gives the same key path each time (an expression with side effects, such as
  /// `\.slots[next()]`, binds the property of its first evaluation, through the key path
  /// object). A key path held in a variable, or built at run time, is applied as it is.
  /// - Parameters:
  ///   - keyPath: The property to set.
  ///   - dynamic: The value to resolve for the object's traits.
  @inlinable
  @inline(__always)
  public func bind<Value>(
    _ keyPath: @autoclosure () throws -> ReferenceWritableKeyPath<Root, Value>, to dynamic: DMDynamic<Value>
  ) rethrows {
    try bindFolding(keyPath, to: dynamic, as: AsIs<Value>.self)
  }

  /// Keeps a property set to a dynamic value, stored as `Conversion` makes it, with an update in
  /// which the optimizer folds the key path expression `keyPath` (see `makeStore(_:as:)`).
  @inlinable
  @inline(__always)
  func bindFolding<Conversion: BoundValueConversion>(
    _ keyPath: () throws -> ReferenceWritableKeyPath<Root, Conversion.Property>,
    to dynamic: DMDynamic<Conversion.Value>, as conversion: Conversion.Type
  ) rethrows {
    let name = try keyPath()
    var store = Self.makeStore(try keyPath(), as: conversion)
    // An expression with side effects may give another key path each time: the binding then sets
    // the one that names it.
    if try keyPath() != name { store = Self.makeStore(name, as: conversion) }
    register(keyPath: name, source: dynamic.storage, isShared: true, store: store)
  }

  /// The update of a key-path binding: sets the property of an object to the value resolved for
  /// traits, stored as `Conversion` makes it (as it is, or wrapped in an optional).
  ///
  /// Inlined where the app binds, `keyPath` is the key path expression the app wrote there, and
  /// this closure its only use: the optimizer then makes the key path a constant of the closure,
  /// and the assignment through it a direct one (a key path with another use stays an object that
  /// each update applies). So the key path is consumed here, and named for the binding by a
  /// second evaluation of the app's expression.
  @inlinable
  @inline(__always)
  static func makeStore<Conversion: BoundValueConversion>(
    _ keyPath: consuming ReferenceWritableKeyPath<Root, Conversion.Property>, as conversion: Conversion.Type
  ) -> Binding.Store {
    { [keyPath = consume keyPath] object, source, traits, fresh in
      let storage = unsafeDowncast(source, to: DMDynamic<Conversion.Value>.Storage.self)
      let value = fresh ? storage.resolved(with: traits) : storage.passCache.resolved(storage, with: traits)
      unsafeDowncast(object, to: Root.self)[keyPath: keyPath] = Conversion.property(from: value)
    }
  }

  /// Keeps a property set to a dynamic value through `set`, which must do what setting the
  /// property through `keyPath` does.
  ///
  /// For toolkit authors: a property bound through a key path that is not written where the app
  /// binds (one that a toolkit's own overload passes on, say) is set by applying the key path
  /// object, which costs some hundred nanoseconds. Give a function that calls the setter, and
  /// every update calls it instead.
  ///
  /// ```swift
  /// extension DMBindings where Root == Label {
  ///   func bindTextColor(to color: DMDynamic<DMColor>) {
  ///     bind(\.textColor, to: color, set: { label, color in label.textColor = color })
  ///   }
  /// }
  /// ```
  ///
  /// The key path names the binding: binding it again replaces this one, and ``unbind(_:)`` and
  /// ``isBound(_:)`` take it. Each binding keeps its own `set`, at the cost of two small
  /// allocations (a binding through a key path shares its description with every binding of that
  /// property, and allocates nothing of its own).
  ///
  /// The binding keeps `set` as long as it lasts: a `set` that captures the object it is bound to
  /// keeps that object alive. Use the object `set` is given instead.
  /// - Parameters:
  ///   - keyPath: The property to set; it names the binding.
  ///   - dynamic: The value to resolve for the object's traits.
  ///   - set: Sets the property of an object to a resolved value.
  @inlinable
  public func bind<Value>(
    _ keyPath: ReferenceWritableKeyPath<Root, Value>, to dynamic: DMDynamic<Value>,
    set: @escaping @MainActor (Root, Value) -> Void
  ) {
    bind(keyPath, to: dynamic, as: AsIs<Value>.self, set: set)
  }

  /// Keeps an optional property set to a dynamic value through `set`, which must do what setting
  /// the property through `keyPath` does; see ``bind(_:to:set:)-(ReferenceWritableKeyPath<Root,Value>,_,_)``.
  /// - Parameters:
  ///   - keyPath: The property to set; it names the binding.
  ///   - dynamic: The value to resolve for the object's traits.
  ///   - set: Sets the property of an object to a resolved value.
  @inlinable
  public func bind<Value>(
    _ keyPath: ReferenceWritableKeyPath<Root, Value?>, to dynamic: DMDynamic<Value>,
    set: @escaping @MainActor (Root, Value?) -> Void
  ) {
    bind(keyPath, to: dynamic, as: AsOptional<Value>.self, set: set)
  }

  @inlinable
  func bind<Conversion: BoundValueConversion>(
    _ keyPath: ReferenceWritableKeyPath<Root, Conversion.Property>, to dynamic: DMDynamic<Conversion.Value>,
    as conversion: Conversion.Type, isShared: Bool = false,
    set: @escaping @MainActor (Root, Conversion.Property) -> Void
  ) {
    // The update captures `set`, which may capture what belongs to this object alone: unless
    // `set` is known to capture nothing, the binding gets a description of its own (see
    // `register`).
    register(keyPath: keyPath, source: dynamic.storage, isShared: isShared) { object, source, traits, fresh in
      let storage = unsafeDowncast(source, to: DMDynamic<Conversion.Value>.Storage.self)
      let value = fresh ? storage.resolved(with: traits) : storage.passCache.resolved(storage, with: traits)
      set(unsafeDowncast(object, to: Root.self), Conversion.property(from: value))
    }
  }

  /// Keeps an optional property set to a dynamic value through `set`, which must do exactly what
  /// setting the property through `keyPath` does and capture nothing: every binding of `keyPath`
  /// on objects of this class shares one description, made by the first binding, this or one
  /// through the key path (so lists of such bindings may be shared, as for a binding through a key
  /// path the app writes). For toolkits of this package, whose generic code cannot have the key
  /// path compiled into the update.
  @inlinable
  package func bindShared<Value>(
    _ keyPath: ReferenceWritableKeyPath<Root, Value?>, to dynamic: DMDynamic<Value>,
    set: @escaping @MainActor (Root, Value?) -> Void
  ) {
    bind(keyPath, to: dynamic, as: AsOptional<Value>.self, isShared: true, set: set)
  }

  /// Runs `body` with the traits bindings resolve for, made current.
  func withBindingContext<R>(_ body: (DMTraitCollection) -> R) -> R {
    let traits = traitCollection
    return PassContext.withCurrent(traits) { body(traits) }
  }

  /// Sets the property once, for the object's traits now, and keeps the binding.
  ///
  /// - Parameters:
  ///   - keyPath: The bound property; it names the binding.
  ///   - source: The dynamic value's storage.
  ///   - isShared: Whether `store` sets the property through its key path alone, so that every
  ///     binding of that key path on objects of this class may share it; `false` for a setter
  ///     given with the binding.
  ///   - store: Sets the property.
  @usableFromInline
  func register(keyPath: AnyKeyPath, source: AnyObject, isShared: Bool, store: @escaping Binding.Store) {
    withBindingContext { traits in store(object, source, traits, true) }
    let property =
      isShared
      ? BoundProperty.shared(
        keyPath: keyPath, objectType: type(of: object), sourceType: type(of: source), store: store)
      : BoundProperty.own(keyPath: BoundKeyPaths.canonical(keyPath), store: store)
    let binding = Binding(property: property, source: source)
    // What the change lets go of goes after the access to the list (see `BindingList.Released`).
    if let responder = object as? DMResponder {
      extendLifetime(responder.bindings.set(binding))
    } else {
      extendLifetime(ThemableRegistry.shared.bind(object, binding))
    }
  }

  /// Removes the binding of a property; the property keeps its current value.
  /// - Parameter keyPath: The bound property.
  public func unbind<Value>(_ keyPath: ReferenceWritableKeyPath<Root, Value>) {
    guard let keyPath = BoundKeyPaths.existing(keyPath) else { return }
    if let responder = object as? DMResponder {
      extendLifetime(responder.bindings.remove(keyPath))
    } else {
      extendLifetime(ThemableRegistry.shared.unbind(object, keyPath))
    }
  }

  /// Sets a property once to the value resolved for the object's traits now, without following
  /// later changes.
  /// - Parameters:
  ///   - keyPath: The property to set.
  ///   - dynamic: The value to resolve.
  public func set<Value>(_ keyPath: ReferenceWritableKeyPath<Root, Value>, to dynamic: DMDynamic<Value>) {
    object[keyPath: keyPath] = dynamic.resolved(with: traitCollection)
  }

  /// Whether a property is bound.
  /// - Parameter keyPath: The property.
  /// - Returns: `true` when the property has a binding.
  public func isBound<Value>(_ keyPath: ReferenceWritableKeyPath<Root, Value>) -> Bool {
    guard let keyPath = BoundKeyPaths.existing(keyPath) else { return false }
    if let responder = object as? DMResponder {
      return responder.bindings.contains(keyPath)
    }
    return ThemableRegistry.shared.isBound(object, keyPath)
  }

  /// The traits bindings resolve for: the environment's own, or the global collection.
  private var traitCollection: DMTraitCollection {
    // A responder first: a cast to a class costs less than one to a protocol.
    if let responder = object as? DMResponder { return responder.dmTraitCollection }
    return (object as? any DMTraitEnvironment)?.dmTraitCollection ?? TraitPropagator.shared.propagatedGlobal
  }
}

extension DMBindings {
  /// Keeps an optional property set to a dynamic value, as a toolkit's `backgroundColor: Color?`;
  /// while bound, it is never `nil`.
  ///
  /// ```swift
  /// widget.dm.bind(\.backgroundColor, to: DMDynamicColor(key: "Surface"))  // a DMColor? property
  /// ```
  ///
  /// As with a property that is not optional, a key path written where the app binds is compiled
  /// into the update, and the expression is evaluated up to three times.
  /// - Parameters:
  ///   - keyPath: The property to set.
  ///   - dynamic: The value to resolve for the object's traits.
  @inlinable
  @inline(__always)
  public func bind<Value>(
    _ keyPath: @autoclosure () throws -> ReferenceWritableKeyPath<Root, Value?>, to dynamic: DMDynamic<Value>
  ) rethrows {
    try bindFolding(keyPath, to: dynamic, as: AsOptional<Value>.self)
  }

  /// Keeps an optional image property set to a dynamic image.
  ///
  /// A by-name image is loaded when its name is first resolved, and the previous image is let go.
  /// - Parameters:
  ///   - keyPath: The property to set.
  ///   - image: The image to resolve for the object's traits.
  @inlinable
  @inline(__always)
  public func bind<Image>(
    _ keyPath: @autoclosure () throws -> ReferenceWritableKeyPath<Root, Image?>,
    to image: DMDynamicImage<Image>
  ) rethrows {
    try bindFolding(keyPath, to: image.dynamic, as: AsIs<Image?>.self)
  }

  /// Sets an optional image property once, without following later changes.
  /// - Parameters:
  ///   - keyPath: The property to set.
  ///   - image: The image to resolve for the object's traits now.
  public func set<Image>(_ keyPath: ReferenceWritableKeyPath<Root, Image?>, to image: DMDynamicImage<Image>) {
    set(keyPath, to: image.dynamic)
  }
}

/// How a bound property holds the value its dynamic value resolves to: as it is, or wrapped in an
/// optional. A type, not a closure, so that a binding's update stays free of captures.
@usableFromInline
protocol BoundValueConversion {
  associatedtype Value: Sendable
  associatedtype Property
  static func property(from value: Value) -> Property
}

/// The property holds the value as it is.
@usableFromInline
enum AsIs<Value: Sendable>: BoundValueConversion {
  @inlinable
  static func property(from value: Value) -> Value { value }
}

/// The property is an optional of the value.
@usableFromInline
enum AsOptional<Value: Sendable>: BoundValueConversion {
  @inlinable
  static func property(from value: Value) -> Value? { value }
}
