/// The bindings of objects that are not in the hierarchy: they follow the global collection (or,
/// for a custom trait environment, its own collection) and are re-applied after each global change.
///
/// The entries lie in one array, in the order their objects were first bound, and a dictionary
/// finds an object's entry: a switch reads them one after the other, and only an object that is
/// its own trait environment makes its collection current for itself (checked once, when it is
/// first bound). Entries hold their object weakly; entries of deallocated objects are dropped after
/// each global change that finds one, and whenever the table has doubled since the last sweep.
@MainActor
final class ThemableRegistry {
  static let shared = ThemableRegistry()

  private struct Entry {
    weak var object: AnyObject?
    var bindings = BindingList()
    /// Whether the object is a ``DMTraitEnvironment``, whose bindings follow its own collection.
    let hasOwnTraits: Bool
  }

  private var entries: [Entry] = []
  /// Where each object's entry is in `entries`.
  private var places: [ObjectIdentifier: Int] = [:]
  private var sweepThreshold = 64

  private init() {}

  /// The place of the live entry of `object`, if it has one.
  private func place(of object: AnyObject) -> Int? {
    guard let place = places[ObjectIdentifier(object)], place < entries.count,
      entries[place].object === object
    else { return nil }
    return place
  }

  /// - Returns: What the change let go of, for the caller to let go of after it.
  func bind(_ object: AnyObject, _ binding: Binding) -> BindingList.Released {
    if let place = place(of: object) { return entries[place].bindings.set(binding) }
    if entries.count >= sweepThreshold { sweep() }
    // An entry of a freed object whose address this one reuses goes first. (The place of a freed
    // object's entry may since hold another entry, or none: entries move when others go.)
    if let stale = places[ObjectIdentifier(object)], stale < entries.count, entries[stale].object == nil {
      remove(at: stale)
    }
    places[ObjectIdentifier(object)] = entries.count
    entries.append(Entry(object: object, hasOwnTraits: object is any DMTraitEnvironment))
    return entries[entries.count - 1].bindings.set(binding)
  }

  /// - Returns: What the change let go of, for the caller to let go of after it.
  func unbind(_ object: AnyObject, _ keyPath: AnyKeyPath) -> BindingList.Released {
    guard let place = place(of: object) else { return BindingList.Released() }
    let released = entries[place].bindings.remove(keyPath)
    if entries[place].bindings.isEmpty { remove(at: place) }
    return released
  }

  func isBound(_ object: AnyObject, _ keyPath: AnyKeyPath) -> Bool {
    guard let place = place(of: object) else { return false }
    return entries[place].bindings.contains(keyPath)
  }

  /// Re-applies every live binding for the new global collection.
  ///
  /// The entries are read from a copy: a setter that binds or unbinds properties meanwhile
  /// changes the registry, not the walk (a property bound meanwhile was set when it was bound).
  func applyAll(_ global: DMTraitCollection) {
    PassGeneration.advance()
    let entries = self.entries
    var foundFreed = false
    PassContext.withCurrent(global) {
      for index in entries.indices {
        guard let object = entries[index].object else {
          foundFreed = true
          continue
        }
        if entries[index].hasOwnTraits, let environment = object as? any DMTraitEnvironment {
          let traits = environment.dmTraitCollection
          PassContext.withCurrent(traits) { entries[index].bindings.apply(to: object, traits: traits) }
        } else {
          entries[index].bindings.apply(to: object, traits: global)
        }
      }
    }
    if foundFreed { sweep() }
  }

  /// The number of objects with live bindings, after dropping the dead entries.
  var liveCount: Int {
    sweep()
    return entries.count
  }

  func removeAll() {
    entries.removeAll()
    places.removeAll()
    sweepThreshold = 64
  }

  /// Removes the entry at `place`; the last entry takes its place.
  private func remove(at place: Int) {
    if let object = entries[place].object { places[ObjectIdentifier(object)] = nil }
    let last = entries.count - 1
    if place != last {
      entries.swapAt(place, last)
      if let moved = entries[place].object { places[ObjectIdentifier(moved)] = place }
    }
    entries.removeLast()
  }

  /// Drops the entries of freed objects, keeping the others in order.
  private func sweep() {
    entries.removeAll { $0.object == nil }
    places.removeAll(keepingCapacity: true)
    for (place, entry) in entries.enumerated() {
      if let object = entry.object { places[ObjectIdentifier(object)] = place }
    }
    sweepThreshold = max(64, entries.count * 2)
  }
}
