/// Something that knows the system's appearance and reports it: a desktop setting, a terminal,
/// an environment variable, or a value the app sets itself.
///
/// ``DarkModeManager/setup(with:)`` starts the configured source and stops it when a newer
/// configuration replaces it. A source reports with the closure it was started with, from any
/// thread; a report made on the main thread is applied before the closure returns, and a report
/// from another thread reaches the hierarchy on the main actor soon after (reports that arrive
/// faster than the main actor applies them are coalesced, the newest winning).
///
/// ```swift
/// final class TimeOfDaySource: DMSystemAppearanceSource {
///   func start(reporting report: @escaping @Sendable (DMTraitCollection) -> Void) {
///     report(DMTraitCollection(userInterfaceStyle: isNight() ? .dark : .light))
///   }
///   func stop() {}
/// }
/// ```
@MainActor
public protocol DMSystemAppearanceSource: AnyObject {
  /// Starts reporting: call `report` with the system's traits now if they are known, and again
  /// whenever they change.
  /// - Parameter report: Delivers a new system collection; callable from any thread.
  func start(reporting report: @escaping @Sendable (DMTraitCollection) -> Void)

  /// Stops reporting. Reports made after this are ignored.
  func stop()
}
