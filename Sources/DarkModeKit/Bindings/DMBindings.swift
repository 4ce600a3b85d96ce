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
  /// Each update sets what the key path reaches then, as `object[keyPath: keyPath] = value` would:
  /// a path through a reference (`\.target.fill`) follows `target` when it changes, and one through
  /// a forced optional (`\.reading!.flag`) stops the program if the optional is `nil` then.
  /// - Parameters:
  ///   - keyPath: The property to set.
  ///   - dynamic: The value to resolve for the object's traits.
  @inlinable
  public func bind<Value>(_ keyPath: ReferenceWritableKeyPath<Root, Value>, to dynamic: DMDynamic<Value>) {
    bind(keyPath, to: dynamic, as: AsIs<Value>.self)
  }

  /// Keeps a property set to a dynamic value, stored as `Conversion` makes it (as it is, or
  /// wrapped in an optional).
  @inlinable
  func bind<Conversion: BoundValueConversion>(
    _ keyPath: ReferenceWritableKeyPath<Root, Conversion.Property>, to dynamic: DMDynamic<Conversion.Value>,
    as conversion: Conversion.Type
  ) {
    let object = object
    // Set the property at once, through an in-place access that also tells where a stored
    // property lives in the object; later updates then write there directly, which costs a few
    // nanoseconds where a key-path store costs an allocation. Computed and observed properties
    // (their access goes through a temporary) keep the key-path store, so their setters run.
    let offset = withBindingContext { traits in
      withUnsafeMutablePointer(to: &object[keyPath: keyPath]) { property in
        property.pointee = Conversion.property(from: dynamic.resolved(with: traits))
        return StoredProperty.offset(
          of: UnsafeMutableRawPointer(property), size: MemoryLayout<Conversion.Property>.size, in: object,
          through: keyPath)
      }
    }
    // The closure captures nothing (once specialized for `Root` and `Conversion`), so a binding
    // costs no allocation of its own: what it needs travels in the shared `BoundProperty`.
    register(
      keyPath: keyPath, source: dynamic.storage, offset: offset ?? -1,
      valueSize: _isPOD(Conversion.Property.self) ? MemoryLayout<Conversion.Property>.size : 0,
      resolve: { source, traits, destination in
        destination.assumingMemoryBound(to: Conversion.Property.self).initialize(
          to: Conversion.property(
            from: Unmanaged<DMDynamic<Conversion.Value>.Storage>.fromOpaque(source.toOpaque())
              .borrow { storage in storage.passCache.resolved(storage, with: traits) }))
      }
    ) {
      object, source, offset, keyPath, traits in
      let value = Conversion.property(
        from: Unmanaged<DMDynamic<Conversion.Value>.Storage>.fromOpaque(source.toOpaque())
          .borrow { storage in storage.passCache.resolved(storage, with: traits) })
      if offset >= 0 {
        (Unmanaged.passUnretained(object).toOpaque() + offset)
          .assumingMemoryBound(to: Conversion.Property.self).pointee = value
      } else {
        let property = unsafeDowncast(
          keyPath.takeUnretainedValue(), to: ReferenceWritableKeyPath<Root, Conversion.Property>.self)
        unsafeDowncast(object, to: Root.self)[keyPath: property] = value
      }
    }
  }

  /// Keeps a property set to a dynamic value through `set`, which must do what setting the
  /// property through `keyPath` does.
  ///
  /// For toolkit authors: a bound property that is computed (its setter schedules a redraw) is
  /// otherwise set through a key-path store, which costs several times more than a call. Give a
  /// function that calls the setter, and every update calls it instead.
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
    as conversion: Conversion.Type, set: @escaping @MainActor (Root, Conversion.Property) -> Void
  ) {
    let object = object
    withBindingContext { traits in set(object, Conversion.property(from: dynamic.resolved(with: traits))) }
    // The update captures `set`, which may capture what belongs to this object alone: the
    // binding gets a description of its own (see `register`).
    register(keyPath: keyPath, source: dynamic.storage, offset: StoredProperty.throughSetter) {
      object, source, _, _, traits in
      set(
        unsafeDowncast(object, to: Root.self),
        Conversion.property(
          from: Unmanaged<DMDynamic<Conversion.Value>.Storage>.fromOpaque(source.toOpaque())
            .borrow { storage in storage.passCache.resolved(storage, with: traits) }))
    }
  }

  /// Runs `body` with the traits bindings resolve for, made current.
  @usableFromInline
  func withBindingContext<R>(_ body: (DMTraitCollection) -> R) -> R {
    let traits = traitCollection
    return PassContext.withCurrent(traits) { body(traits) }
  }

  /// Keeps a binding that has already set its property once.
  ///
  /// - Parameters:
  ///   - keyPath: The bound property; it names the binding.
  ///   - source: The dynamic value's storage.
  ///   - offset: Where the property is stored in the object, -1 to set it through `keyPath`, or
  ///     `StoredProperty.throughSetter`.
  ///   - valueSize: The size of the property's value when it is plain bytes, else 0.
  ///   - resolve: Resolves the value into a buffer, for a property stored at `offset` whose value
  ///     is plain bytes.
  ///   - store: Sets the property of an object to the value resolved for traits.
  @usableFromInline
  func register(
    keyPath: AnyKeyPath, source: AnyObject, offset: Int, valueSize: Int = 0,
    resolve: @escaping Binding.Resolve = { _, _, _ in }, store: @escaping Binding.Store
  ) {
    let property =
      offset == StoredProperty.throughSetter
      ? BoundProperty.own(keyPath: keyPath, store: store)
      : BoundProperty.shared(
        keyPath: keyPath, objectType: type(of: object), sourceType: type(of: source), offset: offset,
        store: store, valueSize: valueSize, resolve: resolve)
    let binding = Binding(property: property, source: source)
    // What the change lets go of goes after the access to the list (see `BindingList.Released`).
    if let responder = object as? DMResponder {
      withExtendedLifetime(responder.bindings.set(binding)) {}
    } else {
      withExtendedLifetime(ThemableRegistry.shared.bind(object, binding)) {}
    }
  }

  /// Removes the binding of a property; the property keeps its current value.
  /// - Parameter keyPath: The bound property.
  public func unbind<Value>(_ keyPath: ReferenceWritableKeyPath<Root, Value>) {
    if let responder = object as? DMResponder {
      withExtendedLifetime(responder.bindings.remove(keyPath)) {}
    } else {
      withExtendedLifetime(ThemableRegistry.shared.unbind(object, keyPath)) {}
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
    if let responder = object as? DMResponder {
      return responder.bindings.contains(keyPath)
    }
    return ThemableRegistry.shared.isBound(object, keyPath)
  }

  /// The traits bindings resolve for: the environment's own, or the global collection.
  private var traitCollection: DMTraitCollection {
    (object as? any DMTraitEnvironment)?.dmTraitCollection ?? TraitPropagator.shared.propagatedGlobal
  }
}

extension DMBindings {
  /// Keeps an optional property set to a dynamic value, as a toolkit's `backgroundColor: Color?`;
  /// while bound, it is never `nil`.
  ///
  /// ```swift
  /// widget.dm.bind(\.backgroundColor, to: DMDynamicColor(key: "Surface"))  // a DMColor? property
  /// ```
  /// - Parameters:
  ///   - keyPath: The property to set.
  ///   - dynamic: The value to resolve for the object's traits.
  @inlinable
  public func bind<Value>(_ keyPath: ReferenceWritableKeyPath<Root, Value?>, to dynamic: DMDynamic<Value>) {
    bind(keyPath, to: dynamic, as: AsOptional<Value>.self)
  }

  /// Keeps an optional image property set to a dynamic image.
  ///
  /// A by-name image is loaded when its name is first resolved, and the previous image is let go.
  /// - Parameters:
  ///   - keyPath: The property to set.
  ///   - image: The image to resolve for the object's traits.
  public func bind<Image>(_ keyPath: ReferenceWritableKeyPath<Root, Image?>, to image: DMDynamicImage<Image>)
  {
    bind(keyPath, to: image.dynamic)
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
