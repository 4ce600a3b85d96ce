import DarkModeKit
import DarkModeKitDBus
import Foundation

/// Follows the desktop's appearance setting through the XDG Desktop Portal, over D-Bus.
///
/// It reads `color-scheme` and `contrast` in the `org.freedesktop.appearance` namespace of
/// `org.freedesktop.portal.Settings`, all settings in one `ReadAll` call (every version of the
/// interface has it), and follows the `SettingChanged` signal. A setting the portal does not know
/// counts as "no preference". For a portal without `contrast` (Debian 12's), GNOME's own switch
/// decides instead, `high-contrast` in `org.gnome.desktop.a11y.interface`,
/// as libadwaita and Qt do, and that switch is followed live. It reads `reduced-motion` (else
/// GNOME's `enable-animations`) for `DMTraitCollection.accessibilityMotion` and
/// `accent-color` for `DMTraitCollection.accentColor` the same way.
///
/// It never blocks the main actor: all D-Bus work runs in a task of its own, and every call has a
/// timeout. When the bus or the portal is missing, or the connection drops, it reports the problem
/// once through `DMDiagnostics`, keeps the last value, and tries again after a delay that doubles
/// up to ``maximumRetryDelay``; once connected again it reports the current value.
///
/// ```swift
/// DarkModeManager.setup(with: DMConfiguration(
///   systemAppearanceSource: DMPortalAppearanceSource()))
/// ```
@MainActor
public final class DMPortalAppearanceSource: DMSystemAppearanceSource {
  /// The bus address; `nil` for the session bus (`DBUS_SESSION_BUS_ADDRESS`).
  public nonisolated let address: String?
  /// The limit of connecting and of each call.
  public nonisolated let timeout: Duration
  /// The first delay before trying again after a failure.
  public nonisolated let initialRetryDelay: Duration
  /// The longest delay between two tries.
  public nonisolated let maximumRetryDelay: Duration

  private var session: Task<Void, Never>?

  /// Creates a source; nothing connects until it is started.
  /// - Parameters:
  ///   - address: A D-Bus address, or `nil` for the session bus.
  ///   - timeout: The limit of connecting and of each call; 2 seconds by default.
  ///   - initialRetryDelay: The first delay before trying again after a failure.
  ///   - maximumRetryDelay: The longest delay between two tries.
  public nonisolated init(
    address: String? = nil, timeout: Duration = .seconds(2), initialRetryDelay: Duration = .milliseconds(250),
    maximumRetryDelay: Duration = .seconds(10)
  ) {
    self.address = address
    self.timeout = timeout
    self.initialRetryDelay = initialRetryDelay
    self.maximumRetryDelay = maximumRetryDelay
  }

  /// Asks the portal once, with the source's timeout.
  /// - Returns: The collection the desktop's settings give.
  /// - Throws: `DBusError` when the bus or the portal cannot be reached or answers wrongly.
  public nonisolated func read() async throws -> DMTraitCollection {
    try await readValues().traitCollection
  }

  /// Asks the portal once for every setting it reads.
  nonisolated func readValues(problems: PortalSettings.Problems = PortalSettings.Problems()) async throws
    -> PortalSettings.Values
  {
    let bus = try await DBusConnection.connect(to: address, timeout: timeout)
    defer { bus.close() }
    return try await PortalSettings.readAll(on: bus, timeout: timeout, problems: problems)
  }

  /// Connects in the background, reports the current settings and then every change.
  /// - Parameter reporter: Where the settings go.
  public func start(reporting reporter: DMAppearanceReporter) {
    session?.cancel()
    session = Task.detached { [address, timeout, initialRetryDelay, maximumRetryDelay] in
      await PortalSession(
        address: address, timeout: timeout, initialRetryDelay: initialRetryDelay,
        maximumRetryDelay: maximumRetryDelay, reporter: reporter
      ).run()
    }
  }

  /// Disconnects and stops trying.
  public func stop() {
    session?.cancel()
    session = nil
  }
}

/// One started portal source: connect, read, follow, and on failure wait and start over.
struct PortalSession: Sendable {
  let address: String?
  let timeout: Duration
  let initialRetryDelay: Duration
  let maximumRetryDelay: Duration
  let reporter: DMAppearanceReporter

