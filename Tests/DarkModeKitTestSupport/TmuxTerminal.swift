import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A real terminal for tests: a tmux server on a socket of its own running one session of a fixed
/// size, driven by `send-keys` and read by `capture-pane`. Stopping it kills that server only.
public final class TmuxTerminal: Sendable {
  /// The tmux executable on `PATH`, if any.
  public static let executable: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/tmux" }.first { access($0, X_OK) == 0 }
  }()

  /// Why the tmux tests cannot run here, or `nil` when they can; printed when they skip.
  public static let missing: String? = {
    guard executable == nil else { return nil }
    let reason = "Skipping tmux tests: tmux is not installed (.ci/install-dependencies installs it)"
    print(reason)
    return reason
  }()

  /// The name of this terminal's own tmux server socket.
  public let socket = "dmkit-test-\(getpid())-\(UUID().uuidString.prefix(8))"
  private let tmux: String
  /// The server's socket file, which `kill-server` leaves behind: `-L` puts it in
  /// `$TMUX_TMPDIR/tmux-UID/` (`/tmp` by default).
  private var socketPath: String {
    let folder =
      ProcessInfo.processInfo.environment["TMUX_TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    return "\(folder)/tmux-\(getuid())/\(socket)"
  }

  /// Starts a detached session of `width`×`height` cells running `command` directly (no shell in
  /// between), with `environment` added to the session's.
  public init(width: Int = 100, height: Int = 30, environment: [String: String], command: [String]) throws {
    guard let executable = Self.executable else { throw ChildProcessError("tmux is not installed") }
    tmux = executable
    let variables = environment.sorted { $0.key < $1.key }.flatMap { ["-e", "\($0.key)=\($0.value)"] }
    let arguments =
      ["-f", "/dev/null", "new-session", "-d", "-x", "\(width)", "-y", "\(height)"] + variables + command
    // Not captured: the server it starts would hold the pipe open.
    let (status, _) = try run(arguments, capturesOutput: false)
    guard status == 0 else { throw ChildProcessError("tmux new-session failed (\(status ?? -1))") }
  }

  deinit { stop() }

  /// Types keys, as tmux names them (`d`, `C-c`).
  public func sendKeys(_ keys: String...) throws {
    _ = try run(["send-keys", "-t", "0"] + keys)
  }

  /// The screen as text, or with its colours as escape sequences (`ESC[38;2;R;G;Bm`) too.
  public func capture(escapes: Bool = false) throws -> String {
    try run(["capture-pane", "-p", "-t", "0"] + (escapes ? ["-e"] : [])).output
  }

  /// A pane variable, such as `alternate_on` or `cursor_flag`.
  public func pane(_ variable: String) throws -> String {
    try run(["display-message", "-p", "-t", "0", "#{\(variable)}"]).output
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Captures the screen until it satisfies `condition`, at most `seconds`; returns the last
  /// capture, whether it did or not.
  @discardableResult
  public func waitForScreen(
    escapes: Bool = false, seconds: Double = 15, until condition: (String) -> Bool
  ) throws -> (matched: Bool, screen: String) {
    let deadline = Date().addingTimeInterval(seconds)
    var screen = ""
    repeat {
      screen = try capture(escapes: escapes)
      if condition(screen) { return (true, screen) }
      usleep(50_000)
    } while Date() < deadline
    return (false, screen)
  }

  /// Kills this test's tmux server, and with it the session's programs, and removes its socket.
  public func stop() {
    _ = try? run(["kill-server"])
    unlink(socketPath)
  }

  /// The version tmux reports, such as `3.3a`.
  public func version() throws -> String {
    let output = try run(["-V"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
    return output.hasPrefix("tmux ") ? String(output.dropFirst(5)) : output
  }

  /// Runs a tmux command against this server; its status and standard output.
  @discardableResult
  private func run(_ arguments: [String], capturesOutput: Bool = true) throws -> (
    status: Int32?, output: String
  ) {
    var environment = ProcessInfo.processInfo.environment
    environment["TMUX"] = nil
    let child = try ChildProcess(
      tmux, ["-L", socket] + arguments, environment: environment, capturesOutput: capturesOutput)
    var lines: [String] = []
    while let line = child.readLine(seconds: 10) { lines.append(line) }
    return (child.wait(seconds: 10), lines.map { $0 + "\n" }.joined())
  }
}
