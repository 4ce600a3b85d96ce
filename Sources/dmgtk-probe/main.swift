import CGtk
import DarkModeKit
import DarkModeKitGTK
import DarkModeKitLinux
import Foundation

// A GTK app that the tests drive through standard input, one command a line; it answers each
// with one line on standard output. It shows what a person would see: `pixel` reads the colour
// GTK painted at the centre of a part of a window.
//
//   window NAME                     a window with the parts below, shown
//   override STYLE THEME [animated] [reduced]
//                                   the app's override (light, dark or -; a theme or -), animated or
//                                   not, with reduced motion or not; animated, it answers after 60 ms
//   wait MS                         runs the loop for MS milliseconds
//   window-override NAME STYLE THEME
//   reload PATH                     reloads the shared colour table
//   pixel NAME PART                 → "pixel #rrggbb"; parts: bound, accent, classed, drawing,
//                                   picture, plain, swatch
//   self-closing                    shows a window that closes itself in its first trait
//                                   callback → "ok closed"
//   signal NAME SIGNAL PART         connects a handler to the part's SIGNAL (any signal) with
//                                   DMGTK.connect (PART window: the window's); signals →
//                                   "signals N", the times they ran
//   popup NAME                      shows the popover of the part menu; its label is the part
//                                   popover
//   first-frame NAME PART           → "pixel #rrggbb", the colour the window's first frame
//                                   painted there
//   contrast NAME PART              → "contrast R bg #rrggbb fg #rrggbb": the part's most common
//                                   colour, the colour in it that stands out most, and their
//                                   contrast ratio (parts text, button, entry, list, header: stock
//                                   widgets with text)
//   state NAME PART hover|active|disabled|normal
//                                   puts the part in that state (feedback: a button whose
//                                   background and text are bound, #2060c0 and #ffffff;
//                                   table-button: a stock button with the classes dm-bg-ACCENT
//                                   and dm-fg-BG; bound-menu and bound-dropdown: a menu button
//                                   and a drop-down bound as feedback is, whose inner button
//                                   takes the state)
//   stylesheet PATH                 loads the CSS file as an app's stylesheet
//   class NAME PART +CLASS|-CLASS   adds or removes a class of a part, or of the window (PART
//                                   window)
//   colors NAME COUNT               sets the swatch's background to COUNT colours in turn, each
//                                   shown at once
//   many NAME COUNT                 adds COUNT small widgets to the window, each bound to a pair
//                                   of its own (light #10xxxx, dark #20xxxx, xxxx its index); parts
//                                   many-first and many-last
//   rules                           → "rules N", the CSS rules in DarkModeKit's stylesheet
//   loads                           → "loads N", how many times a style provider of DarkModeKit
//                                   was given new text
//   reentrant NAME                  the swatch's next class change sets its colour to #123456 and
//                                   shows it at once, from inside GTK's notification
//   wait-system STYLE               until the system source reports STYLE (5 s) → "ok" or "timeout"
//   storm COUNT                     COUNT changes in a row, some made from inside callbacks
//   close NAME                      destroys the window
//   alive                           → "alive windows=N widgets=N toplevels=N"
//   draws NAME                      → "draws N"
//   stock-classes NAME              → "stock-classes N": the window's class changes that left
//                                   it with a dm-stock-* class
//   idle                            queues main-actor work, runs the loop 1 s → "idle ran=N cpu=MS"
//   settings                        → "settings prefer-dark=0|1 animations=0|1" (GTK's settings)
//   restart libadwaita|gtk|none     calls DMGTK.start(stockStyle:) again with that stock style
//   adwaita                         → "adwaita default|force-light|force-dark|other", libadwaita's
//                                   colour scheme
//   quit
//
// Options: --table PATH (the shared table), --images DIR (light.png, dark.png), --stock
// libadwaita|gtk, --follow-system (the portal source, configured; without it the app configures
// no source, and DMGTK follows the desktop by itself), --window-at-start NAME (a window made and
// shown right after DMGTK.start(), before the main loop runs, as an app's first window).

