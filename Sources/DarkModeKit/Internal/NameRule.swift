/// The rule for theme names and keys: ASCII letters, digits, `_`, `.` and `-`, starting with a
/// letter or `_`. Colour tables, theme variants and the preference store check names with it.
enum NameRule {
  /// The rule as error messages state it.
  static let text =
    "theme names and keys use ASCII letters, digits, \"_\", \".\" and \"-\", and start with a letter or \"_\""

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
