/// Turns the bytes typed in a raw terminal into the demo's keys, skipping escape sequences (arrow
/// keys, and late replies to terminal queries) so that their letters are not taken for keys.
struct KeyReader: Sendable {
  enum Key: Equatable, Sendable {
    case light
    case dark
    case system
    case nextTheme
    case quit
  }

  private enum State {
    case text
    case escape
    case controlSequence
    case operatingSystemCommand
    case operatingSystemCommandEscape
    case singleShift
  }

  private var state = State.text

  /// The keys in a run of bytes, in order; other bytes are ignored.
  mutating func keys(in bytes: some Sequence<UInt8>) -> [Key] {
    var keys: [Key] = []
    for byte in bytes {
      if let key = key(for: byte) { keys.append(key) }
    }
    return keys
  }

  private mutating func key(for byte: UInt8) -> Key? {
    switch state {
    case .text:
      switch byte {
      case 0x1B: state = .escape
      case UInt8(ascii: "l"): return .light
      case UInt8(ascii: "d"): return .dark
      case UInt8(ascii: "s"): return .system
      case UInt8(ascii: "t"): return .nextTheme
      // Ctrl-C and Ctrl-D, for a terminal that does not turn them into signals or end of input.
      case UInt8(ascii: "q"), 0x03, 0x04: return .quit
      default: break
      }
    case .escape:
      switch byte {
      case UInt8(ascii: "["): state = .controlSequence
      case UInt8(ascii: "]"): state = .operatingSystemCommand
      case UInt8(ascii: "O"): state = .singleShift
      case 0x1B: break
      default: state = .text
      }
    case .controlSequence:
      if (0x40...0x7E).contains(byte) { state = .text }
    case .operatingSystemCommand:
      if byte == 0x07 { state = .text } else if byte == 0x1B { state = .operatingSystemCommandEscape }
    case .operatingSystemCommandEscape:
      state = byte == UInt8(ascii: "\\") ? .text : .operatingSystemCommand
    case .singleShift:
      state = .text
    }
    return nil
  }
}
