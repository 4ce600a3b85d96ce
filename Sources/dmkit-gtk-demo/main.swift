import CGtk
import DarkModeKit
import DarkModeKitGTK
import DarkModeKitLinux
import Foundation

// `swift run dmkit-gtk-demo [--table PATH] [--print-layout]`: two GTK windows
// that follow
// DarkModeKit. The main one has Light / Dark / System and Theme buttons, widgets coloured from the
// palette, a drawing and an image chosen by name; the second has its own override (dark, or the
// app's style with SOLARIZED). Both follow the desktop's setting live through the portal. With
// --print-layout it prints, once the windows are shown, where its controls are ("layout NAME X Y
// WIDTH HEIGHT" in window coordinates, then "ready"), for tests that drive it with input events.

@MainActor
enum Demo {
  static let palette = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Docs/Examples/Palette.txt")
  static let themes: [DMTheme?] = [nil, "SEPIA", "SOLARIZED"]
  static var themeIndex = 0
  static var windows: [DMGTKWindow] = []
  /// The widgets whose place --print-layout prints, by name, with their window.
  static var named: [(name: String, widget: UnsafeMutablePointer<GtkWidget>, window: DMGTKWindow)] = []

  static func run() {
    let arguments = CommandLine.arguments
    let table = arguments.firstIndex(of: "--table").flatMap {
      $0 + 1 < arguments.count ? arguments[$0 + 1] : nil
    }
    do {
      try DMColorTable.shared.reload(contentsOf: table.map { URL(fileURLWithPath: $0) } ?? palette)
    } catch {
      FileHandle.standardError.write(Data("dmkit-gtk-demo: \(error)\n".utf8))
      exit(1)
    }
    DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: DMAutomaticAppearanceSource()))
    DMGTK.start()
    let main = makeWindow(title: "DarkModeKit", controls: true)
    let second = makeWindow(title: "Second window (own override)", controls: false)
    second.overrideUserInterfaceStyle = .dark
    windows = [main, second]
    main.present()
    second.present()
    let loop = g_main_loop_new(nil, 0)
    for window in windows {
      DMGTK.connect(UnsafeMutableRawPointer(window.widget), "destroy") {
        if gtk_window_get_toplevels().map(g_list_model_get_n_items) == 0 { g_main_loop_quit(loop) }
      }
    }
    if arguments.contains("--print-layout") {
      g_timeout_add(
        500,
        { _ in
          MainActor.assumeIsolated { Demo.printLayout() }; return 0
        }, nil)
    }
    g_main_loop_run(loop)
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
    let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
    for margin in [
      gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start,
      gtk_widget_set_margin_end,
    ] {
      margin(box, 16)
    }
    gtk_window_set_child(window.gtkWindow, box)
    let column = UnsafeMutableRawPointer(box).assumingMemoryBound(to: GtkBox.self)

    let heading = gtk_label_new(title)!
    gtk_widget_add_css_class(heading, "title-2")
    gtk_widget_add_css_class(heading, "dm-fg-Text.Primary")
    gtk_box_append(column, heading)

    if controls {
      let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
      let buttons = UnsafeMutableRawPointer(row).assumingMemoryBound(to: GtkBox.self)
      for (label, style) in [
        ("Light", DMUserInterfaceStyle.light), ("Dark", .dark), ("System", .unspecified),
      ] {
        let button = gtk_button_new_with_label(label)!
        named.append((label.lowercased(), button, window))
        DMGTK.connect(UnsafeMutableRawPointer(button), "clicked") {
          var traits = DMTraitCollection.override
          traits.userInterfaceStyle = style
          DMTraitCollection.setOverride(traits, animated: true)
        }
        gtk_box_append(buttons, button)
      }
      let themeButton = gtk_button_new_with_label("Theme: default")!
      named.append(("theme", themeButton, window))
      DMGTK.connect(UnsafeMutableRawPointer(themeButton), "clicked") {
        themeIndex = (themeIndex + 1) % themes.count
        var traits = DMTraitCollection.override
        traits.theme = themes[themeIndex]
        DMTraitCollection.setOverride(traits, animated: true)
        gtk_button_set_label(
          UnsafeMutableRawPointer(themeButton).assumingMemoryBound(to: GtkButton.self),
          "Theme: \(themes[themeIndex]?.rawValue ?? "default")")
      }
      gtk_box_append(buttons, themeButton)
      gtk_box_append(column, row)
    }

    let card = DMGTKWidget(gtk_label_new("A card coloured from the palette")!)
    named.append((controls ? "card" : "second-card", card.widget, window))
    gtk_widget_set_size_request(card.widget, -1, 56)
    card.dm.bind(\.backgroundColor, to: DMDynamicColor(key: "Surface"))
    card.dm.bind(\.foregroundColor, to: DMDynamicColor(key: "Text.Primary"))
    card.dm.bind(\.borderColor, to: DMDynamicColor(key: "Border"))
    window.addSubview(card)
    gtk_box_append(column, card.widget)

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
    window.addSubview(drawing)
    gtk_box_append(column, drawing.widget)

    let picture = DMGTKPicture()
    gtk_widget_set_size_request(picture.widget, -1, 64)
    picture.dm.bind(
      \.texture,
      to: DMDynamicImage(
        names: ["NORMAL": "sun", "NIGHT": "moon", "SEPIA": "sun", "SOLARIZED": "moon"], loader: drawnImage))
    window.addSubview(picture)
    gtk_box_append(column, picture.widget)
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
        let color: [UInt8] = isSun ? [0xFF, 0xC1, 0x07, 0xFF] : [0xE0, 0xE6, 0xF0, 0xFF]
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
