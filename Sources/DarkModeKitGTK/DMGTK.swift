import CGtk
import DarkModeKit
import DarkModeKitLinux

/// Connects DarkModeKit to a GTK 4 app: GTK's own widgets follow the resolved global style, the
/// colours of ``DMGTKWidget`` and ``DMGTKWindow`` reach the screen, and work queued on the main
/// actor runs while the GLib main loop runs.
///
/// Call ``start(stockStyle:)`` once, before creating windows (after `gtk_init()` or in a
/// `GtkApplication`'s `activate`; it initialises GTK itself otherwise):
///
/// ```swift
/// DMGTK.start()
/// let window = DMGTKWindow(title: "Notes")
/// window.present()
/// ```
///
/// With no system source configured, the app follows the desktop: ``start(stockStyle:)`` makes
/// the desktop's setting (the XDG portal, or `DM_COLOR_SCHEME`) DarkModeKit's default system
/// source, and reads it before it returns, waiting ``startupWait`` at most, so that the first
/// window is drawn in the desktop's style. An app that wants another source configures it with
/// `DarkModeManager.setup(with:)`; one that wants none configures a `DMManualAppearanceSource`.
/// DarkModeKit tells GTK the resolved style, never the other way round: one source of truth, which
/// works with and without libadwaita and carries the app's override, its default style, contrast,
/// accent and motion.
@MainActor
public enum DMGTK {
  /// How GTK's stock widgets are told the style.
  public enum StockStyle: Sendable {
    /// Through libadwaita's style manager (forced light or dark): the libadwaita stylesheet.
    case libadwaita
    /// Through GTK's `gtk-application-prefer-dark-theme` setting: GTK's default theme, for apps
    /// that do not use libadwaita.
    case gtk
    /// GTK's stock widgets are left alone; only DarkModeKit's colours change.
    case none
  }

  /// How long ``start(stockStyle:)`` waits for the desktop's first answer: 500 ms. The portal
  /// answers in a few milliseconds when it runs; past this, the app starts with the defaults and
  /// takes the desktop's style when the answer comes.
  public static let startupWait: Duration = .milliseconds(500)

  /// The style GTK's stock widgets show, light or dark: the resolved global style. Read from the
  /// global collection rather than kept from the last time GTK was told: while a change walks the
  /// windows, before GTK is told, windows compare themselves with the style GTK is about to show.
  static var stockUserInterfaceStyle: DMUserInterfaceStyle {
    DMTraitCollection.resolvedGlobal.userInterfaceStyle == .dark ? .dark : .light
  }

  /// The way stock widgets follow the style, as set by ``start(stockStyle:)`` (`.libadwaita` for
  /// `.gtk` asked for once libadwaita is initialised); `nil` before.
  public private(set) static var stockStyle: StockStyle?
  private static var observation: DMTraitObservation?

