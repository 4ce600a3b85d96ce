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
///
/// A file that exists keeps its permissions. A symbolic link is followed: the file it points to is
/// replaced, and the link stays. Anything else at the path (a directory, a FIFO, a device) is
/// refused, never replaced.
package enum AtomicFile {
  private static let counter = Locked<UInt64>(0)

  /// Writes `data` to a temporary file beside `url`, flushes it to disk, and renames it over `url`.
  /// - Parameters:
  ///   - url: The file to replace (or create).
  ///   - data: Its new contents.
  ///   - createsFolder: Whether to create the file's folder (and its parents) when it is missing.
  /// - Throws: `AtomicFileError` naming the path and the system's reason.
  package static func replaceContents(
    of url: URL, with data: Data, createsFolder: Bool = true
  ) throws(AtomicFileError) {
    let (url, mode) = try target(of: url)
    let directory = url.deletingLastPathComponent()
    if createsFolder {
      do {
        // 0700, as the XDG base directory specification asks of a folder made to hold a file.
        try FileManager.default.createDirectory(
          at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      } catch {
        throw AtomicFileError(
          path: directory.path, reason: "cannot create the folder (\(error.localizedDescription))")
      }
    }
    removeStaleTemporaryFiles(of: url)
    let serial = counter.withLock { value in
      value &+= 1
      return value
    }
    let temporary = directory.appendingPathComponent(".\(temporaryPrefix(of: url))\(getpid()).\(serial).tmp")
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw AtomicFileError(path: url.path, reason: systemReason())
    }
    var failure: String?
    if let mode, fchmod(descriptor, mode) != 0 { failure = systemReason() }
    if failure == nil {
      writeAll(data, to: descriptor, failure: &failure)
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

  /// The file to replace (the one a symbolic link points to), and the permissions it has, if any.
  ///
  /// A link whose file cannot be named (a link to nothing, a descriptor of a deleted file) is
  /// refused: renaming over it would replace the link.
  private static func target(of url: URL) throws(AtomicFileError) -> (URL, mode_t?) {
    var url = url
    var status = stat()
    if lstat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK {
      guard let resolved = realpath(url.path, nil) else {
        throw AtomicFileError(
          path: url.path, reason: "it is a symbolic link to a file that cannot be named (\(systemReason()))")
      }
      url = URL(fileURLWithPath: String(cString: resolved))
      free(resolved)
    }
    guard stat(url.path, &status) == 0 else { return (url, nil) }
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw AtomicFileError(
        path: url.path, reason: "it is \(FileKind.name(of: status.st_mode)), not a regular file")
    }
    return (url, status.st_mode & 0o7777)
  }

  /// The start of the names of `url`'s temporary files: its name, cut to 200 bytes so that the
  /// temporary name stays within the 255 bytes a file name may have, then a dot.
  private static func temporaryPrefix(of url: URL) -> String {
    var name = Substring(url.lastPathComponent)
    while name.utf8.count > 200 { name = name.dropLast() }
    return name + "."
  }

  /// Writes all of `data`, or sets `failure`.
  package static func writeAll(_ data: Data, to descriptor: Int32, failure: inout String?) {
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
  }

  /// Removes the files `.<name>.<pid>.<serial>.tmp` beside `url` whose process no longer runs.
  ///
  /// Files of this process and of running processes are kept: they may be writes in progress. A
  /// process in another PID namespace sharing the folder looks dead; at worst its write in progress
  /// then fails with an error and the old file stays.
  static func removeStaleTemporaryFiles(of url: URL) {
    let directory = url.deletingLastPathComponent()
    let prefix = ".\(temporaryPrefix(of: url))"
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
package struct AtomicFileError: Error, CustomStringConvertible {
  package let path: String
  package let reason: String

  package init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  package var description: String { "\(path): cannot write: \(reason)" }
}
