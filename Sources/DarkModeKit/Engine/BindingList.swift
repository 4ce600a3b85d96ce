/// The bindings of one object, at most one per key path, in the order they were made.
///
/// The bindings live in one tail-allocated ``UnsafeBindingStorage``. Most objects bind a few properties
/// to values that many objects share (palette colours), in the same order: a list of up to
/// ``UnsafeBindingStorage/sharedLimit`` bindings through key paths is shared by every object with the
/// same bindings (see ``BindingShapes``), so that each of them holds one pointer, and a pass
/// reads the same storage for all of them. A shared storage's bindings never change; a change of
/// the list gives it other storage, found again without being made when another list made the
/// same change last (see ``BindingShapes/extended(from:adding:)``).
///
/// A longer list has storage of its own, which changes in place when the list alone holds it: a
/// new binding goes into spare room at the end (the storage grows by half again when full), a
/// replaced one takes its old place, and an unbound one leaves a tombstone, a binding that sets
/// nothing, until tombstones are half the storage. A large storage finds a key
/// path through an index. So binding, asking about and unbinding k properties of one object cost
/// time in proportion to k.
///
/// A pass reads a copy of a list, which keeps its storage as it is while the app's code runs: a
/// setter that binds or unbinds properties of its own object then gives that object's list other
/// storage.
@MainActor
struct BindingList {
  private var storage: UnsafeBindingStorage?

  /// The identity of the list's storage, `nil` for none: two lists with the same identity at two
  /// moments are the same storage only if it lived in between (for tests).
  var storageIdentity: ObjectIdentifier? { storage.map(ObjectIdentifier.init) }

  nonisolated init() {}

  var isEmpty: Bool { storage == nil }

  /// What a change of a list lets go of: the caller lets go of it only once its access to the
  /// list is over, because letting go of a binding may run a deinitializer (of what a setter
  /// captured) that binds or unbinds properties of the same object.
  struct Released {
    var binding: Binding?
    var storage: UnsafeBindingStorage?
  }

  @discardableResult
  mutating func set(_ binding: Binding) -> Released {
    // A walk's run of common cases looks again at lists after a change (see `RunBreaks`).
    RunBreaks.record()
    let index = storage?.index(of: binding.keyPath)
    if canChangeInPlace, let storage {
      if let index { return Released(binding: storage.replace(at: index, with: binding)) }
      if storage.appendInPlace(binding) { return Released() }
    }
    guard index == nil else {
      return replaceStorage(
        with: BindingShapes.shared(UnsafeBindingStorage.copy(of: storage, replacing: index, with: binding)))
    }
    // Objects bound alike add the same bindings in the same order: the shared storage made by
    // the last such addition is found again, without making and hashing new storage.
    if let extended = BindingShapes.extended(from: storage, adding: binding) {
      return replaceStorage(with: extended)
    }
    let made = BindingShapes.shared(UnsafeBindingStorage.copy(of: storage, with: binding))
    BindingShapes.remember(made, asExtensionOf: storage)
    return replaceStorage(with: made)
  }

  @discardableResult
  mutating func remove(_ keyPath: AnyKeyPath) -> Released {
    RunBreaks.record()
    guard let index = storage?.index(of: keyPath) else { return Released() }
    if storage?.liveCount == 1 { return replaceStorage(with: nil) }
    // Checked before anything else holds the storage.
    if canChangeInPlace { return Released(binding: storage.unsafelyUnwrapped.removeInPlace(at: index)) }
    return replaceStorage(with: BindingShapes.shared(UnsafeBindingStorage.copy(of: storage, removing: index)))
  }

  func contains(_ keyPath: AnyKeyPath) -> Bool {
    storage?.index(of: keyPath) != nil
  }

  /// Whether the storage may change in place: when it is not shared and this list alone holds it
  /// (a pass reads a copy of the list while it runs the app's setters). So binding many
  /// properties of one object costs time in proportion to their number.
  private var canChangeInPlace: Bool {
    mutating get {
      // Asked first: a reference taken for the other question would count as another holder.
      isKnownUniquelyReferenced(&storage) && storage?.isShared == false
    }
  }

