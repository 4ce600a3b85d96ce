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
  @usableFromInline
  static func offset(of address: UnsafeMutableRawPointer, size: Int, in object: AnyObject) -> Int? {
    let base = Unmanaged.passUnretained(object).toOpaque()
    let offset = address - base
    let header = 2 * MemoryLayout<Int>.size
    guard offset >= header, let allocated = allocationSize(of: base), offset + size <= allocated else {
      return nil
    }
    return offset
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
