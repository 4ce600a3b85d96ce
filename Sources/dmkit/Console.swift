import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command writes, and what it knows of its terminal; tests give it one that records.
struct Console: Sendable {
  var standardOutput: @Sendable (String) -> Void
  var standardError: @Sendable (String) -> Void
  /// Whether standard output is a terminal.
  var isTerminal: Bool
  var environment: [String: String]

  /// The process's own: unbuffered writes, so output reaches pipes and logs as it is produced.
  static var process: Console {
    Console(
      standardOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
      standardError: { FileHandle.standardError.write(Data($0.utf8)) },
      isTerminal: isatty(STDOUT_FILENO) == 1, environment: ProcessInfo.processInfo.environment)
  }

  func out(_ text: String) { standardOutput(text) }
  func error(_ text: String) { standardError(text) }
}
