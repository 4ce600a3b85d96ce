/// The custom trait values one collection sets, by trait identifier (`DMTraitCollection.custom`).
///
/// Copies of a collection share one; a collection changed while it shares its values with another
/// gets its own first (copy on write), so a set is never changed once two collections hold it. A
/// collection without custom traits holds none: most collections cost no reference counting.
/// A set lives as long as the collections that hold it.
@usableFromInline
final class CustomTraitValues: @unchecked Sendable {
  // Safe: `values` changes only through `CustomTraits`' functions that take an `inout` set, and
  // only when that set is uniquely referenced; a set two collections (or threads) can reach is
  // only read.
  fileprivate(set) var values: [String: CustomTraitEntry]

  fileprivate init(_ values: [String: CustomTraitEntry]) {
    self.values = values
  }
}

/// One trait's value in a set, with what its definition says of it, so that comparing sets needs
/// nothing else. Equal, and hashed, by the value alone: one identifier is one definition.
@usableFromInline
struct CustomTraitEntry: Hashable, @unchecked Sendable {
  // Safe: the values are the `Sendable` values of trait definitions.
  let value: AnyHashable
  let defaultValue: AnyHashable
  let affectsColorAppearance: Bool

  /// The value, or `nil` for the trait's default: how a resolved collection reads it.
  var nonDefaultValue: AnyHashable? { value == defaultValue ? nil : value }

  @usableFromInline
  static func == (lhs: CustomTraitEntry, rhs: CustomTraitEntry) -> Bool {
    lhs.value == rhs.value
  }

  @usableFromInline
  func hash(into hasher: inout Hasher) {
    hasher.combine(value)
  }
}

/// What collections do with their custom trait values, and the traits the program defined.
///
/// The process keeps only the definitions (identifier, name, default value, whether the trait
/// affects colours), one per trait type: as many as the program declares.
@usableFromInline
enum CustomTraits {
  /// What is known of a trait type, read once from its definition.
  struct Definition {
    let identifier: String
    let name: String
    let defaultValue: AnyHashable
    let affectsColorAppearance: Bool
  }

  private struct Known {
    var byType: [ObjectIdentifier: Definition] = [:]
    /// The first definition of each identifier: the one every type with that identifier uses
    /// (identifiers are unique among a process's traits, but a mistake must not make equal
    /// collections read differently).
    var byIdentifier: [String: Definition] = [:]
  }

  /// Read and written under the lock, never while app code runs.
  private static let known = Locked(Known())

  /// What the definition says, read from the type the first time only: a definition's
  /// identifier is, by default, the type's name, which takes reflection to make.
  static func definition<Trait: DMTraitDefinition>(of type: Trait.Type) -> Definition {
    let key = ObjectIdentifier(type)
    if let definition = known.withLock({ $0.byType[key] }) { return definition }
    // Read outside the lock: the definition is the app's code.
    let definition = Definition(
      identifier: type.identifier, name: type.name, defaultValue: AnyHashable(type.defaultValue),
      affectsColorAppearance: type.affectsColorAppearance)
    return known.withLock { known in
      if let first = known.byType[key] { return first }
      let first = known.byIdentifier[definition.identifier] ?? definition
      known.byIdentifier[definition.identifier] = first
      known.byType[key] = first
      return first
    }
  }

  /// Makes a trait known, so that descriptions name it.
  static func register<Trait: DMTraitDefinition>(_ type: Trait.Type) {
    _ = definition(of: type)
  }

  /// The trait's value in `values`, or its default when they do not set it.
  static func value<Trait: DMTraitDefinition>(of type: Trait.Type, in values: CustomTraitValues?)
    -> Trait.Value
  {
    let definition = definition(of: type)
    if let value = values?.values[definition.identifier]?.value.base as? Trait.Value { return value }
    // The default of the first type with this identifier, which the values are compared with.
    return definition.defaultValue.base as? Trait.Value ?? type.defaultValue
  }

  /// Sets the trait in `values`, in place when no other collection holds them.
  static func set<Trait: DMTraitDefinition>(
    _ value: Trait.Value, for type: Trait.Type, in values: inout CustomTraitValues?
  ) {
    let definition = definition(of: type)
    // A value that is not equal to itself (a NaN) could never be found again: it reads as the
    // default.
    let entry = CustomTraitEntry(
      value: value == value ? AnyHashable(value) : definition.defaultValue,
      defaultValue: definition.defaultValue, affectsColorAppearance: definition.affectsColorAppearance)
    if values == nil {
      values = CustomTraitValues([definition.identifier: entry])
    } else if isKnownUniquelyReferenced(&values) {
      values.unsafelyUnwrapped.values[definition.identifier] = entry
    } else {
      var copy = values.unsafelyUnwrapped.values
      copy[definition.identifier] = entry
      values = CustomTraitValues(copy)
    }
  }

