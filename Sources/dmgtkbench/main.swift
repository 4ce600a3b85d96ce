import CGtk
import DarkModeKit
import DarkModeKitGTK
import Foundation

// `.ci/with-display swift run -c release dmgtkbench [--quick]` (it needs a
// display): for a window of 1,000 themed widgets (16 × 16 boxes with a background, a text colour
// and a border colour, in a grid), the time from a style change to the
// end of the first frame GTK paints in the new style, through DarkModeKit (`setOverride`) and the
// way a plain GTK app does it (a CSS class on the window, with both styles in one stylesheet), in
// the same run, the rounds of the two alternating.

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
  static var timedOut = false

  static func main() {
    let quick = CommandLine.arguments.contains("--quick")
    let rounds = quick ? 31 : 101
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

    // Both windows are open at once, and the rounds alternate between them, so that whatever
    // else the machine does meanwhile weighs on both the same.
    let themed = themedWindow()
    let plain = plainWindow()
    let ways = [
      Way(window: themed.widget) { dark in
        DMTraitCollection.setOverride(
          DMTraitCollection(userInterfaceStyle: dark ? .dark : .light), animated: false)
      },
      Way(window: plain) { dark in
        if dark {
          gtk_widget_add_css_class(plain, "dark")
        } else {
          gtk_widget_remove_css_class(plain, "dark")
        }
      },
    ]
    measure(rounds: rounds, ways)
    let darkModeKit = ways[0].times
    let baseline = ways[1].times

    report("DarkModeKit (setOverride)", darkModeKit)
    report("  of which the call", ways[0].callTimes)
    report("plain GTK (CSS class)", baseline)
    report("  of which the call", ways[1].callTimes)
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

  /// One way of switching a window's style, and what it measured.
  final class Way {
    let window: UnsafeMutablePointer<GtkWidget>
    let change: (Bool) -> Void
    /// From the change to the end of the window's next paint.
    var times: [Double] = []
    /// How long the change call itself took (the rest is GTK's work until the frame).
    var callTimes: [Double] = []
    /// Set by the window's frame clock at the end of each paint.
    var paints = 0

    init(window: UnsafeMutablePointer<GtkWidget>, change: @escaping (Bool) -> Void) {
      self.window = window
      self.change = change
    }
  }

  /// Times each way's change (alternately to dark and to light) until its window's next paint
  /// ends, the ways taking turns.
  static func measure(rounds: Int, _ ways: [Way]) {
    let afterPaint: @convention(c) (OpaquePointer?, gpointer?) -> Void = { _, data in
      MainActor.assumeIsolated { Unmanaged<Way>.fromOpaque(data!).takeUnretainedValue().paints += 1 }
    }
    var connections: [(UnsafeMutableRawPointer, gulong)] = []
    for way in ways {
      guard let clock = gtk_widget_get_frame_clock(way.window) else {
        print("dmgtkbench: a window has no frame clock")
        exit(1)
      }
      let handler = dm_signal_connect(
        UnsafeMutableRawPointer(clock), "after-paint", unsafeBitCast(afterPaint, to: GCallback.self),
        Unmanaged.passUnretained(way).toOpaque(), nil)
      connections.append((UnsafeMutableRawPointer(clock), handler))
    }
    defer { for (clock, handler) in connections { g_signal_handler_disconnect(clock, handler) } }
    for round in 0..<rounds {
      for way in ways {
        let before = way.paints
        let start = DispatchTime.now().uptimeNanoseconds
        way.change(round.isMultiple(of: 2))
        way.callTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        timedOut = false
        let timeout = g_timeout_add(
          2_000,
          { _ in
            MainActor.assumeIsolated { Bench.timedOut = true }; return 0
          }, nil)
        while way.paints == before, !timedOut { g_main_context_iteration(nil, 1) }
        guard !timedOut else {
          print("dmgtkbench: no frame was painted within 2 s of a change")
          exit(1)
        }
        g_source_remove(timeout)
        way.times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        settle()
      }
    }
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
