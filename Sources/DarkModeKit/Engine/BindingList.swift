/// The bindings of one object, at most one per key path, in the order they were made.
///
/// The bindings live in one tail-allocated ``BindingStorage``. Most objects bind a few properties
/// to values that many objects share (palette colours), in the same order: a list of up to
/// ``BindingStorage/sharedLimit`` bindings through key paths is shared by every object with the
/// same bindings (see ``BindingShapes``), so that each of them holds one pointer, and a pass
/// reads the same storage for all of them. A shared storage never changes; a change of the list
/// gives it other storage.
///
/// A longer list has storage of its own, which changes in place outside a pass when the list
/// alone holds it: a new binding goes into spare room at the end (the storage grows by half again
/// when full), a replaced one takes its old place, and an unbound one leaves a tombstone, a
/// binding that sets nothing, until tombstones are half the storage. A large storage finds a key
/// path through an index. So binding, asking about and unbinding k properties of one object cost
/// time in proportion to k.
///
/// A pass reads a list in place, without retaining it: a change of the storage it is reading
/// while the app's code runs (a setter binding properties of its own object) builds new storage
/// instead, and the propagator keeps the old one until the pass ends.
@MainActor
struct BindingList {
  private var storage: BindingStorage?

  /// The address of the list's storage, `nil` for none: two lists with the same address at two
  /// moments are the same storage only if it lived in between (for tests).
  var storageAddress: UnsafeMutableRawPointer? { storage.map { Unmanaged.passUnretained($0).toOpaque() } }

  nonisolated init() {}

  var isEmpty: Bool { storage == nil }

  /// What a change of a list lets go of: the caller lets go of it only once its access to the
  /// list is over, because letting go of a binding may run a deinitializer (of what a setter
  /// captured) that binds or unbinds properties of the same object.
  struct Released {
    var binding: Binding?
    var storage: BindingStorage?
  }

  /// Counts the changes of every list, so that a pass knows when the app's code changed one while
  /// it resolved values (see `BindingPlans`).
  @exclusivity(unchecked) static var changeCount: UInt64 = 0

  /// Counts a change of a list, here and for a walk's run of common cases (see `RunBreaks`).
  private static func countChange() {
    changeCount &+= 1
    RunBreaks.count &+= 1
  }

  @discardableResult
  mutating func set(_ binding: Binding) -> Released {
    Self.countChange()
    let index = storage?.index(of: binding.keyPath)
    if canChangeInPlace, let storage {
      if let index { return Released(binding: storage.replace(at: index, with: binding)) }
      if storage.appendInPlace(binding) { return Released() }
    }
    return replaceStorage(
      with: BindingShapes.shared(BindingStorage.copy(of: storage, replacing: index, with: binding)))
  }

  @discardableResult
  mutating func remove(_ keyPath: AnyKeyPath) -> Released {
    Self.countChange()
    guard let index = storage?.index(of: keyPath) else { return Released() }
    if storage?.liveCount == 1 { return replaceStorage(with: nil) }
    // Checked before anything else holds the storage.
    if canChangeInPlace { return Released(binding: storage.unsafelyUnwrapped.removeInPlace(at: index)) }
    return replaceStorage(with: BindingShapes.shared(BindingStorage.copy(of: storage, removing: index)))
  }

  func contains(_ keyPath: AnyKeyPath) -> Bool {
    storage?.index(of: keyPath) != nil
  }

  /// The storage a pass is reading in place while it runs the app's setters, which must not
  /// change under it; see `reading(_:_:)`. (A planned storage, whose values' code a pass also runs
  /// while reading it, is shared, and a shared storage never changes in place.)
  @exclusivity(unchecked) private static var storageBeingRead: UnsafeMutableRawPointer?

  /// Runs `body`, which reads the storage at `address` in place and calls the app's code, with
  /// that storage kept from changing in place.
  @inline(__always)
  private static func reading<Result>(_ address: UnsafeMutableRawPointer, _ body: () -> Result) -> Result {
    let outer = storageBeingRead
    storageBeingRead = address
    defer { storageBeingRead = outer }
    return body()
  }

