import Dispatch

/// Runs the main dispatch queue until the process exits, keeping what the loop needs alive.
///
/// `withExtendedLifetime(value) { dispatchMain() }` does not do that in an optimized build: the
/// body never returns, so the end of the lifetime is unreachable, and the optimizer may release
/// `value` (for example the signal sources that end `dmkit demo`) before the loop starts. A static
/// keeps them instead.
@MainActor
enum MainLoop {
  private static var kept: [Any] = []

  /// Keeps `values` for good and runs the main queue.
  static func run(keeping values: Any...) -> Never {
    kept.append(contentsOf: values)
    dispatchMain()
  }
}
