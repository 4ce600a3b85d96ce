#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a stored property lives inside an object, for bindings that write it directly.
@usableFromInline
enum StoredProperty {
  /// The offset recorded for a property set through a function given with its binding
  /// (`bind(_:to:set:)`); such a binding shares its description with no other.
  @usableFromInline
  static let throughSetter = -2

  /// The offset of `address` from the start of `object`, when the `size` bytes there lie inside
  /// the object's own allocation, past its header; `nil` otherwise (the address of a computed or
  /// observed property's temporary, or a platform where the allocation size is unknown).
  ///
  /// A class instance's stored properties stay at the same offsets for its whole life, so a
  /// binding may write the property at `object + offset` later, with the property's own type.
  ///
  /// A key path that reads a reference on its way (`\.target.fill`, `\.parent!.fill`) may reach
  /// the object itself when bound and another object later, so it gets no offset wherever the
  /// address lies (see ``readsAReference(_:)``).
  @usableFromInline
  static func offset(
    of address: UnsafeMutableRawPointer, size: Int, in object: AnyObject, through keyPath: AnyKeyPath
  ) -> Int? {
    let base = Unmanaged.passUnretained(object).toOpaque()
    let offset = address - base
    let header = 2 * MemoryLayout<Int>.size
    guard offset >= header, let allocated = allocationSize(of: base), offset + size <= allocated,
      !readsAReference(keyPath)
    else { return nil }
    return offset
  }

  /// Whether `keyPath` reads a reference before the property it sets: the object it writes into
  /// is then found anew on each access, and may be another one each time.
  ///
  /// A key path object holds its components in a buffer after the object's header and one
  /// pointer; the buffer starts with a 32-bit header whose flags are part of Swift's ABI (the
  /// runtime's `KeyPath.h`): the second-highest bit says that the path has such a "reference
  /// prefix". A header that does not read as one (reserved bits set, a size that does not fit the
  /// allocation) counts as a reference prefix, which only costs the in-place write.
  static func readsAReference(_ keyPath: AnyKeyPath) -> Bool {
    let object = Unmanaged.passUnretained(keyPath).toOpaque()
    let start = 3 * MemoryLayout<Int>.size
    let header = object.load(fromByteOffset: start, as: UInt32.self)
    let size = Int(header & 0x00FF_FFFF)
    guard header & 0x1F00_0000 == 0, size > 0, size.isMultiple(of: 4),
      let allocated = allocationSize(of: object), start + MemoryLayout<Int>.size + size <= allocated
    else { return true }
    return header & 0x4000_0000 != 0
  }

  /// Whether `keyPath` goes through a forced optional (`\.inner!.flag`): its description shows
  /// each such component as `!`, which no property or type name has.
  static func forcesAnOptional(_ keyPath: AnyKeyPath) -> Bool {
    String(describing: keyPath).contains("!")
  }

  private static func allocationSize(of pointer: UnsafeMutableRawPointer) -> Int? {
    #if canImport(Darwin)
      return malloc_size(pointer)
    #elseif canImport(Glibc) || canImport(Musl)
      guard let usableSize = mallocUsableSize else { return nil }
      return usableSize(pointer)
    #else
      return nil
    #endif
  }

  #if canImport(Glibc) || canImport(Musl)
    /// `malloc_usable_size`, which the C library has but Swift's module for it does not show.
    private static let mallocUsableSize: (@convention(c) (UnsafeMutableRawPointer?) -> Int)? = {
      guard let symbol = dlsym(nil, "malloc_usable_size") else { return nil }
      return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutableRawPointer?) -> Int).self)
    }()
  #endif
}
