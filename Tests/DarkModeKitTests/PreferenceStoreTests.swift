import DarkModeKitTestSupport
import Foundation
import Testing

@testable import DarkModeKit

@Suite struct PreferenceStoreFileTests {
  @Test func aMissingFileMeansNoChoice() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    #expect(try DMPreferenceStore(fileURL: folder.file("none.json")).load() == nil)
  }

  @Test func aSavedChoiceReadsBackAndIsPlainJSON() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let store = DMPreferenceStore(fileURL: folder.url.appendingPathComponent("deep/er/appearance.json"))
    var choice = DMTraitCollection(userInterfaceStyle: .dark)
    choice.theme = "RED"
    choice.accessibilityContrast = .high
    try store.save(choice)
    #expect(try store.load() == choice)
    let text = try String(contentsOf: store.fileURL, encoding: .utf8)
    #expect(text == #"{"contrast":"high","style":"dark","theme":"RED","version":1}"#)
    try store.save(DMTraitCollection())
    #expect(try store.load() == DMTraitCollection())
    let leftovers = try FileManager.default.contentsOfDirectory(
      atPath: store.fileURL.deletingLastPathComponent().path)
    #expect(leftovers == ["appearance.json"])
  }

  @Test(arguments: [
    ("", "corrupted: the file is empty"),
    (#"{"contrast":"high","style":"da"#, "corrupted: the file is not a JSON object"),
    ("\u{FF}\u{FE}garbage", "corrupted: the file is not a JSON object"),
    (#"{"style":"dark","contrast":"normal"}"#, #"corrupted: "version" is missing"#),
    (
      #"{"version":1,"style":"dusk","contrast":"normal"}"#,
      #"corrupted: "style" is "dusk"; expected one of "unspecified", "light", "dark""#
    ),
    (#"{"version":1,"style":"dark"}"#, #"corrupted: "contrast" is missing"#),
    (
      #"{"version":1,"style":"dark","contrast":"normal","theme":7}"#,
      #"corrupted: "theme" is 7; expected a theme name or null"#
    ),
    (
      #"{"version":true,"style":"dark","contrast":"normal"}"#,
      #"corrupted: "version" is true; expected a whole number"#
    ),
    (
      #"{"version":1.9,"style":"dark","contrast":"normal"}"#,
      #"corrupted: "version" is 1.9; expected a whole number"#
    ),
    (
      #"{"version":1.0,"style":"dark","contrast":"normal"}"#,
      #"corrupted: "version" is 1.0; expected a whole number"#
    ),
    (
      #"{"version":"1","style":"dark","contrast":"normal"}"#,
      #"corrupted: "version" is "1"; expected a whole number"#
    ),
    (
      #"{"version":1,"style":5,"contrast":"normal"}"#,
      #"corrupted: "style" is 5; expected one of "unspecified", "light", "dark""#
    ),
    (
      #"{"version":1,"style":"dark","contrast":"normal","theme":""}"#,
      #"corrupted: "theme" is "": a theme name cannot be empty"#
    ),
    (
      #"{"version":1,"style":"dark","contrast":"normal","theme":"RED\u001b]0;x\u0007"}"#,
      #"corrupted: "theme" is "RED\u{1B}]0;x\u{7}": "\u{1B}" is not allowed in a theme name"#
    ),
    (
      #"{"version":1,"style":"dark","contrast":"normal","theme":"\#(String(repeating: "A", count: 257))"}"#,
      #"corrupted: "theme" is longer than 256 bytes"#
    ),
    (
      #"{"version":9,"style":"dark","contrast":"normal"}"#,
      "unsupported version: written by format version 9; this version reads up to 1"
    ),
  ])
  func badFilesAreRejectedWithAMessageNamingTheFile(_ contents: String, _ message: String) throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let url = folder.file("appearance.json")
    try Data(contents.utf8).write(to: url)
    #expect {
      try DMPreferenceStore(fileURL: url).load()
    } throws: { error in
      (error as? DMPreferenceStoreError)?.description == "\(url.path): \(message)"
        && error.localizedDescription == "\(url.path): \(message)"
    }
  }

  @Test func anUnwritablePlaceIsAClearErrorAndTheOldFileStays() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let blocker = folder.file("not-a-folder")
    try Data("x".utf8).write(to: blocker)
    let store = DMPreferenceStore(fileURL: blocker.appendingPathComponent("appearance.json"))
    #expect {
      try store.save(.dark)
    } throws: { error in
      let storeError = error as? DMPreferenceStoreError
      print("A folder that is a file: \(error)")
      return storeError?.kind == .unwritable
        && storeError?.description.hasPrefix("\(store.fileURL.path): cannot write: cannot create the folder")
          == true
    }
    #expect(try String(contentsOf: blocker, encoding: .utf8) == "x")
  }

  @Test func aSaveKeepsTheFilesPermissionsAndFollowsASymbolicLink() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let real = folder.file("real.json")
    let store = DMPreferenceStore(fileURL: real)
    try store.save(.dark)
    #expect(chmod(real.path, 0o600) == 0)
    try store.save(.light)
    #expect(try mode(of: real) == 0o600)
    // A dotfile kept in a repository and linked into place stays linked.
    let link = folder.file("appearance.json")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
    try DMPreferenceStore(fileURL: link).save(.dark)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == real.path)
    #expect(try store.load() == .dark)
    #expect(try mode(of: real) == 0o600)
  }

  @Test func whatIsNotARegularFileIsNamedAndNeverReplaced() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let directory = folder.file("directory.json")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
    let fifo = folder.file("fifo.json")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    for (url, kind) in [(directory, "a directory"), (fifo, "a FIFO")] {
      let store = DMPreferenceStore(fileURL: url)
      #expect(
        throws: DMPreferenceStoreError(
          path: url.path, kind: .unreadable, reason: "it is \(kind), not a regular file")
      ) {
        try store.load()
      }
      #expect(
        throws: DMPreferenceStoreError(
          path: url.path, kind: .unwritable, reason: "it is \(kind), not a regular file")
      ) {
        try store.save(.dark)
      }
    }
    var status = stat()
    #expect(lstat(fifo.path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
  }

  @Test func aPathWithControlCharactersIsShownEscaped() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let url = folder.file("app\u{1B}]0;x\u{7}.json")
    try Data("{}".utf8).write(to: url)
    #expect {
      try DMPreferenceStore(fileURL: url).load()
    } throws: { error in
      "\(error)" == "\(folder.url.path)/app\\u{1B}]0;x\\u{7}.json: corrupted: \"version\" is missing"
    }
  }

  @Test func aFileLargerThanTheLimitIsNotRead() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let url = folder.file("appearance.json")
    let padding = String(repeating: " ", count: DMPreferenceStore.maximumFileSize)
    try Data(#"{"version":1,"style":"dark","contrast":"normal"}\#(padding)"#.utf8).write(to: url)
    #expect(
      throws: DMPreferenceStoreError(
        path: url.path, kind: .unreadable, reason: "it is larger than the limit of 64 KiB")
    ) {
      try DMPreferenceStore(fileURL: url).load()
    }
  }

  @Test func theDefaultLocationFollowsXDGConfigHome() {
    let xdg = DMPreferenceStore(
      appName: "My/App", environment: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/home/ann"])
    #expect(xdg.fileURL.path == "/cfg/My_App/appearance.json")
    let home = DMPreferenceStore(
      appName: "MyApp", environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/ann"])
    #expect(home.fileURL.path == "/home/ann/.config/MyApp/appearance.json")
  }
}

extension GlobalStateTests {
  @Suite @MainActor struct PreferenceRestoreTests {
    init() { DarkModeManager.reset() }

    @Test func setupRestoresTheChoiceAndLaterChoicesAreSaved() throws {
      let folder = try TemporaryFolder()
      defer { folder.remove() }
      let store = DMPreferenceStore(fileURL: folder.file("appearance.json"))
      try store.save(DMTraitCollection(theme: "RED"))
      DarkModeManager.setup(with: DMConfiguration(preferenceStore: store))
      #expect(DMTraitCollection.override == DMTraitCollection(theme: "RED"))
      #expect(DMTraitCollection.current.theme == "RED")
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(try store.load() == .dark)
    }

    @Test func aMissingFileAtSetupIsNoChoiceAndIsNotReported() throws {
      let folder = try TemporaryFolder()
      defer { folder.remove() }
      let url = folder.file("appearance.json")
      let recorder = DiagnosticsRecorder()
      recorder.install()
      defer { recorder.uninstall() }
      DMTraitCollection.setOverride(.dark, animated: false)
      DarkModeManager.setup(
        with: DMConfiguration(preferenceStore: DMPreferenceStore(fileURL: url)))
      #expect(DMTraitCollection.override == .dark)
      #expect(recorder.all.isEmpty)
      #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test(arguments: [
      "{\"version\":1,\"sty", "{\"version\":2,\"style\":\"dark\",\"contrast\":\"high\"}", "🙂",
    ])
    func aBadFileIsReportedIgnoredAndNotOverwrittenUntilTheUserChooses(_ contents: String) throws {
      let folder = try TemporaryFolder()
      defer { folder.remove() }
      let url = folder.file("appearance.json")
      try Data(contents.utf8).write(to: url)
      let recorder = DiagnosticsRecorder()
      recorder.install()
      defer { recorder.uninstall() }
      DarkModeManager.setup(
        with: DMConfiguration(preferenceStore: DMPreferenceStore(fileURL: url)))
      #expect(DMTraitCollection.override == DMTraitCollection())
      #expect(recorder.all.count == 1)
      #expect(recorder.all.first?.kind == .preferenceFile)
      #expect(recorder.all.first?.message.hasPrefix(url.path) == true)
      #expect(try Data(contentsOf: url) == Data(contents.utf8))
      DMTraitCollection.setOverride(.light, animated: false)
      #expect(try DMPreferenceStore(fileURL: url).load() == .light)
    }
  }
}

/// A file's permission bits.
private func mode(of url: URL) throws -> mode_t {
  var status = stat()
  guard stat(url.path, &status) == 0 else { throw POSIXError(.ENOENT) }
  return status.st_mode & 0o7777
}
