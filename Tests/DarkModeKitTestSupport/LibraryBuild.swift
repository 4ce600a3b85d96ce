import Foundation

/// The package's own build of DarkModeKit, as tests that compile Swift against it find it: the
/// folder of `DarkModeKit.swiftmodule` and the library's object files, next to the test binary, and
/// the `swiftc` that built them.
public enum LibraryBuild {
  /// The build's folder that holds `DarkModeKit.swiftmodule` (and the package's other modules), and
  /// the object files of the library and of `DarkModeKitText`, which it depends on.
  public static let found: (modules: URL, objects: [URL])? = {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let manager = FileManager.default
    for _ in 0..<5 {
      for modules in [folder.appendingPathComponent("Modules"), folder]
      where manager.fileExists(atPath: modules.appendingPathComponent("DarkModeKit.swiftmodule").path) {
        // The library's own objects and those of the module it depends on.
        let objects = ["DarkModeKit.build", "DarkModeKitText.build"].flatMap { name in
          let objectFolder = modules.deletingLastPathComponent().appendingPathComponent(name)
          return ((try? manager.contentsOfDirectory(atPath: objectFolder.path)) ?? [])
            .filter { $0.hasSuffix(".o") }.sorted().map { objectFolder.appendingPathComponent($0) }
        }
        if objects.contains(where: { $0.path.contains("/DarkModeKit.build/") }) { return (modules, objects) }
      }
      folder = folder.deletingLastPathComponent()
    }
    return nil
  }()

  /// The compiler on `PATH`, else where the toolchain is installed on this machine.
  public static let swiftc: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let candidates = path.split(separator: ":").map { "\($0)/swiftc" } + ["/opt/swift/usr/bin/swiftc"]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
  }()

  /// The library objects were built with the same sanitizer as this test process, if any; a
  /// program linked against them needs it too.
  public static let sanitizerFlags: [String] = {
    switch Sanitizer.current {
    case .thread: ["-sanitize=thread"]
    case .address: ["-sanitize=address"]
    case nil: []
    }
  }()

  /// Why Swift cannot be compiled against the build here, or `nil` when it can.
  public static var missing: String? {
    if swiftc == nil { return "swiftc is not on PATH" }
    if found == nil { return "no DarkModeKit.swiftmodule and object files next to the test binary" }
    return nil
  }
}