  /// Sets every bound property of `object` for `traits`, in order, with the values the running
  /// pass remembers.
  ///
  /// A setter may bind or unbind properties of `object` meanwhile: this list, a copy, keeps the
  /// storage it reads as it is, and the object's list gets other storage.
  @inline(__always)
  func apply(to object: AnyObject, traits: DMTraitCollection) {
    storage?.apply(to: object, traits: traits)
  }

  /// The list's storage, which a loop over many objects bound alike holds while it sets them
  /// (see `TraitPropagator.walkCommonCases`): each object whose list ``isStored(in:)`` it is then
  /// costs no reference counting.
  var heldStorage: UnsafeBindingStorage? { storage }

  /// Makes `held` the list's storage, for a loop over many objects that sets each with
  /// `held?.apply(to:traits:)`, which then sets what ``apply(to:traits:)`` would: the next object
  /// bound alike (sharing that storage) costs no reference counting. The one step of both such
  /// loops, the siblings of a walk and the themable objects of a switch. (The list is not held
  /// while the setters run: a setter may bind or unbind, changing it.)
  @inline(__always)
  func hold(in held: inout UnsafeBindingStorage?) {
    if !isStored(in: held) { held = heldStorage }
  }

  /// Whether the list's storage is `held`: then `held.apply(to:traits:)` sets what ``apply(to:traits:)``
  /// would.
  @inline(__always)
  func isStored(in held: UnsafeBindingStorage?) -> Bool {
    storage === held
  }

  private mutating func replaceStorage(with new: UnsafeBindingStorage?) -> Released {
    let old = storage
    storage = new
    return Released(storage: old)
  }
}

/// The slots in use of a ``UnsafeBindingStorage``, tombstones included, how many are tombstones, and
/// whether the storage is shared (see ``BindingShapes``).
struct BindingStorageHeader {
  var count: Int32
  var tombstones: Int32
  var isShared = false
  /// For a shared storage, the shared storage last made from its bindings and one more, for
  /// ``BindingShapes/extended(from:adding:)``: a memo, not a part of its contents.
  weak var extended: UnsafeBindingStorage?
  /// For a shared storage made by adding a binding to a shared storage, that storage, kept alive
  /// so that objects bound alike find each step of their bindings again while one of them has
  /// them all (its bindings are a part of these: it keeps no value alive that this does not).
  var prefix: UnsafeBindingStorage?
}

/// A binding list's bindings in one allocation: the slots in use (tombstones included), and
/// how many of them are tombstones. Changed in place only while one list alone holds it (see
/// ``BindingList``).
///
/// Its invariants, which ``checkInvariants()`` checks (see `InternalChecks`): the slots in use fit
/// its room and are initialized, `tombstones` counts the tombstones among them, which are at most
/// half of them; shared storage has no tombstone and at most ``sharedLimit`` bindings; a key
/// path index, where there is one, gives the slot of every live binding and nothing else; and a
/// shared storage's remembered extension and kept prefix are shared, with its bindings and one
/// more, and its bindings but the last.
final class UnsafeBindingStorage: ManagedBuffer<BindingStorageHeader, Binding> {
  typealias Header = BindingStorageHeader

  /// From this capacity on, a storage finds key paths through an index.
  static let indexedCapacity = 32

  /// The room a storage for `count` bindings gets: exactly that for a few, half again more from
  /// four on.
  static func capacity(for count: Int) -> Int {
    count < 4 ? count : count + count / 2
  }

  /// How many storages were made since launch, for tests.
  @MainActor static var madeCount = 0

  /// Makes storage for `count` bindings with room for `capacity`; `initialize` must initialize
  /// the first `count`.
  @MainActor
  static func make(
    count: Int, capacity: Int? = nil, _ initialize: (UnsafeMutablePointer<Binding>) -> Void
  ) -> UnsafeBindingStorage {
    let storage = allocate(capacity: capacity ?? count, count: count)
    madeCount += 1
    storage.withElements { elements, _ in initialize(elements) }
    #if DARKMODEKIT_INTERNAL_CHECKS
      storage.checkInvariants()
    #endif
    return storage
  }

