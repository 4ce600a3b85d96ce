import DarkModeKit
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Writes a command's output to the path given with `--output`, as other tools do:
///
/// - `-`, or any path to the file that is already standard output or standard error (such as
///   `/dev/stdout`, which a shell may have opened for appending), is written to that descriptor;
/// - a regular file is replaced atomically and keeps its permissions (through a symbolic link,
///   the file it points to);
/// - a FIFO or a character device (`/dev/null`, a terminal), and a link whose file cannot be
///   named (a link to nothing, a descriptor of a deleted file), is written through;
/// - anything else (a directory, a block device, a socket) is refused, never replaced.
enum OutputFile {
  /// Writes `text` to `path`.
  /// - Throws: `AtomicFileError` with the reason, in a sentence.
  static func write(_ text: String, to path: String) throws(AtomicFileError) {
    let data = Data(text.utf8)
    if path == "-" { return try writeAll(data, to: STDOUT_FILENO, path: path) }
    var status = stat()
    var linkStatus = stat()
    let isLink = lstat(path, &linkStatus) == 0 && linkStatus.st_mode & S_IFMT == S_IFLNK
    guard stat(path, &status) == 0 else {
      if isLink { return try writeThrough(data, to: path) }
      return try AtomicFile.replaceContents(of: URL(fileURLWithPath: path), with: data, createsFolder: false)
    }
    for descriptor in [STDOUT_FILENO, STDERR_FILENO] {
      var open = stat()
      if fstat(descriptor, &open) == 0, open.st_dev == status.st_dev, open.st_ino == status.st_ino {
        return try writeAll(data, to: descriptor, path: path)
      }
    }
    switch status.st_mode & S_IFMT {
    case S_IFREG where isLink && !canResolve(path):
      try writeThrough(data, to: path)
    case S_IFREG:
      try AtomicFile.replaceContents(of: URL(fileURLWithPath: path), with: data, createsFolder: false)
    case S_IFIFO, S_IFCHR:
      try writeThrough(data, to: path)
    default:
      throw AtomicFileError(
        path: path, reason: "it is \(FileKind.name(of: status.st_mode)), not a regular file")
    }
  }

  /// Whether the file a link leads to has a name that `realpath` can give.
  private static func canResolve(_ path: String) -> Bool {
    guard let resolved = realpath(path, nil) else { return false }
    free(resolved)
    return true
  }

  /// Opens `path` (following links, creating a missing file) and writes `data` into it.
  private static func writeThrough(_ data: Data, to path: String) throws(AtomicFileError) {
    // O_NONBLOCK: a FIFO that no program reads fails at once (ENXIO) instead of waiting for one.
    let descriptor = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      let code = errno
      throw AtomicFileError(
        path: path,
        reason: code == ENXIO ? "no program is reading the FIFO" : String(cString: strerror(code)))
    }
    defer { close(descriptor) }
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    var status = stat()
    if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG { _ = ftruncate(descriptor, 0) }
    try writeAll(data, to: descriptor, path: path)
  }

  private static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws(AtomicFileError) {
    var failure: String?
    AtomicFile.writeAll(data, to: descriptor, failure: &failure)
    if let failure { throw AtomicFileError(path: path, reason: failure) }
  }
}
