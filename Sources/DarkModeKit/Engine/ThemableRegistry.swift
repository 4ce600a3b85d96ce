/// The bindings of objects that are not in the hierarchy: they follow the global collection (or,
/// for a custom trait environment, its own collection) and are re-applied after each global change.
///
/// The entries lie in one array, in the order their objects were first bound, and a dictionary
/// finds an object's entry: a switch reads them one after the other, and only an object that is
/// its own trait environment makes its collection current for itself (checked once, when it is
/// first bound). Entries do not keep their object alive (see ``UnownedObject``); entries of
/// deallocated objects are dropped after each global change that finds one, and whenever the table
/// has doubled since the last sweep. Until then an entry keeps its object's memory (where
/// `UnownedObject.keepsMemory`: not with Objective-C interoperability), so an address in the table
/// is never another object's.
@MainActor
final class ThemableRegistry {
  static let shared = ThemableRegistry()

  struct Entry {
    let object: UnownedObject
    var bindings = BindingList()
    /// Whether the object is a ``DMTraitEnvironment``, whose bindings follow its own collection.
    let hasOwnTraits: Bool
  }

  /// The object of the entry at `entry`, in place (see ``UnownedObject``).
  @inline(__always)
  private static func object(of entry: UnsafePointer<Entry>) -> UnsafePointer<UnownedObject> {
    entry.pointer(to: \.object).unsafelyUnwrapped
  }

  /// Whether the entry at `place` is the one of `object`.
  private func holds(_ object: AnyObject, at place: Int) -> Bool {
    entries.withUnsafeBufferPointer { entries in
      UnownedObject.retained(Self.object(of: entries.baseAddress.unsafelyUnwrapped + place)) === object
    }
  }

  private var entries: [Entry] = []
  /// Where the entry of the object at each address is in `entries`.
  private var places: [UnsafeMutableRawPointer: Int] = [:]
  private var sweepThreshold = 64
  /// Counts the changes of the registry, so that a switch knows when a setter changed it.
  private var version: UInt64 = 0

  private init() {}

