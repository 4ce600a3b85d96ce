import CGtk
import DarkModeKit

/// The colours DarkModeKit gives one GTK widget, which its rule in DarkModeKit's stylesheet
/// shows; reached through the properties of ``DMGTKStyled``.
@MainActor
public final class DMGTKStyling {
  let id: UInt64
  let widget: UnsafeMutablePointer<GtkWidget>
  /// The CSS class that names the widget's rule.
  let className: String

  var background: DMColor? { didSet { changed(background != oldValue) } }
  var foreground: DMColor? { didSet { changed(foreground != oldValue) } }
  var border: DMColor? { didSet { changed(border != oldValue) } }
  /// A table whose keys become classes inside the widget (see `DMGTKWindow.colorTable`), and the
  /// collection to resolve them with.
  var table: DMColorTable? { didSet { changed(table !== oldValue) } }
  var tableTraits = DMTraitCollection() { didSet { changed(table != nil && tableTraits != oldValue) } }

  init(widget: UnsafeMutablePointer<GtkWidget>, prefix: String) {
    id = StyleSheet.shared.nextID()
    self.widget = widget
    className = "\(prefix)-\(id)"
    g_object_ref_sink(widget)
    gtk_widget_add_css_class(widget, className)
    StyleSheet.shared.add(self)
  }

  /// The table's colours changed: the classes show the new ones from the next frame.
  func tableDidReload() {
    if table != nil { StyleSheet.shared.setNeedsUpdate() }
  }

  /// Forgets the widget: its rule goes at the next update, and the reference taken on it is
  /// dropped.
  func close() {
    StyleSheet.shared.remove(self)
    gtk_widget_remove_css_class(widget, className)
    g_object_unref(widget)
  }

  private func changed(_ isChange: Bool) {
    if isChange { StyleSheet.shared.setNeedsUpdate() }
  }
}

/// One display-wide GTK stylesheet that carries every colour DarkModeKit gives widgets: one rule
/// per styled widget, and the classes of each window's colour table. Regenerated, once per frame
/// at most, after a change.
@MainActor
final class StyleSheet {
  static let shared = StyleSheet()

  private var provider: UnsafeMutablePointer<GtkCssProvider>?
  private var stylings: [UInt64: DMGTKStyling] = [:]
  private var lastID: UInt64 = 0
  private var isScheduled = false
  /// The duration of the animated change that the next update shows, if any.
  private var transition: Double?
  /// The stylesheet last loaded.
  private(set) var css = ""
  /// How many times a new stylesheet was loaded; tests count updates with it.
  private(set) var loadCount = 0

  private init() {}

  func nextID() -> UInt64 {
    lastID &+= 1
    return lastID
  }

  /// Adds the stylesheet to the default display, above the app's own stylesheets.
  func install() {
    guard provider == nil, let display = gdk_display_get_default() else { return }
    let provider = gtk_css_provider_new()
    gtk_style_context_add_provider_for_display(
      display, OpaquePointer(provider), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION + 1))
    self.provider = provider
  }

  func add(_ styling: DMGTKStyling) {
    stylings[styling.id] = styling
  }

  func remove(_ styling: DMGTKStyling) {
    guard stylings.removeValue(forKey: styling.id) != nil else { return }
    setNeedsUpdate()
  }

  /// Schedules an update before the next frame; the change animates when it was made in an
  /// animated pass (`DMTransition.current`).
  func setNeedsUpdate() {
    let current = DMTransition.current
    if current.isAnimated { transition = max(transition ?? 0, current.duration) }
    guard !isScheduled else { return }
    isScheduled = true
    runBeforeNextFrame { StyleSheet.shared.flush() }
  }

  /// Loads the stylesheet for the current colours, if they changed.
  func flush() {
    isScheduled = false
    let text = Self.generate(stylings.values.sorted { $0.id < $1.id }, transition: transition)
    transition = nil
    guard text != css, let provider else { return }
    css = text
    loadCount += 1
    gtk_css_provider_load_from_data(provider, text, -1)
  }

  /// The stylesheet for `stylings`: a rule per widget's own colours, then the classes of each
  /// table, scoped to the widget that holds the table.
  static func generate(_ stylings: [DMGTKStyling], transition: Double?) -> String {
    let animation = transition.map { duration in
      let milliseconds = Int((duration * 1000).rounded())
      return
        " transition: background-color \(milliseconds)ms, color \(milliseconds)ms, border-color \(milliseconds)ms;"
    }
    var css = ""
    for styling in stylings {
      var declarations = ""
      if let color = styling.background { declarations += Self.background(color) }
      if let color = styling.foreground { declarations += " color: \(cssColor(color));" }
      if let color = styling.border { declarations += " border-color: \(cssColor(color));" }
      if !declarations.isEmpty {
        css += ".\(styling.className) {\(declarations)\(animation ?? "") }\n"
      }
      guard let table = styling.table else { continue }
      for key in table.keys {
        guard let color = table.color(forKey: key, traitCollection: styling.tableTraits) else { continue }
        let name = cssIdentifier(key)
        let scope = ".\(styling.className)"
        css +=
          "\(scope).dm-bg-\(name), \(scope) .dm-bg-\(name) {\(Self.background(color))\(animation ?? "") }\n"
        css +=
          "\(scope).dm-fg-\(name), \(scope) .dm-fg-\(name) { color: \(cssColor(color));\(animation ?? "") }\n"
        css +=
          "\(scope).dm-border-\(name), \(scope) .dm-border-\(name) { border-color: \(cssColor(color));\(animation ?? "") }\n"
      }
    }
    return css
  }

  private static func background(_ color: DMColor) -> String {
    " background-color: \(cssColor(color)); background-image: none;"
  }
}

/// A colour as CSS: `rgba(R, G, B, A)` with 0–255 components.
func cssColor(_ color: DMColor) -> String {
  func channel(_ value: Double) -> Int { Int((min(max(value, 0), 1) * 255).rounded()) }
  let alpha = min(max(color.alpha, 0), 1)
  return "rgba(\(channel(color.red)),\(channel(color.green)),\(channel(color.blue)),\(alpha))"
}

/// A colour-table key as part of a CSS class name: letters, digits, `-` and `_` as they are, any
/// other character escaped as CSS requires, so that no key can end the rule.
func cssIdentifier(_ key: String) -> String {
  var name = ""
  for scalar in key.unicodeScalars {
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9", "-", "_": name.unicodeScalars.append(scalar)
    default: name += "\\\(String(scalar.value, radix: 16)) "
    }
  }
  return name
}
