import Foundation

/// What ``DarkModeManager/setup(with:)`` installs: change handlers, the system appearance source
/// and the animation duration.
///
/// ```swift
/// var configuration = DMConfiguration()
/// configuration.themeChangeHandler = { print("now", DMTraitCollection.current) }
/// configuration.windowThemeChangeHandler = { window in renderer.redraw(window) }  // the app's code
/// configuration.systemAppearanceSource = DMManualAppearanceSource()
/// DarkModeManager.setup(with: configuration)
/// ```
public struct DMConfiguration {
  /// Called once per change of the resolved global collection, after every visible window was
  /// brought up to date.
  public var themeChangeHandler: (@MainActor () -> Void)?

  /// Called once for each visible window that may look different: after a pass (global or local)
  /// in which the window, or an environment in it, came to resolve a collection whose colours may
  /// differ (``DMTraitCollection/hasDifferentColorAppearance(comparedTo:)``: style, contrast, level,
  /// theme or accent, not the motion alone), and after a colour-table reload, for every visible
  /// window.
  ///
  /// A window shown again catches up in the pass that shows it, and is reported then if its
  /// colours changed while it was hidden. A window's first show, and views just added to a window,
  /// are not reported: the app draws them anyway. Bound properties are already set when the handler
  /// runs, so it is the place for a renderer to redraw the window.
  public var windowThemeChangeHandler: (@MainActor (DMWindow) -> Void)?

  /// Where the system's traits come from; `nil` for none (the system collection stays
  /// unspecified, so the defaults apply).
  public var systemAppearanceSource: (any DMSystemAppearanceSource)?

  /// Called with ``DMTraitCollection/system`` each time it changes, after the resolved collection
  /// was brought up to date: when the source reports a different collection, and when a new
  /// configuration starts with the system unknown.
  ///
  /// Unlike ``themeChangeHandler`` it is called even when the resolved collection stays the same:
  /// when the system goes from no preference to light (light is the default), or changes while the
  /// app's override decides the style. A settings screen that shows what the system asks for uses
  /// it.
  public var systemAppearanceChangeHandler: (@MainActor (DMTraitCollection) -> Void)?

  /// The duration, in seconds, that ``DMTransition/current`` gives animated changes; 0.25 by default.
  public var animationDuration: Double

  /// The style when neither the app's override nor the system chooses one: `.light`, the default,
  /// or `.dark` for an app that prefers dark but follows a system that asks for light (what
  /// libadwaita calls `PREFER_DARK`). `.unspecified` counts as `.light`.
  ///
  /// ```swift
  /// var configuration = DMConfiguration(systemAppearanceSource: DMManualAppearanceSource())
  /// configuration.defaultUserInterfaceStyle = .dark  // dark unless the system asks for light
  /// DarkModeManager.setup(with: configuration)
  /// ```
  public var defaultUserInterfaceStyle: DMUserInterfaceStyle = .light

  /// Where the user's choice is remembered; `nil` to remember nothing.
  ///
  /// ``DarkModeManager/setup(with:)`` restores the saved choice as the override, and every later
  /// ``DMTraitCollection/setOverride(_:animated:)`` that changes the override saves it. A file that
  /// cannot be read is reported through ``DMDiagnostics`` and left alone.
  public var preferenceStore: DMPreferenceStore?

  /// A colour-table file that ``DarkModeManager/setup(with:)`` loads into
  /// ``DMColorTable/shared``; `nil` to load nothing.
  ///
  /// A file that cannot be loaded is reported through ``DMDiagnostics`` with its path, line and
  /// column, and the shared table keeps its contents.
  public var colorTableURL: URL?

  /// Creates a configuration.
  /// - Parameters:
  ///   - themeChangeHandler: Called after each change of the resolved global collection.
  ///   - windowThemeChangeHandler: Called for each visible window that may look different.
  ///   - systemAppearanceSource: Where the system's traits come from.
  ///   - systemAppearanceChangeHandler: Called each time the system collection changes.
  ///   - animationDuration: The duration of animated changes, in seconds.
  ///   - preferenceStore: Where the user's choice is remembered.
  ///   - colorTableURL: A colour-table file to load into ``DMColorTable/shared``.
  public init(
    themeChangeHandler: (@MainActor () -> Void)? = nil,
    windowThemeChangeHandler: (@MainActor (DMWindow) -> Void)? = nil,
    systemAppearanceSource: (any DMSystemAppearanceSource)? = nil,
    systemAppearanceChangeHandler: (@MainActor (DMTraitCollection) -> Void)? = nil,
    animationDuration: Double = 0.25,
    preferenceStore: DMPreferenceStore? = nil,
    colorTableURL: URL? = nil
  ) {
    self.themeChangeHandler = themeChangeHandler
    self.windowThemeChangeHandler = windowThemeChangeHandler
    self.systemAppearanceSource = systemAppearanceSource
    self.systemAppearanceChangeHandler = systemAppearanceChangeHandler
    self.animationDuration = animationDuration
    self.preferenceStore = preferenceStore
    self.colorTableURL = colorTableURL
  }
}