  /// Whether the storage may change in place: when it is not shared, this list alone holds it,
  /// and no pass reads it at the moment (a pass reads a list in place while a setter of its object
  /// runs). So binding many properties of one object costs time in proportion to their number
  /// during a pass too, in a callback say.
  private var canChangeInPlace: Bool {
    mutating get {
      // Asked first: a reference taken for the other questions would count as another holder.
      guard isKnownUniquelyReferenced(&storage), storage?.isShared == false else { return false }
      return !TraitPropagator.shared.isRunning
        || Self.storageBeingRead != storage.map { Unmanaged.passUnretained($0).toOpaque() }
    }
  }

  /// The storage, for tests: lists with the same bindings share it.
  var storageIdentity: ObjectIdentifier? { storage.map(ObjectIdentifier.init) }

  /// Whether the binding of `keyPath` writes its value straight into the object; `nil` when the
  /// key path is not bound. For tests.
  func writesInPlace(_ keyPath: AnyKeyPath) -> Bool? {
    guard let storage, let index = storage.index(of: keyPath) else { return nil }
    return storage[index].property.offset >= 0
  }

  /// The address of the storage of the list at `list`, read in place without retaining it: a list
  /// is its storage's reference.
  @inline(__always)
  static func storageAddress(at list: UnsafeMutablePointer<BindingList>) -> UnsafeMutableRawPointer? {
    UnsafeMutableRawPointer(list).load(as: UnsafeMutableRawPointer?.self)
  }

  /// Sets every bound property of `object` for `traits`, from the list at `list`, read in place:
  /// a pass reads the list of each object it visits where the object holds it, without retaining
  /// the storage or what the bindings refer to, as reference counting would cost more than the
  /// setting.
  ///
  /// A setter may still bind or unbind properties of `object` meanwhile: the list then gets new
  /// storage, and the old one is kept until the pass ends (by the propagator for an environment,
  /// see `replaceStorage(with:)`; by the copy of its entries that a themable switch reads). So only
  /// a pass reads a list in place; a debug build checks it.
  ///
  /// - Returns: `false` when the app's code bound or unbound properties while the values were
  ///   resolved: nothing was set, and the caller sets the object's list as it is now with
  ///   `applyOneByOne(at:to:traits:)`.
  @inline(__always)
  static func apply(
    at list: UnsafeMutablePointer<BindingList>, to object: AnyObject, traits: DMTraitCollection,
    plans: BindingPlans
  ) -> Bool {
    assert(TraitPropagator.shared.isRunning, "bindings are read in place only during a pass")
    guard let address = storageAddress(at: list) else { return true }
    switch plans.apply(address, to: Unmanaged.passUnretained(object).toOpaque(), traits: traits) {
    case .applied: return true
    case .notPlanned:
      applyOneByOne(address, to: object, traits: traits)
      return true
    case .listsChanged: return false
    }
  }

  /// Sets every bound property of the object at `object` for `traits`, from the list at `list`,
  /// read in place, when its storage is planned (see `BindingPlans`): then only plain bytes are
  /// written, and the object needs only its memory, not a reference. An empty list counts as
  /// applied.
  @inline(__always)
  static func applyPlanned(
    at list: UnsafeMutablePointer<BindingList>, to object: UnsafeMutableRawPointer,
    traits: DMTraitCollection, plans: BindingPlans
  ) -> BindingPlans.Outcome {
    assert(TraitPropagator.shared.isRunning, "bindings are read in place only during a pass")
    guard let address = storageAddress(at: list) else { return .applied }
    return plans.apply(address, to: object, traits: traits)
  }

  /// Sets every bound property of `object` for `traits`, from the list at `list`, read in place,
  /// one binding at a time.
  static func applyOneByOne(
    at list: UnsafeMutablePointer<BindingList>, to object: AnyObject, traits: DMTraitCollection
  ) {
    guard let address = storageAddress(at: list) else { return }
    applyOneByOne(address, to: object, traits: traits)
  }

