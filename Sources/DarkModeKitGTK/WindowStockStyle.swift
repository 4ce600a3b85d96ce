import CGtk
import DarkModeKit
import Foundation

/// GTK's stock widgets in a window whose style is not the display's.
///
/// libadwaita's style manager (and GTK's dark-theme setting), and with it the colours of GTK's
/// stock widgets, is one per display: it shows the resolved global style. A ``DMGTKWindow``
/// overridden to the other style carries the class `dm-stock-light` or `dm-stock-dark`, and one
/// stylesheet gives the widgets inside such a window the colours the stock style gives them in
/// that style.
///
/// - With libadwaita: the window's background and text (which buttons, entries, switches, labels
///   and check boxes take their colours from), header bars and action bars, lists and views,
///   notebooks' pages, cards and popovers, from libadwaita's stylesheets (`defaults-light.css`,
///   `defaults-dark.css`).
/// - With GTK's default theme: the window's background and text, views (lists, text views),
///   notebooks' pages and popovers, from its named colours (`Default-light.css`,
///   `Default-dark.css`); its buttons, entries and header bars keep the display's style, whose
///   colours are their own and read on both.
///
/// The colours are read the first time a window needs them, so that an app whose windows all show
/// the display's style never pays for them. The stylesheet sits just above the theme's and below
/// the app's own, so that the app's CSS still wins.
@MainActor
enum WindowStockStyle {
  /// The class of a window shown light in a dark app, or dark in a light one.
  static func className(for style: DMUserInterfaceStyle) -> String {
    style == .dark ? "dm-stock-dark" : "dm-stock-light"
  }

  /// The stylesheet loaded, and the stock style it is for.
  private static var provider: (style: DMGTK.StockStyle, provider: UnsafeMutablePointer<GtkCssProvider>)?
  /// The stock styles whose colours could not be read.
  private static var unreadable: Set<DMGTK.StockStyle> = []

