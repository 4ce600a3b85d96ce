import DarkModeKit

/// The colours the demo's views bind to: a key of the table for each role where the table has
/// one, so any colour table can be shown.
///
/// Each role tries the keys of the bundled palette first, then the names a DKNightVersion table
/// uses (`BG`, `SEP`); a role the table has no key for gets a colour made to go with the table's
/// background, so that text always shows.
struct DemoColors: Sendable {
  var background: DMDynamicColor
  var surface: DMDynamicColor
  var elevated: DMDynamicColor
  var primaryText: DMDynamicColor
  var secondaryText: DMDynamicColor
  var onAccent: DMDynamicColor
  var accent: DMDynamicColor
  var link: DMDynamicColor
  var separator: DMDynamicColor
  var scrim: DMDynamicColor
  var picture: DMDynamicColor
  /// The keys of the table in use, role by role; a role missing here uses a made-up colour.
  var keys: [String: String] = [:]

  init(table: DMColorTable) {
    var keys: [String: String] = [:]
    func color(_ role: String, _ candidates: [String], else fallback: DMDynamicColor) -> DMDynamicColor {
      let available = Set(table.keys)
      let lowercased = Dictionary(
        table.keys.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
      guard
        let key = candidates.first(where: available.contains)
          ?? candidates.lazy.compactMap({ lowercased[$0.lowercased()] }).first
      else { return fallback }
      keys[role] = key
      return DMDynamicColor(key: key, in: table)
    }
    let background = color(
      "background", ["Background", "BG", "Surface.Background"],
      else: DMDynamic(light: .white, dark: DMColor(rgb: 0x1C1C1E)))
    self.background = background
    surface = color("surface", ["Surface", "Surface.Secondary"], else: background)
    elevated = color("elevated", ["Surface.Elevated", "Elevated"], else: background)
    let primaryText = color(
      "primaryText", ["Text.Primary", "Text", "Foreground", "FG"],
      else: Self.contrasting(with: background, dark: DMColor(rgb: 0x1C1C1E), light: DMColor(rgb: 0xF2F2F7)))
    self.primaryText = primaryText
    secondaryText = color(
      "secondaryText", ["Text.Secondary", "SecondaryText"],
      else: Self.contrasting(with: background, dark: DMColor(rgb: 0x5B5B61), light: DMColor(rgb: 0xAEAEB2)))
    let accent = color("accent", ["Accent", "Tint"], else: DMDynamic(DMColor(rgb: 0x0A60D0)))
    self.accent = accent
    onAccent = color(
      "onAccent", ["Text.OnAccent", "OnAccent"],
      else: Self.contrasting(with: accent, dark: .black, light: .white))
    link = color("link", ["Link"], else: primaryText)
    separator = color("separator", ["Separator", "SEP", "Border"], else: secondaryText)
    scrim = color("scrim", ["Scrim"], else: DMDynamic(DMColor(white: 0, alpha: 0.35)))
    picture = color(
      "picture", ["Warning", "Accent"],
      else: DMDynamic(light: DMColor(rgb: 0xA35200), dark: DMColor(rgb: 0xFFB340)))
    self.keys = keys
  }

  /// `dark` on a light `background`, `light` on a dark one.
  private static func contrasting(with background: DMDynamicColor, dark: DMColor, light: DMColor)
    -> DMDynamicColor
  {
    DMDynamic { traits in
      background.resolved(with: traits).relativeLuminance > 0.18 ? dark : light
    }
  }
}
