import DarkModeKit

/// Finds a terminal's reports in what it sends: its colour scheme (`ESC [ ? 997 ; 1 n` dark,
/// `; 2 n` light, the answer to `ESC [ ? 996 n` and, with DEC mode 2031 on, the announcement of
/// each change), its background (an OSC 11 reply) and its device attributes (`ESC [ ? … c`).
/// Everything else, such as keys, passes through unchanged, in order.
///
/// It keeps at most one unfinished sequence, cut at ``maximumSequenceLength`` bytes, so a terminal
/// that never ends one cannot make it grow.
struct TerminalReports {
  enum Report: Equatable {
    /// The terminal's colour scheme.
    case colorScheme(DMUserInterfaceStyle)
    /// An OSC 11 reply, from its `ESC` to its terminator.
    case background([UInt8])
    /// A primary device attributes reply.
    case deviceAttributes

    /// The colour scheme a colour-scheme report gives; `nil` for another report.
    var scheme: DMUserInterfaceStyle? {
      if case .colorScheme(let style) = self { style } else { nil }
    }

    /// The bytes of an OSC 11 reply; `nil` for another report.
    var backgroundReply: [UInt8]? {
      if case .background(let bytes) = self { bytes } else { nil }
    }
  }

  /// The longest sequence kept while it is unfinished; longer ones pass through as they are.
  static let maximumSequenceLength = 256

  /// Asks for the colour scheme, then the device attributes that every terminal answers, so that
  /// a terminal without the colour-scheme report is known at once.
  static let colorSchemeQuery: [UInt8] = Array("\u{1B}[?996n\u{1B}[c".utf8)
  /// Turns on DEC mode 2031: the terminal announces each change of its colour scheme.
  static let enableNotifications: [UInt8] = Array("\u{1B}[?2031h".utf8)
  /// Turns DEC mode 2031 off again.
  static let disableNotifications: [UInt8] = Array("\u{1B}[?2031l".utf8)
  /// Asks for the background colour, ended by BEL (see `TerminalQuery.request`).
  static let backgroundQuery: [UInt8] = Array("\u{1B}]11;?\u{07}".utf8)

  private var pending: [UInt8] = []

  /// The unfinished sequence, for a reader that stops, as input to give back (a lone Esc key, a
  /// key whose sequence was split); empty when it is the start of a terminal's reply (`ESC ]`,
  /// `ESC [ ?`), which must not reach the program as typed text.
  var unfinishedInput: [UInt8] {
    guard pending.count >= 2 else { return pending }
    let isReply =
      pending[1] == UInt8(ascii: "]")
      || (pending[1] == UInt8(ascii: "[") && (pending.count == 2 || pending[2] == UInt8(ascii: "?")))
    return isReply ? [] : pending
  }

  /// Takes the next bytes; returns the reports they completed and the bytes that are not part of
  /// one.
  mutating func scan(_ bytes: some Sequence<UInt8>) -> (reports: [Report], passed: [UInt8]) {
    var reports: [Report] = []
    var passed: [UInt8] = []
    for byte in bytes { feed(byte, &reports, &passed) }
    return (reports, passed)
  }

  private mutating func feed(_ byte: UInt8, _ reports: inout [Report], _ passed: inout [UInt8]) {
    if pending.isEmpty {
      if byte == 0x1B { pending.append(byte) } else { passed.append(byte) }
      return
    }
    pending.append(byte)
    switch classify(pending) {
    case .incomplete:
      if pending.count > Self.maximumSequenceLength {
        passed += pending
        pending.removeAll(keepingCapacity: true)
      }
    case .report(let report):
      reports.append(report)
      pending.removeAll(keepingCapacity: true)
    case .other:
      // Not ours: give it back, but a new ESC starts a sequence of its own.
      if byte == 0x1B {
        passed += pending.dropLast()
        pending = [0x1B]
      } else {
        passed += pending
        pending.removeAll(keepingCapacity: true)
      }
    case .interrupted:
      // An OSC 11 ended by a bare ESC, as urxvt 9.31 and later end their reply: the reply, then
      // the ESC and this byte as a sequence of their own.
      reports.append(.background(Array(pending.dropLast())))
      // The ESC ended the reply. An ESC, `[` or `]` after it starts the next sequence with it (a
      // reply that follows, such as the device attributes); any other byte is input of its own
      // (not Alt and that key).
      switch byte {
      case 0x1B:
        pending = [0x1B]
      case UInt8(ascii: "["), UInt8(ascii: "]"):
        pending = [0x1B]
        feed(byte, &reports, &passed)
      default:
        pending.removeAll(keepingCapacity: true)
        feed(byte, &reports, &passed)
      }
    }
  }

  private enum Match {
    case incomplete
    case report(Report)
    case other
    /// An OSC 11 that an ESC not followed by `\` ended before this byte.
    case interrupted
  }

  private static let csiQuestion: [UInt8] = [0x1B, 0x5B, 0x3F]  // ESC [ ?
  private static let osc11: [UInt8] = [0x1B, 0x5D, 0x31, 0x31, 0x3B]  // ESC ] 1 1 ;

  /// What a sequence that starts with ESC is so far.
  private func classify(_ sequence: [UInt8]) -> Match {
    if Self.osc11.starts(with: sequence) { return .incomplete }
    if sequence.starts(with: Self.osc11) {
      let last = sequence[sequence.count - 1]
      let previous = sequence[sequence.count - 2]
      // Ended by BEL, ST (`ESC \`) or the 8-bit ST; abandoned on CAN or SUB.
      if last == 0x07 || last == 0x9C || (last == 0x5C && previous == 0x1B) {
        return .report(.background(sequence))
      }
      if last == 0x18 || last == 0x1A { return .other }
      if previous == 0x1B && sequence.count > Self.osc11.count + 1 { return .interrupted }
      return .incomplete
    }
    if Self.csiQuestion.starts(with: sequence) { return .incomplete }
    guard sequence.starts(with: Self.csiQuestion) else { return .other }
    let body = sequence[3...]
    let last = body[body.index(before: body.endIndex)]
    let isParameter = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(last) || last == UInt8(ascii: ";")
    if isParameter { return .incomplete }
    let parameters = body.dropLast()
    switch last {
    case UInt8(ascii: "c"):
      return .report(.deviceAttributes)
    case UInt8(ascii: "n") where parameters.elementsEqual("997;1".utf8):
      return .report(.colorScheme(.dark))
    case UInt8(ascii: "n") where parameters.elementsEqual("997;2".utf8):
      return .report(.colorScheme(.light))
    default:
      return .other
    }
  }
}
