/// Values resolved once per pass for every object that holds the same shared binding list.
///
/// Objects bound alike share one ``BindingStorage`` (see ``BindingShapes``), and in a pass most of
/// them have the same traits: their bound values are the same bytes. When every binding of a
/// shared list writes a stored property whose value is plain bytes (no references, nothing to do
/// on a copy, as colours and numbers), a pass resolves the list once into a buffer and copies the
/// bytes into each object, instead of calling each binding's function for each object.
///
/// The buffers form a small table keyed by the storage's serial number, which no other storage
/// gets (an address may be reused within a pass); an entry counts for the pass and the traits it
/// was resolved for. The propagator owns the table; main-actor state, used only
/// inside a pass, where storages in use stay alive until the pass ends.
@MainActor
final class BindingPlans {
  /// The number of lists whose values are kept at once.
  static let entryCount = 16
  /// The bytes each entry keeps: the values of a list of at most ``BindingStorage/sharedLimit``
  /// bindings, each at a multiple of 16.
  static let bytesPerEntry = 512

  private struct Entry {
    /// The storage's `serial`; 0 for none.
    var serial: UInt64 = 0
    /// How many copies set the values (see `Copy`).
    var copyCount: Int32 = 0
    var generation: UInt64 = 0
    var traits = DMTraitCollection()
  }

  /// Where the values of one binding, or of bindings one after the other both in the list and in
  /// the object (properties declared together), go: noted when the values are resolved, so that
  /// setting them in each object reads neither the bindings nor their properties, and copies
  /// them at once.
  fileprivate struct Copy {
    /// Where the value goes in the object.
    var destination: Int32 = 0
    /// Where it is in the entry's buffer.
    var source: Int32 = 0
    var size: Int32 = 0
  }

  /// What ``apply(_:to:traits:)`` did.
  enum Outcome {
    /// It set every bound property.
    case applied
    /// Nothing: the storage is not planned.
    case notPlanned
    /// Nothing: the app's code bound or unbound properties while the values were resolved, so the
    /// object's list may no longer be the storage's.
    case listsChanged
  }

  /// The entry of the storage a pass set last, for the traits it set it for: a pass sets objects
  /// bound alike one after the other, and finds it here without looking it up. Only `find`
  /// writes the entries, and it makes this the one it found (or none, while it resolves values),
  /// so this stays true to the table. The storage is known by its address and its serial, which
  /// no other storage gets: a storage freed during a pass may leave its address to another.
  fileprivate struct Run {
    var storage: UnsafeMutableRawPointer?
    var serial: UInt64 = 0
    var generation: UInt64 = 0
    var traits = DMTraitCollection()
    var values: UnsafeMutableRawPointer?
    var copies: UnsafeMutablePointer<Copy>?
    var copyCount = 0
  }

  // Read and written on every object a pass sets, never held across a call: no dynamic
  // exclusivity checks.
  @exclusivity(unchecked) private var run = Run()

  /// The last serial handed out (see `BindingStorageHeader.serial`).
  /// 64 bits: a program that made a billion planned lists a second would take centuries to hand
  /// one out twice. Tests set it.
  @exclusivity(unchecked) static var lastSerial: UInt64 = 0

  /// A serial for a newly planned storage: never 0, and not handed out again before 2⁶⁴ more.
  static func nextSerial() -> UInt64 {
    lastSerial &+= 1
    if lastSerial == 0 { lastSerial = 1 }
    return lastSerial
  }

  private let entries: UnsafeMutablePointer<Entry>
  private let values: UnsafeMutableRawPointer
  /// ``BindingStorage/sharedLimit`` copies for each entry, one for each binding of its list.
  private let copies: UnsafeMutablePointer<Copy>
  /// Where a storage's header and its first binding are, from its address: the same for every
  /// storage, measured once. A pass reads a storage through its address, as a reference to it
  /// would be retained and released around the calls the pass makes for each object.
  private let headerOffset: Int
  private let elementsOffset: Int

