import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal the demo takes over: raw keys, the alternate screen, no cursor; and back.
///
/// Raw here means no line editing and no echo; `ISIG` stays on, so Ctrl-C still raises SIGINT,
/// which the demo handles by restoring the terminal.
@MainActor
final class TerminalScreen {
  let input: Int32
  let output: Int32
  /// The settings to put back; `nil` when the terminal is not taken over.
  private var saved: termios?

  init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
    self.input = input
    self.output = output
  }

  /// Switches to raw keys and the alternate screen, and hides the cursor.
  /// - Returns: `false` when the terminal's settings cannot be read or changed.
  func enter() -> Bool {
    var settings = termios()
    guard tcgetattr(input, &settings) == 0 else { return false }
    var raw = settings
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
    withUnsafeMutableBytes(of: &raw.c_cc) { characters in
      characters[Int(VMIN)] = 1
      characters[Int(VTIME)] = 0
    }
    guard tcsetattr(input, TCSANOW, &raw) == 0 else { return false }
    saved = settings
    return write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
  }

  /// Puts the terminal back as it was: colours reset, cursor shown, the main screen, the saved
  /// settings. Safe to call more than once, and when ``enter()`` was not called.
  func restore() {
    guard var settings = saved else { return }
    saved = nil
    _ = write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
    _ = tcsetattr(input, TCSANOW, &settings)
  }

  /// The terminal's size in cells; 80×24 when it does not say.
  var size: (width: Int, height: Int) {
    var window = winsize()
    guard ioctl(output, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else {
      return (80, 24)
    }
    return (Int(window.ws_col), Int(window.ws_row))
  }

  /// Writes all of `text`.
  /// - Returns: `false` when the terminal cannot be written to (it went away).
  func write(_ text: String) -> Bool {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { buffer in
        #if canImport(Darwin)
          Darwin.write(output, buffer.baseAddress, buffer.count)
        #else
          Glibc.write(output, buffer.baseAddress, buffer.count)
        #endif
      }
      if written < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        return false
      }
      bytes = bytes.dropFirst(written)
    }
    return true
  }
}
