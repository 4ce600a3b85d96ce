/// Text from outside (a file's contents, a path, a bus peer's error, an environment variable) as
/// a message shows it: every control, format and separator character written as `\u{1B}`, so that
/// nothing from outside reaches a terminal as a command (an escape sequence, a bidirectional
/// override, a line break that forges another `FILE:LINE:` line), and cut to a length.
package enum ShownText {
  /// `text` with control characters (C0, DEL, C1), format characters (bidirectional controls,
  /// zero-width characters) and line and paragraph separators written as `\u{…}`, and at most
  /// `limit` characters of it, then `…`; `nil` keeps all of it.
  package static func escaped(_ text: some StringProtocol, limit: Int? = nil) -> String {
    var shown = ""
    var count = 0
    for scalar in text.unicodeScalars {
      if let limit, count == limit { return shown + "…" }
      count += 1
      if needsEscaping(scalar) {
        shown += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      } else {
        shown.unicodeScalars.append(scalar)
      }
    }
    return shown
  }

  /// `"text"`, escaped and cut as ``escaped(_:limit:)`` does.
  package static func quoted(_ text: some StringProtocol, limit: Int? = 64) -> String {
    "\"\(escaped(text, limit: limit))\""
  }

  /// Whether a terminal could take `scalar` as anything but a character to show.
  @inline(__always)
  package static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value >= 0x20 && value < 0x7F { return false }
    if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator: return true
    default: return false
    }
  }
}