  init() {
    let probe = BindingStorage.make(count: 0) { _ in }
    let address = Unmanaged.passUnretained(probe).toOpaque()
    (headerOffset, elementsOffset) = probe.withUnsafeMutablePointers { header, elements in
      (UnsafeMutableRawPointer(header) - address, UnsafeMutableRawPointer(elements) - address)
    }
    entries = .allocate(capacity: Self.entryCount)
    entries.initialize(repeating: Entry(), count: Self.entryCount)
    values = .allocate(byteCount: Self.entryCount * Self.bytesPerEntry, alignment: 16)
    copies = .allocate(capacity: Self.entryCount * BindingStorage.sharedLimit)
    copies.initialize(repeating: Copy(), count: Self.entryCount * BindingStorage.sharedLimit)
  }

  isolated deinit {
    entries.deinitialize(count: Self.entryCount)
    entries.deallocate()
    values.deallocate()
    copies.deallocate()
  }

  /// Where a value of `size` bytes after one at `position` goes in an entry's buffer.
  @inline(__always)
  private static func advance(_ position: Int, by size: Int) -> Int {
    position + (size + 15) & ~15
  }

  /// Whether the values of `storage` may be copied: each binding writes a stored property of plain
  /// bytes, and all of them fit in an entry.
  static func canPlan(_ storage: BindingStorage) -> Bool {
    storage.withElements { elements, count in
      var position = 0
      for index in 0..<count {
        let property = elements[index].property
        guard property.valueSize > 0 else { return false }
        position = advance(position, by: property.valueSize)
      }
      return count > 0 && count <= BindingStorage.sharedLimit && position <= bytesPerEntry
    }
  }

  /// Sets the bound properties of the object at `object` from the values of the storage at
  /// `address` for `traits`, resolved now if its entry does not hold them yet, when the storage is
  /// planned.
  ///
  /// Writing plain bytes runs no code and releases nothing: the object needs only its memory, not
  /// to be alive, while they are written.
  @inline(__always)
  func apply(
    _ address: UnsafeMutableRawPointer, to object: UnsafeMutableRawPointer, traits: DMTraitCollection
  ) -> Outcome {
    let serial = serial(ofStorageAt: address)
    if run.storage != address || run.serial != serial || run.generation != PassGeneration.current
      || run.traits != traits
    {
      guard let found = find(address, serial: serial, traits: traits) else {
        // The run is the storage this call set, or none: an unplanned storage may have taken the
        // address of the planned one set before, freed since.
        run.storage = nil
        return .notPlanned
      }
      guard found else { return .listsChanged }
    } else {
      assert(runIsInTable(), "the last storage set no longer has its entry")
    }
    Self.copy(run.copies.unsafelyUnwrapped, 0..<run.copyCount, from: run.values.unsafelyUnwrapped, to: object)
    return .applied
  }

  /// Where the values of the storage a pass set last are, and how they go into an object: what
  /// ``apply(_:to:traits:)`` would copy for that storage, the same traits and this pass, until
  /// the next call that resolves values; none after a call that set no planned storage. A loop
  /// that sets many objects from one storage, with no app code between them, copies them from
  /// here without looking the entry up again.
  struct KeptRun {
    /// The storage's address; `nil` for none.
    var storage: UnsafeMutableRawPointer?
    /// `storage` when its values are one copy of 17 to 80 bytes (a few colours and numbers),
    /// made as five 16-byte pieces at `pieceOffsets` (some overlap, and write the same values
    /// twice, which costs less than telling the sizes apart); `nil` otherwise. A loop compares an
    /// object's storage with this one first, and copies with `copyInPieces(to:)`.
    var storageInPieces: UnsafeMutableRawPointer?
    /// The storage's serial number, with which `holds(_:)` finds its entry.
    fileprivate var serial: UInt64 = 0
    /// The pass the values were resolved for.
    fileprivate var generation: UInt64 = 0
    fileprivate var values: UnsafeMutableRawPointer?
    fileprivate var copies: UnsafeMutablePointer<Copy>?
    fileprivate var copyCount = 0
    /// The first copy, read out: most lists are one copy, their properties declared together.
    fileprivate var firstSource: UnsafeMutableRawPointer?
    fileprivate var firstDestination = 0
    fileprivate var firstSize = 0
    fileprivate var pieceOffsets: (Int, Int, Int, Int) = (0, 0, 0, 0)

    init() {}

