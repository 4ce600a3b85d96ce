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

  /// Makes `slot` this thread's current-collection storage until ``leaveSlot(_:)``: a pass writes
  /// each environment's collection into the slot before calling it, instead of setting the
  /// pointer again for every environment.
  /// - Returns: What to hand to ``leaveSlot(_:)`` to restore the earlier state.
  @inline(__always)
  static func enterSlot(_ slot: UnsafeMutablePointer<DMTraitCollection>) -> UnsafeMutableRawPointer? {
    let saved = pthread_getspecific(key)
    pthread_setspecific(key, slot)
    return saved
  }

  /// Restores what ``enterSlot(_:)`` replaced.
  @inline(__always)
  static func leaveSlot(_ saved: UnsafeMutableRawPointer?) {
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
