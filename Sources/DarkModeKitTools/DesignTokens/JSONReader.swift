import DarkModeKit
import DarkModeKitText
import Foundation

/// A place in a text: a 1-based line, and a 1-based column counted in Unicode scalars.
struct TextPlace: Hashable, Sendable {
  var line: Int
  var column: Int
  /// Which file: 0 for the document read, else one that it names (see `TokenReading`).
  var file = 0
}

/// Text compared scalar by scalar, as JSON compares member names: Swift's `==` takes text that is
/// canonically equivalent (`é`, and `e` followed by a combining acute accent) for the same text.
struct ExactText: Hashable, Sendable {
  var text: String

  init(_ text: String) { self.text = text }

  static func == (lhs: Self, rhs: Self) -> Bool {
    var left = lhs.text
    var right = rhs.text
    return left.withUTF8 { left in
      right.withUTF8 { right in
        left.count == right.count
          && (left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
      }
    }
  }

  func hash(into hasher: inout Hasher) {
    var text = text
    text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}

/// A JSON value as a design-tokens file holds it, with the place where it starts; objects keep
/// their members in file order.
struct JSONNode: Sendable {
  enum Value: Sendable {
    case object([Member])
    case array([JSONNode])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
  }

  /// One member of an object: its name, where the name starts, and its value.
  struct Member: Sendable {
    var name: String
    var place: TextPlace
    var value: JSONNode
  }

  /// Where each member of a large object is, by name, so that finding one does not read them all.
  final class MemberIndex: Sendable {
    let positions: [ExactText: Int]
    init(_ positions: [ExactText: Int]) { self.positions = positions }
  }

  var value: Value
  var place: TextPlace
  /// For an object of more than ``JSONReader/indexedMembers`` members.
  var index: MemberIndex? = nil

  /// The members, for an object.
  var members: [Member]? {
    if case .object(let members) = value { members } else { nil }
  }

  /// The member or the element (by its index) that one part of a JSON Pointer names, if any.
  func child(atPointerPart part: String) -> JSONNode? {
    switch value {
    case .object: self[part]
    case .array(let items): JSONPointer.index(part).flatMap { items.indices.contains($0) ? items[$0] : nil }
    default: nil
    }
  }

  /// The value of the member `name`, for an object that has it.
  subscript(name: String) -> JSONNode? {
    guard let members else { return nil }
    if let index { return index.positions[ExactText(name)].map { members[$0].value } }
    let wanted = ExactText(name)
    return members.first { ExactText($0.name) == wanted }?.value
  }

  var string: String? {
    if case .string(let text) = value { text } else { nil }
  }

  var number: Double? {
    if case .number(let number) = value { number } else { nil }
  }

  /// What the value is, as a message names it: `an object`, `the string "x"`, `the number 3`.
  var described: String {
    switch value {
    case .object: "an object"
    case .array: "an array"
    case .string(let text): "the string \(ShownText.quoted(text))"
    case .number(let number): "the number \(number.formatted)"
    case .bool(let flag): "\(flag)"
    case .null: "null"
    }
  }
}

extension Double {
  /// `3` rather than `3.0`, as JSON writes an integral number.
  var formatted: String {
    self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
  }
}

/// Why a JSON text could not be read, and where.
struct JSONReadError: Error {
  var message: String
  var place: TextPlace
}

/// Reads JSON text (RFC 8259) into ``JSONNode``s, with the place of every value.
///
/// Nesting deeper than ``maximumDepth`` is an error, not a stack overflow, and a member name that
/// appears twice in one object is an error too (the file would mean two things).
struct JSONReader {
  /// The deepest nesting of objects and arrays read.
  static let maximumDepth = 64

  private let bytes: [UInt8]
  private var file = 0
  private var index = 0
  private var line = 1
  /// The index of the first byte of the current line.
  private var lineStart = 0

  /// Reads `text`, which must hold exactly one JSON value (with white space around it); its
  /// places are in `file` (see ``TextPlace/file``).
  static func read(_ text: String, file: Int = 0) throws(JSONReadError) -> JSONNode {
    var reader = JSONReader(bytes: Array(text.utf8))
    reader.file = file
    if reader.bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      reader.index = 3
      reader.lineStart = 3
    }
    reader.skipWhiteSpace()
    let node = try reader.readValue(depth: 0)
    reader.skipWhiteSpace()
    guard reader.index == reader.bytes.count else {
      throw reader.error("unexpected \(reader.shownNext) after the JSON value")
    }
    return node
  }

  private init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// The byte whose column `column` is, on the current line; columns are counted on from there,
  /// so that a long line is scanned once, not once per value.
  private var columnIndex = 0
  private var column = 1

  /// The place of the byte at `position`, on the current line: columns count Unicode scalars, so
  /// continuation bytes of UTF-8 are not counted.
  private mutating func place(at position: Int) -> TextPlace {
    if position < columnIndex || columnIndex < lineStart {
      columnIndex = lineStart
      column = 1
    }
    while columnIndex < position {
      if bytes[columnIndex] & 0xC0 != 0x80 { column += 1 }
      columnIndex += 1
    }
    return TextPlace(line: line, column: column, file: file)
  }

  private mutating func error(_ message: String, at position: Int? = nil) -> JSONReadError {
    JSONReadError(message: message, place: place(at: position ?? index))
  }

  /// The next character as a message shows it, or `the end of the file`.
  private var shownNext: String {
    guard index < bytes.count else { return "the end of the file" }
    var end = index + 1
    while end < bytes.count, bytes[end] & 0xC0 == 0x80, end - index < 4 { end += 1 }
    let text = String(decoding: bytes[index..<end], as: UTF8.self)
    return ShownText.quoted(text)
  }

  private mutating func skipWhiteSpace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09: index += 1
      case 0x0A:
        index += 1
        newLine()
      case 0x0D:
        index += 1
        if index < bytes.count, bytes[index] == 0x0A { index += 1 }
        newLine()
      default: return
      }
    }
  }

  private mutating func newLine() {
    line += 1
    lineStart = index
  }

  private mutating func readValue(depth: Int) throws(JSONReadError) -> JSONNode {
    let start = place(at: index)
    guard index < bytes.count else { throw error("expected a value, found the end of the file") }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      guard depth < Self.maximumDepth else {
        throw error("objects and arrays nested more than \(Self.maximumDepth) deep")
      }
      let (members, positions) = try readObject(depth: depth + 1)
      return JSONNode(
        value: .object(members), place: start,
        index: members.count > Self.indexedMembers ? JSONNode.MemberIndex(positions) : nil)
    case UInt8(ascii: "["):
      guard depth < Self.maximumDepth else {
        throw error("objects and arrays nested more than \(Self.maximumDepth) deep")
      }
      return JSONNode(value: .array(try readArray(depth: depth + 1)), place: start)
    case UInt8(ascii: "\""):
      return JSONNode(value: .string(try readString()), place: start)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return JSONNode(value: .number(try readNumber()), place: start)
    default:
      for (word, value) in [("true", JSONNode.Value.bool(true)), ("false", .bool(false)), ("null", .null)]
      where bytes[index...].starts(with: word.utf8) {
        index += word.utf8.count
        return JSONNode(value: value, place: start)
      }
      throw error("expected a value, found \(shownNext)")
    }
  }

  /// How many members an object may have before its members are found by an index.
  static let indexedMembers = 16

  /// An object's members, and where each is among them by name.
  private mutating func readObject(depth: Int) throws(JSONReadError) -> ([JSONNode.Member], [ExactText: Int])
  {
    index += 1
    var members: [JSONNode.Member] = []
    // Names that differ in any scalar are two names, as JSON compares them. A small object's
    // names are compared one by one; past `indexedMembers`, by this index, which the node keeps.
    var seen: [ExactText: Int] = [:]
    skipWhiteSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return (members, seen)
    }
    while true {
      skipWhiteSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw error("expected a member name in quotes, found \(shownNext)")
      }
      let namePlace = place(at: index)
      let name = ExactText(try readString(maximumLength: Self.maximumNameLength))
      let isIndexed = members.count >= Self.indexedMembers
      if isIndexed, seen.isEmpty {
        for (position, member) in members.enumerated() { seen[ExactText(member.name)] = position }
      }
      let earlier = isIndexed ? seen[name] : members.firstIndex { ExactText($0.name) == name }
      if let first = earlier.map({ members[$0].place }) {
        throw JSONReadError(
          message: "the member \(ShownText.quoted(name.text)) appears twice in one object (first at line "
            + "\(first.line), column \(first.column))",
          place: namePlace)
      }
      if isIndexed { seen[name] = members.count }
      skipWhiteSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
        throw error("expected \":\" after the member name, found \(shownNext)")
      }
      index += 1
      skipWhiteSpace()
      members.append(JSONNode.Member(name: name.text, place: namePlace, value: try readValue(depth: depth)))
      skipWhiteSpace()
      guard index < bytes.count else { throw error("the object is not closed: expected \"}\"") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard bytes[index] == UInt8(ascii: "}") else {
        throw error("expected \",\" or \"}\" after a member, found \(shownNext)")
      }
      index += 1
      return (members, seen)
    }
  }

  private mutating func readArray(depth: Int) throws(JSONReadError) -> [JSONNode] {
    index += 1
    var elements: [JSONNode] = []
    skipWhiteSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return elements
    }
    while true {
      skipWhiteSpace()
      elements.append(try readValue(depth: depth))
      skipWhiteSpace()
      guard index < bytes.count else { throw error("the array is not closed: expected \"]\"") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard bytes[index] == UInt8(ascii: "]") else {
        throw error("expected \",\" or \"]\" after an element, found \(shownNext)")
      }
      index += 1
      return elements
    }
  }

  /// The longest member name read, in bytes of UTF-8: four times the longest name of a token
  /// (whose own limit is checked where tokens are read), so that a name of megabytes is refused
  /// as soon as it passes this, not once read.
  static let maximumNameLength = TokenTree.maximumPathLength

  private mutating func readString(maximumLength: Int = .max) throws(JSONReadError) -> String {
    let start = index
    index += 1
    // The string's UTF-8, built once: runs between escapes copied, each escape's scalar encoded.
    // A string of escapes costs as much as one without.
    var utf8: [UInt8] = []
    var runStart = index
    while true {
      guard index < bytes.count else {
        throw error("the string is not closed: expected '\"'", at: start)
      }
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        let text =
          utf8.isEmpty
          ? String(decoding: bytes[runStart..<index], as: UTF8.self)
          : String(decoding: utf8 + bytes[runStart..<index], as: UTF8.self)
        index += 1
        return text
      case UInt8(ascii: "\\"):
        utf8.append(contentsOf: bytes[runStart..<index])
        utf8.append(contentsOf: String(try readEscape()).utf8)
        runStart = index
      case 0x00..<0x20:
        throw error(
          "a control character (U+\(hex(UInt32(byte), width: 4))) in a string; write it as an escape")
      default:
        index += 1
      }
      if utf8.count + index - runStart > maximumLength {
        throw error("a member name longer than \(maximumLength) bytes", at: start)
      }
    }
  }

  private mutating func readEscape() throws(JSONReadError) -> Unicode.Scalar {
    let start = index
    index += 1
    guard index < bytes.count else { throw error("the string is not closed: expected '\"'", at: start) }
    let letter = bytes[index]
    index += 1
    switch letter {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let first = try readHexQuad(escapeStart: start)
      if (0xD800..<0xDC00).contains(first) {
        // A high surrogate must be followed by an escaped low one.
        guard bytes[index...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
          throw error("a \\u escape of a high surrogate without the low one after it", at: start)
        }
        index += 2
        let second = try readHexQuad(escapeStart: start)
        guard (0xDC00..<0xE000).contains(second) else {
          throw error("a \\u escape of a high surrogate without the low one after it", at: start)
        }
        return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
      }
      guard let scalar = Unicode.Scalar(first) else {
        throw error("a \\u escape of a lone low surrogate", at: start)
      }
      return scalar
    default:
      index -= 1
      throw error("unknown escape \"\\\" followed by \(shownNext) in a string", at: start)
    }
  }

  private mutating func readHexQuad(escapeStart: Int) throws(JSONReadError) -> UInt32 {
    guard index + 4 <= bytes.count,
      let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16),
      bytes[index..<index + 4].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") })
    else {
      throw error("a \\u escape needs four hexadecimal digits", at: escapeStart)
    }
    index += 4
    return value
  }

  private mutating func readNumber() throws(JSONReadError) -> Double {
    let start = index
    func digits() -> Int {
      let first = index
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
      return index - first
    }
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    let integral = index
    guard digits() > 0 else { throw error("a number needs digits after \"-\"", at: start) }
    if bytes[integral] == UInt8(ascii: "0"), index - integral > 1 {
      throw error("a number may not start with 0 followed by more digits", at: start)
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { throw error("a number needs digits after \".\"", at: start) }
    }
    if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
        index += 1
      }
      guard digits() > 0 else { throw error("a number needs digits in its exponent", at: start) }
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    guard let number = Double(text), number.isFinite else {
      throw error("the number \(ShownText.escaped(text, limit: 40)) is too large", at: start)
    }
    return number
  }

  private func hex(_ value: UInt32, width: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}

