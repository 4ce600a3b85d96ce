import CGtk
import DarkModeKit
import DarkModeKitGTK
import Foundation

// `.ci/with-display swift run -c release --package-path GTK dmgtkbench [--quick]` (it needs a
// display): for a window of 1,000 themed widgets (16 × 16 boxes with a background, a text colour
// and a border colour, in a grid), the time from a style change to the
// end of the first frame GTK paints in the new style, through DarkModeKit (`setOverride`) and the
// way a plain GTK app does it (a CSS class on the window, with both styles in one stylesheet), in
// the same run.

@MainActor
enum Bench {
  static let widgetCount = 1_000
  static let table = """
    NORMAL   NIGHT
    #ffffff  #1c1c1e  Background
    #f2f2f7  #2c2c2e  Surface
    #1c1c1e  #f2f2f7  Text
    #c6c6c8  #48484a  Border
    """
  /// Set by the window's frame clock at the end of each paint.
  static var paints = 0
  static var timedOut = false
  /// How long each change call itself took (the rest is GTK's work until the frame).
  static var changeTimes: [Double] = []

  static func main() {
    let quick = CommandLine.arguments.contains("--quick")
    let rounds = quick ? 15 : 61
    setenv("GTK_A11Y", "none", 0)
    setenv("GSK_RENDERER", "cairo", 0)
    gtk_init()
    guard gdk_display_get_default() != nil else {
      print("dmgtkbench: no display (run it under Xvfb: xvfb-run -a swift run -c release dmgtkbench)")
      exit(2)
    }
    do {
      try DMColorTable.shared.reload(string: table)
    } catch {
      print("dmgtkbench: \(error)")
      exit(1)
    }
    DMGTK.start(stockStyle: .none)
    print(
      "dmgtkbench: \(widgetCount) themed widgets (background, text and border each), \(rounds) switches each")
    print("  from the change to the end of the first frame painted in the new style; median [min–max]")

    let themed = themedWindow()
    let darkModeKit = measure(rounds: rounds, window: themed.widget) { dark in
      DMTraitCollection.setOverride(
        DMTraitCollection(userInterfaceStyle: dark ? .dark : .light), animated: false)
    }
    let darkModeKitCalls = changeTimes
    changeTimes = []
    themed.close()
    settle()

    let plain = plainWindow()
    let baseline = measure(rounds: rounds, window: plain) { dark in
      if dark { gtk_widget_add_css_class(plain, "dark") } else { gtk_widget_remove_css_class(plain, "dark") }
    }

    report("DarkModeKit (setOverride)", darkModeKit)
    report("  of which the call", darkModeKitCalls)
    report("plain GTK (CSS class)", baseline)
    report("  of which the call", changeTimes)
    let ratio = median(darkModeKit) / median(baseline)
    print(
      String(
        format: "  DarkModeKit costs %.2f× the plain GTK switch (target ≤ 1.5×): %@", ratio,
        ratio <= 1.5 ? "met" : "not met"))
    let frame = median(darkModeKit) * 1000
    print(
      String(
        format: "  end to end %.2f ms (target < 16.7 ms, one 60 Hz frame): %@", frame,
        frame < 16.7 ? "met" : "not met"))
  }

  /// A window of widgets whose colours are bound to the table.
  static func themedWindow() -> DMGTKWindow {
    let window = DMGTKWindow(title: "themed", width: 800, height: 600)
    let grid = gtk_grid_new()!
    gtk_window_set_child(window.gtkWindow, grid)
    for index in 0..<widgetCount {
      let widget = DMGTKWidget(cell())
      widget.dm.bind(\.backgroundColor, to: DMDynamicColor(key: "Surface"))
      widget.dm.bind(\.foregroundColor, to: DMDynamicColor(key: "Text"))
      widget.dm.bind(\.borderColor, to: DMDynamicColor(key: "Border"))
      window.addSubview(widget)
      place(widget.widget, at: index, in: grid)
    }
    window.present()
    settle()
    return window
  }

