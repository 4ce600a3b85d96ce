import DarkModeKit
import Foundation

/// Loading the colour table a command was given, with errors in the `FILE:LINE:COLUMN: error:`
/// form that `lint` uses.
enum TableLoading {
  /// The table at `path`, or `nil` after printing the problem to standard error.
  static func load(_ path: String, console: Console) -> DMColorTable? {
    do {
      return try DMColorTable(contentsOf: URL(fileURLWithPath: path))
    } catch {
      let shownPath = ShownText.escaped(path)
      let place = error.line > 0 ? "\(shownPath):\(error.line):\(error.column)" : shownPath
      console.error("\(place): error: \(error.message)\n")
      return nil
    }
  }
}