/// A widget with a colour property of its own, which it shows as its background.
/// A window that closes itself the first time its traits change, as an app's callback may.
@MainActor
final class SelfClosingWindow: DMGTKWindow {
  override func dmTraitCollectionDidChange(_ previousTraitCollection: DMTraitCollection?) {
    super.dmTraitCollectionDidChange(previousTraitCollection)
    close()
  }
}

@MainActor
final class AccentBox: DMGTKWidget {
  var accent: DMColor? {
    didSet { backgroundColor = accent }
  }
}

@MainActor
final class ProbeWindow {
  let window: DMGTKWindow
  var parts: [String: UnsafeMutablePointer<GtkWidget>] = [:]
  let drawing: DMGTKDrawingArea
  weak var bound: DMGTKWidget?
  let swatch: DMGTKWidget
  var box: UnsafeMutablePointer<GtkWidget>?
  var many: [DMGTKWidget] = []
  var feedback: DMGTKButton?
  /// The inner buttons of the parts that wrap one, which take the pointer's states.
  var innerButtons: [String: UnsafeMutablePointer<GtkWidget>] = [:]
  /// The popover of the part `menu`, whose label is the part `popover`.
  var popover: UnsafeMutablePointer<GtkWidget>?

  /// The widget a part is rendered in: the window, or for `popover` the popover.
  func root(of part: String) -> UnsafeMutablePointer<GtkWidget> {
    part == "popover" ? popover ?? window.widget : window.widget
  }
  /// The colour of each part in the window's first frame, read when GTK had painted it.
  var firstFrame: [String: String] = [:]
  /// How many times the window's classes changed while it had a `dm-stock-*` class.
  var stockClassChanges = 0

  /// Reads every part's colour once GTK has painted the window's first frame.
  func recordFirstFrame() {
    DMGTK.connect(UnsafeMutableRawPointer(window.widget), "realize") { [weak self] in
      guard let self, let clock = gtk_widget_get_frame_clock(self.window.widget) else { return }
      var isRecorded = false
      DMGTK.connect(UnsafeMutableRawPointer(clock), "after-paint") { [weak self] in
        guard let self, !isRecorded else { return }
        isRecorded = true
        for (name, part) in self.parts {
          self.firstFrame[name] = Probe.pixel(of: part, in: self.window.widget)
        }
      }
    }
  }

  /// `count` widgets of 4 × 4 pixels in a grid of 100 columns, each bound to a pair of its own.
  func addMany(_ count: Int) {
    let grid = gtk_grid_new()!
    gtk_box_append(UnsafeMutableRawPointer(box!).assumingMemoryBound(to: GtkBox.self), grid)
    for index in 0..<count {
      let widget = DMGTKWidget(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!)
      gtk_widget_set_size_request(widget.widget, 4, 4)
      gtk_grid_attach(
        UnsafeMutableRawPointer(grid).assumingMemoryBound(to: GtkGrid.self), widget.widget,
        Int32(index % 100), Int32(index / 100), 1, 1)
      window.addSubview(widget)
      widget.dm.bind(
        \.backgroundColor,
        to: DMDynamicColor(
          light: DMColor(rgb: 0x10_0000 + UInt32(index)), dark: DMColor(rgb: 0x20_0000 + UInt32(index))))
      many.append(widget)
    }
    parts["many-first"] = many.first?.widget
    parts["many-last"] = many.last?.widget
  }

