/// Something that knows the system's appearance and reports it: a desktop setting, a terminal,
/// an environment variable, or a value the app sets itself.
///
/// ``DarkModeManager/setup(with:)`` starts the configured source with a reporter and stops it
/// when a newer configuration replaces it. A source reports on the main actor with
/// ``DMAppearanceReporter/report(_:)``, which updates the hierarchy before it returns, or from any
/// thread with ``DMAppearanceReporter/send(_:)``, which reaches the hierarchy on the main actor
/// soon after.
///
/// ```swift
/// final class TimeOfDaySource: DMSystemAppearanceSource {
///   func start(reporting reporter: DMAppearanceReporter) {
///     reporter.report(DMTraitCollection(userInterfaceStyle: isNight() ? .dark : .light))
///   }
///   func stop() {}
/// }
/// ```
@MainActor
public protocol DMSystemAppearanceSource: AnyObject {
  /// Starts reporting: report the system's traits now if they are known, and again whenever they
  /// change.
  /// - Parameter reporter: Delivers new system collections; keep it until ``stop()``.
  func start(reporting reporter: DMAppearanceReporter)

  /// Stops reporting. Reports made after this are ignored.
  func stop()
}

/// Delivers a system appearance source's reports to the global collection.
///
/// Reports of a source that was stopped, or replaced by a newer configuration, are ignored.
public struct DMAppearanceReporter: Sendable {
  let generation: UInt64

  /// Reports a new system collection from the main actor; the hierarchy is up to date when it
  /// returns.
  /// - Parameter traitCollection: The system's traits.
  @MainActor
  public func report(_ traitCollection: DMTraitCollection) {
    guard SystemReports.isCurrent(generation) else { return }
    SystemReports.apply(traitCollection, generation: generation)
  }

  /// Reports a new system collection from any thread; it reaches the hierarchy on the main actor
  /// soon after. Reports that arrive faster than the main actor applies them are coalesced, the
  /// newest winning.
  /// - Parameter traitCollection: The system's traits.
  public func send(_ traitCollection: DMTraitCollection) {
    SystemReports.send(traitCollection, generation: generation)
  }
}
