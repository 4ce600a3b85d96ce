import Foundation

/// Writes to standard output and standard error at once, unbuffered, so that output reaches pipes
/// and log files as it is produced.
enum Output {
  static func standard(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  static func error(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }
}
