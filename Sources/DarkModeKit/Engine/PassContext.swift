#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Android)
  import Android
#endif

/// The trait collection of the environment whose callback or bindings run right now, visible
/// only to the thread that runs them.
///
/// A thread-specific pointer, not a task-local value: entering a task-local scope allocates, and a
/// pass sets the current environment once per changed environment. The pointer refers to storage
/// owned by the thread that set it and is never seen by another thread.
enum PassContext {
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// The collection made current by ``withCurrent(_:_:)`` on this thread, if any.
  @inline(__always)
  static var current: DMTraitCollection? {
    guard let pointer = pthread_getspecific(key) else { return nil }
    return pointer.assumingMemoryBound(to: DMTraitCollection.self).pointee
  }

  /// Runs `body` with `traits` as this thread's current collection, restoring the earlier one.
  @inline(__always)
  static func withCurrent<R>(_ traits: DMTraitCollection, _ body: () throws -> R) rethrows -> R {
    var storage = traits
    return try withUnsafeMutablePointer(to: &storage) { pointer in
      let saved = pthread_getspecific(key)
      pthread_setspecific(key, pointer)
      defer { pthread_setspecific(key, saved) }
      return try body()
    }
  }

  /// Makes `slot` this thread's current-collection storage until ``leaveSlot(_:)`` (see
  /// ``UnsafeTraitsSlot``).
  /// - Returns: What to hand to ``leaveSlot(_:)`` to restore the earlier state.
  @inline(__always)
  fileprivate static func enterSlot(_ slot: UnsafeMutablePointer<DMTraitCollection>)
    -> UnsafeMutableRawPointer?
  {
    let saved = pthread_getspecific(key)
    pthread_setspecific(key, slot)
    return saved
  }

  /// Whether `slot` is this thread's current-collection storage.
  fileprivate static func isCurrent(_ slot: UnsafeMutablePointer<DMTraitCollection>) -> Bool {
    pthread_getspecific(key) == UnsafeMutableRawPointer(slot)
  }

  /// Restores what ``enterSlot(_:)`` replaced.
  @inline(__always)
  fileprivate static func leaveSlot(_ saved: UnsafeMutableRawPointer?) {
    pthread_setspecific(key, saved)
  }

  /// Runs `body` with no environment current on this thread, so that an enclosing task-local scope
  /// shows through.
  @inline(__always)
  static func withoutCurrent<R>(_ body: () throws -> R) rethrows -> R {
    let saved = pthread_getspecific(key)
    guard saved != nil else { return try body() }
    pthread_setspecific(key, nil)
    defer { pthread_setspecific(key, saved) }
    return try body()
  }
}

/// Where a pass writes the collection of the environment it is calling, made this thread's
/// current collection (see ``PassContext``) for the whole pass: a pass writes each environment's
/// collection into the slot before calling it, instead of setting the thread's pointer again for
/// every environment.
///
/// Its invariant: it owns one initialized collection at `pointer`, for its whole life, and between
/// ``enter()`` and ``leave(_:)`` the thread's current collection is the slot's (code run
/// meanwhile may make another current only for a scope of its own). `checkInvariants()` checks
/// the second part (see `InternalChecks`).
@MainActor
final class UnsafeTraitsSlot {
  private let pointer: UnsafeMutablePointer<DMTraitCollection>
  /// How many ``enter()`` calls wait for their ``leave(_:)``.
  private var depth = 0

  init() {
    pointer = .allocate(capacity: 1)
    pointer.initialize(to: DMTraitCollection())
  }

  isolated deinit {
    pointer.deinitialize(count: 1)
    pointer.deallocate()
  }

  /// Whether the slot holds `traits`, compared where it lies.
  @inline(__always)
  func holds(_ traits: DMTraitCollection) -> Bool {
    pointer.pointee == traits
  }

  /// Writes `traits` into the slot.
  @inline(__always)
  func write(_ traits: DMTraitCollection) {
    pointer.pointee = traits
    #if DARKMODEKIT_INTERNAL_CHECKS
      checkInvariants()
    #endif
  }

  /// Makes the slot this thread's current collection until ``leave(_:)``.
  /// - Returns: What to hand to ``leave(_:)`` to restore the earlier state.
  @inline(__always)
  func enter() -> UnsafeMutableRawPointer? {
    depth += 1
    #if DARKMODEKIT_INTERNAL_CHECKS
      defer { checkInvariants() }
    #endif
    return PassContext.enterSlot(pointer)
  }

  /// Restores what ``enter()`` replaced.
  @inline(__always)
  func leave(_ saved: UnsafeMutableRawPointer?) {
    #if DARKMODEKIT_INTERNAL_CHECKS
      checkInvariants()
    #endif
    depth -= 1
    PassContext.leaveSlot(saved)
  }

  /// Stops the program when the slot is entered and the thread's current collection is not the
  /// slot's.
  func checkInvariants() {
    InternalChecks.counted()
    precondition(depth >= 0, "a traits slot was left more often than entered")
    if depth > 0 {
      precondition(PassContext.isCurrent(pointer), "a pass's traits slot is not the current collection")
    }
  }
}
