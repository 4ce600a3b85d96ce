import Foundation

/// Writes to the process's standard error without going through shared C `FILE` state.
package enum StandardError {
  /// Writes `text` as UTF-8.
  package static func write(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }
}
