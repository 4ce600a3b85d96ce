import DarkModeKit
import DarkModeKitTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The `dmbench` executable built beside the tests, which has a hidden mode that saves two choices
/// in turn: `dmbench --write-preferences PATH [COUNT]`.
enum DMBench {
  static let path: String? = {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = folder.appendingPathComponent("dmbench").path
      if access(candidate, X_OK) == 0 { return candidate }
      folder = folder.deletingLastPathComponent()
    }
    let built = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
      "../../../.build/debug/dmbench"
    )
    .standardizedFileURL.path
    if access(built, X_OK) == 0 { return built }
    print("Skipping the writer-process tests: no dmbench executable beside the tests (swift build builds it)")
    return nil
  }()

  /// The two choices `dmbench --write-preferences` alternates, the first one first.
  static let choices: [DMTraitCollection] = {
    var first = DMTraitCollection(userInterfaceStyle: .dark)
    first.accessibilityContrast = .high
    first.theme = "RED"
    return [first, DMTraitCollection(userInterfaceStyle: .light)]
  }()

  /// The writers' environment: under the address sanitizer, no leak report changes their status.
  static let childEnvironment = ["ASAN_OPTIONS": "detect_leaks=0", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"]

  /// Starts a writer that saves to `url` until it is killed.
  static func writer(_ url: URL) throws -> ChildProcess {
    let path = try #require(path)
    return try ChildProcess(
      path, ["--write-preferences", url.path], environment: childEnvironment,
      capturesOutput: true)
  }
}

/// The temporary files of unfinished writes beside `url`.
func temporaryFiles(besides url: URL) -> [String] {
  let names =
    (try? FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)) ?? []
  return names.filter { $0.hasPrefix(".\(url.lastPathComponent).") && $0.hasSuffix(".tmp") }.sorted()
}

@Suite struct NothingLostTests {
  /// What one run of a killed or concurrent writer saw.
  struct Report: Sendable {
    var kills = 0
    var killsLeavingATemporaryFile = 0
    var loads = 0
    var switchesSeen = 0
    var problems: [String] = []
  }

  @Test(.enabled(if: DMBench.path != nil))
  func aWriterKilledAtRandomMomentsLeavesTheOldOrTheNewChoice() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let store = DMPreferenceStore(fileURL: folder.file("appearance.json"))
    try store.save(DMBench.choices[1])
    // DM_KILL_SEED=<seed> replays a run's delays.
    let seed =
      ProcessInfo.processInfo.environment["DM_KILL_SEED"].flatMap { UInt64($0) } ?? .random(in: 0..<1_000_000)
    print("Killing a writer 50 times, random delays from seed \(seed)")
    let report = await onOwnThread { () -> Report in
      var report = Report()
      var random = SeededGenerator(seed: seed)
      for round in 0..<50 {
        let writer: ChildProcess
        do {
          writer = try DMBench.writer(store.fileURL)
        } catch {
          report.problems.append("round \(round): \(error)")
          break
        }
        guard writer.readLine(seconds: 30) == "ready" else {
          report.problems.append("round \(round): the writer did not start")
          writer.crash()
          continue
        }
        usleep(UInt32(random.next() % 20_001))
        writer.crash()
        report.kills += 1
        do {
          let loaded = try store.load()
          report.loads += 1
          if !DMBench.choices.contains(where: { $0 == loaded }) {
            report.problems.append("round \(round): loaded \(String(describing: loaded))")
          }
        } catch {
          report.problems.append("round \(round): \(error)")
        }
        let leftovers = temporaryFiles(besides: store.fileURL)
        if !leftovers.isEmpty { report.killsLeavingATemporaryFile += 1 }
        if leftovers.count > 1 { report.problems.append("round \(round): temporary files \(leftovers)") }
      }
      return report
    }
    print(
      "\(report.kills) kills, \(report.loads) loads, \(report.killsLeavingATemporaryFile) kills left a temporary file"
    )
    #expect(report.problems.isEmpty, "\(report.problems)")
    #expect(report.kills == 50)
    try store.save(DMBench.choices[0])
    #expect(temporaryFiles(besides: store.fileURL).isEmpty)
    #expect(try store.load() == DMBench.choices[0])
  }

  @Test(.enabled(if: DMBench.path != nil))
  func twoWritersAtOnceNeverShowAReaderAnythingButAChoice() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let store = DMPreferenceStore(fileURL: folder.file("appearance.json"))
    try store.save(DMBench.choices[1])
    let report = await onOwnThread { () -> Report in
      var report = Report()
      let writers: [ChildProcess]
      do {
        writers = try [DMBench.writer(store.fileURL), DMBench.writer(store.fileURL)]
      } catch {
        report.problems.append("\(error)")
        return report
      }
      defer { for writer in writers { writer.crash() } }
      for writer in writers where writer.readLine(seconds: 30) != "ready" {
        report.problems.append("a writer did not start")
        return report
      }
      let deadline = Date().addingTimeInterval(1)
      var last: DMTraitCollection?
      while Date() < deadline {
        do {
          let loaded = try store.load()
          report.loads += 1
          if !DMBench.choices.contains(where: { $0 == loaded }) {
            report.problems.append("loaded \(String(describing: loaded))")
          }
          if let last, last != loaded { report.switchesSeen += 1 }
          last = loaded
        } catch {
          report.problems.append("\(error)")
        }
      }
      return report
    }
    print("Two writers for a second: \(report.loads) loads, \(report.switchesSeen) changes seen")
    #expect(report.problems.isEmpty, "\(report.problems)")
    #expect(report.loads > 0)
    #expect(report.switchesSeen > 0)
    try store.save(DMBench.choices[0])
    #expect(temporaryFiles(besides: store.fileURL).isEmpty)
  }

  @Test func theNextSaveRemovesTheTemporaryFilesOfDeadProcessesOnly() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let store = DMPreferenceStore(fileURL: folder.file("appearance.json"))
    let ended = try ChildProcess("/bin/true", [], environment: [:])
    #expect(ended.wait(seconds: 10) == 0)
    let dead = ".appearance.json.\(ended.pid).3.tmp"
    let running = ".appearance.json.1.7.tmp"  // pid 1 always runs
    let own = ".appearance.json.\(getpid()).999999.tmp"
    let others = [".other.json.\(ended.pid).1.tmp", ".appearance.json.\(ended.pid).x.tmp", "notes.tmp"]
    for name in [dead, running, own] + others { try Data("{\"ver".utf8).write(to: folder.file(name)) }
    try store.save(.dark)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    #expect(names == ([running, own, "appearance.json"] + others).sorted())
    #expect(try store.load() == .dark)
  }

  @Test(.enabled(if: DMBench.path != nil && TinyFilesystem.refusal == nil), arguments: ["full", "read-only"])
  func aFullOrReadOnlyFilesystemIsAClearErrorAndTheOldFileStays(_ kind: String) async throws {
    let bench = try #require(DMBench.path)
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let mountPoint = folder.file("mount")
    try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
    let lines = await onOwnThread { TinyFilesystem.run(kind, in: mountPoint.path, bench: bench) }
    print("A \(kind) filesystem: \(lines)")
    let file = mountPoint.appendingPathComponent("appearance.json").path
    let reason = kind == "full" ? "No space left on device" : "Read-only file system"
    #expect(lines.first == "error: \(file): cannot write: \(reason)")
    #expect(lines.dropFirst().first == "status 1")
    #expect(
      lines.dropFirst(2).first == #"old: {"contrast":"unspecified","style":"light","theme":null,"version":1}"#
    )
    #expect(lines.dropFirst(3).first == "files: appearance.json" + (kind == "full" ? " filler" : ""))
  }
}

