import Foundation

#if os(Linux)
  import Glibc
#endif

/// The sanitizer the test process was built with, if any, found by its runtime's entry point.
public enum Sanitizer: Sendable {
  case address
  case thread

  /// The sanitizer this process runs under, or `nil` for a plain build.
  public static let current: Sanitizer? = {
    if dlsym(nil, "__tsan_init") != nil { return .thread }
    if dlsym(nil, "__asan_init") != nil { return .address }
    return nil
  }()

  /// The bytes the sanitizer's allocator holds for live allocations, or `nil` for a plain build.
  /// Under the address sanitizer this leaves out the blocks freed lately that it keeps back to
  /// catch a use after free, which resident memory includes.
  public static var allocatedBytes: Int? {
    guard let symbol = dlsym(nil, "__sanitizer_get_current_allocated_bytes") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) () -> Int).self)()
  }
}
