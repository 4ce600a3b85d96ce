import DarkModeKit
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Writes a command's output to the path given with `--output`, as other tools do: a regular file
/// is replaced atomically and keeps its permissions (through a symbolic link, the file it points
/// to), a FIFO or a character device (`/dev/stdout`, `/dev/null`, a terminal) is written through,
/// and anything else (a directory, a block device, a socket) is refused, never replaced.
enum OutputFile {
  /// Writes `text` to `path`.
  /// - Throws: `AtomicFileError` with the reason, in a sentence.
  static func write(_ text: String, to path: String) throws(AtomicFileError) {
    var status = stat()
    guard stat(path, &status) == 0 else {
      try AtomicFile.replaceContents(
        of: URL(fileURLWithPath: path), with: Data(text.utf8), createsFolder: false)
      return
    }
    switch status.st_mode & S_IFMT {
    case S_IFREG:
      try AtomicFile.replaceContents(
        of: URL(fileURLWithPath: path), with: Data(text.utf8), createsFolder: false)
    case S_IFIFO, S_IFCHR:
      try writeThrough(text, to: path)
    default:
      throw AtomicFileError(
        path: path, reason: "it is \(FileKind.name(of: status.st_mode)), not a regular file")
    }
  }

  private static func writeThrough(_ text: String, to path: String) throws(AtomicFileError) {
    // O_NONBLOCK: a FIFO that no program reads fails at once (ENXIO) instead of waiting for one.
    let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      let code = errno
      throw AtomicFileError(
        path: path,
        reason: code == ENXIO ? "no program is reading the FIFO" : String(cString: strerror(code)))
    }
    defer { close(descriptor) }
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    var failure: String?
    AtomicFile.writeAll(Data(text.utf8), to: descriptor, failure: &failure)
    if let failure { throw AtomicFileError(path: path, reason: failure) }
  }
}
