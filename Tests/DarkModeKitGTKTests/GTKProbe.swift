import DarkModeKit
import DarkModeKitTestSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The GTK test app (`Sources/dmgtk-probe`), run on a desktop session of the test's own and
/// driven one command at a time.
final class GTKProbe: Sendable {
  /// The package's folder.
  static let packageFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// Where the GTK programs are built: a build folder of their own, so that a sanitizer build of
  /// the tests does not make them sanitizer builds, and the tests' own build is not waited for.
  static let buildFolder = packageFolder.appendingPathComponent(".build/gtk-programs")

  /// Why the GTK tests cannot run here, or `nil`; printed once when they skip.
  static let missing: String? = {
    if let reason = DesktopSession.missing { return reason }
    let hasHeaders =
      (try? ChildProcess("/usr/bin/pkg-config", ["--exists", "gtk4", "libadwaita-1"], environment: [:]))?
      .wait(seconds: 10) == 0
    guard hasHeaders else {
      let reason =
        "Skipping GTK tests: the GTK 4 and libadwaita headers are not installed "
        + "(.ci/install-dependencies installs libgtk-4-dev and libadwaita-1-dev)"
      print(reason)
      return reason
    }
    return nil
  }()

  /// The probe's path, built the first time a test needs it (an up-to-date build takes seconds).
  static var executable: Result<String, ChildProcessError> { build.map { $0 + "/dmgtk-probe" } }

  /// The demo's path, built with the probe.
  static var demo: Result<String, ChildProcessError> { build.map { $0 + "/dmkit-gtk-demo" } }

  /// The path of the guide's program (Docs/GTK.md), built with the probe.
  static var hello: Result<String, ChildProcessError> { build.map { $0 + "/dmkit-gtk-hello" } }

  /// Builds the GTK programs once; the folder that holds them.
  private static let build: Result<String, ChildProcessError> = {
    let swift = ProcessInfo.processInfo.environment["SWIFT_EXEC_FOR_GTK"] ?? "/opt/swift/usr/bin/swift"
    var environment = ProcessInfo.processInfo.environment
    // A sanitizer build of the tests does not make the probe one.
    for name in ["ASAN_OPTIONS", "TSAN_OPTIONS", "LSAN_OPTIONS"] { environment[name] = nil }
    do {
      for product in ["dmgtk-probe", "dmkit-gtk-demo", "dmkit-gtk-hello"] {
        let build = try ChildProcess(
          swift,
          [
            "build", "--package-path", packageFolder.path, "--scratch-path", buildFolder.path,
            "--product", product,
          ],
          environment: environment, capturesOutput: true)
        let log = build.readToEnd(seconds: 900) ?? ""
        guard build.wait(seconds: 10) == 0 else {
          return .failure(ChildProcessError("building \(product) failed:\n\(log)\n\(build.errorOutput)"))
        }
      }
      return .success(buildFolder.appendingPathComponent("debug").path)
    } catch let error as ChildProcessError {
      return .failure(error)
    } catch {
      return .failure(ChildProcessError("\(error)"))
    }
  }()

  let session: DesktopSession
  let process: ChildProcess

  /// The environment a GTK program of the tests runs with on `session`: X11 (Xvfb), no
  /// accessibility bus, and the cairo renderer, whose pixels are the same on every machine.
  static func environment(of session: DesktopSession) -> [String: String] {
    var environment = session.environment
    environment["GDK_BACKEND"] = "x11"
    environment["GTK_A11Y"] = "none"
    environment["GSK_RENDERER"] = "cairo"
    return environment
  }

  /// Starts the probe with `arguments` on a new desktop session and waits until it is ready;
  /// `environment` adds to (or replaces) the session's variables.
  init(_ arguments: [String], session: DesktopSession? = nil, environment extra: [String: String] = [:])
    throws
  {
    let path = try Self.executable.get()
    let session = try session ?? DesktopSession()
    self.session = session
    let environment = Self.environment(of: session).merging(extra) { $1 }
    process = try ChildProcess(path, arguments, environment: environment, outputIsTerminal: true)
    guard let line = process.readLine(seconds: 30), line == "ready" else {
      throw ChildProcessError("the GTK probe did not start: \(process.errorOutput)")
    }
  }

  /// Sends one command and returns the probe's answer.
  @discardableResult
  func send(_ command: String, seconds: Double = 30) throws -> String {
    process.sendToTerminal(command + "\n")
    guard let answer = process.readLine(seconds: seconds) else {
      throw ChildProcessError("no answer to '\(command)': \(process.errorOutput)")
    }
    return answer.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The colour painted at the centre of a part of a window.
  func pixel(_ window: String, _ part: String) throws -> DMColor? {
    let answer = try send("pixel \(window) \(part)")
    guard answer.hasPrefix("pixel ") else { throw ChildProcessError("pixel: \(answer)") }
    return try? DMColor(hex: String(answer.dropFirst(6)))
  }

  /// What the probe wrote to standard error: GTK's warnings and criticals go there.
  var warnings: String { process.standardError }

  func stop() {
    stopProgram()
    session.stop()
  }

  /// Quits the probe and leaves the desktop session running, for another probe.
  func stopProgram() {
    _ = try? send("quit", seconds: 5)
    process.stop()
  }
}
