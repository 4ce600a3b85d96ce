import CGtk
import DarkModeKit
import DarkModeKitGTK
import DarkModeKitText
import Foundation

// `swift run dmkit-gtk-demo [--table PATH] [--print-layout]`: two GTK windows
// that follow
// DarkModeKit. The main one has Light / Dark / System and Theme buttons (the two choices of an
// appearance menu: `setOverride(style:)` and `setOverride(theme:)`, neither undoing the other),
// widgets coloured from the palette, a drawing and an image chosen by name; the second has its own
// override (dark), and its stock widgets follow it. Both follow the desktop's setting live through
// the portal. With
// --print-layout it prints, once the windows are shown, where its controls are ("layout NAME X Y
// WIDTH HEIGHT" in window coordinates, then "ready"), for tests that drive it with input events.

@MainActor
enum Demo {
  static let palette = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Docs/Examples/Palette.txt")
  static let themes: [DMTheme?] = [nil, "SEPIA", "SOLARIZED"]
  static var windows: [DMGTKWindow] = []
  /// The widgets whose place --print-layout prints, by name, with their window.
  static var named: [(name: String, widget: UnsafeMutablePointer<GtkWidget>, window: DMGTKWindow)] = []

  static func run() {
    let arguments = CommandLine.arguments
    let table = arguments.firstIndex(of: "--table").flatMap {
      $0 + 1 < arguments.count ? arguments[$0 + 1] : nil
    }
    let url = table.map { URL(fileURLWithPath: $0) } ?? palette
    do {
      try DMColorTable.shared.reload(contentsOf: url)
    } catch {
      // The file and the place in it, as compilers write them: PATH:LINE:COLUMN.
      let path = ShownText.escaped(error.path ?? url.path)
      let place = error.line > 0 ? "\(path):\(error.line):\(error.column)" : path
      FileHandle.standardError.write(Data("dmkit-gtk-demo: \(place): error: \(error.message)\n".utf8))
      exit(1)
    }
    DMGTK.start()  // follows the desktop
    let main = makeWindow(title: "DarkModeKit", controls: true)
    let second = makeWindow(title: "Second window (own override)", controls: false)
    second.overrideUserInterfaceStyle = .dark
    windows = [main, second]
    main.present()
    second.present()
    if arguments.contains("--print-layout") {
      g_timeout_add(
        500,
        { _ in
          MainActor.assumeIsolated { Demo.printLayout() }; return 0
        }, nil)
    }
    DMGTK.run()
  }

  static func printLayout() {
    for (name, widget, window) in named {
      var origin = graphene_point_t(x: 0, y: 0)
      var inWindow = graphene_point_t()
      guard gtk_widget_compute_point(widget, window.widget, &origin, &inWindow) != 0 else { continue }
      print(
        "layout \(name) \(Int(inWindow.x)) \(Int(inWindow.y)) \(gtk_widget_get_width(widget)) \(gtk_widget_get_height(widget))"
      )
    }
    print("ready")
    fflush(nil)
  }