  /// The place of the live entry of `object`, if it has one.
  private func place(of object: AnyObject) -> Int? {
    guard let place = places[Unmanaged.passUnretained(object).toOpaque()] else { return nil }
    // An entry that keeps its object's memory is the only one at that address; otherwise a freed
    // object's entry may name the address of a new object.
    guard UnownedObject.keepsMemory || holds(object, at: place) else { return nil }
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
    let entry = Entry(object: UnownedObject(object), hasOwnTraits: object is any DMTraitEnvironment)
    // The entry of a freed object at this address, which only a reference that keeps no memory
    // leaves (see `place(of:)`), goes first.
    if let stale = places[entry.object.address] { dropped.append(remove(at: stale)) }
    places[entry.object.address] = entries.count
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
  /// The entries are read in place from a copy of the array, which keeps their lists alive; an
  /// entry is neither copied nor its list retained. Where entries keep their object's memory, a
  /// planned list (see `BindingPlans`) is written into it without a reference, once the object is
  /// found alive: the values' code may free it meanwhile, but then only its kept memory is
  /// written. Anything else runs the app's code with the object, and holds a strong reference to
  /// it while it does. A setter may bind or unbind properties meanwhile: from then on, each
  /// object's list is looked up again, so that an object whose bindings changed gets its new ones
  /// and an object no longer bound gets none.
  func applyAll(_ global: DMTraitCollection) {
    PassGeneration.advance()
    let entries = self.entries
    let versionAtStart = version
    let plans = TraitPropagator.shared.plans
    var foundFreed = false
    /// Applies the list at `list`, read in place, to `object`, for its own collection when it has
    /// one.
    func apply(at list: UnsafeMutablePointer<BindingList>, to object: AnyObject, hasOwnTraits: Bool) {
      if hasOwnTraits, let environment = object as? any DMTraitEnvironment {
        let traits = environment.dmTraitCollection
        PassContext.withCurrent(traits) { apply(at: list, to: object, traits: traits) }
      } else {
        apply(at: list, to: object, traits: global)
      }
    }
    /// Applies the list at `list`, read in place, to `object`, for `traits`; when the app's code
    /// changed lists meanwhile, the object's list as it is now.
    func apply(at list: UnsafeMutablePointer<BindingList>, to object: AnyObject, traits: DMTraitCollection) {
      guard !BindingList.apply(at: list, to: object, traits: traits, plans: plans) else { return }
      applyCurrentOneByOne(to: object, traits: traits)
    }
    /// Sets the object's list as it is now, one binding at a time.
    func applyCurrentOneByOne(to object: AnyObject, traits: DMTraitCollection) {
      guard let place = place(of: object) else { return }
      // A copy, which keeps the list alive while its setters run.
      var current = self.entries[place].bindings
      BindingList.applyOneByOne(at: &current, to: object, traits: traits)
    }
    // The values of the planned storage set last in this loop, for `global` in this pass, while
    // nothing else resolves values: the storage lives while `entries` holds it, so no other
    // storage takes its address meanwhile.
    var kept = BindingPlans.KeptRun()
    PassContext.withCurrent(global) {
      entries.withUnsafeBufferPointer { buffer in
        guard let first = buffer.baseAddress else { return }
        // Only read: the lists are read through mutable pointers, as the walk reads them.
        let base = UnsafeMutablePointer(mutating: first)
        for index in 0..<buffer.count {
          let entry = base + index
          let object = Self.object(of: entry)
          guard UnownedObject.isAlive(object) else {
            foundFreed = true
            continue
          }
          var outcome = BindingPlans.Outcome.notPlanned
          if UnownedObject.keepsMemory, version == versionAtStart, !entry.pointee.hasOwnTraits {
            let list = entry.pointer(to: \.bindings).unsafelyUnwrapped
            // Objects bound alike one after the other: the values set last, copied again.
            let storage = BindingList.storageAddress(at: list)
            if storage != nil, storage == kept.storageInPieces {
              assert(plans.holds(kept), "values kept by the themable loop were resolved again meanwhile")
              kept.copyInPieces(to: object.pointee.address)
              continue
            }
            if storage != nil, storage == kept.storage {
              assert(plans.holds(kept), "values kept by the themable loop were resolved again meanwhile")
              kept.copy(to: object.pointee.address)
              continue
            }
            outcome = BindingList.applyPlanned(
              at: list, to: object.pointee.address, traits: global, plans: plans)
            if outcome == .applied {
              // The run is this list's only if the list has storage (an empty one sets nothing).
              let run = plans.keptRun
              kept = run.storage == storage ? run : BindingPlans.KeptRun()
              continue
            }
          }
          // Values may be resolved from here on, into the entry the kept values are in.
          kept = BindingPlans.KeptRun()
          guard let object = UnownedObject.retained(object) else {
            foundFreed = true
            continue
          }
          if outcome == .listsChanged {
            applyCurrentOneByOne(to: object, traits: global)
          } else if version == versionAtStart {
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

  /// The address of the storage of `object`'s bindings, if it has any (for tests).
  func storageAddress(of object: AnyObject) -> UnsafeMutableRawPointer? {
    place(of: object).flatMap { entries[$0].bindings.storageAddress }
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
    places[entries[place].object.address] = nil
    let last = entries.count - 1
    if place != last {
      entries.swapAt(place, last)
      places[entries[place].object.address] = place
    }
    return entries.removeLast()
  }

  /// Drops the entries of freed objects, keeping the others in order, in storage that fits them;
  /// returns the entries as they were, for the caller to let go of after the change.
  private func sweep() -> [Entry] {
    version &+= 1
    var old: [Entry] = []
    swap(&old, &entries)
    old.withUnsafeBufferPointer { old in
      for index in old.indices
      where UnownedObject.isAlive(Self.object(of: old.baseAddress.unsafelyUnwrapped + index)) {
        entries.append(old[index])
      }
    }
    var places: [UnsafeMutableRawPointer: Int] = [:]
    for (place, entry) in entries.enumerated() { places[entry.object.address] = place }
    self.places = places
    sweepThreshold = max(64, entries.count * 2)
    return old
  }
}