  init(name: String, images: URL?) {
    window = DMGTKWindow(title: name, width: 400, height: 400)
    window.colorTable = .shared
    let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
    gtk_window_set_child(window.gtkWindow, box)
    let accent = DMDynamicColor(key: "ACCENT")
    var found: [String: UnsafeMutablePointer<GtkWidget>] = [:]
    func part(_ name: String, _ widget: UnsafeMutablePointer<GtkWidget>) {
      gtk_widget_set_size_request(widget, 400, 50)
      gtk_box_append(UnsafeMutableRawPointer(box).assumingMemoryBound(to: GtkBox.self), widget)
      found[name] = widget
    }
    let bound = DMGTKWidget(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!)
    part("bound", bound.widget)
    window.addSubview(bound)
    bound.dm.bind(\.backgroundColor, to: DMDynamicColor(key: "BG"))
    let accentBox = AccentBox(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!)
    part("accent", accentBox.widget)
    window.addSubview(accentBox)
    accentBox.dm.bind(\.accent, to: accent)
    Tracking.track(accentBox, gobject: UnsafeMutableRawPointer(accentBox.widget))
    let classed = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
    // A key with a character that the stylesheet escapes.
    gtk_widget_add_css_class(classed, "dm-bg-Separator.Line")
    part("classed", classed)
    drawing = DMGTKDrawingArea { cairo, _, _, traits in
      let color = accent.resolved(with: traits)
      cairo_set_source_rgb(cairo, color.red, color.green, color.blue)
      cairo_paint(cairo)
    }
    part("drawing", drawing.widget)
    window.addSubview(drawing)
    let picture = DMGTKPicture()
    gtk_picture_set_can_shrink(OpaquePointer(picture.widget), 1)
    part("picture", picture.widget)
    window.addSubview(picture)
    if let images {
      picture.dm.bind(
        \.texture,
        to: DMDynamicImage(
          names: ["NORMAL": "light.png", "NIGHT": "dark.png"], loader: DMGTKTexture.loader(directory: images))
      )
    }
    // A change made from inside a callback, queued behind the running pass: the level, which no
    // colour here depends on.
    drawing.registerForTraitChanges([.userInterfaceStyle]) { area, _ in
      area.traitOverrides.userInterfaceLevel =
        area.dmTraitCollection.userInterfaceStyle == .dark ? .elevated : .base
    }
    let plain = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
    part("plain", plain)
    swatch = DMGTKWidget(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!)
    part("swatch", swatch.widget)
    window.addSubview(swatch)
    Tracking.track(swatch, gobject: UnsafeMutableRawPointer(swatch.widget))
    // A handler that holds the window, through GTK: closing the window must still free it.
    let button = gtk_button_new_with_label("Dark")!
    DMGTK.connect(UnsafeMutableRawPointer(button), "clicked") { [window] in
      window.overrideUserInterfaceStyle = .dark
    }
    part("button", button)
    part("text", gtk_label_new("Readable text, 0123456789")!)
    // Stock widgets with text of their own colours: an entry, a list's row, a header bar.
    let entry = gtk_entry_new()!
    gtk_editable_set_text(OpaquePointer(entry), "Entry text 0123")
    part("entry", entry)
    let list = gtk_list_box_new()!
    gtk_list_box_append(OpaquePointer(list), gtk_label_new("A row of a list")!)
    part("list", list)
    let header = gtk_header_bar_new()!
    gtk_header_bar_set_title_widget(OpaquePointer(header), gtk_label_new("Header bar")!)
    gtk_header_bar_set_show_title_buttons(OpaquePointer(header), 0)
    part("header", header)
    part("switch", gtk_switch_new()!)
    let feedback = DMGTKButton("")
    part("feedback", feedback.widget)
    window.addSubview(feedback)
    feedback.dm.bind(
      \.backgroundColor, to: DMDynamicColor(light: DMColor(rgb: 0x2060C0), dark: DMColor(rgb: 0x2060C0)))
    feedback.dm.bind(\.foregroundColor, to: DMDynamicColor(light: .white, dark: .white))
    self.feedback = feedback
    // A menu button and a drop-down with bound colours: their face is an inner button.
    let menuButton = gtk_menu_button_new()!
    gtk_menu_button_set_child(OpaquePointer(menuButton), gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0))
    // With nothing to show, a menu button is insensitive.
    gtk_menu_button_set_popover(OpaquePointer(menuButton), gtk_popover_new())
    let dropDown = gtk_drop_down_new(nil, nil)!
    for (name, widget) in [("bound-menu", menuButton), ("bound-dropdown", dropDown)] {
      let wrapper = DMGTKWidget(widget)
      part(name, widget)
      window.addSubview(wrapper)
      wrapper.dm.bind(
        \.backgroundColor, to: DMDynamicColor(light: DMColor(rgb: 0x2060C0), dark: DMColor(rgb: 0x2060C0)))
      wrapper.dm.bind(\.foregroundColor, to: DMDynamicColor(light: .white, dark: .white))
      innerButtons[name] = gtk_widget_get_first_child(widget)
    }
    // A stock button coloured by the table's classes, which keeps its feedback as well.
    let tableButton = gtk_button_new()!
    gtk_widget_add_css_class(tableButton, "dm-bg-ACCENT")
    gtk_widget_add_css_class(tableButton, "dm-fg-BG")
    part("table-button", tableButton)
    // A notebook of two pages, whose page has the view's background, and an action bar.
    let notebook = gtk_notebook_new()!
    let notebookView = OpaquePointer(notebook)
    for title in ["One", "Two"] {
      gtk_notebook_append_page(notebookView, gtk_label_new("Page text 0123")!, gtk_label_new(title)!)
    }
    part("notebook", notebook)
    gtk_widget_set_size_request(notebook, 400, 90)
    let actionBar = gtk_action_bar_new()!
    gtk_action_bar_pack_start(OpaquePointer(actionBar), gtk_label_new("Action bar text 0123")!)
    part("actionbar", actionBar)
    // A menu button's popover, a surface of its own that takes the window's style.
    let menu = gtk_menu_button_new()!
    let popover = gtk_popover_new()!
    let popoverText = gtk_label_new("Popover text 0123")!
    gtk_widget_set_size_request(popoverText, 300, 50)
    let popoverView = UnsafeMutableRawPointer(popover).assumingMemoryBound(to: GtkPopover.self)
    gtk_popover_set_child(popoverView, popoverText)
    gtk_popover_set_autohide(popoverView, 0)
    gtk_menu_button_set_popover(OpaquePointer(menu), popover)
    part("menu", menu)
    found["popover"] = popoverText
    self.popover = popover
    self.box = box
    parts = found
    self.bound = bound
    Tracking.track(window, gobject: UnsafeMutableRawPointer(window.widget))
    Tracking.track(bound, gobject: UnsafeMutableRawPointer(bound.widget))
    Tracking.track(drawing, gobject: UnsafeMutableRawPointer(drawing.widget))
    Tracking.track(picture, gobject: UnsafeMutableRawPointer(picture.widget))
    recordFirstFrame()
    DMGTK.connect(UnsafeMutableRawPointer(window.widget), "notify::css-classes") { [weak self] in
      guard let self else { return }
      let widget = self.window.widget
      if gtk_widget_has_css_class(widget, "dm-stock-light") != 0
        || gtk_widget_has_css_class(widget, "dm-stock-dark") != 0
      {
        self.stockClassChanges += 1
      }
    }
    window.present()
  }
}

