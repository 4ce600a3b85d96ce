import DarkModeKitTestSupport
import Foundation
import Testing

@testable import DarkModeKitDBus

// Unix sockets, dbus-daemon and posix_spawn as used here exist on Linux; elsewhere these tests
// are not built.
#if os(Linux)
  import Glibc

  /// A `dbus-daemon --session` of the test's own, in a fresh temporary folder, stopped by its pid.
  final class PrivateBus: Sendable {
    static let daemonPath = "/usr/bin/dbus-daemon"

    /// Whether `dbus-daemon` is installed; prints why the tests skip when it is not.
    static let isAvailable: Bool = {
      guard access(daemonPath, X_OK) == 0 else {
        print("Skipping D-Bus connection tests: \(daemonPath) is not installed (apt-get install dbus-daemon)")
        return false
      }
      return true
    }()

    let directory: String
    let address: String
    private let daemon: ChildProcess

    /// Starts the daemon listening on `listen`, or on `unix:path=<temp>/bus` when `nil`, and waits
    /// until it prints its address.
    init(listen: String? = nil) throws {
      var template = Array("/tmp/dmk-dbus-XXXXXX".utf8CString)
      guard let made = mkdtemp(&template) else { throw BusError("mkdtemp failed") }
      directory = String(cString: made)
      daemon = try ChildProcess(
        Self.daemonPath,
        [
          "--session", "--nofork", "--nopidfile", "--address=\(listen ?? "unix:path=\(directory)/bus")",
          "--print-address=1",
        ],
        environment: ProcessInfo.processInfo.environment, capturesOutput: true)
      guard let line = daemon.readLine(seconds: 5) else {
        daemon.crash()
        throw BusError("dbus-daemon printed no address within 5 seconds")
      }
      address = line
    }

    /// Stops the daemon (SIGTERM, then SIGKILL) and removes the folder.
    func stop() {
      daemon.stop()
      try? FileManager.default.removeItem(atPath: directory)
    }

    /// Kills the daemon at once, as a crash would.
    func crash() {
      daemon.crash()
    }
  }

  struct BusError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }

  /// Runs `body` with a fresh bus and always stops it afterwards.
  func withPrivateBus<T>(
    listen: String? = nil, _ body: (PrivateBus) async throws -> T
  ) async throws -> T {
    let bus = try PrivateBus(listen: listen)
    do {
      let result = try await body(bus)
      bus.stop()
      return result
    } catch {
      bus.stop()
      throw error
    }
  }

  /// Runs `body`, failing with a `BusError` when it takes longer than `seconds`.
  func withTimeout<T: Sendable>(
    _ seconds: Double, _ body: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
      group.addTask { try await body() }
      group.addTask {
        try await Task.sleep(for: .seconds(seconds))
        throw BusError("timed out after \(seconds) seconds")
      }
      defer { group.cancelAll() }
      return try await group.next()!
    }
  }

  /// A Unix socket bound to `path` and listening, for a test's own server.
  func listeningSocket(at path: String, backlog: Int32) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var storage = sockaddr_un()
    storage.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &storage.sun_path) { raw in
      for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
    }
    let bound = withUnsafePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard bound == 0, listen(fd, backlog) == 0 else { throw BusError("cannot listen at \(path)") }
    return fd
  }

  /// A Unix socket that listens but never accepts or answers, to test authentication timeouts.
  final class SilentListener: Sendable {
    let path: String
    private let fd: Int32

    init(path: String) throws {
      self.path = path
      fd = try listeningSocket(at: path, backlog: 4)
    }

    func close() {
      _ = Glibc.close(fd)
      unlink(path)
    }
  }
#endif