  /// Sets every bound property of `object` for `traits`, from the storage at `address`, one
  /// binding at a time.
  @inline(__always)
  private static func applyOneByOne(
    _ address: UnsafeMutableRawPointer, to object: AnyObject, traits: DMTraitCollection
  ) {
    // A setter may bind properties of `object`: not into the storage read here.
    reading(address) {
      Unmanaged<BindingStorage>.fromOpaque(address).borrow { storage in
        storage.withElements { elements, count in
          for index in 0..<count {
            let binding = elements + index
            let source = Unmanaged.passUnretained(binding.pointee.source)
            Unmanaged.passUnretained(binding.pointee.property).borrow { property in
              property.store(
                object, source, property.offset, Unmanaged.passUnretained(property.keyPath), traits)
            }
          }
        }
      }
    }
  }

  /// Puts `new` in place of the current storage, which a running pass may still be reading: the
  /// propagator keeps it until the pass ends.
  private mutating func replaceStorage(with new: BindingStorage?) -> Released {
    let old = storage
    if let old { TraitPropagator.shared.keepUntilPassEnds(old) }
    storage = new
    return Released(storage: old)
  }
}

/// The slots in use of a ``BindingStorage``, tombstones included, how many are tombstones, and
/// whether the storage is shared (see ``BindingShapes``).
struct BindingStorageHeader {
  var count: Int32
  var tombstones: Int32
  var isShared = false
  /// The number of a planned storage, never the same for two, and 0 for a storage that is not
  /// planned: a pass copies the values of a planned storage, resolved once, into each object that
  /// holds it, and keeps them under this number (an address may be reused by another storage
  /// during a pass). See `BindingPlans`.
  var serial: UInt64 = 0
}

/// A binding list's bindings in one allocation: the slots in use (tombstones included), and
/// how many of them are tombstones. Changed in place only outside passes (see ``BindingList``).
final class BindingStorage: ManagedBuffer<BindingStorageHeader, Binding> {
  typealias Header = BindingStorageHeader

  /// From this capacity on, a storage finds key paths through an index.
  static let indexedCapacity = 32

  /// The room a storage for `count` bindings gets: exactly that for a few, half again more from
  /// four on.
  static func capacity(for count: Int) -> Int {
    count < 4 ? count : count + count / 2
  }

  /// Makes storage for `count` bindings with room for `capacity`; `initialize` must initialize
  /// the first `count`.
  static func make(
    count: Int, capacity: Int? = nil, _ initialize: (UnsafeMutablePointer<Binding>) -> Void
  ) -> BindingStorage {
    let storage = unsafeDowncast(
      BindingStorage.create(minimumCapacity: capacity ?? count) { _ in
        Header(count: Int32(count), tombstones: 0)
      }, to: BindingStorage.self)
    storage.withUnsafeMutablePointerToElements(initialize)
    return storage
  }

  /// New storage with the live bindings of `old`, in order, except the one at `removing`, with
  /// `binding` in place of the one at `replacing`, or after the others.
  @MainActor
  static func copy(
    of old: BindingStorage?, replacing: Int? = nil, with binding: Binding? = nil, removing: Int? = nil
  ) -> BindingStorage {
    let count =
      (old?.liveCount ?? 0) - (removing == nil ? 0 : 1) + (replacing == nil && binding != nil ? 1 : 0)
    return make(count: count, capacity: capacity(for: count)) { elements in
      var position = 0
      old?.withElements { oldElements, oldCount in
        for slot in 0..<oldCount where slot != removing && !oldElements[slot].isTombstone {
          (elements + position).initialize(to: slot == replacing ? binding! : oldElements[slot])
          position += 1
        }
      }
      if replacing == nil, let binding { (elements + position).initialize(to: binding) }
    }
  }

  var count: Int { Int(header.count) }

  /// Whether lists with the same bindings share this storage, which then never changes.
  var isShared: Bool { header.isShared }

