/// The bindings of objects that are not in the hierarchy: they follow the global collection (or,
/// for a custom trait environment, its own collection) and are re-applied after each global change.
///
/// Entries hold their object weakly; entries of deallocated objects are dropped on the next global
/// change and whenever the table has doubled since the last sweep.
@MainActor
final class ThemableRegistry {
  static let shared = ThemableRegistry()

  private struct Entry {
    weak var object: AnyObject?
    var bindings = BindingList()
  }

  private var entries: [ObjectIdentifier: Entry] = [:]
  private var sweepThreshold = 64

  private init() {}

  /// - Returns: What the change let go of, for the caller to let go of after it.
  func bind(_ object: AnyObject, _ binding: Binding) -> BindingList.Released {
    let id = ObjectIdentifier(object)
    if entries[id]?.object !== object {
      if entries.count >= sweepThreshold { sweep() }
      entries[id] = Entry(object: object)
    }
    return entries[id]?.bindings.set(binding) ?? BindingList.Released()
  }

  /// - Returns: What the change let go of, for the caller to let go of after it.
  func unbind(_ object: AnyObject, _ keyPath: AnyKeyPath) -> BindingList.Released {
    let id = ObjectIdentifier(object)
    guard entries[id]?.object === object else { return BindingList.Released() }
    let released = entries[id]?.bindings.remove(keyPath) ?? BindingList.Released()
    if entries[id]?.bindings.isEmpty == true { entries[id] = nil }
    return released
  }

  func isBound(_ object: AnyObject, _ keyPath: AnyKeyPath) -> Bool {
    let entry = entries[ObjectIdentifier(object)]
    return entry?.object === object && entry?.bindings.contains(keyPath) == true
  }

  /// Re-applies every live binding for the new global collection.
  func applyAll(_ global: DMTraitCollection) {
    PassGeneration.advance()
    for (id, entry) in entries {
      guard let object = entry.object else {
        entries[id] = nil
        continue
      }
      let traits = (object as? any DMTraitEnvironment)?.dmTraitCollection ?? global
      PassContext.withCurrent(traits) { entry.bindings.apply(to: object, traits: traits) }
    }
  }

  /// The number of objects with live bindings, after dropping the dead entries.
  var liveCount: Int {
    sweep()
    return entries.count
  }

  func removeAll() {
    entries.removeAll()
    sweepThreshold = 64
  }

  private func sweep() {
    entries = entries.filter { $0.value.object != nil }
    sweepThreshold = max(64, entries.count * 2)
  }
}