  func run() async {
    var delay = initialRetryDelay
    var isFailing = false
    while !Task.isCancelled {
      do {
        try await follow {
          isFailing = false; delay = initialRetryDelay
        }
        if Task.isCancelled { return }
        throw DBusError.disconnected(reason: "the portal's signals ended")
      } catch {
        if Task.isCancelled { return }
        if !isFailing {
          isFailing = true
          DMDiagnostics.report(
            DMDiagnostic(
              kind: .systemAppearance,
              message:
                "the desktop portal cannot be reached (\(error)); keeping the last appearance and retrying"))
        }
        try? await Task.sleep(for: delay)
        delay = min(delay * 2, maximumRetryDelay)
      }
    }
  }

  /// Connects, subscribes, reports the current values, then each change, until the connection
  /// ends or the portal leaves the bus.
  private func follow(connected: () -> Void) async throws {
    let bus = try await DBusConnection.connect(to: address, timeout: timeout)
    defer { bus.close() }
    let departures = try await bus.signals(matching: PortalSettings.ownerChangedRule, timeout: timeout)
    // Reading the version starts the portal if it was not running; then it has an owner, the only
    // sender whose `SettingChanged` counts. Subscribe to the owner's, then read the settings, so
    // that a change between the two is not lost.
    _ = try await PortalSettings.version(on: bus, timeout: timeout)
    let owner = try await PortalSettings.owner(on: bus, timeout: timeout)
    // Each change is applied and sent on the connection's reader thread as it is read, without a
    // hop through a task, under the lock, so that the reports keep the order of the changes. The
    // last change of each setting read before the settings is kept, and applied over them.
    let state = Locked(FollowState.reading(early: [:]))
    // A portal that sends a value of the wrong type with every change is reported once.
    let problems = PortalSettings.Problems()
    // Declared after the connection's `defer`, so it runs first.
    defer { state.withLock { $0 = .ended } }
    for namespace in PortalSettings.followedNamespaces {
      // The rule names the owner, so the connection has already dropped anyone else's.
      try await bus.onSignals(
        matching: PortalSettings.settingChangedRule(sender: owner, namespace: namespace), timeout: timeout
      ) { [reporter, problems] signal in
        guard signal.body.count == 3, let namespace = signal.body[0].stringValue,
          let key = signal.body[1].stringValue
        else { return }
        guard PortalSettings.Values.follows(namespace: namespace, key: key) else { return }
        let change = FollowState.Change(namespace: namespace, key: key, value: signal.body[2])
        state.withLock { state in
          switch state {
          case .reading(var early):
            // The last change of each followed setting: a handful.
            early[change.setting] = change
            state = .reading(early: early)
          case .following(var values):
            if values.update(
              namespace: change.namespace, key: change.key, value: change.value, problems: problems)
            {
              values.send(to: reporter)
            }
            state = .following(values)
          case .ended:
            // The session is over: a signal its connection still hands out reports nothing.
            return
          }
        }
      }
    }
    var values = try await PortalSettings.readAll(on: bus, timeout: timeout, problems: problems)
    connected()
    state.withLock { state in
      if case .reading(let early) = state {
        for change in early.values {
          _ = values.update(
            namespace: change.namespace, key: change.key, value: change.value, problems: problems)
        }
      }
      values.send(to: reporter)
      state = .following(values)
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        // The owner left, or handed the name to another: start again with the new one.
        for try await signal in departures where signal.body.count == 3 && signal.body[1].stringValue == owner
        {
          throw DBusError.disconnected(
            reason: signal.body[2].stringValue == ""
              ? "the portal left the bus" : "the portal's owner changed")
        }
      }
      // Whichever ends first ends the session; the caller reconnects.
      try await group.next()
      group.cancelAll()
    }
  }
}

/// Where a session of ``DMPortalAppearanceSource`` stands: reading the settings, with the changes
/// that came meanwhile; following them; or over.
private enum FollowState {
  struct Change {
    let namespace: String
    let key: String
    let value: DBusValue

    /// The namespace and key, which name the setting.
    var setting: [String] { [namespace, key] }
  }

  case reading(early: [[String]: Change])
  case following(PortalSettings.Values)
  case ended
}