  /// The same window, coloured the way a plain GTK app does: one stylesheet with both styles.
  static func plainWindow() -> UnsafeMutablePointer<GtkWidget> {
    let provider = gtk_css_provider_new()!
    gtk_css_provider_load_from_data(
      provider,
      """
      .plain .cell { background-color: #f2f2f7; color: #1c1c1e; border-color: #c6c6c8; background-image: none; }
      .plain.dark .cell { background-color: #2c2c2e; color: #f2f2f7; border-color: #48484a; }
      """, -1)
    gtk_style_context_add_provider_for_display(
      gdk_display_get_default(), OpaquePointer(provider), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    let window = gtk_window_new()!
    gtk_widget_add_css_class(window, "plain")
    gtk_window_set_default_size(
      UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self), 800, 600)
    let grid = gtk_grid_new()!
    gtk_window_set_child(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self), grid)
    for index in 0..<widgetCount {
      let cell = cell()
      gtk_widget_add_css_class(cell, "cell")
      place(cell, at: index, in: grid)
    }
    gtk_window_present(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self))
    settle()
    return window
  }

  /// One themed widget: a 16 × 16 box with a border.
  static func cell() -> UnsafeMutablePointer<GtkWidget> {
    let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
    gtk_widget_set_size_request(box, 16, 16)
    gtk_widget_add_css_class(box, "frame")
    return box
  }

  /// Places the widget number `index` in a grid 40 wide.
  static func place(
    _ widget: UnsafeMutablePointer<GtkWidget>, at index: Int, in grid: UnsafeMutablePointer<GtkWidget>
  ) {
    gtk_grid_attach(
      UnsafeMutableRawPointer(grid).assumingMemoryBound(to: GtkGrid.self), widget, Int32(index % 40),
      Int32(index / 40), 1, 1)
  }

  /// Times `change` (alternately to dark and to light) until the window's next paint ends.
  static func measure(
    rounds: Int, window: UnsafeMutablePointer<GtkWidget>, change: (Bool) -> Void
  ) -> [Double] {
    guard let clock = gtk_widget_get_frame_clock(window) else { return [] }
    let afterPaint: @convention(c) (OpaquePointer?, gpointer?) -> Void = { _, _ in
      MainActor.assumeIsolated { Bench.paints += 1 }
    }
    let handler = dm_signal_connect(
      UnsafeMutableRawPointer(clock), "after-paint", unsafeBitCast(afterPaint, to: GCallback.self), nil, nil)
    defer { g_signal_handler_disconnect(UnsafeMutableRawPointer(clock), handler) }
    var times: [Double] = []
    for round in 0..<rounds {
      let before = paints
      let start = DispatchTime.now().uptimeNanoseconds
      change(round.isMultiple(of: 2))
      changeTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
      timedOut = false
      let timeout = g_timeout_add(
        2_000,
        { _ in
          MainActor.assumeIsolated { Bench.timedOut = true }; return 0
        }, nil)
      while paints == before, !timedOut { g_main_context_iteration(nil, 1) }
      guard !timedOut else {
        print("dmgtkbench: no frame was painted within 2 s of a change")
        exit(1)
      }
      g_source_remove(timeout)
      times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
      settle()
    }
    return times
  }

  /// Runs the loop until it has nothing left to do for a moment.
  static func settle() {
    let deadline = Date().addingTimeInterval(0.05)
    while Date() < deadline {
      while g_main_context_pending(nil) != 0 { g_main_context_iteration(nil, 0) }
      usleep(2_000)
    }
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
  }

  static func report(_ name: String, _ times: [Double]) {
    let sorted = times.sorted()
    print(
      String(
        format: "  %-28@ %7.2f ms  [%.2f–%.2f ms]", name as NSString, median(times) * 1000,
        (sorted.first ?? .nan) * 1000, (sorted.last ?? .nan) * 1000))
  }
}

MainActor.assumeIsolated { Bench.main() }
