/// A system appearance source whose value the app sets: for tests, previews, and platforms with
/// no system setting.
///
/// ```swift
/// let source = DMManualAppearanceSource()
/// DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: source))
/// source.traitCollection = DMTraitCollection(userInterfaceStyle: .dark) // propagates at once
/// ```
@MainActor
public final class DMManualAppearanceSource: DMSystemAppearanceSource {
  /// The system collection this source reports. Once the source is configured, setting it updates
  /// the hierarchy before returning.
  public var traitCollection: DMTraitCollection {
    didSet { reporter?.report(traitCollection) }
  }

  private var reporter: DMAppearanceReporter?

  /// Creates a source.
  /// - Parameter traitCollection: The collection to report; all unspecified by default.
  public init(traitCollection: DMTraitCollection = DMTraitCollection()) {
    self.traitCollection = traitCollection
  }

  /// Reports ``traitCollection`` now and on every change.
  /// - Parameter reporter: Where reports go.
  public func start(reporting reporter: DMAppearanceReporter) {
    self.reporter = reporter
    reporter.report(traitCollection)
  }

  /// Stops reporting.
  public func stop() {
    reporter = nil
  }
}
