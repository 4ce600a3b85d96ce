import DarkModeKit
import DarkModeKitDBus
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A headless desktop of the test's own: a fresh home and runtime folder, an X display from Xvfb
/// and a session bus from dbus-daemon, on which D-Bus activation starts the real
/// xdg-desktop-portal and its GTK backend. Everything it started is stopped by pid.
public final class DesktopSession: Sendable {
  /// The programs a desktop session needs.
  public static let programs = [
    "/usr/bin/dbus-daemon", "/usr/bin/Xvfb", "/usr/bin/gsettings", "/usr/libexec/xdg-desktop-portal",
    "/usr/libexec/xdg-desktop-portal-gtk", "/usr/libexec/dconf-service",
  ]

  /// Why the desktop tests cannot run here, or `nil` when they can; printed when they skip.
  public static let missing: String? = {
    let absent = programs.filter { access($0, X_OK) != 0 }
    guard !absent.isEmpty else { return nil }
    let reason =
      "Skipping desktop portal tests: \(absent.joined(separator: ", ")) not installed "
      + "(.ci/install-dependencies installs them)"
    print(reason)
    return reason
  }()

  /// Why the test-portal tests cannot run here (they need dbus-daemon and Debian's python3-gi).
  public static let testPortalMissing: String? = {
    let hasGi =
      (try? ChildProcess("/usr/bin/python3", ["-c", "import gi"], environment: [:]))?.wait(seconds: 10) == 0
    guard access("/usr/bin/dbus-daemon", X_OK) == 0, hasGi else {
      let reason =
        "Skipping test-portal tests: dbus-daemon or /usr/bin/python3 with python3-gi is not installed"
      print(reason)
      return reason
    }
    return nil
  }()

  /// The session's private folder (runtime directory, configuration, logs).
  public let folder: URL
  /// The environment that programs in the session get.
  public let environment: [String: String]
  /// The address of the session's private bus.
  public let address: String
  private let configuration: String?
  private let display: ChildProcess?
  private let bus: Locked<ChildProcess>

  /// Starts the session. With `withDisplay` false there is no X display (enough for a test portal).
  /// The bus starts no service for a name (the real portal among them) when `forStandInPortal` is
  /// true, or, by default, when there is no display: a stand-in portal then owns the portal's name.
  public init(withDisplay: Bool = true, forStandInPortal: Bool? = nil) throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "dmkit-desktop-\(UUID().uuidString)")
    let home = folder.appendingPathComponent("home")
    let runtime = folder.appendingPathComponent("runtime")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    var environment = [
      "HOME": home.path, "XDG_RUNTIME_DIR": runtime.path, "XDG_CONFIG_HOME": home.path + "/.config",
      "GSETTINGS_BACKEND": "dconf", "XDG_CURRENT_DESKTOP": "GNOME", "NO_AT_BRIDGE": "1",
      "PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8",
    ]
    if withDisplay {
      let displayFile = folder.appendingPathComponent("display").path
      let display = try ChildProcess(
        "/bin/sh", ["-c", "exec Xvfb -displayfd 3 -nolisten tcp 3>\"$0\"", displayFile],
        environment: environment)
      self.display = display
      var number: String?
      for _ in 0..<500 {
        if let text = try? String(contentsOfFile: displayFile, encoding: .utf8),
          text.hasSuffix("\n")
        {
          number = text.trimmingCharacters(in: .whitespacesAndNewlines)
          break
        }
        usleep(10_000)
      }
      guard let number else {
        display.stop()
        throw ChildProcessError("Xvfb gave no display within 5 seconds")
      }
      environment["DISPLAY"] = ":\(number)"
    } else {
      display = nil
    }
    address = "unix:path=\(runtime.path)/bus"
    environment["DBUS_SESSION_BUS_ADDRESS"] = address
    self.environment = environment
    // Without a display this is a bus for a stand-in portal: give it no service folders, so that
    // calls to the portal's name never start the real portal.
    let configuration: String?
    if !(forStandInPortal ?? !withDisplay) {
      configuration = nil
    } else {
      configuration = folder.appendingPathComponent("bus.conf").path
      try PrivateBusConfiguration.text(listeningAt: address).write(
        toFile: configuration!, atomically: true, encoding: .utf8)
    }
    self.configuration = configuration
    do {
      bus = Locked(
        try Self.startBus(address: address, configuration: configuration, environment: environment))
    } catch {
      display?.stop()
      throw error
    }
  }

  private static func startBus(address: String, configuration: String?, environment: [String: String]) throws
    -> ChildProcess
  {
    let busKind = configuration.map { "--config-file=\($0)" } ?? "--session"
    let bus = try ChildProcess(
      "/usr/bin/dbus-daemon",
      [busKind, "--nofork", "--nopidfile", "--address=\(address)", "--print-address=1"],
      environment: environment, capturesOutput: true)
    guard bus.readLine(seconds: 5) != nil else {
      bus.stop()
      throw ChildProcessError("dbus-daemon printed no address within 5 seconds")
    }
    return bus
  }

  /// Starts a new bus daemon at the same address, after ``crashBus()``.
  public func restartBus() throws {
    unlink(String(address.dropFirst("unix:path=".count)))
    let new = try Self.startBus(address: address, configuration: configuration, environment: environment)
    bus.withLock { $0 = new }
  }

  /// Runs a program in the session and waits for it; returns its exit status.
  @discardableResult
  public func run(_ path: String, _ arguments: [String]) throws -> Int32 {
    let child = try ChildProcess(path, arguments, environment: environment)
    guard let status = child.wait(seconds: 10) else {
      child.stop()
      throw ChildProcessError("\(path) did not finish within 10 seconds")
    }
    return status
  }

  /// Sets the GNOME colour scheme, which the portal's GTK backend reports as `color-scheme`.
  public func setColorScheme(_ value: String) throws {
    try gsettings("set", "org.gnome.desktop.interface", "color-scheme", value)
  }

  /// Runs gsettings in the session, such as `gsettings("set", SCHEMA, KEY, VALUE)`.
  public func gsettings(_ arguments: String...) throws {
    let status = try run("/usr/bin/gsettings", arguments)
    guard status == 0 else { throw ChildProcessError("gsettings exited with \(status)") }
  }

  /// Starts a program in the session that keeps running until stopped.
  public func start(_ path: String, _ arguments: [String], capturesOutput: Bool = false) throws
    -> ChildProcess
  {
    try ChildProcess(path, arguments, environment: environment, capturesOutput: capturesOutput)
  }

  /// Kills the bus daemon, as a crash would; the services it started lose their bus and end.
  public func crashBus() {
    bus.withLock { $0.crash() }
  }

  /// Stops every program of the session and removes its folder.
  public func stop() {
    bus.withLock { $0.stop() }
    display?.stop()
    try? FileManager.default.removeItem(at: folder)
  }
}

/// Polls `condition` on the main actor every 5 ms until it holds or `seconds` pass.
@MainActor
public func eventually(_ seconds: Double = 5, _ condition: () -> Bool) async -> Bool {
  let deadline = Date().addingTimeInterval(seconds)
  while Date() < deadline {
    if condition() { return true }
    try? await Task.sleep(for: .milliseconds(5))
  }
  return condition()
}