  /// The longest list whose storage is shared.
  static let sharedLimit = 8

  /// The bindings that are not tombstones.
  var liveCount: Int { Int(header.count - header.tombstones) }

  private var isIndexed: Bool { capacity >= Self.indexedCapacity }

  subscript(position: Int) -> Binding {
    withUnsafeMutablePointerToElements { $0[position] }
  }

  @MainActor
  func index(of keyPath: AnyKeyPath) -> Int? {
    guard isIndexed else {
      return withElements { elements, count in
        (0..<count).first { elements[$0].keyPath == keyPath }
      }
    }
    let id = ObjectIdentifier(self)
    return Self.indexes.withLock { indexes in
      if indexes[id] == nil { indexes[id] = keyPathIndex() }
      return indexes[id]![keyPath]
    }
  }

  /// Puts `binding` in place of the one at `index`, for the same key path.
  @MainActor
  /// - Returns: The binding it replaced, for the caller to let go of.
  func replace(at index: Int, with binding: Binding) -> Binding {
    withUnsafeMutablePointerToElements { elements in
      let old = (elements + index).move()
      (elements + index).initialize(to: binding)
      return old
    }
  }

  /// Adds `binding` after the others if there is room; whether there was.
  @MainActor
  func appendInPlace(_ binding: Binding) -> Bool {
    guard count < capacity else { return false }
    let slot = count
    withUnsafeMutablePointers { header, elements in
      (elements + slot).initialize(to: binding)
      header.pointee.count += 1
    }
    if isIndexed { Self.indexes.withLock { $0[ObjectIdentifier(self)]?[binding.keyPath] = slot } }
    return true
  }

  /// Takes out the binding at `index`: the last one goes, any other leaves a tombstone, and the
  /// tombstones go once they are half the storage.
  ///
  /// The removed binding is returned rather than let go of: letting it go may run an object's
  /// deinitializer (a setter's captures), which may bind or unbind properties of the same object
  /// (see `BindingList.Released`).
  /// - Returns: The binding it removed, for the caller to let go of.
  @MainActor
  func removeInPlace(at index: Int) -> Binding {
    let removed = withUnsafeMutablePointers { header, elements -> Binding in
      let removed = (elements + index).move()
      if index == Int(header.pointee.count) - 1 {
        header.pointee.count -= 1
      } else {
        (elements + index).initialize(to: Binding.tombstone)
        header.pointee.tombstones += 1
      }
      return removed
    }
    if isIndexed {
      Self.indexes.withLock { _ = $0[ObjectIdentifier(self)]?.removeValue(forKey: removed.keyPath) }
    }
    if header.tombstones * 2 > header.count { compact() }
    return removed
  }

  /// Moves the live bindings together, in order, and lets the tombstones go.
  @MainActor
  private func compact() {
    withUnsafeMutablePointers { header, elements in
      var kept = 0
      for slot in 0..<Int(header.pointee.count) {
        if elements[slot].isTombstone {
          (elements + slot).deinitialize(count: 1)
        } else {
          if kept != slot { (elements + kept).moveInitialize(from: elements + slot, count: 1) }
          kept += 1
        }
      }
      header.pointee.count = Int32(kept)
      header.pointee.tombstones = 0
    }
    if isIndexed { Self.indexes.withLock { $0[ObjectIdentifier(self)] = nil } }
  }

  /// The slot of each live binding, by key path.
  @MainActor
  private func keyPathIndex() -> [AnyKeyPath: Int] {
    withElements { elements, count in
      var index: [AnyKeyPath: Int] = [:]
      index.reserveCapacity(count)
      for slot in 0..<count where !elements[slot].isTombstone { index[elements[slot].keyPath] = slot }
      return index
    }
  }

  /// The key-path indexes of large storages, made when first needed and kept up to date by the
  /// changes in place; a storage's goes with it.
  private static let indexes = Locked<[ObjectIdentifier: [AnyKeyPath: Int]]>([:])

