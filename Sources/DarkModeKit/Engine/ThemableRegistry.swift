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

  struct Entry {
    weak var object: AnyObject?
    var bindings = BindingList()
    /// Whether the object is a ``DMTraitEnvironment``, whose bindings follow its own collection.
    let hasOwnTraits: Bool
  }

  private var entries: [Entry] = []
  /// Where each object's entry is in `entries`.
  private var places: [ObjectIdentifier: Int] = [:]
  private var sweepThreshold = 64
  /// Counts the changes of the registry, so that a switch knows when a setter changed it.
  private var version: UInt64 = 0

  private init() {}

  /// The place of the live entry of `object`, if it has one.
  private func place(of object: AnyObject) -> Int? {
    guard let place = places[ObjectIdentifier(object)], place < entries.count,
      entries[place].object === object
    else { return nil }
    return place
  }

  /// What a change of the registry lets go of: the caller lets go of it after the change, as
  /// letting go of bindings may run deinitializers that change the registry again.
  struct Released {
    var list: BindingList.Released
    var entries: [Entry] = []
  }

  /// - Returns: What the change let go of, for the caller to let go of after it.
  func bind(_ object: AnyObject, _ binding: Binding) -> Released {
    version &+= 1
    if let place = place(of: object) { return Released(list: entries[place].bindings.set(binding)) }
    var dropped = entries.count >= sweepThreshold ? sweep() : []
    // An entry of a freed object whose address this one reuses goes first. (The place of a freed
    // object's entry may since hold another entry, or none: entries move when others go.)
    if let stale = places[ObjectIdentifier(object)], stale < entries.count, entries[stale].object == nil {
      dropped.append(remove(at: stale))
    }
    places[ObjectIdentifier(object)] = entries.count
    entries.append(Entry(object: object, hasOwnTraits: object is any DMTraitEnvironment))
    return Released(list: entries[entries.count - 1].bindings.set(binding), entries: dropped)
  }

  /// - Returns: What the change let go of, for the caller to let go of after it.
  func unbind(_ object: AnyObject, _ keyPath: AnyKeyPath) -> Released {
    guard let place = place(of: object) else { return Released(list: BindingList.Released()) }
    version &+= 1
    let released = entries[place].bindings.remove(keyPath)
    guard entries[place].bindings.isEmpty else { return Released(list: released) }
    return Released(list: released, entries: [remove(at: place)])
  }

  func isBound(_ object: AnyObject, _ keyPath: AnyKeyPath) -> Bool {
    guard let place = place(of: object) else { return false }
    return entries[place].bindings.contains(keyPath)
  }

  /// Re-applies every live binding for the new global collection.
  ///
  /// The entries are read in place from a copy of the array, which keeps their lists alive; an
  /// entry is neither copied nor its list retained. A setter may bind or unbind properties
  /// meanwhile: from then on, each object's list is looked up again, so that an object whose
  /// bindings changed gets its new ones and an object no longer bound gets none.
  func applyAll(_ global: DMTraitCollection) {
    PassGeneration.advance()
    let entries = self.entries
    let versionAtStart = version
    let plans = TraitPropagator.shared.plans
    var foundFreed = false
    /// Applies the list at `list`, read in place, to `object`, for `traits`; when the app's code
    /// changed lists meanwhile, the object's list as it is now.
    func apply(at list: UnsafeMutablePointer<BindingList>, to object: AnyObject, traits: DMTraitCollection) {
      guard !BindingList.apply(at: list, to: object, traits: traits, plans: plans),
        let place = place(of: object)
      else { return }
      // A copy, which keeps the list alive while its setters run.
      var current = self.entries[place].bindings
      BindingList.applyOneByOne(at: &current, to: object, traits: traits)
    }
    /// Applies the list at `list` to `object`, for its own collection when it has one.
    func apply(at list: UnsafeMutablePointer<BindingList>, to object: AnyObject, hasOwnTraits: Bool) {
      if hasOwnTraits, let environment = object as? any DMTraitEnvironment {
        let traits = environment.dmTraitCollection
        PassContext.withCurrent(traits) { apply(at: list, to: object, traits: traits) }
      } else {
        apply(at: list, to: object, traits: global)
      }
    }
    PassContext.withCurrent(global) {
      entries.withUnsafeBufferPointer { buffer in
        guard let first = buffer.baseAddress else { return }
        // Only read: the lists are read through mutable pointers, as the walk reads them.
        let base = UnsafeMutablePointer(mutating: first)
        for index in 0..<buffer.count {
          let entry = base + index
          guard let object = entry.pointee.object else {
            foundFreed = true
            continue
          }
          if version == versionAtStart {
            apply(at: &entry.pointee.bindings, to: object, hasOwnTraits: entry.pointee.hasOwnTraits)
          } else if let place = place(of: object) {
            var current = self.entries[place].bindings
            apply(at: &current, to: object, hasOwnTraits: entry.pointee.hasOwnTraits)
          }
        }
      }
    }
    if foundFreed { withExtendedLifetime(sweep()) {} }
  }

  /// The number of objects with live bindings, after dropping the dead entries.
  var liveCount: Int {
    withExtendedLifetime(sweep()) {}
    return entries.count
  }

  func removeAll() {
    version &+= 1
    var dropped: [Entry] = []
    swap(&dropped, &entries)
    places = [:]
    sweepThreshold = 64
    withExtendedLifetime(dropped) {}
  }

  /// Removes the entry at `place`, and returns it for the caller to let go of; the last entry
  /// takes its place.
  private func remove(at place: Int) -> Entry {
    if let object = entries[place].object { places[ObjectIdentifier(object)] = nil }
    let last = entries.count - 1
    if place != last {
      entries.swapAt(place, last)
      if let moved = entries[place].object { places[ObjectIdentifier(moved)] = place }
    }
    return entries.removeLast()
  }

  /// Drops the entries of freed objects, keeping the others in order, in storage that fits them;
  /// returns the entries as they were, for the caller to let go of after the change.
  private func sweep() -> [Entry] {
    version &+= 1
    var old: [Entry] = []
    swap(&old, &entries)
    entries = old.filter { $0.object != nil }
    var places: [ObjectIdentifier: Int] = [:]
    for (place, entry) in entries.enumerated() {
      if let object = entry.object { places[ObjectIdentifier(object)] = place }
    }
    self.places = places
    sweepThreshold = max(64, entries.count * 2)
    return old
  }
}
