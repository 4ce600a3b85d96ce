import CGtk
import DarkModeKit

/// The colours DarkModeKit gives one GTK widget, which DarkModeKit's stylesheet shows; reached
/// through the properties of ``DMGTKStyled``.
///
/// The widget carries the class of its colours' rule, shared by every widget with the same
/// colours, and swapped when they change.
@MainActor
public final class DMGTKStyling {
  let widget: UnsafeMutablePointer<GtkWidget>
  /// Whether this holds a reference on the widget. A window holds none: GTK keeps its toplevels
  /// until they are destroyed, and a reference would keep a destroyed window from being torn down.
  private let holdsReference: Bool
  /// Whether the widget was let go of (or is gone, for a destroyed window): nothing touches it.
  private(set) var isClosed = false

  var background: DMColor? { didSet { if background != oldValue { setNeedsUpdate() } } }
  var foreground: DMColor? { didSet { if foreground != oldValue { setNeedsUpdate() } } }
  var border: DMColor? { didSet { if border != oldValue { setNeedsUpdate() } } }
  /// A table whose keys become classes inside the widget (see `DMGTKWindow.colorTable`), and the
  /// collection to resolve them with.
  var table: DMColorTable? { didSet { if table !== oldValue { setNeedsUpdate() } } }
  var tableTraits = DMTraitCollection() {
    didSet { if table != nil, tableTraits != oldValue { setNeedsUpdate() } }
  }

  /// The classes the widget carries now, for its own colours and for its table's.
  private var lookClass: String?
  private var tableClass: String?
  /// Whether the widget waits in the stylesheet's next update.
  fileprivate var isPending = false

  init(widget: UnsafeMutablePointer<GtkWidget>, holdsReference: Bool = true) {
    self.widget = widget
    self.holdsReference = holdsReference
    if holdsReference { g_object_ref_sink(widget) }
  }

  /// The table's colours changed: the classes show the new ones from the next frame.
  func tableDidReload() {
    if table != nil { setNeedsUpdate() }
  }

  /// Puts the widget in the stylesheet's next update, once however many of its colours changed.
  private func setNeedsUpdate() {
    guard !isClosed, !isPending else { return }
    isPending = true
    StyleSheet.shared.setNeedsUpdate(self)
  }

  /// Gives the widget the classes of its colours now.
  fileprivate func update() {
    isPending = false
    guard !isClosed else { return }
    lookDidChange()
    tableLookDidChange()
  }

  /// The widget is being destroyed: it gives up its classes' rules, and nothing touches it again.
  func widgetWillGo() {
    guard !isClosed else { return }
    isClosed = true
    swap(&lookClass, to: nil)
    swap(&tableClass, to: nil)
  }

  /// Lets go of the widget: it gives up its classes, and the reference taken on it is dropped.
  func close() {
    guard !isClosed else { return }
    if let lookClass { gtk_widget_remove_css_class(widget, lookClass) }
    if let tableClass { gtk_widget_remove_css_class(widget, tableClass) }
    widgetWillGo()
    if holdsReference { g_object_unref(widget) }
  }

  private func lookDidChange() {
    guard !isClosed else { return }
    let look = StyleSheet.Look(background: background, foreground: foreground, border: border)
    replace(&lookClass, with: look.isEmpty ? nil : StyleSheet.shared.useClass(for: look))
  }

  private func tableLookDidChange() {
    guard !isClosed else { return }
    let look = table.map { table in
      StyleSheet.TableLook(
        table: ObjectIdentifier(table),
        colors: table.keys.map {
          StyleSheet.KeyColor(key: $0, color: table.color(forKey: $0, traitCollection: tableTraits))
        })
    }
    replace(&tableClass, with: look.map { StyleSheet.shared.useClass(for: $0) })
  }

  /// Puts `new` on the widget in place of `current`, and gives up the rule of `current`.
  private func replace(_ current: inout String?, with new: String?) {
    guard new != current else {
      // The same rule again: give back the use just taken.
      if let new { StyleSheet.shared.release(new) }
      return
    }
    if let new { gtk_widget_add_css_class(widget, new) }
    if let current { gtk_widget_remove_css_class(widget, current) }
    swap(&current, to: new)
  }

  private func swap(_ current: inout String?, to new: String?) {
    if let current { StyleSheet.shared.release(current) }
    current = new
  }
}

/// One display-wide GTK stylesheet that carries every colour DarkModeKit gives widgets.
///
/// Each distinct set of colours has one rule and one class, and widgets carry the class of their
/// colours. A change swaps classes on the widgets that changed, once per widget just before the
/// next frame however many of its colours changed, and reloads the stylesheet only
/// when colours appear that no rule has yet (the first switch to a style, a table reload). GTK
/// then restyles only those widgets, as for any change of classes, and the number of rules stays
/// that of the distinct colours, not of the widgets (GTK's CSS reader recurses once per rule's
/// selector, and a stylesheet of thousands of per-widget rules overflows its stack).
///
/// GTK does not animate a change that comes from a stylesheet, and the rules declare no
/// transitions: colours change at the next frame, as in libadwaita apps.
@MainActor
final class StyleSheet {
  static let shared = StyleSheet()

  /// The colours of one widget's own rule.
  struct Look: Hashable {
    var background: DMColor?
    var foreground: DMColor?
    var border: DMColor?
    var isEmpty: Bool { background == nil && foreground == nil && border == nil }
  }

