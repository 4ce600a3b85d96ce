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
  ///
  /// Output that cannot be written (a reader that went away with SIGPIPE ignored, a full disk, a
  /// closed descriptor) ends the program with status 1 and says why on standard error, if that
  /// can be written.
  static var process: Console {
    Console(
      standardOutput: { writeAll($0, to: STDOUT_FILENO) },
      standardError: { writeAll($0, to: STDERR_FILENO) },
      isTerminal: isatty(STDOUT_FILENO) == 1, environment: ProcessInfo.processInfo.environment)
  }

  private static func writeAll(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else {
          let reason = String(cString: strerror(errno))
          let name = descriptor == STDOUT_FILENO ? "standard output" : "standard error"
          if descriptor == STDOUT_FILENO {
            let message = "dmkit: error: cannot write to \(name): \(reason)\n"
            _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
          }
          exit(1)
        }
        offset += written
      }
    }
  }

  func out(_ text: String) { standardOutput(text) }
  func error(_ text: String) { standardError(text) }
}
