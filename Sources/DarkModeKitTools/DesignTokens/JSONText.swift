/// JSON to write, built in the order it is written: a design-tokens export.
indirect enum JSONText {
  case object([(String, JSONText)])
  case array([JSONText])
  case string(String)
  /// A number as it is written, such as `0.5333`.
  case number(String)

  /// The text, two spaces per level; a token (an object with a `$value`), a colour value and an
  /// array of numbers stay on one line each.
  func rendered() -> String {
    rendered(limit: .max) ?? ""
  }

  /// The text as ``rendered()`` writes it, when it comes to at most `limit` bytes; `nil` once it
  /// passes them (the writing stops there).
  func rendered(limit: Int) -> String? {
    var text = ""
    write(to: &text, indent: "", inline: false, limit: limit)
    guard text.utf8.count < limit else { return nil }
    return text + "\n"
  }

  /// The fewest bytes this value takes once written: its strings and numbers, their quotes, and
  /// a byte between members.
  var leastSize: Int {
    switch self {
    case .string(let value): value.utf8.count + 2
    case .number(let value): value.utf8.count
    case .array(let elements): elements.reduce(2) { $0 + $1.leastSize + 1 }
    case .object(let members): members.reduce(2) { $0 + $1.0.utf8.count + 4 + $1.1.leastSize }
    }
  }

  private var isInline: Bool {
    switch self {
    case .object(let members): members.contains { $0.0 == "$value" || $0.0 == "colorSpace" }
    case .array(let elements):
      elements.allSatisfy {
        if case .number = $0 { true } else { false }
      }
    case .string, .number: true
    }
  }

  /// Writes the value; a value on lines of its own stops at a member or element that starts past
  /// `limit` bytes.
  private func write(to text: inout String, indent: String, inline: Bool, limit: Int = .max) {
    let inline = inline || isInline
    switch self {
    case .string(let value): Self.quote(value, into: &text)
    case .number(let value): text += value
    case .array(let elements):
      guard !elements.isEmpty else { return text += "[]" }
      if inline {
        text += "["
        for (index, element) in elements.enumerated() {
          if index > 0 { text += ", " }
          element.write(to: &text, indent: indent, inline: true)
        }
        text += "]"
      } else {
        let inner = indent + "  "
        text += "[\n"
        for (index, element) in elements.enumerated() {
          guard text.utf8.count <= limit else { return }
          text += inner
          element.write(to: &text, indent: inner, inline: false, limit: limit)
          text += index + 1 < elements.count ? ",\n" : "\n"
        }
        text += indent
        text += "]"
      }
    case .object(let members):
      guard !members.isEmpty else { return text += "{}" }
      if inline {
        text += "{"
        for (index, (name, value)) in members.enumerated() {
          if index > 0 { text += ", " }
          Self.quote(name, into: &text)
          text += ": "
          value.write(to: &text, indent: indent, inline: true)
        }
        text += "}"
      } else {
        let inner = indent + "  "
        text += "{\n"
        for (index, (name, value)) in members.enumerated() {
          guard text.utf8.count <= limit else { return }
          text += inner
          Self.quote(name, into: &text)
          text += ": "
          value.write(to: &text, indent: inner, inline: false, limit: limit)
          text += index + 1 < members.count ? ",\n" : "\n"
        }
        text += indent
        text += "}"
      }
    }
  }

  /// Appends `value` to `text` as a JSON string literal; a value of printable ASCII without
  /// quotes or backslashes, as most names are, is appended at once.
  static func quote(_ value: String, into text: inout String) {
    text += "\""
    let plain = value.utf8.allSatisfy {
      $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
    }
    guard !plain else {
      text += value
      text += "\""
      return
    }
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      // Controls, and what would change how the file reads without showing: line and paragraph
      // separators, bidirectional controls and other formatting characters (U+202E, U+200B).
      case _
      where scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
        || scalar.properties.generalCategory == .format || scalar == "\u{2028}" || scalar == "\u{2029}":
        // Formatting characters beyond the first plane are written as their surrogate pair.
        for unit in String(scalar).utf16 {
          let hex = String(unit, radix: 16)
          text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
      default: text.unicodeScalars.append(scalar)
      }
    }
    text += "\""
  }
}
