import DarkModeKitTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The child processes the tests start (headless Chromium, ImageMagick) are read on a thread of
/// their own.
struct ChildProcessTests {
  /// A child that writes more than a pipe holds is read to its end in time even while long
  /// synchronous work holds every thread of the concurrency pool for longer than the time allowed:
  /// the browser tests failed so when heavy tests ran beside them.
  @Test func outputIsReadToTheEndWhileThePoolIsBusy() async throws {
    let child = try ChildProcess(
      "/bin/sh", ["-c", "head -c 3000000 /dev/zero | tr '\\0' x"], environment: ["PATH": "/usr/bin:/bin"],
      capturesOutput: true)
    async let output = child.readToEnd(seconds: 1)
    try await Task.sleep(for: .milliseconds(50))
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<ProcessInfo.processInfo.activeProcessorCount {
        group.addTask { usleep(2_000_000) }
      }
    }
    let text = await output
    #expect(text?.count == 3_000_000, "read \(text?.count ?? -1) bytes")
  }
}
