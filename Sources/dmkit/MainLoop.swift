import Foundation

/// Runs the main queue until the process exits, keeping what the loop needs alive.
///
/// `withExtendedLifetime(value) { … }` does not do that in an optimized build: the body never
/// returns, so the end of the lifetime is unreachable, and the optimizer may release `value` (for
/// example the signal sources that end `dmkit demo`) before the loop starts. A static keeps them
/// instead.
///
/// The main run loop drains the main queue (and with it the main actor) on the main thread, which
/// stays alive. `dispatchMain()` would end the main thread and leave it parked to take signals,
/// and a signal handler run there upsets the address sanitizer's view of that thread.
@MainActor
enum MainLoop {
  private static var kept: [Any] = []

  /// Keeps `values` for good and runs the main queue.
  static func run(keeping values: Any...) -> Never {
    kept.append(contentsOf: values)
    while true {
      _ = RunLoop.main.run(mode: .default, before: .distantFuture)
    }
  }
}
