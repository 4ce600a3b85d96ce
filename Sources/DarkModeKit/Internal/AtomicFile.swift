import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Replaces a file's contents all at once: a reader, or a process killed half-way, sees the old
/// contents or the new ones, never a mix.
enum AtomicFile {
  private static let counter = Locked<UInt64>(0)

  /// Writes `data` to a temporary file beside `url`, flushes it to disk, and renames it over `url`.
  /// - Throws: `AtomicFileError` naming the path and the system's reason.
  static func replaceContents(of url: URL, with data: Data) throws(AtomicFileError) {
    let directory = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw AtomicFileError(
        path: directory.path, reason: "cannot create the folder (\(error.localizedDescription))")
    }
    let serial = counter.withLock { value in
      value &+= 1
      return value
    }
    let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(serial).tmp")
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw AtomicFileError(path: url.path, reason: systemReason())
    }
    var failure: String?
    data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = systemReason()
          return
        }
        offset += written
      }
    }
    if failure == nil, fsync(descriptor) != 0 { failure = systemReason() }
    close(descriptor)
    if failure == nil, rename(temporary.path, url.path) != 0 { failure = systemReason() }
    if let failure {
      unlink(temporary.path)
      throw AtomicFileError(path: url.path, reason: failure)
    }
    let directoryDescriptor = open(directory.path, O_RDONLY | O_CLOEXEC)
    if directoryDescriptor >= 0 {
      fsync(directoryDescriptor)
      close(directoryDescriptor)
    }
  }

  private static func systemReason() -> String {
    String(cString: strerror(errno))
  }
}

/// A file that could not be written.
struct AtomicFileError: Error, CustomStringConvertible {
  let path: String
  let reason: String

  var description: String { "\(path): cannot write: \(reason)" }
}
