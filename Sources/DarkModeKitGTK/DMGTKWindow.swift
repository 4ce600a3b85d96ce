import CGtk
import DarkModeKit
import Foundation

/// A GTK window in DarkModeKit's tree: shown, hidden and closed with the GTK window, and let go
/// of when the GTK window is destroyed (closed by the user or by ``close()``), so that it is freed
/// once the app holds it no more.
///
/// Its override (`overrideUserInterfaceStyle`, `traitOverrides`) applies to the DarkModeKit
/// colours of its widgets, so two windows can show different styles or themes at once. GTK's
/// stock widgets draw with one style per display (libadwaita's style manager and GTK's settings
/// are per display), the resolved global style; in a window whose own style is the other one,
/// DarkModeKitGTK gives them the stock style's colours of that style (libadwaita's, or for the
/// window and views, those of GTK's default theme).
///
/// ```swift
/// let window = DMGTKWindow(title: "Inspector")
/// window.colorTable = table  // classes dm-bg-KEY, dm-fg-KEY, dm-border-KEY inside the window
/// window.overrideUserInterfaceStyle = .dark
/// window.present()
/// ```
@MainActor
open class DMGTKWindow: DMWindow, DMGTKStyled, DMGTKContainer {
  /// The window's colours.
  public let styling: DMGTKStyling

  /// The GTK window.
  public var gtkWindow: UnsafeMutablePointer<GtkWindow> {
    UnsafeMutableRawPointer(styling.widget).assumingMemoryBound(to: GtkWindow.self)
  }

  /// Windows whose GTK window exists: a window is kept until its GTK window is destroyed.
  private static var open: [ObjectIdentifier: DMGTKWindow] = [:]

  /// A colour table whose keys style the window through CSS, in the window's traits: a widget in
  /// the window (or the window itself) with the class `dm-bg-KEY` gets the key's colour as
  /// background, `dm-fg-KEY` as text colour, `dm-border-KEY` as border colour. The class holds the
  /// key as it is (`dm-fg-Text.Primary`); the stylesheet escapes it. Follows the window's changes
  /// and the table's reloads.
  public var colorTable: DMColorTable? {
    didSet {
      styling.tableTraits = dmTraitCollection
      styling.table = colorTable
    }
  }

  /// The widget the window shows, on screen and in DarkModeKit's tree: setting it puts the
  /// widget in the window (`gtk_window_set_child`) and makes it a subview, so that it takes the
  /// window's traits; the widget it replaces leaves both.
  public var child: DMGTKWidget? {
    get { shownChild }
    set {
      guard newValue !== shownChild else { return }
      shownChild?.leaveContainer()
      newValue?.leaveContainer()
      shownChild = newValue
      guard let newValue else { return }
      if !isClosed { gtk_window_set_child(gtkWindow, newValue.widget) }
      addSubview(newValue)
      newValue.container = self
    }
  }
  private var shownChild: DMGTKWidget?

