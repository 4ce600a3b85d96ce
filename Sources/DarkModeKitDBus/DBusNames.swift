import DarkModeKitText

/// Validation of the names and strings the D-Bus specification restricts.
enum DBusNames {
  /// Returns a reason when `path` is not a valid object path, else `nil`.
  static func objectPathProblem(_ path: String) -> String? {
    let bytes = Array(path.utf8)
    guard bytes.first == UInt8(ascii: "/") else {
      return "object path \(ShownText.quoted(path)) does not start with \"/\""
    }
    if bytes.count == 1 { return nil }
    guard bytes.last != UInt8(ascii: "/") else {
      return "object path \(ShownText.quoted(path)) ends with \"/\""
    }
    var previousWasSlash = false
    for byte in bytes {
      if byte == UInt8(ascii: "/") {
        if previousWasSlash { return "object path \(ShownText.quoted(path)) has an empty element" }
        previousWasSlash = true
      } else {
        guard isNameCharacter(byte) else {
          return "object path \(ShownText.quoted(path)) contains a character other than [A-Za-z0-9_/]"
        }
        previousWasSlash = false
      }
    }
    return nil
  }

  /// Returns a reason when `name` is not a valid interface or error name, else `nil`.
  static func interfaceProblem(_ name: String, kind: String = "interface name") -> String? {
    let elements = name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard name.utf8.count <= 255 else { return "\(kind) \(ShownText.quoted(name)) is longer than 255 bytes" }
    guard elements.count >= 2 else { return "\(kind) \(ShownText.quoted(name)) needs at least two elements" }
    for element in elements {
      guard let first = element.first else { return "\(kind) \(ShownText.quoted(name)) has an empty element" }
      guard !isDigit(first), element.allSatisfy(isNameCharacter) else {
        return
          "\(kind) \(ShownText.quoted(name)) has an invalid element \(ShownText.quoted(String(decoding: element, as: UTF8.self)))"
      }
    }
    return nil
  }

  /// Returns a reason when `name` is not a valid member name, else `nil`.
  static func memberProblem(_ name: String) -> String? {
    let bytes = Array(name.utf8)
    guard let first = bytes.first else { return "member name is empty" }
    guard bytes.count <= 255 else { return "member name \(ShownText.quoted(name)) is longer than 255 bytes" }
    guard !isDigit(first), bytes.allSatisfy(isNameCharacter) else {
      return "member name \(ShownText.quoted(name)) must be [A-Za-z_][A-Za-z0-9_]*"
    }
    return nil
  }

  /// Returns a reason when `name` is not a valid unique or well-known bus name, else `nil`.
  static func busNameProblem(_ name: String) -> String? {
    let bytes = Array(name.utf8)
    guard bytes.count <= 255 else { return "bus name \(ShownText.quoted(name)) is longer than 255 bytes" }
    let unique = bytes.first == UInt8(ascii: ":")
    let body = unique ? bytes.dropFirst() : bytes[...]
    let elements = body.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard elements.count >= 2 else { return "bus name \(ShownText.quoted(name)) needs at least two elements" }
    for element in elements {
      guard let first = element.first else {
        return "bus name \(ShownText.quoted(name)) has an empty element"
      }
      let valid = element.allSatisfy { isNameCharacter($0) || $0 == UInt8(ascii: "-") }
      guard valid, unique || !isDigit(first) else {
        return
          "bus name \(ShownText.quoted(name)) has an invalid element \(ShownText.quoted(String(decoding: element, as: UTF8.self)))"
      }
    }
    return nil
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private static func isNameCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
      true
    default: false
    }
  }
}

/// Decodes `bytes` as strict UTF-8, returning `nil` for any invalid or overlong sequence.
func validatedUTF8<Bytes: Collection>(_ bytes: Bytes) -> String? where Bytes.Element == UInt8 {
  var iterator = bytes.makeIterator()
  var decoder = UTF8()
  var scalars = String.UnicodeScalarView()
  while true {
    switch decoder.decode(&iterator) {
    case .scalarValue(let scalar): scalars.append(scalar)
    case .emptyInput: return String(scalars)
    case .error: return nil
    }
  }
}