/// What `close` must free: DarkModeKit objects, held weakly, and GTK objects, counted when
/// finalised.
@MainActor
enum Tracking {
  final class Weak {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
  }
  static var objects: [Weak] = []
  static var trackedGObjects = 0
  static var finalizedGObjects = 0

  static func track(_ object: AnyObject, gobject: UnsafeMutableRawPointer) {
    objects.append(Weak(object))
    trackedGObjects += 1
    // GTK finalises widgets on the main thread.
    let finalized: GWeakNotify = { _, _ in MainActor.assumeIsolated { Tracking.finalizedGObjects += 1 } }
    g_object_weak_ref(gobject.assumingMemoryBound(to: GObject.self), finalized, nil)
  }

  static var aliveObjects: Int { objects.filter { $0.object != nil }.count }
}

/// A handler of GTK's `notify::css-classes` that changes the widget's colour and shows it at once,
/// the first time it runs.
@MainActor
enum Reentrant {
  static var widget: DMGTKWidget?

  static func arm(_ widget: DMGTKWidget) {
    self.widget = widget
    let notify: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, _, _ in
      MainActor.assumeIsolated {
        guard let widget = Reentrant.widget else { return }
        Reentrant.widget = nil
        widget.backgroundColor = DMColor(rgb: 0x123456)
        DMGTK.flushStyles()
      }
    }
    dm_signal_connect(
      UnsafeMutableRawPointer(widget.widget), "notify::css-classes",
      unsafeBitCast(notify, to: GCallback.self),
      nil, nil)
  }
}

@MainActor
enum Probe {
  static var windows: [String: ProbeWindow] = [:]
  static var images: URL?
  static var pending = Data()
  static var isIdling = false
  /// How many times the handlers `signal` connected ran.
  static var signals = 0