  /// Wraps a GTK window; it is shown and hidden with it from now on.
  /// - Parameter window: The GTK window.
  public init(_ window: UnsafeMutablePointer<GtkWindow>) {
    let widget = UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWidget.self)
    styling = DMGTKStyling(widget: widget, holdsReference: false)
    super.init()
    Self.open[ObjectIdentifier(self)] = self
    Signals.connectNotify(widget, property: "visible") { [weak self] in self?.visibilityDidChange() }
    // Realized just before its first frame: the colours of its widgets reach GTK now, not from
    // an idle that the first frame may come before.
    Signals.connect(widget, "realize") { [weak self] in
      self?.visibilityDidChange()
      DMGTK.flushStyles()
    }
    Self.watchToplevels()
    updateStockStyle()
    reloadObserver = NotificationCenter.default.addObserver(
      forName: DMColorTable.didReloadNotification, object: nil, queue: nil
    ) { [weak self] notification in
      let table = notification.object as? DMColorTable
      MainActor.assumeIsolated {
        guard let self, let table, table === self.colorTable else { return }
        self.styling.tableDidReload()
      }
    }
    visibilityDidChange()
  }

  /// Creates a GTK window and wraps it.
  /// - Parameters:
  ///   - title: The window's title.
  ///   - width: Its default width.
  ///   - height: Its default height.
  public convenience init(title: String, width: Int32 = 480, height: Int32 = 320) {
    let widget = gtk_window_new()!
    let window = UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkWindow.self)
    gtk_window_set_title(window, title)
    gtk_window_set_default_size(window, width, height)
    self.init(window)
  }

  private var reloadObserver: (any NSObjectProtocol)?

  isolated deinit {
    if let reloadObserver { NotificationCenter.default.removeObserver(reloadObserver) }
    styling.close()
  }

  /// Whether the GTK window was destroyed; ``gtkWindow`` must not be used then.
  public var isClosed: Bool { styling.isClosed }

  /// Shows the window (`gtk_window_present`); does nothing once it is closed.
  public func present() {
    guard !isClosed else { return }
    // The window's colours reach GTK before it computes the window's styles to show it.
    isHidden = false
    DMGTK.flushStyles()
    // The app's code ran meanwhile (trait callbacks, handlers of the class changes), and may have
    // closed the window.
    guard !isClosed else { return }
    gtk_window_present(gtkWindow)
  }

  /// Destroys the GTK window; the `DMGTKWindow` is freed once nothing else holds it. Does nothing
  /// once it is closed.
  public func close() {
    guard !isClosed else { return }
    gtk_window_destroy(gtkWindow)
  }

  open override func dmTraitCollectionDidChange(_ previousTraitCollection: DMTraitCollection?) {
    super.dmTraitCollectionDidChange(previousTraitCollection)
    styling.tableTraits = dmTraitCollection
    updateStockStyle()
  }

  /// The class that restyles the window's stock widgets, while its style is not the display's.
  private var stockClass: String?

  /// Gives the window the class of its own style when that is not the style GTK's stock widgets
  /// show (see `WindowStockStyle`), and takes it away when it is.
  func updateStockStyle() {
    guard !isClosed else { return }
    var wanted: String?
    if let stockStyle = DMGTK.stockStyle {
      let own: DMUserInterfaceStyle = dmTraitCollection.userInterfaceStyle == .dark ? .dark : .light
      if own != DMGTK.stockUserInterfaceStyle, WindowStockStyle.install(for: stockStyle) {
        wanted = WindowStockStyle.className(for: own)
      }
    }
    guard wanted != stockClass else { return }
    // Recorded before GTK is called: a handler of the class change may come back here.
    let old = stockClass
    stockClass = wanted
    if let old { gtk_widget_remove_css_class(styling.widget, old) }
    if let wanted, stockClass == wanted, !isClosed { gtk_widget_add_css_class(styling.widget, wanted) }
  }

  /// The style of GTK's stock widgets changed: each window compares its own with it again.
  static func stockStyleDidChange() {
    for window in open.values { window.updateStockStyle() }
  }

  func remove(fromLayout child: DMGTKWidget) {
    guard child === shownChild else { return }
    shownChild = nil
    if !isClosed { gtk_window_set_child(gtkWindow, nil) }
  }

  private func visibilityDidChange() {
    let isShown = gtk_widget_get_visible(styling.widget) != 0
    if isHidden == isShown { isHidden = !isShown }
  }

  /// Whether GTK's list of toplevel windows is watched: a window leaves it when it is destroyed,
  /// however that happens (closed by the user, `gtk_window_destroy`), even while a reference to
  /// it is held.
  private static var watchesToplevels = false

  private static func watchToplevels() {
    guard !watchesToplevels, let toplevels = gtk_window_get_toplevels() else { return }
    watchesToplevels = true
    Signals.connectItemsChanged(UnsafeMutableRawPointer(toplevels)) { DMGTKWindow.toplevelsDidChange() }
  }

  private static func toplevelsDidChange() {
    guard let toplevels = gtk_window_get_toplevels() else { return }
    var present = Set<UnsafeMutableRawPointer>()
    for index in 0..<g_list_model_get_n_items(toplevels) {
      guard let item = g_list_model_get_item(toplevels, index) else { continue }
      present.insert(item)
      g_object_unref(item)
    }
    for window in open.values where !present.contains(UnsafeMutableRawPointer(window.widget)) {
      window.gtkWindowDidClose()
    }
  }

  private func gtkWindowDidClose() {
    styling.widgetWillGo()
    isHidden = true
    Self.open[ObjectIdentifier(self)] = nil
  }
}
