/// The custom trait values of every collection, interned: each distinct set of (trait, value)
/// pairs has a number, and a collection holds only that number (`DMTraitCollection.customID`).
///
/// So collections stay plain values without reference counting, and two collections have the
/// same custom values exactly when their numbers are equal. Number 0 is the empty set, the case
/// of almost every collection, and is handled without taking the lock. Sets are never freed (see
/// ``DMTraitDefinition``).
enum CustomTraits {
  /// What the table knows of a trait, from its definition.
  private struct Definition {
    let name: String
    let defaultValue: AnyHashable
    let affectsColorAppearance: Bool
  }

  /// One trait's value in a set.
  private struct Entry: Hashable {
    let identifier: String
    let value: AnyHashable
  }

  private struct State {
    var definitions: [String: Definition] = [:]
    /// Entries sorted by identifier, by number.
    var sets: [[Entry]] = [[]]
    /// For each set, the number of the same set without the entries that hold their trait's
    /// default value: what the set reads as.
    var canonical: [UInt32] = [0]
    var ids: [[Entry]: UInt32] = [[]: 0]

    mutating func intern(_ entries: [Entry]) -> UInt32 {
      if let id = ids[entries] { return id }
      let withoutDefaults = entries.filter { $0.value != definitions[$0.identifier]?.defaultValue }
      let canonicalID = withoutDefaults.count == entries.count ? nil : intern(withoutDefaults)
      let id = UInt32(sets.count)
      sets.append(entries)
      canonical.append(canonicalID ?? id)
      ids[entries] = id
      return id
    }

    func value(of identifier: String, in id: UInt32) -> AnyHashable? {
      sets[Int(id)].first { $0.identifier == identifier }?.value
    }
  }

  /// Values are hashed and compared under the lock: a trait's value type must not reach
  /// DarkModeKit from its `==` or `hash(into:)`.
  private static let state = Locked(State())

  /// Makes a trait known, so that its sets can drop default values and describe it.
  static func register<Definition: DMTraitDefinition>(_ definition: Definition.Type) {
    // Read outside the lock: the definition is the app's code.
    let identifier = definition.identifier
    let known = Self.Definition(
      name: definition.name, defaultValue: AnyHashable(definition.defaultValue),
      affectsColorAppearance: definition.affectsColorAppearance)
    state.withLock { state in
      if state.definitions[identifier] == nil { state.definitions[identifier] = known }
    }
  }

  /// The trait's value in set `id`, or its default when the set does not hold it.
  static func value<Definition: DMTraitDefinition>(
    of definition: Definition.Type, in id: UInt32
  ) -> Definition.Value {
    guard id != 0 else { return definition.defaultValue }
    let identifier = definition.identifier
    let stored = state.withLock { $0.value(of: identifier, in: id) }
    return stored?.base as? Definition.Value ?? definition.defaultValue
  }

  /// The number of set `id` with the trait set to `value`.
  static func setting<Definition: DMTraitDefinition>(
    _ value: Definition.Value, for definition: Definition.Type, in id: UInt32
  ) -> UInt32 {
    register(definition)
    // A value that is not equal to itself (a NaN) could never be found again: it reads as the
    // default.
    let kept = value == value ? value : definition.defaultValue
    let entry = Entry(identifier: definition.identifier, value: AnyHashable(kept))
    return state.withLock { state in
      var entries = state.sets[Int(id)]
      entries.removeAll { $0.identifier == entry.identifier }
      let index = entries.firstIndex { $0.identifier > entry.identifier } ?? entries.endIndex
      entries.insert(entry, at: index)
      return state.intern(entries)
    }
  }

  /// The number of set `id` without the trait.
  static func removing(_ identifier: String, in id: UInt32) -> UInt32 {
    guard id != 0 else { return 0 }
    return state.withLock { state in
      state.intern(state.sets[Int(id)].filter { $0.identifier != identifier })
    }
  }

  /// Whether set `id` holds the trait, even with its default value.
  static func contains(_ identifier: String, in id: UInt32) -> Bool {
    guard id != 0 else { return false }
    return state.withLock { $0.value(of: identifier, in: id) != nil }
  }

  /// The number of the set with every entry of `top`, and the entries of `base` for the other
  /// traits.
  static func overlay(_ base: UInt32, with top: UInt32) -> UInt32 {
    guard base != 0, top != 0, base != top else { return top == 0 ? base : top }
    return state.withLock { state in
      let overriding = state.sets[Int(top)]
      var entries = state.sets[Int(base)].filter { entry in
        !overriding.contains { $0.identifier == entry.identifier }
      }
      entries.append(contentsOf: overriding)
      entries.sort { $0.identifier < $1.identifier }
      return state.intern(entries)
    }
  }

  /// The number of set `id` without the entries that hold their default value: a resolved
  /// collection holds only values that differ from the default, so that two collections that
  /// read the same compare equal.
  static func canonical(_ id: UInt32) -> UInt32 {
    guard id != 0 else { return 0 }
    return state.withLock { $0.canonical[Int(id)] }
  }

  /// Whether the trait reads differently in two sets, defaults included.
  static func valueDiffers(_ identifier: String, _ lhs: UInt32, _ rhs: UInt32) -> Bool {
    state.withLock { state in
      state.value(of: identifier, in: state.canonical[Int(lhs)])
        != state.value(of: identifier, in: state.canonical[Int(rhs)])
    }
  }

  /// Whether a trait that affects colours reads differently in two sets.
  static func colorsDiffer(_ lhs: UInt32, _ rhs: UInt32) -> Bool {
    guard lhs != rhs else { return false }
    return state.withLock { state in
      func colorEntries(_ id: UInt32) -> [Entry] {
        state.sets[Int(state.canonical[Int(id)])].filter {
          state.definitions[$0.identifier]?.affectsColorAppearance ?? true
        }
      }
      return colorEntries(lhs) != colorEntries(rhs)
    }
  }

  /// The name a trait was defined with, or its identifier when it was never registered.
  static func name(of identifier: String) -> String {
    state.withLock { $0.definitions[identifier]?.name } ?? identifier
  }

  /// `name: value` for each trait of set `id`, in identifier order.
  static func describe(_ id: UInt32) -> [String] {
    guard id != 0 else { return [] }
    let named = state.withLock { state in
      state.sets[Int(id)].map {
        (name: state.definitions[$0.identifier]?.name ?? $0.identifier, value: $0.value)
      }
    }
    // Outside the lock: a value's description is the app's code.
    return named.map { "\($0.name): \($0.value.base)" }
  }
}
