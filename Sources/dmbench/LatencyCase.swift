import DarkModeKit
import DarkModeKitDBus
import DarkModeKitLinux
import Foundation
import Synchronization

/// 10. From the system to the screen: the time from the portal's `SettingChanged` signal to the
/// last bound property of 10,000 views holding the new value, on a private bus with the stand-in
/// portal of the tests, against the time a plain client of the same bus takes to receive the same
/// signal on its reader thread (the floor of this path).
///
/// The portal takes the time (`CLOCK_MONOTONIC`) as it emits each change; the floor client takes
/// it as its reader thread reads the signal, and the app as the pass that applied the change ends
/// (its `themeChangeHandler`), while the main thread waits in its run loop as an app's does.
@MainActor
struct LatencyCase {
  let changes: Int
  let views = 10_000

  /// The stand-in portal, run from the package's folder.
  nonisolated static let portalScript = "Tests/DarkModeKitTestSupport/Fixtures/test_portal.py"

  /// Prints the figures; returns whether the targets are met, or `nil` when the case could not run
  /// here (it says why).
  func run() -> Bool? {
    print("10. From the system to the screen: SettingChanged → the last of \(views.formatted()) views")
    print("   (\(changes) changes on a private bus with the stand-in portal; the floor is a plain client)")
    let session: BusSession
    do {
      session = try BusSession()
    } catch {
      print("   skipped: \(error)\n")
      return nil
    }
    defer { session.stop() }
    do {
      let (floor, ours) = try measure(address: session.address)
      let floorStats = Percentiles(floor)
      let oursStats = Percentiles(ours)
      func line(_ name: String, _ stats: Percentiles) {
        print(
          "     \(name.padding(toLength: 28, withPad: " ", startingAt: 0)) median \(formatDuration(stats.median))"
            + "   p99 \(formatDuration(stats.p99))   max \(formatDuration(stats.maximum))")
      }
      line("plain client receives it", floorStats)
      line("DarkModeKit, on screen", oursStats)
      let overMedian = oursStats.median - floorStats.median
      let p99Ratio = oursStats.p99 / floorStats.p99
      print(
        "     the path costs \(formatDuration(overMedian)) over the floor at the median, "
          + String(format: "%.1f× the floor at the 99th percentile", p99Ratio))
      let met = overMedian <= 0.001 && p99Ratio <= 2
      print("   target: median within 1 ms of the floor, p99 ≤ 2× the floor: \(met ? "met" : "MISSED")\n")
      return met
    } catch {
      print("   failed: \(error)\n")
      return false
    }
  }

  /// The latencies of each change, in seconds: the floor client's and the app's.
  private func measure(address: String) throws -> (floor: [Double], ours: [Double]) {
    let scene = Scene(count: views)
    scene.window.makeKeyAndVisible()
    let done = Mutex<Double?>(nil)
    let received = Mutex<Double?>(nil)
    DarkModeManager.setup(
      with: DMConfiguration(
        themeChangeHandler: { done.withLock { $0 = Measure.now() } },
        systemAppearanceSource: DMPortalAppearanceSource(address: address)))
    defer {
      DarkModeManager.setup(with: DMConfiguration())
      scene.window.isHidden = true
    }
    let clients = try wait(seconds: 10, "connecting the floor and control clients") {
      () async throws -> (DBusConnection, DBusConnection) in
      let floor = try await DBusConnection.connect(to: address)
      try await floor.onSignals(
        matching: DBusMatchRule(interface: "org.freedesktop.portal.Settings", member: "SettingChanged")
      ) { _ in received.withLock { $0 = Measure.now() } }
      return (floor, try await DBusConnection.connect(to: address))
    }
    defer {
      clients.0.close()
      clients.1.close()
    }
    // The source follows the portal: the views show its first value, dark.
    try spin(seconds: 10, "the portal's first value") {
      scene.views.last?.opacity == 0.8 && done.withLock { $0 } != nil
    }
    var floor: [Double] = []
    var ours: [Double] = []
    let control = clients.1
    for index in 0..<changes {
      done.withLock { $0 = nil }
      received.withLock { $0 = nil }
      let isDark = !index.isMultiple(of: 2)
      let emitted = Mutex<Double?>(nil)
      Task.detached {
        let reply = try? await control.call(
          destination: "org.freedesktop.portal.Desktop", path: "/org/freedesktop/portal/desktop",
          interface: "org.dmkit.TestPortal", member: "SetTimed",
          arguments: [.string("color-scheme"), .variant(.uint32(isDark ? 1 : 2))])
        let nanoseconds = reply?.first.flatMap { value -> UInt64? in
          if case .uint64(let number) = value { return number }
          return nil
        }
        emitted.withLock { $0 = nanoseconds.map { Double($0) / 1e9 } ?? -1 }
      }
      let expected = isDark ? 0.8 : 1.0
      try spin(seconds: 5, "change \(index + 1) on screen") {
        emitted.withLock { $0 } != nil && received.withLock { $0 } != nil && done.withLock { $0 } != nil
          && scene.views.last?.opacity == expected
      }
      guard let start = emitted.withLock({ $0 }), start > 0 else {
        throw BusSession.Failure("the portal did not say when it emitted change \(index + 1)")
      }
      floor.append(received.withLock { $0 }! - start)
      ours.append(done.withLock { $0 }! - start)
    }
    return (floor, ours)
  }

