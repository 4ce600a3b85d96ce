#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The D-Bus module's lock: a value that the reader thread and callers share, behind a pthread
/// mutex, so that the module needs nothing of DarkModeKit.
///
/// A pthread mutex rather than `Synchronization.Mutex`, whose futex path ThreadSanitizer does not
/// model on Linux.
final class Locked<State>: @unchecked Sendable {
  // Safe: `state` is touched only while `mutex` is held.
  private var state: State
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

  init(_ state: State) {
    self.state = state
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` while holding the lock.
  func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&state)
  }
}
