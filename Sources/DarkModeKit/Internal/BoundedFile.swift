import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a whole file that came from outside, within a size limit, and only if it is a regular
/// file: a FIFO without a writer would block for ever, and a device such as `/dev/zero` never
/// ends.
package enum BoundedFile {
  /// Why a file could not be read, as the end of a sentence: `it is a directory`.
  package struct Failure: Error {
    package let reason: String
    /// Whether there is no file at the path.
    package var isMissing = false
  }

  /// The bytes of the file at `path`, at most `limit` of them.
  /// - Throws: ``Failure`` when the file cannot be opened or read, is not a regular file, or is
  ///   larger than `limit`.
  package static func contents(ofPath path: String, limit: Int) throws(Failure) -> [UInt8] {
    // Refused before it is opened: opening some devices does something (rewinds a tape, arms a
    // watchdog). Checked again once open, as the path may have changed in between.
    var named = stat()
    if stat(path, &named) == 0, named.st_mode & S_IFMT != S_IFREG {
      throw Failure(reason: "it is \(FileKind.name(of: named.st_mode)), not a regular file")
    }
    // O_NONBLOCK: opening a FIFO for reading does not wait for a writer (it is refused below).
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else {
      let code = errno
      throw Failure(reason: String(cString: strerror(code)), isMissing: code == ENOENT)
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw Failure(reason: systemReason()) }
    let type = status.st_mode & S_IFMT
    guard type == S_IFREG else {
      throw Failure(reason: "it is \(FileKind.name(of: type)), not a regular file")
    }
    guard Int(status.st_size) <= limit else { throw tooLarge(limit) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Int(status.st_size))
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count > 0 {
        // The file may have grown since `fstat`.
        guard bytes.count + count <= limit else { throw tooLarge(limit) }
        bytes.append(contentsOf: chunk[0..<count])
      } else if count == 0 {
        return bytes
      } else if errno != EINTR {
        throw Failure(reason: systemReason())
      }
    }
  }

  private static func tooLarge(_ limit: Int) -> Failure {
    Failure(reason: "it is larger than the limit of \(size(limit))")
  }

  /// `64 MiB`, `512 KiB`, `100 bytes`.
  package static func size(_ bytes: Int) -> String {
    if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
    return bytes == 1 ? "1 byte" : "\(bytes) bytes"
  }

  private static func systemReason() -> String {
    String(cString: strerror(errno))
  }
}

/// What kind of file a mode says it is, for messages.
package enum FileKind {
  /// `a directory`, `a FIFO`, `a character device`, …
  package static func name(of mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFREG: "a regular file"
    case S_IFDIR: "a directory"
    case S_IFIFO: "a FIFO"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    case S_IFLNK: "a symbolic link"
    default: "a special file"
    }
  }
}
