import Dispatch
import Foundation

/// Runs blocking work (waits for child processes, sleeps) on a thread of its own, so that it does
/// not hold a thread of the Swift concurrency pool.
public func onOwnThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
  await withCheckedContinuation { continuation in
    Thread { continuation.resume(returning: body()) }.start()
  }
}

/// Runs `body` and `other` on two threads of their own, started together (they block, so not on
/// the task pool, which other tests may keep busy).
public func onOwnThread<A: Sendable, B: Sendable>(
  _ body: @escaping @Sendable () -> A, whileDoing other: @escaping @Sendable () -> B
) async -> (A, B) {
  let results = PairOfResults<A, B>()
  let group = DispatchGroup()
  return await withCheckedContinuation { continuation in
    group.enter()
    Thread {
      results.first = body()
      group.leave()
    }
    .start()
    group.enter()
    Thread {
      results.second = other()
      group.leave()
    }
    .start()
    group.notify(queue: .global()) {
      continuation.resume(returning: (results.first.unsafelyUnwrapped, results.second.unsafelyUnwrapped))
    }
  }
}

/// What the two threads of `onOwnThread(_:whileDoing:)` return: each is written by its thread
/// before it leaves the group, and read after both left.
private final class PairOfResults<A, B>: @unchecked Sendable {
  var first: A?
  var second: B?
}