  /// Starts following DarkModeKit: initialises GTK (and libadwaita) if the app has not, follows
  /// the desktop when no system source is configured, lets the GLib main loop run the main actor's
  /// queued work, installs the stylesheet that carries the app's colours, and sets GTK's style
  /// from the resolved global collection now and after each change. Calling it again changes only
  /// the stock style: what the previous one set is given back (libadwaita follows the desktop
  /// again; GTK's dark-theme and animation settings have their own values again). Once libadwaita
  /// is initialised (by this app, or by an earlier `.libadwaita`), it owns GTK's stylesheet and
  /// GTK's dark-theme setting is no longer read: `.gtk` then means `.libadwaita`.
  ///
  /// When DarkModeKit follows the desktop by itself (no source configured, no `DM_COLOR_SCHEME`
  /// or `DM_CONTRAST`) and the desktop portal does not answer within ``startupWait``, or answers
  /// a read of one setting with another shape than the variant holding a variant libadwaita takes
  /// apart, libadwaita is told to leave the portal alone for the rest of the run, as it would
  /// otherwise wait for it without a limit or crash, and the log says so once.
  /// - Parameter stockStyle: How GTK's own widgets are told the style; libadwaita by default.
  public static func start(stockStyle: StockStyle = .libadwaita) {
    if self.stockStyle == nil {
      // Variables, then the portal, read while GTK starts and waited for before the first
      // window; a window app does not ask its terminal.
      let desktop =
        DarkModeManager.defaultSystemAppearanceSource == nil
        ? DMAutomaticAppearanceSource(terminal: nil, startupWait: startupWait) : nil
      if gtk_is_initialized() == 0 { gtk_init() }
      // Waited for while GTK started; the source's own start then waits no more.
      if let reason = desktop?.whyLibadwaitaCannotReadPortal() {
        libadwaitaLeavesPortal = true
        DMDiagnostics.report(
          DMDiagnostic(
            kind: .systemAppearance,
            message: "libadwaita is told to leave the desktop portal alone (ADW_DISABLE_PORTAL): \(reason)"))
      }
      if stockStyle == .libadwaita { initLibadwaita() }
      if let desktop { DarkModeManager.defaultSystemAppearanceSource = desktop }
      MainQueueDrain.install()
      StyleSheet.shared.install()
      observation = DMTraitCollection.registerForTraitChanges([.userInterfaceStyle, .accessibilityMotion]) {
        _, current in
        applyStockStyle(current)
        DMGTKWindow.stockStyleDidChange()
      }
    }
    // Once loaded, libadwaita owns GTK's stylesheet, and GTK's dark-theme setting is no longer
    // read: GTK's own style is libadwaita's then.
    let stockStyle = stockStyle == .gtk && adw_is_initialized() != 0 ? .libadwaita : stockStyle
    if let previous = self.stockStyle, previous != stockStyle { release(previous) }
    if stockStyle == .libadwaita { initLibadwaita() }
    self.stockStyle = stockStyle
    applyStockStyle(DMTraitCollection.current)
    DMGTKWindow.stockStyleDidChange()
  }

  /// Whether libadwaita is to leave the desktop portal alone (see `initLibadwaita()`), as the first
  /// start found.
  private static var libadwaitaLeavesPortal = false

  /// Initialises libadwaita, if it is not. libadwaita reads the portal as it starts, with no time
  /// limit, and takes the reply to `Read` apart as a variant holding a variant whatever it is: a
  /// portal that does not answer keeps the app from starting, and one that answers with another
  /// shape crashes it.
  /// When DarkModeKit's own read at the first start found either, libadwaita is told to leave the
  /// portal alone (`ADW_DISABLE_PORTAL`, unless the app set it), for the rest of the run; the style
  /// it shows is DarkModeKit's anyway.
  private static func initLibadwaita() {
    guard adw_is_initialized() == 0 else { return }
    let leavesPortal = libadwaitaLeavesPortal && getenv("ADW_DISABLE_PORTAL") == nil
    // Set only while libadwaita starts, so that the programs the app runs do not inherit it.
    // Changing the environment while GTK's threads run is safe only if none reads it meanwhile:
    // it is done only for a portal that would otherwise hang or crash the app.
    if leavesPortal { setenv("ADW_DISABLE_PORTAL", "1", 1) }
    adw_init()
    if leavesPortal { unsetenv("ADW_DISABLE_PORTAL") }
  }

  /// Gives back what the stock style `previous` set: libadwaita follows the desktop again, GTK's
  /// `gtk-application-prefer-dark-theme` and `gtk-enable-animations` have their own values again.
  private static func release(_ previous: StockStyle) {
    if turnedAnimationsOff, let settings = gtk_settings_get_default() {
      gtk_settings_reset_property(settings, "gtk-enable-animations")
      turnedAnimationsOff = false
    }
    switch previous {
    case .libadwaita:
      adw_style_manager_set_color_scheme(adw_style_manager_get_default(), ADW_COLOR_SCHEME_DEFAULT)
    case .gtk:
      if let settings = gtk_settings_get_default() {
        gtk_settings_reset_property(settings, "gtk-application-prefer-dark-theme")
      }
    case .none:
      break
    }
  }

  /// The main loop ``run()`` runs, while it runs.
  private static var loop: OpaquePointer?

