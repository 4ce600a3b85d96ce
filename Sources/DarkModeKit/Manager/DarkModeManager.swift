import Foundation

/// Installs the app's change handlers and system appearance source.
///
/// Nothing requires it: without ``setup(with:)`` there are no handlers and no system source (but
/// the ``defaultSystemAppearanceSource`` that an integration such as DarkModeKitGTK installs), and
/// the global collection is the override over the defaults.
///
/// ```swift
/// DarkModeManager.setup(with: DMConfiguration(
///   themeChangeHandler: { print("theme changed to", DMTraitCollection.current) },
///   systemAppearanceSource: DMManualAppearanceSource()))
/// ```
@MainActor
public enum DarkModeManager {
  /// The configuration in force.
  private(set) static var configuration = DMConfiguration()

  /// The system appearance source of a configuration that names none; `nil`, the default, for
  /// none.
  ///
  /// Integrations set it so that an app follows the system without any set-up: `DMGTK.start()`
  /// sets it to the desktop's setting, as libadwaita follows it. A configuration's own
  /// ``DMConfiguration/systemAppearanceSource`` wins over it; an app that wants no system source
  /// at all configures a `DMManualAppearanceSource`. Setting it while the configuration in force
  /// names no source stops the one before and starts the new one at once.
  public static var defaultSystemAppearanceSource: (any DMSystemAppearanceSource)? {
    didSet {
      guard configuration.systemAppearanceSource == nil else { return }
      oldValue?.stop()
      startSystemAppearanceSource(generation: SystemReports.begin())
    }
  }

  /// The source in force: the configuration's, or the default one.
  private static var systemAppearanceSource: (any DMSystemAppearanceSource)? {
    configuration.systemAppearanceSource ?? defaultSystemAppearanceSource
  }

  /// Installs a configuration, replacing the earlier one.
  ///
  /// The earlier configuration's source is stopped, and reports it still makes are ignored. The
  /// configuration's colour table, if any, is loaded into ``DMColorTable/shared``. The user's
  /// choice saved in the configuration's preference store, if any, becomes the override.
  /// The new source is started at once; with no source, the system collection becomes unspecified
  /// again.
  /// - Parameter configuration: The handlers, source and preference store to use.
  public static func setup(with configuration: DMConfiguration) {
    systemAppearanceSource?.stop()
    let generation = SystemReports.begin()
    self.configuration = configuration
    TraitPropagator.shared.handlers = ChangeHandlers(
      themeChangeHandler: configuration.themeChangeHandler,
      windowThemeChangeHandler: configuration.windowThemeChangeHandler,
      animationDuration: configuration.animationDuration)
    if let url = configuration.colorTableURL {
      loadColorTable(from: url)
    }
    let defaultStyle: DMUserInterfaceStyle = configuration.defaultUserInterfaceStyle == .dark ? .dark : .light
    GlobalTraits.state.withLock { $0.defaultStyle = defaultStyle }
    if let store = configuration.preferenceStore {
      restoreChoice(from: store)
    }
    startSystemAppearanceSource(generation: generation)
  }

  /// Starts the source in force, reporting as `generation`.
  private static func startSystemAppearanceSource(generation: UInt64) {
    systemAppearanceSource?.start(reporting: DMAppearanceReporter(generation: generation))
    // Until the new source reports, the system's traits are unknown.
    if !SystemReports.hasReported(generation) {
      SystemReports.apply(
        SystemReports.Report(traits: DMTraitCollection(), hasColorSchemeSetting: false),
        generation: generation)
    }
  }

  /// Loads a colour table into the shared table and sets bound properties again; a bad file is
  /// reported with its place, and the shared table keeps its contents.
  private static func loadColorTable(from url: URL) {
    do {
      try DMColorTable.shared.reload(contentsOf: url)
    } catch {
      let place =
        error.line > 0 ? "\(error.path ?? url.path):\(error.line):\(error.column)" : error.path ?? url.path
      DMDiagnostics.report(
        DMDiagnostic(
          kind: .colorTable, message: "\(place): \(error.message); the colour table was not loaded"))
    }
  }

  /// Makes the saved choice the override; a file that cannot be read is reported and left alone,
  /// and the override stays as it is.
  private static func restoreChoice(from store: DMPreferenceStore) {
    do {
      guard let saved = try store.load() else { return }
      GlobalTraits.state.withLock { $0.set(override: saved) }
      TraitPropagator.shared.globalTraitsDidChange(animated: false)
    } catch {
      DMDiagnostics.report(
        DMDiagnostic(kind: .preferenceFile, message: "\(error); the saved choice is ignored"))
    }
  }

  /// Tells the configuration's handler that the system collection changed.
  static func systemAppearanceDidChange(to traits: DMTraitCollection) {
    configuration.systemAppearanceChangeHandler?(traits)
  }

  /// Saves a new override in the configured preference store, if any.
  static func overrideDidChange(to traits: DMTraitCollection) {
    guard let store = configuration.preferenceStore else { return }
    do {
      try store.save(traits)
    } catch {
      DMDiagnostics.report(DMDiagnostic(kind: .preferenceFile, message: "\(error); the choice was not saved"))
    }
  }

  /// Puts the global state back as it is at launch: no windows shown, no configuration, nothing
  /// overridden. For tests.
  static func reset() {
    for window in DMApplication.shared.windows { window.isHidden = true }
    defaultSystemAppearanceSource = nil
    setup(with: DMConfiguration())
    GlobalTraits.state.withLock {
      $0.set(override: DMTraitCollection(), system: DMTraitCollection())
      $0.defaultStyle = .light
    }
    TraitPropagator.shared.reset()
    ThemableRegistry.shared.removeAll()
  }
}
