import Dispatch
import Foundation

/// Tells synchronous code that may run on any thread whether it runs on the main actor.
///
/// The main actor runs its jobs on the main dispatch queue, which is not always drained by the
/// main thread (a test runner may drain it from another), so the queue is what is checked; code
/// on the main thread outside any queue job (top-level code, before the run loop starts) is on the
/// main actor too.
enum MainActorCheck {
  private static let key: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  /// Whether the caller is isolated to the main actor.
  static var isOnMainActor: Bool {
    DispatchQueue.getSpecific(key: key) == true || Thread.isMainThread
  }
}
