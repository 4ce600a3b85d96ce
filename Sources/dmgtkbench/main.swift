import CGtk
import DarkModeKit
import DarkModeKitGTK
import Foundation

// `.ci/with-display swift run -c release dmgtkbench [--quick] [--startup]` (it needs a
// display): for a window of 1,000 themed widgets (16 × 16 boxes with a background, a text colour
// and a border colour, in a grid), the time from a style change to the
// end of the first frame GTK paints in the new style, through DarkModeKit (`setOverride`) and the
// way a plain GTK app does it (a CSS class on the window, with both styles in one stylesheet), in
// the same run, the rounds of the two alternating.
//
// Then the start-up: the time from starting a program to the end of its first frame, for an app
// that follows the guide (`DMGTK.start()`, the same window bound to a colour table) and for a
// plain libadwaita app (`adw_init()`, the same window coloured by a stylesheet), each started
// anew, the two alternating. Both read the desktop's setting when a session bus is there (run it
// under `dbus-run-session` for the real portal). `--startup` measures the start-up alone;
// `--rounds N` starts each kind N times per window (61 by default, 21 with `--quick`), for a
// narrower interval around the medians.

@MainActor
enum Bench {
  static var widgetCount = 1_000
  static let table = """
    NORMAL   NIGHT
    #ffffff  #1c1c1e  Background
    #f2f2f7  #2c2c2e  Surface
    #1c1c1e  #f2f2f7  Text
    #c6c6c8  #48484a  Border
    """
  static var timedOut = false

