/// One bound property: a key path and the dynamic value it follows.
@MainActor
class AnyBinding {
  let keyPath: AnyKeyPath

  init(keyPath: AnyKeyPath) {
    self.keyPath = keyPath
  }

  /// Sets the property of `object` (which has the binding's root type) for `traits`.
  func apply(to object: AnyObject, traits: DMTraitCollection) {}
}

@MainActor
final class PropertyBinding<Root: AnyObject, Value: Sendable>: AnyBinding {
  private let property: ReferenceWritableKeyPath<Root, Value>
  private let dynamic: DMDynamic<Value>

  init(keyPath: ReferenceWritableKeyPath<Root, Value>, dynamic: DMDynamic<Value>) {
    property = keyPath
    self.dynamic = dynamic
    super.init(keyPath: keyPath)
  }

  override func apply(to object: AnyObject, traits: DMTraitCollection) {
    unsafeDowncast(object, to: Root.self)[keyPath: property] = dynamic.resolved(with: traits)
  }
}

/// The bindings of one object, at most one per key path, in the order they were made.
@MainActor
struct BindingList {
  private var entries: [AnyBinding] = []

  var isEmpty: Bool { entries.isEmpty }

  mutating func set(_ binding: AnyBinding) {
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
    for binding in entries { binding.apply(to: object, traits: traits) }
  }
}