/// A 64 KiB tmpfs mounted in a private mount namespace (`unshare -m`), which needs the right to
/// mount: a root user in a container may have it, an ordinary user does not.
enum TinyFilesystem {
  /// Why no such filesystem can be made here, or `nil` when it can.
  static let refusal: String? = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dmkit-mount-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let lines = shell("mount -t tmpfs -o size=64k tmpfs \"$1\" && echo mounted", folder.path)
    guard lines == ["mounted"] else {
      let reason = "`unshare -m` and `mount -t tmpfs` are refused here (\(lines.joined(separator: " ")))"
      print("Skipping the full and read-only filesystem tests: \(reason)")
      return reason
    }
    return nil
  }()

  /// Saves a choice on a tiny filesystem, makes it full or read-only, tries to save another, and
  /// returns the writer's output, its status, the old file's contents and the files left.
  static func run(_ kind: String, in folder: String, bench: String) -> [String] {
    let spoil =
      kind == "full"
      ? "dd if=/dev/zero of=\"$1/filler\" bs=1024 >/dev/null 2>&1; true" : "mount -o remount,ro \"$1\""
    let script = """
      mount -t tmpfs -o size=64k tmpfs "$1" || exit 1
      "$2" --write-preferences "$1/appearance.json" 2 >/dev/null && test -s "$1/appearance.json" || exit 1
      \(spoil) || exit 1
      "$2" --write-preferences "$1/appearance.json" 1
      echo "status $?"
      echo "old: $(cat "$1/appearance.json")"
      echo "files: $(ls -A "$1" | tr '\\n' ' ' | sed 's/ $//')"
      """
    return shell(script, folder, bench)
  }

  /// Runs `script` with `sh -c` in a new mount namespace and returns its output lines.
  private static func shell(_ script: String, _ arguments: String...) -> [String] {
    guard access("/usr/bin/unshare", X_OK) == 0 else { return ["no /usr/bin/unshare"] }
    guard
      let child = try? ChildProcess(
        "/usr/bin/unshare", ["-m", "--propagation", "private", "/bin/sh", "-c", script, "sh"] + arguments,
        environment: DMBench.childEnvironment, capturesOutput: true)
    else { return ["cannot start unshare"] }
    var lines: [String] = []
    while let line = child.readLine(seconds: 30) { lines.append(line) }
    child.wait(seconds: 10)
    return lines
  }
}
