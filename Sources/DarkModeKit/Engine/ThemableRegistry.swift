/// The bindings of objects that are not in the hierarchy: they follow the global collection (or,
/// for a custom trait environment, its own collection) and are re-applied after each global change.
///
/// The entries lie in one array, in the order their objects were first bound, and a dictionary
/// finds an object's entry: a switch reads them one after the other, and only an object that is
/// its own trait environment makes its collection current for itself (checked once, when it is
/// first bound). Entries hold their object weakly; entries of deallocated objects are dropped
/// after each global change that finds one, and whenever the table has doubled since the last
/// sweep. A freed object's identity may be a new object's: an entry counts as an object's only
/// while it still holds that object.
@MainActor
final class ThemableRegistry {
  static let shared = ThemableRegistry()

  struct Entry {
    /// The object, held weakly in an object of its own: copying a weak reference costs two atomic
    /// operations on the object's side table, copying this reference one on this object.
    private let reference: WeakReference
    /// The object's identity when it was bound, which finds the entry in `places`.
    let id: ObjectIdentifier
    var bindings = BindingList()
    /// Whether the object is a ``DMTraitEnvironment``, whose bindings follow its own collection.
    let hasOwnTraits: Bool

    init(_ object: AnyObject) {
      reference = WeakReference(object)
      id = ObjectIdentifier(object)
      hasOwnTraits = object is any DMTraitEnvironment
    }

    /// The object, while it lives.
    var object: AnyObject? { reference.object }
  }

  private final class WeakReference {
    weak var object: AnyObject?

    init(_ object: AnyObject) {
      self.object = object
    }
  }

  private var entries: [Entry] = []
  /// Where the entry of each object is in `entries`, by identity.
  private var places: [ObjectIdentifier: Int] = [:]
  private var sweepThreshold = 64
  /// Counts the changes of the registry, so that a switch knows when a setter changed it.
  private var version: UInt64 = 0

  private init() {}

  /// The place of the live entry of `object`, if it has one.
  private func place(of object: AnyObject) -> Int? {
    // A freed object's entry may name the identity of a new object.
    guard let place = places[ObjectIdentifier(object)], entries[place].object === object else { return nil }
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
    let entry = Entry(object)
    // The entry of a freed object with the same identity goes first (see `place(of:)`).
    if let stale = places[entry.id] { dropped.append(remove(at: stale)) }
    places[entry.id] = entries.count
    entries.append(entry)
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
  /// The entries are read from a copy of the array, which keeps their lists as they are; each
  /// object is held strongly while its setters run. A setter may bind or unbind properties
  /// meanwhile: from then on, each object's list is looked up again, so that an object whose
  /// bindings changed gets its new ones and an object no longer bound gets none.
  func applyAll(_ global: DMTraitCollection) {
    PassGeneration.advance()
    let entries = self.entries
    let versionAtStart = version
    var foundFreed = false
    // The storage of the list set last (see `BindingList.hold(in:)`).
    var held: UnsafeBindingStorage?
    PassContext.withCurrent(global) {
      for index in entries.indices {
        guard let object = entries[index].object else {
          foundFreed = true
          continue
        }
        if version == versionAtStart, !entries[index].hasOwnTraits {
          entries[index].bindings.hold(in: &held)
          held?.apply(to: object, traits: global)
        } else if let list = version == versionAtStart ? entries[index].bindings : bindings(of: object) {
          // After a setter bound or unbound, each object's list is looked up again.
          apply(list, to: object, global: global, hasOwnTraits: entries[index].hasOwnTraits)
        }
      }
    }
    if foundFreed { extendLifetime(sweep()) }
  }

  /// Applies `list` to `object`, for its own collection when it has one, else for `global`.
  private func apply(_ list: BindingList, to object: AnyObject, global: DMTraitCollection, hasOwnTraits: Bool)
  {
    if hasOwnTraits, let environment = object as? any DMTraitEnvironment {
      let traits = environment.dmTraitCollection
      PassContext.withCurrent(traits) { list.apply(to: object, traits: traits) }
    } else {
      list.apply(to: object, traits: global)
    }
  }

  /// The bindings of `object` as they are now, or `nil` when it has none.
  private func bindings(of object: AnyObject) -> BindingList? {
    place(of: object).map { entries[$0].bindings }
  }

  /// The identity of the storage of `object`'s bindings, if it has any (for tests).
  func storageIdentity(of object: AnyObject) -> ObjectIdentifier? {
    place(of: object).flatMap { entries[$0].bindings.storageIdentity }
  }

  /// The number of objects with live bindings, after dropping the dead entries.
  var liveCount: Int {
    extendLifetime(sweep())
    return entries.count
  }

  func removeAll() {
    version &+= 1
    var dropped: [Entry] = []
    swap(&dropped, &entries)
    places = [:]
    sweepThreshold = 64
    extendLifetime(dropped)
  }

  /// Removes the entry at `place`, and returns it for the caller to let go of; the last entry
  /// takes its place.
  private func remove(at place: Int) -> Entry {
    places[entries[place].id] = nil
    let last = entries.count - 1
    if place != last {
      entries.swapAt(place, last)
      places[entries[place].id] = place
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
    for (place, entry) in entries.enumerated() { places[entry.id] = place }
    self.places = places
    sweepThreshold = max(64, entries.count * 2)
    return old
  }
}
