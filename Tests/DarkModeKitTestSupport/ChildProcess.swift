import DarkModeKit
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A program started by a test, with the environment it is given, stopped by its pid.
public final class ChildProcess: Sendable {
  /// The child's process id.
  public let pid: pid_t
  /// The read end of the child's standard output, when it was captured.
  public let output: Int32?
  private let ended = Locked<Int32?>(nil)

  /// Where the child's standard error goes, read by ``errorOutput``.
  private let errorPath = FileManager.default.temporaryDirectory
    .appendingPathComponent("dmkit-child-\(UUID().uuidString).stderr").path

  /// Starts `path` with `arguments`. Standard error goes to a temporary file (see
  /// ``errorOutput``); standard output goes to /dev/null unless `capturesOutput`, to a pipe, or
  /// `outputIsTerminal`, to a pseudo-terminal that leaves output as written (no `\r` added), which
  /// is then standard input too, as for a program run in a terminal.
  public init(
    _ path: String, _ arguments: [String], environment: [String: String], capturesOutput: Bool = false,
    outputIsTerminal: Bool = false
  )
    throws
  {
    let capturesOutput = capturesOutput || outputIsTerminal
    var pipeEnds: [Int32] = [-1, -1]
    if outputIsTerminal {
      // [reading end, writing end], as for a pipe.
      let ends = try openPseudoTerminal()
      var settings = termios()
      tcgetattr(ends.terminal, &settings)
      settings.c_oflag &= ~tcflag_t(OPOST)
      tcsetattr(ends.terminal, TCSANOW, &settings)
      pipeEnds = [ends.emulator, ends.terminal]
    } else if capturesOutput {
      // Close-on-exec: a child that another test starts meanwhile must not inherit the write end,
      // or reading to the end would wait for that child too (dup2 onto 0–2 clears the flag).
      // `pipe2` is not visible from Swift, so the flag is set right after.
      guard pipe(&pipeEnds) == 0 else { throw ChildProcessError("pipe failed") }
      for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if outputIsTerminal { posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 0) }
    if capturesOutput {
      posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
      posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
      posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
    } else {
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    }
    posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    // The child gets standard input, output and error only. A descriptor that another test opened
    // without close-on-exec (the server's end of a test bus, say) would otherwise stay open in the
    // child, and the other test would not see it close until the child ends.
    _ = closeFrom?(&actions, 3)
    // Threads of the test process may block signals; the child starts with none blocked.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for number in [SIGTERM, SIGINT, SIGPIPE] { sigaddset(&defaults, number) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
    // Sanitizer settings reach the children too (a sanitizer build's programs read them).
    var environment = environment
    for name in ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS"] where environment[name] == nil {
      environment[name] = ProcessInfo.processInfo.environment[name]
    }
    var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var child: pid_t = 0
    let status = posix_spawn(&child, path, &actions, &attributes, &argv, &envp)
    if capturesOutput { close(pipeEnds[1]) }
    guard status == 0 else {
      if capturesOutput { close(pipeEnds[0]) }
      throw ChildProcessError("cannot start \(path): \(String(cString: strerror(status)))")
    }
    pid = child
    output = capturesOutput ? pipeEnds[0] : nil
  }

  deinit {
    stop()
    if let output { close(output) }
    unlink(errorPath)
  }

  /// What the child wrote to standard error so far (a sanitizer's report, say), for the message of
  /// a failed expectation.
  public var errorOutput: String {
    let text = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
    return text.isEmpty ? "(nothing on standard error)" : "standard error:\n\(text)"
  }

  /// What the child wrote to standard error so far, as it is.
  public var standardError: String {
    (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
  }

  /// Reads standard output to its end, waiting at most `seconds`; `nil` when it did not end in time.
  public func readToEnd(seconds: Double) -> String? {
    guard let output else { return nil }
    let deadline = Date().addingTimeInterval(seconds)
    var bytes: [UInt8] = []
    while Date() < deadline {
      if let end = Self.readAvailable(output, into: &bytes, waitingMilliseconds: 50) { return end }
    }
    return nil
  }

  /// Reads standard output to its end, waiting at most `seconds`, on a thread of its own rather
  /// than one of the few threads of the concurrency pool: tests that run meanwhile go on, and a
  /// long synchronous test that holds every pool thread neither leaves the child blocked on a full
  /// pipe nor uses up the child's time. `nil` when it did not end in time.
  public func readToEnd(seconds: Double) async -> String? {
    await withCheckedContinuation { continuation in
      Thread { continuation.resume(returning: self.readToEnd(seconds: seconds)) }.start()
    }
  }

  /// Reads what `output` has, waiting at most `milliseconds` for it; the whole output once it
  /// ended, `.some(nil)` when reading failed, `nil` while more may come.
  private static func readAvailable(
    _ output: Int32, into bytes: inout [UInt8], waitingMilliseconds milliseconds: Int32
  )
    -> String??
  {
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      var entry = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
      guard poll(&entry, 1, milliseconds) > 0 else { return nil }
      let count = chunk.withUnsafeMutableBytes { Glibc.read(output, $0.baseAddress, $0.count) }
      if count == 0 { return String(decoding: bytes, as: UTF8.self) }
      // A pseudo-terminal's emulator end reports the end as EIO once every writer closed it.
      if count < 0 && errno == EIO { return String(decoding: bytes, as: UTF8.self) }
      if count < 0 {
        guard errno == EINTR else { return .some(nil) }
        continue
      }
      bytes.append(contentsOf: chunk[0..<count])
    }
  }

  /// Reads one line of standard output, waiting at most `seconds`.
  public func readLine(seconds: Double) -> String? {
    readOutput(until: "\n", seconds: seconds).map { String($0.dropLast()) }
  }

  /// Reads standard output until it holds `text`, waiting at most `seconds`; returns what was read
  /// (up to and including `text`), or `nil` when `text` did not come in time.
  public func readOutput(until text: String, seconds: Double) -> String? {
    guard let output else { return nil }
    let needle = Array(text.utf8)
    let deadline = Date().addingTimeInterval(seconds)
    var bytes: [UInt8] = []
    while Date() < deadline {
      var entry = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
      guard poll(&entry, 1, 50) > 0 else { continue }
      var byte: UInt8 = 0
      guard read(output, &byte, 1) == 1 else { return nil }
      bytes.append(byte)
      if bytes.count >= needle.count, bytes.suffix(needle.count).elementsEqual(needle) {
        return String(decoding: bytes, as: UTF8.self)
      }
    }
    return nil
  }

  /// Writes `text` to the child's terminal as the terminal emulator would, for a child started with
  /// `outputIsTerminal`: the child reads it on its standard input.
  public func sendToTerminal(_ text: String) {
    guard let output else { return }
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
  }

  /// Sends a signal, if the child still runs.
  public func signal(_ number: Int32) {
    if ended.withLock({ $0 }) == nil { kill(pid, number) }
  }

  /// Waits for the child to end, at most `seconds`; returns its exit status, or `nil` if it runs on.
  @discardableResult
  public func wait(seconds: Double) -> Int32? {
    let deadline = Date().addingTimeInterval(seconds)
    repeat {
      if let status = reap() { return status }
      usleep(10_000)
    } while Date() < deadline
    return nil
  }

  /// Stops the child: SIGTERM, then SIGKILL after two seconds.
  public func stop() {
    guard reap() == nil else { return }
    kill(pid, SIGTERM)
    if wait(seconds: 2) == nil {
      kill(pid, SIGKILL)
      _ = wait(seconds: 2)
    }
  }

  /// Kills the child at once, as a crash would.
  public func crash() {
    guard reap() == nil else { return }
    kill(pid, SIGKILL)
    _ = wait(seconds: 2)
  }

  private func reap() -> Int32? {
    ended.withLock { ended in
      if let ended { return ended }
      var status: Int32 = 0
      guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
      ended = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
      return ended
    }
  }
}

/// A child process that could not be started or talked to.
public struct ChildProcessError: Error, CustomStringConvertible {
  /// What went wrong.
  public let description: String
  /// An error that says `description`.
  public init(_ description: String) { self.description = description }
}

/// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34), which the C module does not show to
/// Swift; `nil` where the C library lacks it.
private let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? =
  {
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else {
      return nil
    }
    return unsafeBitCast(
      symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
  }()