  /// Loads the stylesheet for the colours of `style`'s windows of the other style, in place of
  /// one loaded for another stock style; whether it is loaded (windows carry their class only
  /// then).
  static func install(for style: DMGTK.StockStyle) -> Bool {
    if let provider, provider.style == style { return true }
    guard style != .none, !unreadable.contains(style), let display = gdk_display_get_default() else {
      return false
    }
    let sheets =
      style == .libadwaita
      ? ("/org/gnome/Adwaita/styles/defaults-light.css", "/org/gnome/Adwaita/styles/defaults-dark.css")
      : ("/org/gtk/libgtk/theme/Default/Default-light.css", "/org/gtk/libgtk/theme/Default/Default-dark.css")
    let light = namedColors(resource: sheets.0)
    let dark = namedColors(resource: sheets.1)
    guard !light.isEmpty, !dark.isEmpty else {
      unreadable.insert(style)
      return false
    }
    if let old = self.provider {
      gtk_style_context_remove_provider_for_display(display, OpaquePointer(old.provider))
      g_object_unref(old.provider)
    }
    let provider = gtk_css_provider_new()!
    let css =
      style == .libadwaita
      ? css(.light, light) + css(.dark, dark)
      : gtkThemeCSS(.light, light, display: dark) + gtkThemeCSS(.dark, dark, display: light)
    gtk_css_provider_load_from_data(provider, css, -1)
    // Just above the theme's stylesheet: libadwaita's is at the theme's priority, GTK's own theme
    // at the settings' priority; both below the app's.
    let theme =
      style == .libadwaita ? GTK_STYLE_PROVIDER_PRIORITY_THEME : GTK_STYLE_PROVIDER_PRIORITY_SETTINGS
    gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), guint(theme + 1))
    self.provider = (style, provider)
    return true
  }

  /// A rule giving the widgets that `selectors` select inside windows of `style` the named
  /// colours `background` and `foreground` of `colors`.
  private static func rule(
    _ style: DMUserInterfaceStyle, _ colors: [String: String], _ selectors: [String], _ background: String,
    _ foreground: String
  ) -> String {
    let scope = "window.\(className(for: style))"
    func color(_ name: String) -> String { colors[name] ?? "@\(name)" }
    return selectors.map { $0.isEmpty ? scope : "\(scope) \($0)" }.joined(separator: ", ")
      + " { background-color: \(color(background)); color: \(color(foreground)); }\n"
  }

  /// The rules of one style's class, from that style's named colours in libadwaita.
  static func css(_ style: DMUserInterfaceStyle, _ colors: [String: String]) -> String {
    func rule(_ selectors: [String], _ background: String, _ foreground: String) -> String {
      Self.rule(style, colors, selectors, background, foreground)
    }
    // Each widget as libadwaita colours it, and only the kinds it colours so: its variants that
    // take other colours (a flat header bar, a sidebar, lists shown as cards, on-screen displays)
    // are left out, as this stylesheet's priority would win over their own rules.
    let list = ":not(.navigation-sidebar):not(.boxed-list):not(.content):not(.osd)"
    return rule([""], "window_bg_color", "window_fg_color")
      + rule(["headerbar:not(.flat)"], "headerbar_bg_color", "headerbar_fg_color")
      + rule(["headerbar:not(.flat):backdrop"], "headerbar_backdrop_color", "headerbar_fg_color")
      + rule(["actionbar > revealer > box"], "headerbar_bg_color", "headerbar_fg_color")
      + rule(
        [
          "list\(list)", "listview\(list)", "columnview:not(.osd)", ".view:not(.osd)", "textview > text",
          "notebook > stack:not(:only-child)",
        ],
        "view_bg_color", "view_fg_color")
      + rule([".card", "list.boxed-list", "list.content"], "card_bg_color", "card_fg_color")
      + rule(["popover > contents", "popover > arrow"], "popover_bg_color", "popover_fg_color")
  }

  /// The rules of one style's class, from that style's named colours in GTK's default theme
  /// (`colors`) and the other style's (`display`): views, notebooks' pages and popovers take the
  /// base colours; a header bar keeps the display style's background, and with it its text.
  static func gtkThemeCSS(
    _ style: DMUserInterfaceStyle, _ colors: [String: String], display: [String: String]
  ) -> String {
    let list = ":not(.navigation-sidebar):not(.osd)"
    let scope = "window.\(className(for: style))"
    return rule(style, colors, [""], "theme_bg_color", "theme_fg_color")
      + rule(
        style, colors,
        [
          "list\(list)", "listview\(list)", "columnview:not(.osd)", ".view:not(.osd)", "textview > text",
          "notebook > stack:not(:only-child)", "popover > contents", "popover > arrow",
        ],
        "theme_base_color", "theme_text_color")
      + "\(scope) headerbar { color: \(display["theme_fg_color"] ?? "@theme_fg_color"); }\n"
  }

  /// The named colours a stylesheet of the theme defines (`@define-color NAME VALUE;`), each
  /// with the names it refers to replaced by their values from the same stylesheet.
  static func namedColors(resource: String) -> [String: String] {
    guard let bytes = g_resources_lookup_data(resource, G_RESOURCE_LOOKUP_FLAGS_NONE, nil) else { return [:] }
    defer { g_bytes_unref(bytes) }
    var size: gsize = 0
    guard let data = g_bytes_get_data(bytes, &size) else { return [:] }
    let text = String(decoding: UnsafeRawBufferPointer(start: data, count: Int(size)), as: UTF8.self)
    return namedColors(css: text)
  }

  /// The named colours of a stylesheet's text; see ``namedColors(resource:)``.
  static func namedColors(css text: String) -> [String: String] {
    var raw: [String: String] = [:]
    for line in text.split(separator: "\n") {
      let words = line.trimmingCharacters(in: .whitespaces)
      guard words.hasPrefix("@define-color "), words.hasSuffix(";") else { continue }
      let body = words.dropFirst("@define-color ".count).dropLast()
      guard let space = body.firstIndex(of: " ") else { continue }
      raw[String(body[..<space])] = body[body.index(after: space)...].trimmingCharacters(in: .whitespaces)
    }
    // References resolved a few levels deep (libadwaita's go two: accent → blue_3 → #…); one
    // still left names a colour GTK knows anyway.
    var resolved = raw
    for _ in 0..<4 {
      for (name, value) in resolved where value.contains("@") {
        resolved[name] = substitute(value, raw)
      }
    }
    return resolved
  }

  /// `value` with each `@name` that `colors` defines replaced by its definition.
  private static func substitute(_ value: String, _ colors: [String: String]) -> String {
    var result = ""
    var index = value.startIndex
    while index < value.endIndex {
      guard value[index] == "@" else {
        result.append(value[index])
        index = value.index(after: index)
        continue
      }
      var end = value.index(after: index)
      while end < value.endIndex, value[end].isLetter || value[end].isNumber || value[end] == "_" {
        end = value.index(after: end)
      }
      let name = String(value[value.index(after: index)..<end])
      result += colors[name] ?? "@\(name)"
      index = end
    }
    return result
  }
}