  /// Runs the main run loop, as an app's main thread does, until `condition` holds.
  private func spin(seconds: Double, _ what: String, until condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
      guard Date() < deadline else { throw BusSession.Failure("timed out waiting for \(what)") }
      _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.001))
    }
  }

  /// Runs `work` on another task and the main run loop until it is done.
  private func wait<Value: Sendable>(
    seconds: Double, _ what: String, _ work: @escaping @Sendable () async throws -> Value
  ) throws -> Value {
    let result = Mutex<Result<Value, any Error>?>(nil)
    Task.detached {
      let outcome: Result<Value, any Error>
      do {
        outcome = .success(try await work())
      } catch {
        outcome = .failure(error)
      }
      result.withLock { $0 = outcome }
    }
    try spin(seconds: seconds, what) { result.withLock { $0 } != nil }
    return try result.withLock { $0 }!.get()
  }
}

/// Median, 99th percentile and maximum of samples, in seconds.
struct Percentiles {
  let median: Double
  let p99: Double
  let maximum: Double

  init(_ samples: [Double]) {
    let sorted = samples.sorted()
    median = sorted[sorted.count / 2]
    p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
    maximum = sorted.last ?? 0
  }
}

/// A private bus with the stand-in portal on it, for the latency case.
final class BusSession {
  struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }

  let address: String
  private let folder: URL
  private var processes: [Process] = []

  /// Starts `dbus-daemon` on a socket in a new temporary folder, then the portal on that bus.
  /// - Throws: ``Failure`` naming what is missing or what did not start within 5 seconds.
  init() throws {
    for (path, package) in [("/usr/bin/dbus-daemon", "dbus-daemon"), ("/usr/bin/python3", "python3")]
    where !FileManager.default.isExecutableFile(atPath: path) {
      throw Failure("\(path) is missing (Debian's \(package))")
    }
    guard FileManager.default.fileExists(atPath: LatencyCase.portalScript) else {
      throw Failure("\(LatencyCase.portalScript) is missing: run dmbench from the package's folder")
    }
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("dmbench-bus-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    address = "unix:path=\(folder.path)/bus"
    let configuration = folder.appendingPathComponent("bus.conf")
    try PrivateBusConfiguration.text(listeningAt: address).write(
      to: configuration, atomically: true, encoding: .utf8)
    do {
      try start(
        "/usr/bin/dbus-daemon",
        ["--config-file=\(configuration.path)", "--nofork", "--nopidfile", "--print-address=1"],
        until: { !$0.isEmpty }, what: "dbus-daemon")
      try start(
        "/usr/bin/python3", [LatencyCase.portalScript, "--color-scheme", "1"],
        until: { $0.contains("ready") },
        what: "the stand-in portal (it needs Debian's python3-gi)")
    } catch {
      stop()
      throw error
    }
  }

  /// Starts a program with the bus's address and waits until its output satisfies `isReady`.
  private func start(_ path: String, _ arguments: [String], until isReady: (String) -> Bool, what: String)
    throws
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["DBUS_SESSION_BUS_ADDRESS"] = address
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    processes.append(process)
    let descriptor = output.fileHandleForReading.fileDescriptor
    var text = ""
    let deadline = Date().addingTimeInterval(5)
    while !isReady(text) {
      let remaining = deadline.timeIntervalSinceNow
      var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      guard remaining > 0, poll(&entry, 1, Int32(remaining * 1000)) > 0 else {
        throw Failure("\(what) did not start within 5 seconds")
      }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = read(descriptor, &chunk, chunk.count)
      guard count > 0 else { throw Failure("\(what) ended at once") }
      text += String(decoding: chunk[0..<count], as: UTF8.self)
    }
  }

  /// Stops the programs, the portal first, and removes the folder.
  func stop() {
    for process in processes.reversed() where process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
    processes.removeAll()
    try? FileManager.default.removeItem(at: folder)
  }
}
