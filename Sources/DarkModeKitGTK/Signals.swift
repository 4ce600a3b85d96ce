import CGtk

/// A Swift closure handed to GLib as a signal handler's or a source's user data.
///
/// GLib calls its handlers on the thread that runs the main context, which for a GTK app is the
/// main thread: the closure runs on the main actor.
final class Callback: @unchecked Sendable {
  // Safe: only read, and only called on the main thread (see the type's comment).
  let run: @MainActor () -> Void

  init(_ run: @escaping @MainActor () -> Void) {
    self.run = run
  }

  /// Passes a retained reference as user data; `release` (the destroy notify) balances it.
  var userData: gpointer { Unmanaged.passRetained(self).toOpaque() }

  static func from(_ data: gpointer?) -> Callback {
    Unmanaged<Callback>.fromOpaque(data!).takeUnretainedValue()
  }

  static let release: GClosureNotify = { data, _ in
    guard let data else { return }
    Unmanaged<Callback>.fromOpaque(data).release()
  }
}

/// Connects the handlers of the few signals DarkModeKitGTK listens to; each C thunk has the exact
/// signature of its signal.
enum Signals {
  /// A signal whose handler takes the instance and the user data (`destroy`, `realize`).
  @discardableResult
  static func connect(_ instance: gpointer, _ name: String, _ body: @escaping @MainActor () -> Void) -> gulong
  {
    let thunk: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
      let callback = Callback.from(data)
      MainActor.assumeIsolated { callback.run() }
    }
    return dm_signal_connect(
      instance, name, unsafeBitCast(thunk, to: GCallback.self), Callback(body).userData, Callback.release)
  }

  /// `notify::PROPERTY`, whose handler also gets the property's specification.
  @discardableResult
  static func connectNotify(
    _ instance: gpointer, property: String, _ body: @escaping @MainActor () -> Void
  ) -> gulong {
    let thunk: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, _, data in
      let callback = Callback.from(data)
      MainActor.assumeIsolated { callback.run() }
    }
    return dm_signal_connect(
      instance, "notify::\(property)", unsafeBitCast(thunk, to: GCallback.self), Callback(body).userData,
      Callback.release)
  }
}

extension Signals {
  /// A list model's `items-changed`, whose handler also gets the position and the counts.
  @discardableResult
  static func connectItemsChanged(_ list: gpointer, _ body: @escaping @MainActor () -> Void) -> gulong {
    let thunk: @convention(c) (gpointer?, guint, guint, guint, gpointer?) -> Void = { _, _, _, _, data in
      let callback = Callback.from(data)
      MainActor.assumeIsolated { callback.run() }
    }
    return dm_signal_connect(
      list, "items-changed", unsafeBitCast(thunk, to: GCallback.self), Callback(body).userData,
      Callback.release)
  }
}

/// Runs `body` on the main context once, before GTK paints the next frame.
func runBeforeNextFrame(_ body: @escaping @MainActor () -> Void) {
  let thunk: @convention(c) (gpointer?) -> gboolean = { data in
    let callback = Callback.from(data)
    MainActor.assumeIsolated { callback.run() }
    return 0  // G_SOURCE_REMOVE
  }
  // Above GDK's redraw priority (G_PRIORITY_HIGH_IDLE + 20), so the frame shows the result.
  g_idle_add_full(
    G_PRIORITY_HIGH_IDLE, thunk, Callback(body).userData, { data in Callback.release(data, nil) })
}

extension DMGTK {
  /// Calls `body` each time `instance` emits `signal`, any signal: `clicked`, `destroy`,
  /// `notify::sensitive`, `value-changed`. The signal's arguments are not passed; one that
  /// returns a boolean (`close-request`) gets `false`, so that GTK's own handling goes on. The
  /// closure is released with the connection.
  ///
  /// ```swift
  /// let button = gtk_button_new_with_label("Dark")!
  /// DMGTK.connect(button, "clicked") {
  ///   DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: true)
  /// }
  /// ```
  /// - Parameters:
  ///   - instance: The GObject.
  ///   - signal: The signal's name.
  ///   - body: What to run, on the main actor.
  /// - Returns: The handler's id.
  @discardableResult
  public static func connect(
    _ instance: UnsafeMutableRawPointer, _ signal: String, _ body: @escaping @MainActor () -> Void
  ) -> UInt {
    let thunk: @convention(c) (gpointer?) -> Void = { data in
      let callback = Callback.from(data)
      MainActor.assumeIsolated { callback.run() }
    }
    return UInt(dm_signal_connect_any(instance, signal, thunk, Callback(body).userData, Callback.release))
  }
}
