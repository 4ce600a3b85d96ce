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
    var text = ""
    write(to: &text, indent: "", inline: false)
    return text + "\n"
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

  private func write(to text: inout String, indent: String, inline: Bool) {
    let inline = inline || isInline
    switch self {
    case .string(let value): text += Self.quoted(value)
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
        text += "[\n"
        for (index, element) in elements.enumerated() {
          text += indent + "  "
          element.write(to: &text, indent: indent + "  ", inline: false)
          text += index + 1 < elements.count ? ",\n" : "\n"
        }
        text += indent + "]"
      }
    case .object(let members):
      guard !members.isEmpty else { return text += "{}" }
      if inline {
        text += "{"
        for (index, (name, value)) in members.enumerated() {
          if index > 0 { text += ", " }
          text += Self.quoted(name) + ": "
          value.write(to: &text, indent: indent, inline: true)
        }
        text += "}"
      } else {
        text += "{\n"
        for (index, (name, value)) in members.enumerated() {
          text += indent + "  " + Self.quoted(name) + ": "
          value.write(to: &text, indent: indent + "  ", inline: false)
          text += index + 1 < members.count ? ",\n" : "\n"
        }
        text += indent + "}"
      }
    }
  }

  /// A JSON string literal.
  static func quoted(_ value: String) -> String {
    var result = "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value):
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
