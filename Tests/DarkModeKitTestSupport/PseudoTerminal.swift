import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A pseudo-terminal: the program under test uses `terminal`; the test plays the terminal
/// emulator on `emulator`.
public final class PseudoTerminal: @unchecked Sendable {
  // Safe: the descriptors are set once in init and only passed to thread-safe system calls.
  /// The emulator's end: what the program writes is read here, and what is written here it reads.
  public let emulator: Int32
  /// The terminal's end, which the program under test reads and writes.
  public let terminal: Int32

  /// Opens a new pseudo-terminal.
  public init() throws {
    (emulator, terminal) = try openPseudoTerminal()
  }

  deinit {
    close(terminal)
    close(emulator)
  }

  /// Reads what the program wrote, waiting up to a second for `count` bytes.
  public func readFromProgram(atLeast count: Int) -> [UInt8] {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 256)
    let deadline = Date().addingTimeInterval(1)
    while received.count < count && Date() < deadline {
      var descriptor = pollfd(fd: emulator, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, 50) > 0 else { continue }
      let got = read(emulator, &buffer, buffer.count)
      if got > 0 { received.append(contentsOf: buffer[0..<got]) }
    }
    return received
  }

  /// Writes `text` as the terminal emulator would: the program reads it.
  public func sendToProgram(_ text: String) {
    sendToProgram(Array(text.utf8))
  }

  /// Writes `bytes` as the terminal emulator would, all of them, waiting while the program's input
  /// is full.
  public func sendToProgram(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { write(emulator, $0.baseAddress, $0.count) }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return }
      offset += written
    }
  }

  /// The terminal's current settings.
  public var settings: termios {
    var value = termios()
    tcgetattr(terminal, &value)
    return value
  }
}

/// Runs a terminal query on another thread while the test answers as the emulator.

/// Opens a pseudo-terminal: the emulator's end and the terminal's end, both without making it the
/// controlling terminal.
func openPseudoTerminal() throws -> (emulator: Int32, terminal: Int32) {
  // posix_openpt and friends are not visible from Swift's Glibc module; these are the Linux
  // ioctls they use (TIOCSPTLCK to unlock, TIOCGPTN for the terminal's number).
  let emulator = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
  guard emulator >= 0 else { throw POSIXError(.ENOTTY) }
  var unlock: Int32 = 0
  var number: UInt32 = 0
  guard ioctl(emulator, 0x4004_5431, &unlock) == 0, ioctl(emulator, 0x8004_5430, &number) == 0 else {
    close(emulator)
    throw POSIXError(.ENOTTY)
  }
  let terminal = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
  guard terminal >= 0 else {
    close(emulator)
    throw POSIXError(.ENOTTY)
  }
  return (emulator, terminal)
}
