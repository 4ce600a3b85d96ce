import CGtk
import DarkModeKit
import Foundation

/// GTK's stock widgets in a window whose style is not the display's.
///
/// libadwaita's style manager, and with it the colours of GTK's stock widgets, is one per
/// display: it shows the resolved global style. A ``DMGTKWindow`` overridden to the other style
/// carries the class `dm-stock-light` or `dm-stock-dark`, and one stylesheet gives the widgets
/// inside such a window the colours libadwaita gives them in that style: the window's background
/// and text (which buttons, entries, switches, labels and check boxes take their colours from),
/// header bars and action bars, lists and views, notebooks' pages, cards and popovers. The colours are libadwaita's own, read from
/// its stylesheets (`defaults-light.css`, `defaults-dark.css`) the first time a window needs them, so
/// that an app whose windows all show the display's style never pays for them.
///
/// The stylesheet sits just above libadwaita's and below the app's own, so that the app's CSS
/// still wins. It applies with the libadwaita stock style only; GTK's default theme without
/// libadwaita is left as it is.
@MainActor
enum WindowStockStyle {
  /// The class of a window shown light in a dark app, or dark in a light one.
  static func className(for style: DMUserInterfaceStyle) -> String {
    style == .dark ? "dm-stock-dark" : "dm-stock-light"
  }

  private static var provider: UnsafeMutablePointer<GtkCssProvider>?
  private static var wasTried = false

  /// Loads the stylesheet for libadwaita's colours, the first time it is called; whether it is
  /// loaded (windows carry their class only then).
  static func install() -> Bool {
    guard !wasTried else { return provider != nil }
    guard let display = gdk_display_get_default() else { return false }
    wasTried = true
    let light = namedColors(resource: "/org/gnome/Adwaita/styles/defaults-light.css")
    let dark = namedColors(resource: "/org/gnome/Adwaita/styles/defaults-dark.css")
    guard !light.isEmpty, !dark.isEmpty else { return false }
    let provider = gtk_css_provider_new()!
    gtk_css_provider_load_from_data(provider, css(.light, light) + css(.dark, dark), -1)
    gtk_style_context_add_provider_for_display(
      display, OpaquePointer(provider), guint(GTK_STYLE_PROVIDER_PRIORITY_THEME + 1))
    self.provider = provider
    return true
  }

  /// The rules of one style's class, from that style's named colours.
  static func css(_ style: DMUserInterfaceStyle, _ colors: [String: String]) -> String {
    let scope = "window.\(className(for: style))"
    func color(_ name: String) -> String { colors[name] ?? "@\(name)" }
    func rule(_ selectors: [String], _ background: String, _ foreground: String) -> String {
      selectors.map { $0.isEmpty ? scope : "\(scope) \($0)" }.joined(separator: ", ")
        + " { background-color: \(color(background)); color: \(color(foreground)); }\n"
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

  /// The named colours a stylesheet of libadwaita defines (`@define-color NAME VALUE;`), each
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
