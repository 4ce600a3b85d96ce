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
    let pid: pid_t
    private let reaped = Locked(false)

    /// Starts the daemon listening on `listen`, or on `unix:path=<temp>/bus` when `nil`, and waits
    /// until it prints its address.
    init(listen: String? = nil) throws {
      var template = Array("/tmp/dmk-dbus-XXXXXX".utf8CString)
      guard let made = mkdtemp(&template) else { throw BusError("mkdtemp failed") }
      directory = String(cString: made)
      let arguments = [
        Self.daemonPath, "--session", "--nofork", "--nopidfile",
        "--address=\(listen ?? "unix:path=\(directory)/bus")", "--print-address=1",
      ]
      var output: [Int32] = [0, 0]
      guard pipe(&output) == 0 else { throw BusError("pipe failed") }
      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      posix_spawn_file_actions_adddup2(&actions, output[1], 1)
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
      posix_spawn_file_actions_addclose(&actions, output[0])
      posix_spawn_file_actions_addclose(&actions, output[1])
      defer { posix_spawn_file_actions_destroy(&actions) }
      var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
      defer { for pointer in argv { free(pointer) } }
      // Worker threads block signals; the daemon must start with none blocked to obey SIGTERM.
      var attributes = posix_spawnattr_t()
      posix_spawnattr_init(&attributes)
      defer { posix_spawnattr_destroy(&attributes) }
      var noSignals = sigset_t()
      sigemptyset(&noSignals)
      posix_spawnattr_setsigmask(&attributes, &noSignals)
      var defaults = sigset_t()
      sigemptyset(&defaults)
      sigaddset(&defaults, SIGTERM)
      sigaddset(&defaults, SIGPIPE)
      posix_spawnattr_setsigdefault(&attributes, &defaults)
      posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
      var child: pid_t = 0
      let spawned = posix_spawn(&child, Self.daemonPath, &actions, &attributes, &argv, environ)
      _ = Glibc.close(output[1])
      defer { _ = Glibc.close(output[0]) }
      guard spawned == 0 else { throw BusError("posix_spawn failed: \(spawned)") }
      pid = child
      guard let line = try Self.readLine(from: output[0], seconds: 5) else {
        kill(child, SIGKILL)
        var status: Int32 = 0
        waitpid(child, &status, 0)
        throw BusError("dbus-daemon printed no address within 5 seconds")
      }
      address = line
    }

    /// Stops the daemon by its pid (SIGTERM, then SIGKILL after 5 seconds) and removes the folder.
    func stop() {
      terminate(first: SIGTERM)
      try? FileManager.default.removeItem(atPath: directory)
    }

    /// Kills the daemon at once, as a crash would.
    func crash() {
      terminate(first: SIGKILL)
    }

    private func terminate(first signal: Int32) {
      reaped.withLock { reaped in
        guard !reaped else { return }
        reaped = true
        kill(pid, signal)
        var status: Int32 = 0
        for _ in 0..<500 {
          if waitpid(pid, &status, WNOHANG) != 0 { return }
          usleep(10_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
      }
    }

    private static func readLine(from fd: Int32, seconds: Int) throws -> String? {
      let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
      var bytes: [UInt8] = []
      while ContinuousClock.now < deadline {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 100) > 0 else { continue }
        var byte: UInt8 = 0
        guard read(fd, &byte, 1) == 1 else { return nil }
        if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
        bytes.append(byte)
      }
      return nil
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

  /// A Unix socket that listens but never accepts or answers, to test authentication timeouts.
  final class SilentListener: Sendable {
    let path: String
    private let fd: Int32

    init(path: String) throws {
      self.path = path
      fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
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
      guard bound == 0, listen(fd, 4) == 0 else { throw BusError("cannot listen at \(path)") }
    }

    func close() {
      _ = Glibc.close(fd)
      unlink(path)
    }
  }
#endif