  static func makeWindow(title: String, controls: Bool) -> DMGTKWindow {
    let window = DMGTKWindow(title: title, width: 420, height: 360)
    window.colorTable = .shared
    window.dm.bind(\.backgroundColor, to: DMDynamicColor(key: "Background"))
    let column = DMGTKBox(.vertical, spacing: 12)
    column.margin = 16
    window.child = column

    let heading = DMGTKLabel(title)
    heading.addCSSClass("title-2")
    heading.addCSSClass("dm-fg-Text.Primary")
    column.append(heading)

    if controls {
      // An appearance menu: the style and the theme are two choices, and neither undoes the other.
      let row = DMGTKBox(.horizontal, spacing: 8)
      // The theme button names the theme chosen, which a style can drop (Dark drops the
      // light-only SEPIA), and goes on from it.
      let themeButton = DMGTKButton("Theme: default")
      let showTheme = { @MainActor [weak themeButton] in
        themeButton?.label = "Theme: \(DMTraitCollection.override.theme?.rawValue ?? "default")"
      }
      for (label, style) in [
        ("Light", DMUserInterfaceStyle.light), ("Dark", .dark), ("System", .unspecified),
      ] {
        let button = DMGTKButton(label) {
          DMTraitCollection.setOverride(style: style)
          showTheme()
        }
        named.append((label.lowercased(), button.widget, window))
        row.append(button)
      }
      themeButton.onClick {
        let chosen = themes.firstIndex(of: DMTraitCollection.override.theme) ?? 0
        DMTraitCollection.setOverride(theme: themes[(chosen + 1) % themes.count])
        showTheme()
      }
      named.append(("theme", themeButton.widget, window))
      row.append(themeButton)
      column.append(row)
    }

    let card = DMGTKLabel("A card coloured from the palette")
    named.append((controls ? "card" : "second-card", card.widget, window))
    gtk_widget_set_size_request(card.widget, -1, 56)
    card.dm.bind(\.backgroundColor, to: DMDynamicColor(key: "Surface"))
    card.dm.bind(\.foregroundColor, to: DMDynamicColor(key: "Text.Primary"))
    card.dm.bind(\.borderColor, to: DMDynamicColor(key: "Border"))
    column.append(card)

    let drawing = DMGTKDrawingArea { cairo, width, height, traits in
      let background = DMDynamicColor(key: "Surface.Elevated").resolved(with: traits)
      let accent = DMDynamicColor(key: "Accent").resolved(with: traits)
      cairo_set_source_rgb(cairo, background.red, background.green, background.blue)
      cairo_paint(cairo)
      cairo_set_source_rgb(cairo, accent.red, accent.green, accent.blue)
      cairo_arc(cairo, Double(width) / 2, Double(height) / 2, Double(min(width, height)) / 3, 0, 2 * .pi)
      cairo_fill(cairo)
    }
    gtk_widget_set_size_request(drawing.widget, -1, 90)
    if controls { named.append(("drawing", drawing.widget, window)) }
    column.append(drawing)

    // Each side has its own image: a dark sun on the light sides, a light moon on the dark ones.
    let picture = DMGTKPicture()
    gtk_widget_set_size_request(picture.widget, -1, 64)
    picture.dm.bind(
      \.texture,
      to: DMDynamicImage(
        names: [
          "NORMAL": "sun", "NIGHT": "moon", "SEPIA": "sun", "SOLARIZED:light": "sun",
          "SOLARIZED:dark": "moon",
        ],
        loader: drawnImage))
    if controls { named.append(("picture", picture.widget, window)) }
    column.append(picture)
    return window
  }

  /// The images the demo shows by name, drawn the first time a theme needs them.
  nonisolated static func drawnImage(_ name: String) -> DMGTKTexture? {
    let size = 48
    var pixels = [UInt8](repeating: 0, count: size * size * 4)
    let isSun = name == "sun"
    for y in 0..<size {
      for x in 0..<size {
        let dx = Double(x - size / 2)
        let dy = Double(y - size / 2)
        var inside = dx * dx + dy * dy < 18 * 18
        // The moon: a disc with a disc cut out.
        if !isSun, inside { inside = (dx - 9) * (dx - 9) + (dy + 6) * (dy + 6) > 14 * 14 }
        guard inside else { continue }
        let offset = (y * size + x) * 4
        // Memory order R, G, B, A.
        // A sun dark enough for light backgrounds, a moon light enough for dark ones.
        let color: [UInt8] = isSun ? [0x9A, 0x58, 0x00, 0xFF] : [0xE0, 0xE6, 0xF0, 0xFF]
        pixels.replaceSubrange(offset..<offset + 4, with: color)
      }
    }
    let bytes = pixels.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
    defer { g_bytes_unref(bytes) }
    guard
      let texture = gdk_memory_texture_new(
        Int32(size), Int32(size), GDK_MEMORY_R8G8B8A8, bytes, gsize(size * 4))
    else { return nil }
    return DMGTKTexture(taking: texture)
  }
}

MainActor.assumeIsolated { Demo.run() }