  static func run() {
    let arguments = CommandLine.arguments
    func option(_ name: String) -> String? {
      arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    }
    if let path = option("--table") {
      do {
        try DMColorTable.shared.reload(contentsOf: URL(fileURLWithPath: path))
      } catch {
        print("error \(error)")
        exit(1)
      }
    }
    images = option("--images").map { URL(fileURLWithPath: $0) }
    var configuration = DMConfiguration()
    if arguments.contains("--follow-system") {
      configuration.systemAppearanceSource = DMPortalAppearanceSource()
    }
    DarkModeManager.setup(with: configuration)
    DMGTK.start(stockStyle: option("--stock") == "gtk" ? .gtk : .libadwaita)
    if let name = option("--window-at-start") {
      windows[name] = ProbeWindow(name: name, images: images)
    }
    let onInput: @convention(c) (gint, GIOCondition, gpointer?) -> gboolean = { fd, _, _ in
      MainActor.assumeIsolated { Probe.readInput(fd) }
    }
    // Commands come through a terminal: no echo, and each byte as it comes.
    var settings = termios()
    if tcgetattr(0, &settings) == 0 {
      settings.c_lflag &= ~tcflag_t(ECHO | ICANON)
      tcsetattr(0, TCSANOW, &settings)
    }
    g_unix_fd_add(0, G_IO_IN, onInput, nil)
    print("ready")
    fflush(nil)
    let loop = g_main_loop_new(nil, 0)
    g_main_loop_run(loop)
  }