  /// Runs `body` with the bindings in place and their count.
  ///
  /// Not isolated, so that a closure handed to it from main-actor code is not checked for
  /// running on the main actor each time it is called.
  @inline(__always)
  func withElements<Result>(_ body: (UnsafeMutablePointer<Binding>, Int) -> Result) -> Result {
    withUnsafeMutablePointers { header, elements in body(elements, Int(header.pointee.count)) }
  }

  deinit {
    if header.isShared {
      // The table hands out shared storages on the main actor; one freed elsewhere at the same
      // time could be handed out as it goes. Every list that holds storage lives on the main
      // actor (`DMResponder` has an isolated deinitializer).
      assert(MainActorCheck.isOnMainActor, "a shared binding list was freed off the main actor")
      BindingShapes.forget(self)
    }
    if capacity >= Self.indexedCapacity {
      let id = ObjectIdentifier(self)
      Self.indexes.withLock { _ = $0.removeValue(forKey: id) }
    }
    withUnsafeMutablePointers { header, elements in
      _ = elements.deinitialize(count: Int(header.pointee.count))
    }
  }
}

/// The shared storages of binding lists, by their bindings: an object that binds the same
/// properties to the same values, in the same order, as another gets the other's storage.
///
/// The table does not keep a storage alive: a shared storage takes itself out when it goes (and
/// its deinitializer runs on the main actor, as the objects whose lists hold it are freed there).
/// A storage whose bindings hash like another's with other bindings stays unshared.
enum BindingShapes {
  private static let table = Locked<[Int: Unmanaged<BindingStorage>]>([:])

  /// The shared storage with the bindings of `made`, a new storage that nothing else holds yet:
  /// one found in the table, or `made` itself, now shared; `made` as it is when it cannot be
  /// shared (a binding through a setter of its own, which no other list can have, or more than
  /// ``BindingStorage/sharedLimit`` bindings).
  @MainActor
  static func shared(_ made: BindingStorage?) -> BindingStorage? {
    guard let made, made.count <= BindingStorage.sharedLimit, let hash = shapeHash(of: made) else {
      return made
    }
    // Alive: shared storages go on the main actor, which this is (see `deinit`).
    if let existing = table.withLock({ $0[hash] })?.takeUnretainedValue() {
      return hasSameBindings(existing, made) ? existing : made
    }
    made.header.isShared = true
    made.header.serial = BindingPlans.canPlan(made) ? BindingPlans.nextSerial() : 0
    table.withLock { $0[hash] = .passUnretained(made) }
    return made
  }

  /// Takes a shared storage out of the table, from its deinitializer.
  static func forget(_ storage: BindingStorage) {
    guard let hash = shapeHash(of: storage) else { return }
    table.withLock { table in
      if table[hash]?.toOpaque() == Unmanaged.passUnretained(storage).toOpaque() { table[hash] = nil }
    }
  }

  /// The number of shared storages, for tests.
  static var count: Int { table.withLock { $0.count } }

  /// A hash of the bindings' properties and values, in order; `nil` when one of them is a
  /// tombstone or sets its property through a setter of its own.
  private static func shapeHash(of storage: BindingStorage) -> Int? {
    storage.withElements { elements, count in
      var hasher = Hasher()
      for index in 0..<count {
        let binding = elements[index]
        guard binding.property.offset != StoredProperty.throughSetter else { return nil }
        hasher.combine(ObjectIdentifier(binding.property))
        hasher.combine(ObjectIdentifier(binding.source))
      }
      hasher.combine(count)
      return hasher.finalize()
    }
  }

  private static func hasSameBindings(_ first: BindingStorage, _ second: BindingStorage) -> Bool {
    first.withElements { firstElements, firstCount in
      second.withElements { secondElements, secondCount in
        firstCount == secondCount
          && (0..<firstCount).allSatisfy {
            firstElements[$0].property === secondElements[$0].property
              && firstElements[$0].source === secondElements[$0].source
          }
      }
    }
  }
}