/// JSON Pointers into the same document (RFC 6901), as `$ref` writes them: `#/a/b~1c`.
enum JSONPointer {
  /// The most parts a pointer may have: one per level a document may nest, and `$value`.
  static let maximumParts = JSONReader.maximumDepth + 1

  /// The parts of `pointer` with `~1` and `~0` decoded (`[]` for `#`), or `nil` for a pointer
  /// to another file, one with a `~` that is neither `~0` nor `~1`, or one with more parts than
  /// a document can nest (counted before anything
  /// is split, so that a long one costs no memory).
  static func parts(of pointer: String) -> [String]? {
    if pointer == "#" { return [] }
    guard pointer.hasPrefix("#/") else { return nil }
    var slashes = 0
    for byte in pointer.utf8 where byte == UInt8(ascii: "/") {
      slashes += 1
      if slashes > maximumParts { return nil }
    }
    // Byte by byte: a pointer may be kilobytes long, and is read at each step of a chain.
    let bytes = Array(pointer.utf8.dropFirst(2))
    var parts: [String] = []
    var part: [UInt8] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if byte == UInt8(ascii: "/") {
        parts.append(String(decoding: part, as: UTF8.self))
        part.removeAll(keepingCapacity: true)
      } else if byte == UInt8(ascii: "~"), index < bytes.count, bytes[index] == UInt8(ascii: "0") {
        part.append(UInt8(ascii: "~"))
        index += 1
      } else if byte == UInt8(ascii: "~"), index < bytes.count, bytes[index] == UInt8(ascii: "1") {
        part.append(UInt8(ascii: "/"))
        index += 1
      } else if byte == UInt8(ascii: "~") {
        // RFC 6901 escapes only `~0` and `~1`.
        return nil
      } else {
        part.append(byte)
      }
    }
    parts.append(String(decoding: part, as: UTF8.self))
    return parts
  }

  /// The array index a part names: digits without a leading zero (`0`, `12`, not `012` or `+1`).
  static func index(_ part: String) -> Int? {
    guard let index = Int(part), String(index) == part, index >= 0 else { return nil }
    return index
  }
}
