import DarkModeKitText

/// The rule for theme names: ASCII letters, digits, `_`, `.` and `-`, starting with a
/// letter or `_`. Colour tables, theme variants and the preference store check names with it.
enum NameRule {
  /// The rule as error messages state it.
  static let text =
    "theme names use ASCII letters, digits, \"_\", \".\" and \"-\", and start with a letter or \"_\""

  /// Why `name`'s UTF-8 bytes break the rule, or `nil` when they keep it; the character at fault
  /// is escaped.
  /// - Parameters:
  ///   - name: The name's UTF-8 bytes.
  ///   - noun: What the name is, for the message: `theme name`, `key`.
  /// - Returns: The reason, such as `"2" cannot start a theme name`, or `nil` for a good name.
  static func problem(_ name: ArraySlice<UInt8>, noun: String) -> String? {
    guard !name.isEmpty else { return "a \(noun) cannot be empty" }
    var index = name.startIndex
    while index < name.endIndex {
      let byte = name[index]
      let isLetter =
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "_")
      let isOther =
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
        || byte == UInt8(ascii: "-")
      if index == name.startIndex ? !isLetter : !(isLetter || isOther) {
        var end = index + 1
        while end < name.endIndex, name[end] & 0xC0 == 0x80 { end += 1 }
        let character = ShownText.escaped(String(decoding: name[index..<end], as: UTF8.self))
        return index == name.startIndex
          ? "\"\(character)\" cannot start a \(noun)" : "\"\(character)\" is not allowed in a \(noun)"
      }
      index += 1
    }
    return nil
  }
}

/// The rule for keys, as DKNightVersion reads them: a key is the run of characters after a row's
/// colours up to the next space or tab, whatever those characters are (`BG`, `Text.Primary`,
/// `所有背景视图的默认颜色`, `1st-line`), but for spaces of any kind and control and formatting
/// characters (a bidirectional override, a zero-width space), which no key holds: they would
/// make a key that reads as another in a message, a terminal or generated code.
package enum KeyRule {
  /// The rule as error messages state it.
  package static let text =
    "a key is any run of characters other than spaces and control or formatting characters"

  /// Why `key`'s UTF-8 bytes break the rule, or `nil` when they keep it; the character at fault
  /// is escaped.
  package static func problem(_ key: ArraySlice<UInt8>) -> String? {
    guard !key.isEmpty else { return "a key cannot be empty" }
    for scalar in String(decoding: key, as: UTF8.self).unicodeScalars where !isAllowed(scalar) {
      return "\(ShownText.quoted(String(scalar))) is not allowed in a key"
    }
    return nil
  }

  /// Whether `key` can be a key of a table's row: not empty, every character allowed, not
  /// starting as a colour does (`#`, `0x`), and without `//`, which starts a comment.
  package static func isKey(_ key: String) -> Bool {
    !key.isEmpty && key.unicodeScalars.allSatisfy(isAllowed) && !key.hasPrefix("#")
      && !key.lowercased().hasPrefix("0x") && !key.contains("//")
  }

  /// Any character but a space or a separator of any kind (Unicode's Z categories, the no-break
  /// space among them), a control character (C0, DEL, C1) and a formatting one (Cf: bidirectional
  /// controls, zero-width spaces, the byte-order mark).
  package static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .surrogate:
      false
    default: true
    }
  }
}
