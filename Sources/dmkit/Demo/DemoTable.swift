import DarkModeKit
import Foundation

/// The colour table the demo shows, and its name: a file given on the command line, else the
/// bundled `Docs/Examples/Palette.txt`, else the copy of it built into `dmkit`.
struct DemoTable: Sendable {
  let table: DMColorTable
  /// What the title bar calls it: the file's name, with "(built in)" for the embedded copy.
  let name: String

  /// The bundled palette: the file when it can be found and read, else the embedded copy.
  static func bundled() -> DemoTable {
    if let url = bundledPaletteURL(), let table = try? DMColorTable(contentsOf: url) {
      return DemoTable(table: table, name: url.lastPathComponent)
    }
    return builtIn
  }

  /// The embedded copy of `Docs/Examples/Palette.txt`.
  static var builtIn: DemoTable {
    // The embedded text is checked by a test, so it always parses.
    DemoTable(table: try! DMColorTable(string: BundledPalette.text), name: "Palette.txt (built in)")
  }

  /// `Docs/Examples/Palette.txt` under the current directory, or next to the executable or one of
  /// its parent directories (as in a checkout: `.build/debug/dmkit`), or in `share/dmkit`
  /// beside the `bin` directory of an installed copy.
  static func bundledPaletteURL(
    currentDirectory: String = FileManager.default.currentDirectoryPath,
    executable: URL? = Bundle.main.executableURL
  ) -> URL? {
    var candidates = [
      URL(fileURLWithPath: currentDirectory).appendingPathComponent("Docs/Examples/Palette.txt")
    ]
    if var folder = executable?.resolvingSymlinksInPath().deletingLastPathComponent() {
      candidates.append(folder.appendingPathComponent("../share/dmkit/Palette.txt").standardizedFileURL)
      for _ in 0..<5 {
        candidates.append(folder.appendingPathComponent("Docs/Examples/Palette.txt"))
        folder = folder.deletingLastPathComponent()
      }
    }
    return candidates.first { FileManager.default.isReadableFile(atPath: $0.path) }
  }
}