  /// New storage with the live bindings of `old`, in order, except the one at `removing`, with
  /// `binding` in place of the one at `replacing`, or after the others.
  @MainActor
  static func copy(
    of old: UnsafeBindingStorage?, replacing: Int? = nil, with binding: Binding? = nil, removing: Int? = nil
  ) -> UnsafeBindingStorage {
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

  /// Whether lists with the same bindings share this storage, whose bindings then never change.
  var isShared: Bool { header.isShared }

  /// The longest list whose storage is shared.
  static let sharedLimit = 8

  /// The bindings that are not tombstones.
  var liveCount: Int { Int(header.count - header.tombstones) }

  private var isIndexed: Bool { capacity >= Self.indexedCapacity }

  subscript(position: Int) -> Binding {
    withUnsafeMutablePointerToElements { $0[position] }
  }

  /// Whether the last binding sets `property` to `source`.
  @MainActor
  func lastBindingIs(property: BoundProperty, source: AnyObject) -> Bool {
    withElements { elements, count in
      count > 0 && elements[count - 1].property === property && elements[count - 1].source === source
    }
  }

  /// The slot of the binding of `keyPath`, an object of ``BoundKeyPaths``.
  @MainActor
  func index(of keyPath: AnyKeyPath) -> Int? {
    guard isIndexed else {
      // A loop, not `first(where:)`: a closure handed to the standard library from main-actor
      // code is checked for running on the main actor at each call.
      return withElements { elements, count in
        for position in 0..<count where elements[position].keyPath === keyPath { return position }
        return nil
      }
    }
    let id = ObjectIdentifier(self)
    #if DARKMODEKIT_INTERNAL_CHECKS
      defer { checkInvariants() }
    #endif
    return Self.indexes.withLock { indexes in
      if indexes[id] == nil { indexes[id] = keyPathIndex() }
      return indexes[id]![ObjectIdentifier(keyPath)]
    }
  }

  /// Puts `binding` in place of the one at `index`, for the same key path.
  @MainActor
  /// - Returns: The binding it replaced, for the caller to let go of.
  func replace(at index: Int, with binding: Binding) -> Binding {
    #if DARKMODEKIT_INTERNAL_CHECKS
      defer { checkInvariants() }
    #endif
    return withParts { _, elements in
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
    withParts { header, elements in
      (elements + slot).initialize(to: binding)
      header.pointee.count += 1
    }
    if isIndexed {
      Self.indexes.withLock { $0[ObjectIdentifier(self)]?[ObjectIdentifier(binding.keyPath)] = slot }
    }
    #if DARKMODEKIT_INTERNAL_CHECKS
      checkInvariants()
    #endif
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
    let removed = withParts { header, elements -> Binding in
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
      Self.indexes.withLock {
        _ = $0[ObjectIdentifier(self)]?.removeValue(forKey: ObjectIdentifier(removed.keyPath))
      }
    }
    if header.tombstones * 2 > header.count { compact() }
    #if DARKMODEKIT_INTERNAL_CHECKS
      checkInvariants()
    #endif
    return removed
  }

  /// Moves the live bindings together, in order, and lets the tombstones go.
  @MainActor
  private func compact() {
    withParts { header, elements in
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
  private func keyPathIndex() -> [ObjectIdentifier: Int] {
    withElements { elements, count in
      var index: [ObjectIdentifier: Int] = [:]
      index.reserveCapacity(count)
      for slot in 0..<count where !elements[slot].isTombstone {
        index[ObjectIdentifier(elements[slot].keyPath)] = slot
      }
      return index
    }
  }

  /// The key-path indexes of large storages, made when first needed and kept up to date by the
  /// changes in place; a storage's goes with it.
  private static let indexes = Locked<[ObjectIdentifier: [ObjectIdentifier: Int]]>([:])

  /// Sets every bound property of `object` for `traits`, in order (see
  /// ``BindingList/apply(to:traits:)``).
  ///
  /// The caller holds the storage, and nothing changes it meanwhile: a list changes its storage in
  /// place only when it alone holds it. So each binding is read where it lies, without retaining
  /// what it refers to, which would cost more than most setters.
  @MainActor
  @inline(__always)
  func apply(to object: AnyObject, traits: DMTraitCollection) {
    withElements { elements, count in
      for index in 0..<count {
        let binding = elements + index
        Unmanaged.passUnretained(binding.pointee.property).borrow { property in
          Unmanaged.passUnretained(binding.pointee.source).borrow { source in
            property.store(object, source, traits, false)
          }
        }
      }
    }
  }

  /// Runs `body` with the bindings in place and their count.
  ///
  /// Not isolated, so that a closure handed to it from main-actor code is not checked for
  /// running on the main actor each time it is called.
  @inline(__always)
  func withElements<Result>(_ body: (UnsafeMutablePointer<Binding>, Int) -> Result) -> Result {
    withUnsafeMutablePointers { header, elements in body(elements, Int(header.pointee.count)) }
  }

  /// The header and the slots, for `body`; not isolated, like ``withElements(_:)``.
  @inline(__always)
  private func withParts<Result>(
    _ body: (UnsafeMutablePointer<Header>, UnsafeMutablePointer<Binding>) -> Result
  ) -> Result {
    withUnsafeMutablePointers(body)
  }

  /// New storage with room for `capacity` whose header counts `count` slots in use, for the
  /// caller to initialize; not isolated, like ``withElements(_:)``.
  private static func allocate(capacity: Int, count: Int) -> UnsafeBindingStorage {
    unsafeDowncast(
      create(minimumCapacity: capacity) { _ in Header(count: Int32(count), tombstones: 0) },
      to: UnsafeBindingStorage.self)
  }

  /// Stops the program when the storage's invariants do not hold (see the type's documentation).
  @MainActor
  func checkInvariants() {
    InternalChecks.counted()
    let header = header
    precondition(
      header.tombstones >= 0 && header.tombstones <= header.count && Int(header.count) <= capacity,
      "a binding storage's slots in use are outside its room")
    precondition(
      header.tombstones * 2 <= header.count, "a binding storage kept more tombstones than bindings")
    precondition(
      !header.isShared || (header.tombstones == 0 && header.count <= Self.sharedLimit),
      "a shared binding storage has tombstones or too many bindings")
    if let extended = header.extended {
      precondition(
        header.isShared && extended.isShared && BindingShapes.isExtension(extended, of: self),
        "a binding storage's memo of its extension is not shared, or has other bindings")
    }
    if let prefix = header.prefix {
      precondition(
        header.isShared && prefix.isShared && BindingShapes.isExtension(self, of: prefix),
        "a binding storage keeps a prefix that is not shared, or has other bindings")
    }
    let index = isIndexed ? Self.indexes.withLock { $0[ObjectIdentifier(self)] } : nil
    withElements { elements, count in
      let tombstones = (0..<count).count { elements[$0].isTombstone }
      precondition(tombstones == Int(header.tombstones), "a binding storage miscounts its tombstones")
      guard let index else { return }
      precondition(index.count == count - tombstones, "a binding storage's index misses a binding")
      for (keyPath, slot) in index {
        precondition(
          slot >= 0 && slot < count && !elements[slot].isTombstone
            && ObjectIdentifier(elements[slot].keyPath) == keyPath,
          "a binding storage's index gives the wrong slot")
      }
    }
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
  private static let table = Locked<[Int: Unmanaged<UnsafeBindingStorage>]>([:])

  /// The shared storage with the bindings of `made`, a new storage that nothing else holds yet:
  /// one found in the table, or `made` itself, now shared; `made` as it is when it cannot be
  /// shared (a binding through a setter of its own, which no other list can have, or more than
  /// ``UnsafeBindingStorage/sharedLimit`` bindings).
  @MainActor
  static func shared(_ made: UnsafeBindingStorage?) -> UnsafeBindingStorage? {
    guard let made, made.count <= UnsafeBindingStorage.sharedLimit, let hash = shapeHash(of: made) else {
      return made
    }
    // Alive: shared storages go on the main actor, which this is (see `deinit`).
    if let existing = table.withLock({ $0[hash] })?.takeUnretainedValue() {
      return hasSameBindings(existing, made) ? existing : made
    }
    made.header.isShared = true
    table.withLock { $0[hash] = .passUnretained(made) }
    #if DARKMODEKIT_INTERNAL_CHECKS
      made.checkInvariants()
    #endif
    return made
  }

  /// The shared storage last made by adding one binding to an empty list.
  @MainActor private static weak var extendedFromEmpty: UnsafeBindingStorage?

  /// The shared storage with the bindings of `storage` (none, or a shared storage) and then
  /// `binding`, if the last storage made by adding a binding to `storage` has them; `nil` when it
  /// must be made.
  ///
  /// The memo is weak: a storage it gives is alive, and keeps the property and the value its last
  /// binding is compared with. Its other bindings are `storage`'s, as both never change.
  @MainActor
  static func extended(from storage: UnsafeBindingStorage?, adding binding: Binding) -> UnsafeBindingStorage?
  {
    guard binding.property.isShared else { return nil }
    let candidate: UnsafeBindingStorage?
    if let storage {
      guard storage.isShared else { return nil }
      candidate = storage.header.extended
    } else {
      candidate = extendedFromEmpty
    }
    // Both storages are shared, so their bindings never change: the memo's first bindings are
    // `storage`'s (`checkInvariants()` checks it), and only the one added is compared.
    guard let candidate, candidate.count == (storage?.count ?? 0) + 1,
      candidate.lastBindingIs(property: binding.property, source: binding.source)
    else { return nil }
    return candidate
  }

  /// Notes that `made` is the storage of `storage`'s bindings (none, or a shared storage's) and
  /// one more, for ``extended(from:adding:)``, and keeps `storage` alive as long as `made`;
  /// nothing when either is not shared.
  @MainActor
  static func remember(_ made: UnsafeBindingStorage?, asExtensionOf storage: UnsafeBindingStorage?) {
    guard let made, made.isShared else { return }
    if let storage {
      guard storage.isShared else { return }
      storage.header.extended = made
      // Shared storages with the same bindings are one object, so a prefix once set stays right.
      if made.header.prefix == nil { made.header.prefix = storage }
    } else {
      extendedFromEmpty = made
    }
    #if DARKMODEKIT_INTERNAL_CHECKS
      storage?.checkInvariants()
      made.checkInvariants()
    #endif
  }

  /// Whether `extended` holds the bindings of `storage` (none when `nil`), in order, then one
  /// more.
  static func isExtension(_ extended: UnsafeBindingStorage, of storage: UnsafeBindingStorage?) -> Bool {
    extended.withElements { elements, count in
      guard let storage else { return count == 1 }
      return storage.withElements { previous, previousCount in
        guard previousCount + 1 == count else { return false }
        for index in 0..<previousCount
        where elements[index].property !== previous[index].property
          || elements[index].source !== previous[index].source
        {
          return false
        }
        return true
      }
    }
  }

  /// Takes a shared storage out of the table, from its deinitializer.
  static func forget(_ storage: UnsafeBindingStorage) {
    guard let hash = shapeHash(of: storage) else { return }
    table.withLock { table in
      if table[hash]?.toOpaque() == Unmanaged.passUnretained(storage).toOpaque() { table[hash] = nil }
    }
  }

  /// The number of shared storages, for tests.
  static var count: Int { table.withLock { $0.count } }

  /// A hash of the bindings' properties and values, in order; `nil` when one of them is a
  /// tombstone or sets its property through a setter of its own.
  private static func shapeHash(of storage: UnsafeBindingStorage) -> Int? {
    storage.withElements { elements, count in
      var hasher = Hasher()
      for index in 0..<count {
        let binding = elements[index]
        guard binding.property.isShared else { return nil }
        hasher.combine(ObjectIdentifier(binding.property))
        hasher.combine(ObjectIdentifier(binding.source))
      }
      hasher.combine(count)
      return hasher.finalize()
    }
  }

  private static func hasSameBindings(_ first: UnsafeBindingStorage, _ second: UnsafeBindingStorage) -> Bool {
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