    fileprivate init(_ run: Run) {
      storage = run.storage
      serial = run.serial
      generation = run.generation
      values = run.values
      copies = run.copies
      copyCount = run.copyCount
      if let values, let copies, copyCount > 0 {
        firstSource = values + Int(copies[0].source)
        firstDestination = Int(copies[0].destination)
        firstSize = Int(copies[0].size)
        if copyCount == 1, (17...80).contains(firstSize) {
          storageInPieces = storage
          let lastPiece = firstSize - 16
          pieceOffsets = (min(16, lastPiece), min(32, lastPiece), min(48, lastPiece), lastPiece)
        }
      }
    }

    /// Lets go of the storage: no object's storage is this run's any longer.
    mutating func forget() {
      storage = nil
      storageInPieces = nil
    }

    /// Writes the values into the object at `object`, when `storageInPieces` is set.
    @inline(__always)
    func copyInPieces(to object: UnsafeMutableRawPointer) {
      let source = firstSource.unsafelyUnwrapped
      let destination = object + firstDestination
      typealias Piece = SIMD2<UInt64>
      BindingPlans.copy(Piece.self, at: 0, from: source, to: destination)
      BindingPlans.copy(Piece.self, at: pieceOffsets.0, from: source, to: destination)
      BindingPlans.copy(Piece.self, at: pieceOffsets.1, from: source, to: destination)
      BindingPlans.copy(Piece.self, at: pieceOffsets.2, from: source, to: destination)
      BindingPlans.copy(Piece.self, at: pieceOffsets.3, from: source, to: destination)
    }

    /// Writes the values into the object at `object`, when `storageInPieces` is not set (the
    /// loops compare with it first, and copy those values with `copyInPieces(to:)`).
    @inline(__always)
    func copy(to object: UnsafeMutableRawPointer) {
      assert(storageInPieces == nil, "values kept to copy in pieces copied one copy at a time")
      guard copyCount > 0 else { return }
      BindingPlans.copy(firstSource.unsafelyUnwrapped, to: object + firstDestination, size: firstSize)
      guard copyCount > 1 else { return }
      BindingPlans.copy(copies.unsafelyUnwrapped, 1..<copyCount, from: values.unsafelyUnwrapped, to: object)
    }
  }

  /// The storage set last and its values; none while values are being resolved, and none after
  /// a call that set no planned storage.
  var keptRun: KeptRun { KeptRun(run) }

  /// Whether the table still holds the values of `kept` for this pass: a loop that copies kept
  /// values relies on nothing else resolving values meanwhile, which a debug build checks each
  /// time it copies them.
  func holds(_ kept: KeptRun) -> Bool {
    guard kept.serial != 0 else { return false }
    let slot = Int(truncatingIfNeeded: kept.serial) & (Self.entryCount - 1)
    let entry = entries[slot]
    return entry.serial == kept.serial && entry.generation == kept.generation
      && kept.generation == PassGeneration.current && kept.values == values + slot * Self.bytesPerEntry
      && Int(entry.copyCount) == kept.copyCount
  }

  /// The serial number of the live storage at `address` (see `BindingStorageHeader.serial`).
  @inline(__always)
  func serial(ofStorageAt address: UnsafeMutableRawPointer) -> UInt64 {
    (address + headerOffset).assumingMemoryBound(to: BindingStorageHeader.self).pointee.serial
  }

