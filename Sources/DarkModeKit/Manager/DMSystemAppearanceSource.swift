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
  ///
  /// The system counts as having a light/dark setting when the collection's style is specified;
  /// use ``report(_:hasColorSchemeSetting:)`` to say so for "no preference" too.
  /// - Parameter traitCollection: The system's traits.
  @MainActor
  public func report(_ traitCollection: DMTraitCollection) {
    report(traitCollection, hasColorSchemeSetting: traitCollection.userInterfaceStyle != .unspecified)
  }

  /// Reports a new system collection from the main actor, and whether the system has a light/dark
  /// setting at all (``DMTraitCollection/systemHasColorSchemeSetting``).
  /// - Parameters:
  ///   - traitCollection: The system's traits.
  ///   - hasColorSchemeSetting: Whether the system has a setting for the style, even when it is set
  ///     to "no preference".
  @MainActor
  public func report(_ traitCollection: DMTraitCollection, hasColorSchemeSetting: Bool) {
    guard SystemReports.isCurrent(generation) else { return }
    SystemReports.apply(
      SystemReports.Report(traits: traitCollection, hasColorSchemeSetting: hasColorSchemeSetting),
      generation: generation)
  }

  /// Reports a new system collection from any thread; it reaches the hierarchy on the main actor
  /// soon after. Reports that arrive faster than the main actor applies them are coalesced, the
  /// newest winning.
  ///
  /// The system counts as having a light/dark setting when the collection's style is specified;
  /// use ``send(_:hasColorSchemeSetting:)`` to say so for "no preference" too.
  /// - Parameter traitCollection: The system's traits.
  public func send(_ traitCollection: DMTraitCollection) {
    send(traitCollection, hasColorSchemeSetting: traitCollection.userInterfaceStyle != .unspecified)
  }

  /// Reports a new system collection from any thread, and whether the system has a light/dark
  /// setting at all; see ``send(_:)``.
  /// - Parameters:
  ///   - traitCollection: The system's traits.
  ///   - hasColorSchemeSetting: Whether the system has a setting for the style, even when it is set
  ///     to "no preference".
  public func send(_ traitCollection: DMTraitCollection, hasColorSchemeSetting: Bool) {
    SystemReports.send(
      SystemReports.Report(traits: traitCollection, hasColorSchemeSetting: hasColorSchemeSetting),
      generation: generation)
  }
}