  /// Removes the trait from `values`, in place when no other collection holds them.
  static func remove(_ identifier: String, from values: inout CustomTraitValues?) {
    // No reference is held across the uniqueness check, which would then always fail.
    guard values?.values[identifier] != nil else { return }
    if values.unsafelyUnwrapped.values.count == 1 {
      values = nil
    } else if isKnownUniquelyReferenced(&values) {
      values.unsafelyUnwrapped.values[identifier] = nil
    } else {
      var copy = values.unsafelyUnwrapped.values
      copy[identifier] = nil
      values = CustomTraitValues(copy)
    }
  }

  /// Whether `values` set the trait, even to its default value.
  static func contains(_ identifier: String, in values: CustomTraitValues?) -> Bool {
    values?.values[identifier] != nil
  }

  /// Puts every value of `top` into `base`, over the values `base` has for the same traits: in
  /// place when no other collection holds `base`, so that merging many collections into one
  /// takes time in proportion to the values merged.
  static func overlay(_ base: inout CustomTraitValues?, with top: CustomTraitValues?) {
    guard let top, base !== top else { return }
    guard base != nil else {
      base = top
      return
    }
    // The same values again: the collection keeps the set it has. (No reference to `base` is
    // held across the uniqueness check, which would then always fail.)
    if top.values.allSatisfy({ base.unsafelyUnwrapped.values[$0.key] == $0.value }) { return }
    if isKnownUniquelyReferenced(&base) {
      base.unsafelyUnwrapped.values.merge(top.values) { _, new in new }
    } else {
      base = CustomTraitValues(base.unsafelyUnwrapped.values.merging(top.values) { _, new in new })
    }
  }

  /// `values` without the traits that hold their default value: a resolved collection holds only
  /// values that differ from the default, so that two collections that read the same compare
  /// equal. The same set when nothing is dropped.
  static func withoutDefaults(_ values: CustomTraitValues?) -> CustomTraitValues? {
    guard let values else { return nil }
    let kept = values.values.filter { $0.value.nonDefaultValue != nil }
    if kept.count == values.values.count { return values }
    return kept.isEmpty ? nil : CustomTraitValues(kept)
  }

  /// Whether two sets hold the same values.
  @usableFromInline
  static func equal(_ lhs: CustomTraitValues?, _ rhs: CustomTraitValues?) -> Bool {
    guard lhs !== rhs else { return true }
    guard let lhs, let rhs else { return false }
    return lhs.values == rhs.values
  }

  /// Feeds the values to `hasher`, the same for sets that are ``equal(_:_:)``.
  @usableFromInline
  static func hash(_ values: CustomTraitValues?, into hasher: inout Hasher) {
    hasher.combine(values?.values)
  }

  /// Whether a trait reads differently in two sets, defaults included: an entry that one set
  /// lacks reads as the default the other's entry knows.
  private static func reads(
    _ identifier: String, differentlyIn lhs: [String: CustomTraitEntry], _ rhs: [String: CustomTraitEntry]
  ) -> Bool {
    switch (lhs[identifier], rhs[identifier]) {
    case (nil, nil): false
    case (let entry?, nil), (nil, let entry?): entry.nonDefaultValue != nil
    case (let left?, let right?): left.value != right.value
    }
  }

  /// Whether the trait reads differently in two sets, defaults included.
  static func valueDiffers(_ identifier: String, _ lhs: CustomTraitValues?, _ rhs: CustomTraitValues?) -> Bool
  {
    guard lhs !== rhs else { return false }
    return reads(identifier, differentlyIn: lhs?.values ?? [:], rhs?.values ?? [:])
  }

  /// Whether a trait that affects colours reads differently in two sets, defaults included.
  static func colorsDiffer(_ lhs: CustomTraitValues?, _ rhs: CustomTraitValues?) -> Bool {
    guard lhs !== rhs else { return false }
    let left = lhs?.values ?? [:]
    let right = rhs?.values ?? [:]
    for (identifier, entry) in left where entry.affectsColorAppearance {
      if let other = right[identifier] {
        if entry.value != other.value { return true }
      } else if entry.nonDefaultValue != nil {
        return true
      }
    }
    // The traits the left set lacks, read there as their default.
    for (identifier, entry) in right where entry.affectsColorAppearance && left[identifier] == nil {
      if entry.nonDefaultValue != nil { return true }
    }
    return false
  }

  /// The name a trait was defined with, or its identifier when it was never registered.
  static func name(of identifier: String) -> String {
    known.withLock { $0.byIdentifier[identifier]?.name } ?? identifier
  }

  /// `name: value` for each trait of `values`, in identifier order.
  static func describe(_ values: CustomTraitValues?) -> [String] {
    guard let values else { return [] }
    let identifiers = values.values.keys.sorted()
    let names = known.withLock { known in identifiers.map { known.byIdentifier[$0]?.name ?? $0 } }
    // Outside the lock: a value's description is the app's code.
    return zip(identifiers, names).map { identifier, name in
      "\(name): \(values.values[identifier].unsafelyUnwrapped.value.base)"
    }
  }
}