  struct KeyColor: Hashable {
    var key: String
    var color: DMColor?
  }

  /// The colour of each key of a table, as one window resolves it.
  struct TableLook: Hashable {
    var table: ObjectIdentifier
    var colors: [KeyColor]
  }

  private enum Rule: Hashable {
    case look(Look)
    case table(TableLook)
  }

  private struct Entry {
    var className: String
    var users: Int
  }

  private var provider: UnsafeMutablePointer<GtkCssProvider>?
  private var rules: [Rule: Entry] = [:]
  private var rulesByClass: [String: Rule] = [:]
  private var lastNumber: UInt64 = 0
  private var isScheduled = false
  private var hasNewRules = false
  /// Widgets whose classes the next update sets.
  private var pending: [DMGTKStyling] = []
  /// The stylesheet last loaded.
  private(set) var css = ""

  private init() {}

  /// Adds the stylesheet to the default display, above the app's own stylesheets.
  func install() {
    guard provider == nil, let display = gdk_display_get_default() else { return }
    let provider = gtk_css_provider_new()
    gtk_style_context_add_provider_for_display(
      display, OpaquePointer(provider), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION + 1))
    self.provider = provider
    // Widgets made before: their rules reach the screen with the next frame.
    if !rules.isEmpty { scheduleUpdate() }
  }

  func useClass(for look: Look) -> String { use(.look(look), prefix: "dm-look") }

  func useClass(for look: TableLook) -> String { use(.table(look), prefix: "dm-table") }

  /// Gives up one use of a class's rule; a rule nobody uses goes at the next reload.
  func release(_ className: String) {
    guard let rule = rulesByClass[className] else { return }
    rules[rule]?.users -= 1
  }

  /// Puts a widget whose colours changed in the next update.
  func setNeedsUpdate(_ styling: DMGTKStyling) {
    pending.append(styling)
    scheduleUpdate()
  }

  private func use(_ rule: Rule, prefix: String) -> String {
    if let entry = rules[rule] {
      rules[rule]?.users += 1
      return entry.className
    }
    lastNumber &+= 1
    let className = "\(prefix)-\(lastNumber)"
    rules[rule] = Entry(className: className, users: 1)
    rulesByClass[className] = rule
    hasNewRules = true
    scheduleUpdate()
    return className
  }

  private func scheduleUpdate() {
    guard !isScheduled else { return }
    isScheduled = true
    runBeforeNextFrame { StyleSheet.shared.flush() }
  }

  /// Gives the widgets that changed the classes of their colours, then loads the stylesheet if
  /// that added rules, dropping the ones nobody uses.
  func flush() {
    isScheduled = false
    let changed = pending
    pending = []
    for styling in changed { styling.update() }
    guard hasNewRules, let provider else { return }
    hasNewRules = false
    for (rule, entry) in rules where entry.users <= 0 {
      rules[rule] = nil
      rulesByClass[entry.className] = nil
    }
    let text = Self.generate(
      rules.values.map(\.className).sorted().compactMap { name in
        rulesByClass[name].map { (name, $0) }
      })
    guard text != css else { return }
    css = text
    gtk_css_provider_load_from_data(provider, text, -1)
  }

  private static func generate(_ rules: [(String, Rule)]) -> String {
    var css = ""
    for (className, rule) in rules {
      switch rule {
      case .look(let look):
        var declarations = ""
        if let color = look.background { declarations += background(color) }
        if let color = look.foreground { declarations += " color: \(cssColor(color));" }
        if let color = look.border { declarations += " border-color: \(cssColor(color));" }
        css += ".\(className) {\(declarations) }\n"
      case .table(let look):
        let scope = ".\(className)"
        for entry in look.colors {
          guard let color = entry.color else { continue }
          let name = cssIdentifier(entry.key)
          css += "\(scope).dm-bg-\(name), \(scope) .dm-bg-\(name) {\(background(color)) }\n"
          css += "\(scope).dm-fg-\(name), \(scope) .dm-fg-\(name) { color: \(cssColor(color)); }\n"
          css +=
            "\(scope).dm-border-\(name), \(scope) .dm-border-\(name) { border-color: \(cssColor(color)); }\n"
        }
      }
    }
    return css
  }

  private static func background(_ color: DMColor) -> String {
    " background-color: \(cssColor(color)); background-image: none;"
  }
}

/// A colour as CSS: `rgba(R, G, B, A)` with 0–255 components; a component that is not a finite
/// number (a colour decoded from bad data) counts as 0.
func cssColor(_ color: DMColor) -> String {
  func unit(_ value: Double) -> Double { value.isFinite ? min(max(value, 0), 1) : 0 }
  func channel(_ value: Double) -> Int { Int((unit(value) * 255).rounded()) }
  return "rgba(\(channel(color.red)),\(channel(color.green)),\(channel(color.blue)),\(unit(color.alpha)))"
}

/// A colour-table key as part of a CSS class name: letters, digits, `-` and `_` as they are, any
/// other character escaped, so that no key can end the rule. An escape is a backslash and six hex
/// digits, the form that needs no space after it.
func cssIdentifier(_ key: String) -> String {
  var name = ""
  for scalar in key.unicodeScalars {
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9", "-", "_": name.unicodeScalars.append(scalar)
    default:
      let digits = String(scalar.value, radix: 16)
      name += "\\" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }
  }
  return name
}