  static func main() {
    if let position = CommandLine.arguments.firstIndex(of: "--startup-child"),
      position + 1 < CommandLine.arguments.count
    {
      if position + 2 < CommandLine.arguments.count, let count = Int(CommandLine.arguments[position + 2]) {
        widgetCount = count
      }
      Startup.child(CommandLine.arguments[position + 1])
    }
    let quick = CommandLine.arguments.contains("--quick")
    var startupRounds = quick ? 21 : 61
    if let position = CommandLine.arguments.firstIndex(of: "--rounds") {
      guard position + 1 < CommandLine.arguments.count, let count = Int(CommandLine.arguments[position + 1]),
        (1...10_000).contains(count)
      else {
        FileHandle.standardError.write(
          Data("dmgtkbench: --rounds takes a number of rounds from 1 to 10000\n".utf8))
        exit(2)
      }
      startupRounds = count
    }
    if CommandLine.arguments.contains("--startup") {
      Startup.measureAll(rounds: startupRounds)
      exit(0)
    }
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

    // Both windows start light, as the plain one does, whatever the desktop prefers: the first
    // round's change to dark is a change in both.
    DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .light), animated: false)
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
    Startup.measureAll(rounds: startupRounds)
  }

  /// A window of widgets whose colours are bound to the table.
  static func themedWindow() -> DMGTKWindow {
    let window = themedWindow(shown: false)
    window.present()
    settle()
    return window
  }

  /// The same window, coloured the way a plain GTK app does: one stylesheet with both styles.
  static func plainWindow() -> UnsafeMutablePointer<GtkWidget> {
    let window = plainWindow(shown: false)
    gtk_window_present(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self))
    settle()
    return window
  }

  /// The plain window, not shown yet.
  static func plainWindow(shown: Bool) -> UnsafeMutablePointer<GtkWidget> {
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
    return window
  }

  /// The widgets of the themed window, bound to the table, in a new window that is not shown.
  static func themedWindow(shown: Bool) -> DMGTKWindow {
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

/// The start-up of a DarkModeKitGTK app against a plain libadwaita app: each is started as a
/// program of its own, which says when its first frame is painted.
@MainActor
enum Startup {
  /// The two kinds of app, as `--startup-child` names them.
  static let kinds = ["darkmodekit", "libadwaita"]

  /// The start-up of a window of 10 themed widgets, about what the guide's program shows, and of
  /// 1,000 (each of which DarkModeKit binds three times).
  static func measureAll(rounds: Int) {
    let bus = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil
    print(
      "start-up: from starting the program to the end of its first frame; the desktop's setting read "
        + (bus ? "from the session bus" : "from nothing (no session bus)"))
    // A start-up varies by 20–40 ms from one start to the next (most of it GTK's own set-up), so
    // a figure within a few milliseconds takes many rounds.
    for widgets in [10, 1_000] {
      measure(rounds: rounds, widgets: widgets)
    }
  }

  /// Starts each kind `rounds` times, taking turns, after one start of each that is not counted
  /// (it loads the libraries and starts the portal), and prints the medians.
  static func measure(rounds: Int, widgets: Int) {
    print("  a window of \(widgets) themed widgets, \(rounds) starts each; median [min–max]")
    var times: [String: [Double]] = [:]
    for round in 0...rounds {
      // The order turns each round, so that neither always starts right after the other ended.
      for kind in round.isMultiple(of: 2) ? kinds : kinds.reversed() {
        guard let time = start(kind, widgets: widgets) else {
          print("dmgtkbench: the \(kind) app painted no frame within 10 s")
          exit(1)
        }
        if round > 0 { times[kind, default: []].append(time) }
      }
    }
    Bench.report("  DarkModeKitGTK (DMGTK.start)", times["darkmodekit"] ?? [])
    Bench.report("  libadwaita (adw_init)", times["libadwaita"] ?? [])
    // Each round's two starts, one right after the other, compared: what the machine does
    // meanwhile weighs on both alike.
    let differences = zip(times["darkmodekit"] ?? [], times["libadwaita"] ?? []).map { $0 - $1 }.sorted()
    let difference = Bench.median(differences) * 1000
    print(
      String(
        format: "    DarkModeKitGTK's first frame %.2f ms after libadwaita's, the median of each round's "
          + "difference (target ≤ 10 ms): %@", difference, difference <= 10 ? "met" : "not met"))
    // How far the median itself may be off: the ranks around it that hold the true median of the
    // differences 19 times in 20 (a sign test's interval).
    let spread = Int((Double(differences.count).squareRoot() * 0.98).rounded(.up))
    let low = differences[max(0, differences.count / 2 - spread)] * 1000
    let high = differences[min(differences.count - 1, differences.count / 2 + spread)] * 1000
    print(String(format: "      95%% interval of that median: %.2f to %.2f ms", low, high))
  }

  /// Starts this program as an app of `kind`; the seconds until it said it painted.
  static func start(_ kind: String, widgets: Int) -> Double? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).absoluteURL
    process.arguments = ["--startup-child", kind, String(widgets)]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    let begin = DispatchTime.now().uptimeNanoseconds
    do {
      try process.run()
    } catch {
      return nil
    }
    // One line when the first frame is painted; the program then exits.
    let line = Locked()
    let reading = Thread {
      // What the pipe has as soon as it has something, not at the end of the program.
      let data = output.fileHandleForReading.availableData
      line.set(String(decoding: data, as: UTF8.self), at: DispatchTime.now().uptimeNanoseconds)
    }
    reading.start()
    let deadline = Date().addingTimeInterval(10)
    while line.value == nil, Date() < deadline { usleep(500) }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    guard let (text, end) = line.value, text.hasPrefix("painted") else { return nil }
    return Double(end - begin) / 1e9
  }

  /// The line the child wrote, and when it came.
  final class Locked: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (String, UInt64)?
    var value: (String, UInt64)? { lock.withLock { stored } }
    func set(_ text: String, at time: UInt64) { lock.withLock { stored = (text, time) } }
  }

  /// Runs as an app of `kind`: shows the window, and writes "painted" once its first frame is.
  static func child(_ kind: String) -> Never {
    setenv("GTK_A11Y", "none", 0)
    setenv("GSK_RENDERER", "cairo", 0)
    let window: UnsafeMutablePointer<GtkWidget>
    switch kind {
    case "darkmodekit":
      try? DMColorTable.shared.reload(string: Bench.table)
      DMGTK.start()
      let themed = Bench.themedWindow(shown: false)
      window = themed.widget
      whenPainted(window)
      themed.present()
    case "libadwaita":
      gtk_init()
      adw_init()
      window = Bench.plainWindow(shown: false)
      whenPainted(window)
      gtk_window_present(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self))
    default:
      print("dmgtkbench: --startup-child takes \(kinds.joined(separator: " or "))")
      exit(2)
    }
    let loop = g_main_loop_new(nil, 0)
    g_main_loop_run(loop)
    exit(0)
  }

  /// Writes "painted" and exits after the window's first frame.
  static func whenPainted(_ window: UnsafeMutablePointer<GtkWidget>) {
    DMGTK.connect(UnsafeMutableRawPointer(window), "realize") {
      guard let clock = gtk_widget_get_frame_clock(window) else { return }
      DMGTK.connect(UnsafeMutableRawPointer(clock), "after-paint") {
        print("painted")
        fflush(nil)
        exit(0)
      }
    }
  }
}
