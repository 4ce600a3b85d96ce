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
///
/// A process killed half-way leaves its temporary file behind; the next write into the same folder
/// removes the temporary files of processes that no longer run, so at most one killed write's file
/// is ever left.
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
    removeStaleTemporaryFiles(of: url)
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

  /// Removes the files `.<name>.<pid>.<serial>.tmp` beside `url` whose process no longer runs.
  ///
  /// Files of this process and of running processes are kept: they may be writes in progress. A
  /// process in another PID namespace sharing the folder looks dead; at worst its write in progress
  /// then fails with an error and the old file stays.
  static func removeStaleTemporaryFiles(of url: URL) {
    let directory = url.deletingLastPathComponent()
    let prefix = ".\(url.lastPathComponent)."
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
    let ownPID = getpid()
    for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
      let middle = name.dropFirst(prefix.count).dropLast(".tmp".count).split(
        separator: ".", omittingEmptySubsequences: false)
      guard middle.count == 2, let pid = pid_t(middle[0]), pid > 0, pid != ownPID, UInt64(middle[1]) != nil
      else { continue }
      // ESRCH: no such process. EPERM means it runs under another user, so it is kept.
      if kill(pid, 0) != 0 && errno == ESRCH {
        unlink(directory.appendingPathComponent(name).path)
      }
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
