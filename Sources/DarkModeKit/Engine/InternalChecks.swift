/// The build that checks the invariants of the engine's unsafe types after every mutation.
///
/// Each type that holds memory or references outside Swift's checks (`UnretainedEntry`,
/// `UnsafeWalkStack`, `UnsafeWalkOrder`, `UnsafeBindingStorage`, `UnsafeTraitsSlot`) has a
/// `checkInvariants()` that stops the program when its invariants do not hold. A build with
/// `-Xswiftc -DDARKMODEKIT_INTERNAL_CHECKS` calls it after every change of such a value (an entry's,
/// as the stack's top, after each push and pop); CI runs the whole test suite in that build (`.ci/check-exclusivity`). Other builds
/// never call it.
enum InternalChecks {
  #if DARKMODEKIT_INTERNAL_CHECKS
    /// Whether this build checks invariants after every mutation.
    static let isEnabled = true
  #else
    /// Whether this build checks invariants after every mutation.
    static let isEnabled = false
  #endif

  /// How many invariant checks ran, for the test that makes sure the build checks.
  static let count = Locked(0)

  /// Counts one check; every `checkInvariants()` calls it.
  static func counted() {
    count.withLock { $0 += 1 }
  }
}