  /// Makes `run` the entry of the storage at `address`, whose serial is `serial`, for `traits` and
  /// this pass, resolving its values now if the entry does not hold them yet.
  ///
  /// - Returns: `nil` when the storage is not planned; `false` when the app's code bound or
  ///   unbound properties while the values were resolved (`run` is then none).
  private func find(_ address: UnsafeMutableRawPointer, serial: UInt64, traits: DMTraitCollection) -> Bool? {
    guard serial != 0 else { return nil }
    let header = (address + headerOffset).assumingMemoryBound(to: BindingStorageHeader.self)
    let elements = (address + elementsOffset).assumingMemoryBound(to: Binding.self)
    let count = Int(header.pointee.count)
    let slot = Int(truncatingIfNeeded: serial) & (Self.entryCount - 1)
    let entry = entries + slot
    let buffer = values + slot * Self.bytesPerEntry
    let copies = self.copies + slot * BindingStorage.sharedLimit
    let generation = PassGeneration.current
    if entry.pointee.serial != serial || entry.pointee.generation != generation
      || entry.pointee.traits != traits
    {
      // Resolved into the entry, which counts only once it is complete: a value's own code runs
      // meanwhile, and may change lists. The run may be this entry's, whose values change.
      run.storage = nil
      entry.pointee.generation = 0
      let changesBefore = BindingList.changeCount
      var position = 0
      var copyCount = 0
      for index in 0..<count {
        let binding = elements + index
        Unmanaged.passUnretained(binding.pointee.property).borrow { property in
          property.resolve.unsafelyUnwrapped(
            Unmanaged.passUnretained(binding.pointee.source), traits, buffer + position)
          let copy = Copy(
            destination: Int32(property.offset), source: Int32(position), size: Int32(property.valueSize))
          let last = copies + copyCount - 1
          if copyCount > 0, last.pointee.destination + last.pointee.size == copy.destination,
            last.pointee.source + last.pointee.size == copy.source
          {
            last.pointee.size += copy.size
          } else {
            copies[copyCount] = copy
            copyCount += 1
          }
          position = Self.advance(position, by: property.valueSize)
        }
      }
      guard BindingList.changeCount == changesBefore else { return false }
      entry.pointee.copyCount = Int32(copyCount)
      entry.pointee.serial = serial
      entry.pointee.generation = generation
      entry.pointee.traits = traits
    }
    run.storage = address
    run.serial = serial
    run.generation = generation
    run.traits = traits
    run.values = buffer
    run.copies = copies
    run.copyCount = Int(entry.pointee.copyCount)
    return true
  }

  /// Whether `run` is the entry its storage has in the table (a debug build checks it each time
  /// the run is used).
  private func runIsInTable() -> Bool {
    guard let storage = run.storage else { return false }
    let serial = (storage + headerOffset).assumingMemoryBound(to: BindingStorageHeader.self).pointee.serial
    guard serial == run.serial else { return false }
    let slot = Int(truncatingIfNeeded: serial) & (Self.entryCount - 1)
    let entry = entries[slot]
    return serial != 0 && entry.serial == serial && entry.generation == run.generation
      && entry.traits == run.traits && run.values == values + slot * Self.bytesPerEntry
      && Int(entry.copyCount) == run.copyCount
  }

  /// Makes the copies in `range` of `copies`, from the entry's buffer at `values` into the object
  /// at `object`.
  @inline(__always)
  nonisolated fileprivate static func copy(
    _ copies: UnsafeMutablePointer<Copy>, _ range: Range<Int>, from values: UnsafeMutableRawPointer,
    to object: UnsafeMutableRawPointer
  ) {
    for index in range {
      let copy = copies[index]
      Self.copy(values + Int(copy.source), to: object + Int(copy.destination), size: Int(copy.size))
    }
  }

  /// Copies one `T` at `offset` from `source` to `destination`, which need not be aligned.
  @inline(__always)
  nonisolated fileprivate static func copy<T: BitwiseCopyable>(
    _: T.Type, at offset: Int, from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer
  ) {
    destination.storeBytes(
      of: source.loadUnaligned(fromByteOffset: offset, as: T.self), toByteOffset: offset, as: T.self)
  }

  /// Copies `size` bytes. Up to 80 bytes (a few colours and numbers), in line: 16-byte pieces
  /// from the start and one that ends at the end, which may cover bytes the one before it wrote,
  /// with the same values; a call to `memmove` would cost more than the copy. Otherwise with
  /// `memmove`.
  @inline(__always)
  nonisolated fileprivate static func copy(
    _ source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer, size: Int
  ) {
    @inline(__always) func piece<T: BitwiseCopyable>(_ type: T.Type, at offset: Int) {
      copy(type, at: offset, from: source, to: destination)
    }
    guard size >= 8, size <= 80 else { return destination.copyMemory(from: source, byteCount: size) }
    guard size > 16 else {
      piece(UInt64.self, at: 0)
      piece(UInt64.self, at: size &- 8)
      return
    }
    typealias Piece = SIMD2<UInt64>
    piece(Piece.self, at: 0)
    if size > 32 { piece(Piece.self, at: 16) }
    if size > 48 { piece(Piece.self, at: 32) }
    if size > 64 { piece(Piece.self, at: 48) }
    piece(Piece.self, at: size &- 16)
  }

}
