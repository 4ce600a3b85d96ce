#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Android)
  import Android
#endif

/// A value guarded by a pthread mutex.
///
/// Used instead of `Synchronization.Mutex`, whose futex path ThreadSanitizer does not model on
/// Linux, so that the thread-sanitizer job sees every lock.
package final class Locked<State>: @unchecked Sendable {
  // Safe: `state` is only read or written between pthread_mutex_lock and pthread_mutex_unlock,
  // which makes dynamic exclusivity checks on it redundant; they would cost a table-backed
  // resolve 20-90% (one of the fields listed in Docs/Architecture.md).
  @exclusivity(unchecked) private var state: State
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  /// Creates the lock around an initial value.
  package init(_ initialState: State) {
    state = initialState
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value.
  @inline(__always)
  package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&state)
  }
}