  static func readInput(_ fd: gint) -> gboolean {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = read(fd, &buffer, buffer.count)
    guard count > 0 else { exit(0) }
    pending.append(contentsOf: buffer[0..<count])
    while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
      let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
      pending.removeSubrange(pending.startIndex...newline)
      print(perform(line.split(separator: " ").map(String.init)))
      fflush(nil)
    }
    return 1
  }

  static func perform(_ words: [String]) -> String {
    guard let command = words.first else { return "error empty" }
    switch (command, words.count) {
    case ("window", 2):
      windows[words[1]] = ProbeWindow(name: words[1], images: images)
      settle()
      return "ok"
    case ("stylesheet", 2):
      // A stylesheet of the app's own, below DarkModeKit's; GTK warns of each error it finds.
      guard let css = try? String(contentsOfFile: words[1], encoding: .utf8),
        let display = gdk_display_get_default()
      else { return "error no stylesheet" }
      let provider = gtk_css_provider_new()
      gtk_css_provider_load_from_data(provider, css, -1)
      gtk_style_context_add_provider_for_display(
        display, OpaquePointer(provider), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
      settle()
      return "ok"
    case ("class", 4):
      guard let probe = windows[words[1]] else { return "error no window" }
      guard let widget = words[2] == "window" ? probe.window.widget : probe.parts[words[2]] else {
        return "error no part"
      }
      let name = String(words[3].dropFirst())
      if words[3].hasPrefix("+") {
        gtk_widget_add_css_class(widget, name)
      } else {
        gtk_widget_remove_css_class(widget, name)
      }
      settle()
      return "ok"
    case ("override", 3...5):
      var traits = collection(words[1], words[2])
      if words.contains("reduced") { traits.accessibilityMotion = .reduced }
      let animated = words.contains("animated")
      DMTraitCollection.setOverride(traits, animated: animated)
      if animated { run(milliseconds: 60) } else { settle() }
      return "ok"
    case ("wait", 2):
      run(milliseconds: Int(words[1]) ?? 0)
      return "ok"
    case ("window-override", 4):
      guard let probe = windows[words[1]] else { return "error no window \(words[1])" }
      probe.window.overrideTraitCollection = collection(words[2], words[3])
      settle()
      return "ok"
    case ("reload", 2):
      do {
        try DMColorTable.shared.reload(contentsOf: URL(fileURLWithPath: words[1]))
      } catch {
        return "error \(error)"
      }
      settle()
      return "ok"
    case ("contrast", 3):
      guard let probe = windows[words[1]], let part = probe.parts[words[2]] else { return "error no part" }
      return contrast(of: part, in: probe.root(of: words[2])) ?? "error no picture"
    case ("state", 4):
      guard let probe = windows[words[1]], let part = probe.parts[words[2]] else { return "error no part" }
      gtk_widget_set_sensitive(part, words[3] == "disabled" ? 0 : 1)
      let target = probe.innerButtons[words[2]] ?? part
      gtk_widget_unset_state_flags(
        target, GtkStateFlags(rawValue: GTK_STATE_FLAG_PRELIGHT.rawValue | GTK_STATE_FLAG_ACTIVE.rawValue))
      switch words[3] {
      case "hover": gtk_widget_set_state_flags(target, GTK_STATE_FLAG_PRELIGHT, 0)
      case "active": gtk_widget_set_state_flags(target, GTK_STATE_FLAG_ACTIVE, 0)
      default: break
      }
      settle()
      return "ok"
    case ("signal", 4):
      guard let probe = windows[words[1]],
        let part = words[3] == "window" ? probe.window.widget : probe.parts[words[3]]
      else { return "error no part" }
      DMGTK.connect(UnsafeMutableRawPointer(part), String(words[2])) { Probe.signals += 1 }
      return "ok"
    case ("signals", 1):
      return "signals \(signals)"
    case ("popup", 2):
      guard let probe = windows[words[1]], let popover = probe.popover else { return "error no popover" }
      gtk_popover_popup(UnsafeMutableRawPointer(popover).assumingMemoryBound(to: GtkPopover.self))
      settle()
      return "ok"
    case ("first-frame", 3):
      guard let color = windows[words[1]]?.firstFrame[words[2]] else { return "error no first frame" }
      return "pixel \(color)"
    case ("pixel", 3):
      guard let probe = windows[words[1]], let part = probe.parts[words[2]] else { return "error no part" }
      return pixel(of: part, in: probe.root(of: words[2])).map { "pixel \($0)" } ?? "error no picture"
    case ("colors", 3):
      guard let probe = windows[words[1]] else { return "error no window" }
      for index in 0..<(Int(words[2]) ?? 0) {
        probe.swatch.backgroundColor = DMColor(rgb: UInt32(0x100000 + index * 0x10101))
        DMGTK.flushStyles()
      }
      settle()
      return "ok"
    case ("many", 3):
      guard let probe = windows[words[1]], let count = Int(words[2]), count > 0 else { return "error many" }
      probe.addMany(count)
      settle()
      return "ok"
    case ("rules", 1):
      return "rules \(DMGTK.styleSheet.split(separator: "\n").count)"
    case ("loads", 1):
      return "loads \(DMGTK.styleSheetLoads)"
    case ("reentrant", 2):
      guard let probe = windows[words[1]] else { return "error no window" }
      Reentrant.arm(probe.swatch)
      return "ok"
    case ("wait-system", 2):
      let wanted: DMUserInterfaceStyle = words[1] == "dark" ? .dark : .light
      let deadline = Date().addingTimeInterval(5)
      while DMTraitCollection.system.userInterfaceStyle != wanted, Date() < deadline {
        g_main_context_iteration(nil, 0)
        usleep(1_000)
      }
      settle()
      return DMTraitCollection.system.userInterfaceStyle == wanted ? "ok" : "timeout"
    case ("storm", 2):
      storm(Int(words[1]) ?? 0)
      settle()
      return "ok"
    case ("self-closing", 1):
      // Its first trait change comes as it is shown, from `present()`.
      let window = SelfClosingWindow(title: "Closes itself")
      window.present()
      settle()
      return window.isClosed ? "ok closed" : "error open"
    case ("close", 2):
      guard let probe = windows.removeValue(forKey: words[1]) else { return "error no window" }
      probe.window.close()
      settle()
      return "ok"
    case ("alive", 1):
      return "alive windows=\(DMApplication.shared.windows.count) toplevels=\(toplevelCount()) "
        + "objects=\(Tracking.aliveObjects)/\(Tracking.objects.count) "
        + "gobjects=\(Tracking.trackedGObjects - Tracking.finalizedGObjects)/\(Tracking.trackedGObjects)"
    case ("stock-classes", 2):
      return "stock-classes \(windows[words[1]]?.stockClassChanges ?? -1)"
    case ("draws", 2):
      return "draws \(windows[words[1]]?.drawing.drawCount ?? -1)"
    case ("idle", 1):
      return idle()
    case ("settings", 1):
      guard let settings = gtk_settings_get_default() else { return "error no settings" }
      let raw = UnsafeMutableRawPointer(settings)
      return "settings prefer-dark=\(dm_object_get_boolean(raw, "gtk-application-prefer-dark-theme")) "
        + "animations=\(dm_object_get_boolean(raw, "gtk-enable-animations"))"
    case ("restart", 2):
      let styles: [String: DMGTK.StockStyle] = ["libadwaita": .libadwaita, "gtk": .gtk, "none": .none]
      guard let style = styles[words[1]] else { return "error no stock style \(words[1])" }
      DMGTK.start(stockStyle: style)
      settle()
      return "ok"
    case ("adwaita", 1):
      let scheme = adw_style_manager_get_color_scheme(adw_style_manager_get_default())
      let names = [
        ADW_COLOR_SCHEME_DEFAULT: "default", ADW_COLOR_SCHEME_FORCE_LIGHT: "force-light",
        ADW_COLOR_SCHEME_FORCE_DARK: "force-dark",
      ]
      return "adwaita \(names[scheme] ?? "other")"
    case ("quit", 1):
      exit(0)
    default:
      return "error unknown command \(words.joined(separator: " "))"
    }
  }

  static func collection(_ style: String, _ theme: String) -> DMTraitCollection {
    DMTraitCollection(
      userInterfaceStyle: style == "dark" ? .dark : style == "light" ? .light : .unspecified,
      theme: theme == "-" ? nil : DMTheme(rawValue: theme))
  }

  /// Changes in a row, the way a storm of events makes them: overrides of the app and of each
  /// window, some set from inside a callback; the last one is light with no theme.
  static func storm(_ count: Int) {
    let probes = Array(windows.values)
    for index in 0..<count {
      let dark = index.isMultiple(of: 2)
      DMTraitCollection.setOverride(
        DMTraitCollection(userInterfaceStyle: dark ? .dark : .light), animated: index % 3 == 0)
      for probe in probes {
        probe.window.traitOverrides.theme = index.isMultiple(of: 5) ? "SOLARIZED" : nil
      }
      if index.isMultiple(of: 10) { g_main_context_iteration(nil, 0) }
    }
    DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .light), animated: false)
    for probe in probes { probe.window.traitOverrides = DMTraitCollection() }
  }

  /// Lets GTK apply every change and paint two frames, the way an app's loop does.
  static func settle() {
    for _ in 0..<3 {
      let deadline = Date().addingTimeInterval(0.2)
      while g_main_context_pending(nil) != 0, Date() < deadline { g_main_context_iteration(nil, 0) }
      usleep(20_000)
    }
    let deadline = Date().addingTimeInterval(1)
    while g_main_context_pending(nil) != 0, Date() < deadline { g_main_context_iteration(nil, 0) }
  }

  /// Queues work on the main actor the two usual ways, then lets the GLib loop run for a second:
  /// both must run, and the loop must sleep rather than spin.
  static func idle() -> String {
    var ran = 0
    Task { @MainActor in ran += 1 }
    DispatchQueue.main.async { MainActor.assumeIsolated { ran += 1 } }
    func cpuMilliseconds() -> Int {
      var usage = rusage()
      getrusage(RUSAGE_SELF.rawValue, &usage)
      return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000
        + Int(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000
    }
    let start = cpuMilliseconds()
    run(milliseconds: 1000)
    return "idle ran=\(ran) cpu=\(cpuMilliseconds() - start)"
  }

  /// Runs the loop, blocking between events, for `milliseconds`.
  static func run(milliseconds: Int) {
    isIdling = true
    g_timeout_add(
      guint(max(milliseconds, 0)),
      { _ in
        MainActor.assumeIsolated { Probe.isIdling = false }; return 0
      }, nil)
    while isIdling { g_main_context_iteration(nil, 1) }
  }

  static func toplevelCount() -> UInt32 {
    let list = gtk_window_get_toplevels()!
    return g_list_model_get_n_items(list)
  }

  /// The colours GTK paints inside `widget`: its most common one (the background), the one that
  /// stands out most from it (the text), and their contrast ratio.
  static func contrast(of widget: UnsafeMutablePointer<GtkWidget>, in root: UnsafeMutablePointer<GtkWidget>)
    -> String?
  {
    guard let (bytes, width, height) = render(root) else { return nil }
    var origin = graphene_point_t(x: 0, y: 0)
    var inWindow = graphene_point_t()
    guard gtk_widget_compute_point(widget, root, &origin, &inWindow) != 0 else { return nil }
    var counts: [UInt32: Int] = [:]
    let left = max(Int(inWindow.x), 0)
    let top = max(Int(inWindow.y), 0)
    let right = min(left + Int(gtk_widget_get_width(widget)), width)
    let bottom = min(top + Int(gtk_widget_get_height(widget)), height)
    guard left < right, top < bottom else { return nil }
    for y in top..<bottom {
      for x in left..<right {
        let offset = (y * width + x) * 4
        let rgb = UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset])
        counts[rgb, default: 0] += 1
      }
    }
    guard let background = counts.max(by: { $0.value < $1.value })?.key else { return nil }
    let backgroundColor = DMColor(rgb: background)
    func ratio(_ rgb: UInt32) -> Double { DMColor(rgb: rgb).contrastRatio(with: backgroundColor) }
    let text = counts.keys.max { ratio($0) < ratio($1) }!
    return String(format: "contrast %.2f bg #%06x fg #%06x", ratio(text), background, text)
  }

  /// A window (or a popover) rendered as GTK renders it on screen: bytes B, G, R, A, and the size.
  static func render(_ root: UnsafeMutablePointer<GtkWidget>) -> (bytes: [UInt8], width: Int, height: Int)? {
    let width = gtk_widget_get_width(root)
    let height = gtk_widget_get_height(root)
    guard width > 0, height > 0, let native = gtk_widget_get_native(root),
      let renderer = gtk_native_get_renderer(native)
    else { return nil }
    let paintable = gtk_widget_paintable_new(root)!
    defer { g_object_unref(UnsafeMutableRawPointer(paintable)) }
    let snapshot = gtk_snapshot_new()!
    gdk_paintable_snapshot(paintable, snapshot, Double(width), Double(height))
    guard let node = gtk_snapshot_free_to_node(snapshot) else { return nil }
    defer { gsk_render_node_unref(node) }
    var bounds = graphene_rect_t(
      origin: graphene_point_t(x: 0, y: 0), size: graphene_size_t(width: Float(width), height: Float(height)))
    guard let texture = gsk_renderer_render_texture(renderer, node, &bounds) else { return nil }
    defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
    var bytes = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
    gdk_texture_download(texture, &bytes, gsize(Int(width) * 4))
    return (bytes, Int(width), Int(height))
  }

  /// The colour GTK paints at the centre of `widget`, rendering the window as it renders it on
  /// screen.
  static func pixel(of widget: UnsafeMutablePointer<GtkWidget>, in root: UnsafeMutablePointer<GtkWidget>)
    -> String?
  {
    pixel(
      of: widget,
      at: graphene_point_t(
        x: Float(gtk_widget_get_width(widget)) / 2, y: Float(gtk_widget_get_height(widget)) / 2),
      in: root)
  }

  /// The colour GTK paints at `point` of `widget`.
  static func pixel(
    of widget: UnsafeMutablePointer<GtkWidget>, at point: graphene_point_t,
    in root: UnsafeMutablePointer<GtkWidget>
  ) -> String? {
    guard let (bytes, width, height) = render(root) else { return nil }
    var point = point
    var inWindow = graphene_point_t()
    guard gtk_widget_compute_point(widget, root, &point, &inWindow) != 0 else { return nil }
    let x = Int(inWindow.x)
    let y = Int(inWindow.y)
    guard x >= 0, y >= 0, x < width, y < height else { return nil }
    // Memory order B, G, R, A.
    let offset = (y * width + x) * 4
    return String(format: "#%02x%02x%02x", bytes[offset + 2], bytes[offset + 1], bytes[offset])
  }

}

MainActor.assumeIsolated { Probe.run() }