  /// Runs GTK's main loop until the last window is closed, or until ``quit()``: the end of an
  /// app's `main`. Starts DarkModeKitGTK first if ``start(stockStyle:)`` was not called. Returns at
  /// once when no window is open.
  ///
  /// ```swift
  /// let window = DMGTKWindow(title: "Notes")
  /// window.present()
  /// DMGTK.run()
  /// ```
  public static func run() {
    if stockStyle == nil { start() }
    guard loop == nil, let toplevels = gtk_window_get_toplevels() else { return }
    guard g_list_model_get_n_items(toplevels) > 0 else { return }
    let loop = g_main_loop_new(nil, 0)
    self.loop = loop
    let watch = Signals.connectItemsChanged(UnsafeMutableRawPointer(toplevels)) {
      if g_list_model_get_n_items(toplevels) == 0 { DMGTK.quit() }
    }
    g_main_loop_run(loop)
    g_signal_handler_disconnect(UnsafeMutableRawPointer(toplevels), watch)
    g_main_loop_unref(loop)
    self.loop = nil
  }

  /// Makes ``run()`` return once the work in hand is done; does nothing when it does not run.
  public static func quit() {
    if let loop { g_main_loop_quit(loop) }
  }

  /// Writes every pending colour change into the stylesheet now, instead of just before the next
  /// frame; for tests and benchmarks that read styles right after a change.
  public static func flushStyles() {
    StyleSheet.shared.flush()
  }

  /// The stylesheet DarkModeKit last loaded for the colours of its widgets and windows, for
  /// debugging: a rule per distinct set of colours in use (three per key for a window's table),
  /// and rules in use lately, up to about as many again.
  public static var styleSheet: String { StyleSheet.shared.css }

  /// How many times DarkModeKitGTK has given one of its GTK style providers new text, for
  /// debugging and benchmarks: GTK parses a provider's whole text again each time. A widget's new
  /// colour loads one provider (at most 200 rules), however big the windows' tables are.
  public static var styleSheetLoads: Int { StyleSheet.shared.providerLoads }

  /// Whether DarkModeKitGTK turned GTK's animations off, for reduced motion.
  private static var turnedAnimationsOff = false

  /// Tells GTK the style, and whether to animate: under reduced motion GTK's
  /// `gtk-enable-animations` is turned off; otherwise it is left to the user's settings (those
  /// of `settings.ini` or the desktop), which a setting turned off before is given back to.
  private static func applyStockStyle(_ traits: DMTraitCollection) {
    let dark = traits.userInterfaceStyle == .dark
    if stockStyle != StockStyle.none, let settings = gtk_settings_get_default() {
      let reduced = traits.accessibilityMotion == .reduced
      if reduced {
        dm_object_set_boolean(UnsafeMutableRawPointer(settings), "gtk-enable-animations", 0)
        turnedAnimationsOff = true
      } else if turnedAnimationsOff {
        gtk_settings_reset_property(settings, "gtk-enable-animations")
        turnedAnimationsOff = false
      }
    }
    switch stockStyle {
    case .libadwaita:
      adw_style_manager_set_color_scheme(
        adw_style_manager_get_default(), dark ? ADW_COLOR_SCHEME_FORCE_DARK : ADW_COLOR_SCHEME_FORCE_LIGHT)
    case .gtk:
      guard let settings = gtk_settings_get_default() else { return }
      dm_object_set_boolean(
        UnsafeMutableRawPointer(settings), "gtk-application-prefer-dark-theme", dark ? 1 : 0)
    case .some(.none), nil:
      break
    }
  }
}

/// Lets `Task { @MainActor in … }`, `await MainActor.run` and `DispatchQueue.main` run while the
/// GLib main loop runs: GLib watches libdispatch's main queue and drains it when woken.
enum MainQueueDrain {
  @MainActor private static var isInstalled = false

  @MainActor
  static func install() {
    guard !isInstalled else { return }
    isInstalled = true
    let drain: @convention(c) (gint, GIOCondition, gpointer?) -> gboolean = { handle, _, _ in
      // The handle is an event counter that stays readable until read: reset it, then run what
      // is queued (what comes in meanwhile makes it readable again).
      var count: UInt64 = 0
      _ = read(handle, &count, MemoryLayout<UInt64>.size)
      _dispatch_main_queue_callback_4CF(nil)
      return 1  // G_SOURCE_CONTINUE
    }
    g_unix_fd_add(_dispatch_get_main_queue_handle_4CF(), G_IO_IN, drain, nil)
  }
}
