import DarkModeKit
import DarkModeKitText
import Foundation

/// A place in a text: a 1-based line, and a 1-based column counted in Unicode scalars.
///
/// Twelve bytes: every token keeps one, and a text has fewer than 2³¹ lines and columns (see
/// ``JSONTape/maximumSize``).
struct TextPlace: Hashable, Sendable {
  private var storedLine: Int32
  private var storedColumn: Int32
  private var storedFile: Int32

  init(line: Int, column: Int, file: Int = 0) {
    storedLine = Int32(clamping: line)
    storedColumn = Int32(clamping: column)
    storedFile = Int32(clamping: file)
  }

  var line: Int {
    get { Int(storedLine) }
    set { storedLine = Int32(clamping: newValue) }
  }

  var column: Int {
    get { Int(storedColumn) }
    set { storedColumn = Int32(clamping: newValue) }
  }

  /// Which file: 0 for the document read, else one that it names (see `TokenReading`).
  var file: Int {
    get { Int(storedFile) }
    set { storedFile = Int32(clamping: newValue) }
  }
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
///
/// A value read from a file is a position in its ``JSONTape``: what it holds is read from the
/// file's bytes when asked for (``value``, ``members``, ``string``), so that a file's values cost
/// eight bytes each while it is read, not a tree of strings and arrays. A value made in code
/// (`init(value:place:)`) holds what it was made with.
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
    var value: JSONNode
    private var namePlace: Place

    init(name: String, place: TextPlace, value: JSONNode) {
      self.name = name
      self.value = value
      namePlace = .made(place)
    }

    fileprivate init(name: String, tape: JSONTape, offset: Int, value: JSONNode) {
      self.name = name
      self.value = value
      namePlace = .tape(tape, offset)
    }

    /// Where the name starts.
    var place: TextPlace { namePlace.place }
  }

  /// Where something starts: found in a tape when asked for, or given.
  private enum Place: Sendable {
    case made(TextPlace)
    case tape(JSONTape, Int)

    var place: TextPlace {
      switch self {
      case .made(let place): place
      case .tape(let tape, let offset): tape.place(at: offset)
      }
    }
  }

  /// A value made in code.
  private final class Made: Sendable {
    let value: Value
    let place: TextPlace
    init(value: Value, place: TextPlace) {
      self.value = value
      self.place = place
    }
  }

  private enum Storage: Sendable {
    case tape(JSONTape, Int)
    case made(Made)
  }

  private let storage: Storage

  init(value: Value, place: TextPlace) {
    storage = .made(Made(value: value, place: place))
  }

  fileprivate init(tape: JSONTape, entry: Int) {
    storage = .tape(tape, entry)
  }

  /// What the value holds; an object's members and an array's elements are read anew each time.
  var value: Value {
    switch storage {
    case .made(let made): return made.value
    case .tape(let tape, let entry):
      switch tape.kind(entry) {
      case .object: return .object(tape.members(of: entry))
      case .array: return .array(tape.elements(of: entry))
      case .string, .escapedString: return .string(tape.string(entry))
      case .number: return .number(tape.number(entry))
      case .true: return .bool(true)
      case .false: return .bool(false)
      case .null: return .null
      }
    }
  }

  /// Where the value starts.
  var place: TextPlace {
    switch storage {
    case .made(let made): made.place
    case .tape(let tape, let entry): tape.place(at: tape.offset(entry))
    }
  }

  /// The members, for an object.
  var members: [Member]? {
    switch storage {
    case .made(let made): if case .object(let members) = made.value { members } else { nil }
    case .tape(let tape, let entry): tape.kind(entry) == .object ? tape.members(of: entry) : nil
    }
  }

  /// Whether the value is an object; unlike ``members``, reads none of its members.
  var isObject: Bool {
    switch storage {
    case .made(let made): if case .object = made.value { true } else { false }
    case .tape(let tape, let entry): tape.kind(entry) == .object
    }
  }

  /// Calls `body` with each member's value of an object, or each element of an array, in order,
  /// until it returns `false`; whether it never did. Reads no member's name.
  func allChildren(_ body: (JSONNode) -> Bool) -> Bool {
    switch storage {
    case .made(let made):
      switch made.value {
      case .object(let members): return members.allSatisfy { body($0.value) }
      case .array(let items): return items.allSatisfy(body)
      default: return true
      }
    case .tape(let tape, let entry): return tape.allChildren(of: entry, body)
    }
  }

  /// The member or the element (by its index) that one part of a JSON Pointer names, if any.
  func child(atPointerPart part: String) -> JSONNode? {
    switch storage {
    case .tape(let tape, let entry):
      switch tape.kind(entry) {
      case .object: return tape.member(part, of: entry)
      case .array: return JSONPointer.index(part).flatMap { tape.element($0, of: entry) }
      default: return nil
      }
    case .made(let made):
      switch made.value {
      case .object: return self[part]
      case .array(let items):
        return JSONPointer.index(part).flatMap { items.indices.contains($0) ? items[$0] : nil }
      default: return nil
      }
    }
  }

  /// The value of the member `name`, for an object that has it.
  subscript(name: String) -> JSONNode? {
    switch storage {
    case .tape(let tape, let entry): return tape.member(name, of: entry)
    case .made(let made):
      guard case .object(let members) = made.value else { return nil }
      let wanted = ExactText(name)
      return members.first { ExactText($0.name) == wanted }?.value
    }
  }

  var string: String? {
    switch storage {
    case .made(let made): if case .string(let text) = made.value { text } else { nil }
    case .tape(let tape, let entry): tape.kind(entry).isString ? tape.string(entry) : nil
    }
  }

  var number: Double? {
    switch storage {
    case .made(let made): if case .number(let number) = made.value { number } else { nil }
    case .tape(let tape, let entry): tape.kind(entry) == .number ? tape.number(entry) : nil
    }
  }

  /// What the value is, as a message names it: `an object`, `the string "x"`, `the number 3`.
  var described: String {
    if case .tape(let tape, let entry) = storage {
      switch tape.kind(entry) {
      case .object: return "an object"
      case .array: return "an array"
      default: break
      }
    }
    switch value {
    case .object: return "an object"
    case .array: return "an array"
    case .string(let text): return "the string \(ShownText.quoted(text))"
    case .number(let number): return "the number \(number.formatted)"
    case .bool(let flag): return "\(flag)"
    case .null: return "null"
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

/// A JSON text read: its bytes, and its values as one array of 8-byte entries in file order.
///
/// An entry holds the value's kind, the offset of its first byte, and, for an object or an array,
/// the entry after its last member or element (so that a reader steps over it), for a string or a
/// number the length of its text. An object's entries are its own, then each member's name (a
/// string) and value; an array's, its own and then each element's. Lines and columns are found
/// from the offsets when a place is asked for: the tape keeps where each line starts, and the
/// column of every 256th byte.
///
/// Texts are read once, by ``JSONReader``, and never change after: a tape is shared by every
/// ``JSONNode`` of its text, on any thread.
final class JSONTape: Sendable {
  enum Kind: UInt64 {
    case object, array, string, escapedString, number, `true`, `false`, null

    var isString: Bool { self == .string || self == .escapedString }
  }

  /// The largest text a tape can hold: offsets and lengths have 28 bits.
  static let maximumSize = 1 << 28

  let bytes: [UInt8]
  let entries: [UInt64]
  let file: Int
  /// The offset where each line starts; the first line's is after a byte order mark.
  private let lineStarts: [Int32]
  /// For each block of ``blockSize`` bytes, how many characters of its line come before it.
  private let blockColumns: [Int32]
  /// Where each member of a large object is, by name, made when a search first passes its first
  /// ``indexedMembers`` members (see ``member(_:of:)``).
  private let memberIndexes = Locked<[Int: [ExactText: Int]]>([:])
  /// Where each element of a large array is, made when an element past the first
  /// ``indexedMembers`` is first asked for (see ``element(_:of:)``).
  private let elementIndexes = Locked<[Int: [Int32]]>([:])

  private static let blockSize = 256
  /// An object with more members than this is searched through an index, and so is an array for
  /// an element past this many.
  static let indexedMembers = 256

  fileprivate init(bytes: [UInt8], entries: [UInt64], file: Int, firstLineStart: Int) {
    self.bytes = bytes
    self.entries = entries
    self.file = file
    var lineStarts: [Int32] = [Int32(firstLineStart)]
    var blockColumns: [Int32] = []
    blockColumns.reserveCapacity(bytes.count / Self.blockSize + 1)
    var column: Int32 = 0
    var position = 0
    // Lines end at LF, CR or CRLF, as JSON's white space ends them (a string holds no raw line
    // break); columns count characters, so continuation bytes of UTF-8 are not counted.
    while position < bytes.count {
      if position % Self.blockSize == 0 { blockColumns.append(column) }
      let byte = bytes[position]
      position += 1
      if byte == 0x0A || (byte == 0x0D && (position == bytes.count || bytes[position] != 0x0A)) {
        lineStarts.append(Int32(position))
        column = 0
      } else if byte & 0xC0 != 0x80, position > firstLineStart {
        column += 1
      }
    }
    self.lineStarts = lineStarts
    self.blockColumns = blockColumns
  }

  static func entry(_ kind: Kind, offset: Int, payload: Int) -> UInt64 {
    kind.rawValue << 60 | UInt64(payload) << 32 | UInt64(offset)
  }

  static func kind(of entry: UInt64) -> Kind { Kind(rawValue: entry >> 60)! }
  static func offset(of entry: UInt64) -> Int { Int(entry & 0xFFFF_FFFF) }
  static func payload(of entry: UInt64) -> Int { Int(entry >> 32 & 0x0FFF_FFFF) }

  func kind(_ entry: Int) -> Kind { Self.kind(of: entries[entry]) }
  func offset(_ entry: Int) -> Int { Self.offset(of: entries[entry]) }
  private func payload(_ entry: Int) -> Int { Self.payload(of: entries[entry]) }

  /// The entry after `entry`'s value, its members or elements included.
  func next(after entry: Int) -> Int {
    switch kind(entry) {
    case .object, .array: payload(entry)
    default: entry + 1
    }
  }

  /// The line and column of the byte at `offset`.
  func place(at offset: Int) -> TextPlace {
    // The last line that starts at or before the offset.
    var low = 0
    var high = lineStarts.count
    while high - low > 1 {
      let middle = (low + high) / 2
      if Int(lineStarts[middle]) <= offset { low = middle } else { high = middle }
    }
    let lineStart = Int(lineStarts[low])
    let block = offset / Self.blockSize * Self.blockSize
    var column: Int
    var position: Int
    if block > lineStart, block / Self.blockSize < blockColumns.count {
      column = Int(blockColumns[block / Self.blockSize])
      position = block
    } else {
      column = 0
      position = lineStart
    }
    while position < offset, position < bytes.count {
      if bytes[position] & 0xC0 != 0x80 { column += 1 }
      position += 1
    }
    return TextPlace(line: low + 1, column: column + 1, file: file)
  }

  /// The members of the object at `entry`.
  func members(of entry: Int) -> [JSONNode.Member] {
    var members: [JSONNode.Member] = []
    var name = entry + 1
    let end = payload(entry)
    while name < end {
      members.append(
        JSONNode.Member(
          name: string(name), tape: self, offset: offset(name), value: JSONNode(tape: self, entry: name + 1)))
      name = next(after: name + 1)
    }
    return members
  }

  /// The elements of the array at `entry`.
  func elements(of entry: Int) -> [JSONNode] {
    var elements: [JSONNode] = []
    var element = entry + 1
    let end = payload(entry)
    while element < end {
      elements.append(JSONNode(tape: self, entry: element))
      element = next(after: element)
    }
    return elements
  }

  /// The element `index` of the array at `entry`, if it has one: the first ones counted, the
  /// others found through the array's index.
  func element(_ index: Int, of entry: Int) -> JSONNode? {
    guard index > Self.indexedMembers else {
      var element = entry + 1
      let end = payload(entry)
      var count = 0
      while element < end {
        if count == index { return JSONNode(tape: self, entry: element) }
        count += 1
        element = next(after: element)
      }
      return nil
    }
    let elements = elementIndexes.withLock { indexes in
      if let elements = indexes[entry] { return elements }
      var elements: [Int32] = []
      var element = entry + 1
      let end = payload(entry)
      while element < end {
        elements.append(Int32(element))
        element = next(after: element)
      }
      indexes[entry] = elements
      return elements
    }
    return elements.indices.contains(index) ? JSONNode(tape: self, entry: Int(elements[index])) : nil
  }

  /// Calls `body` with each member's value or element of the object or array at `entry`, in
  /// order, until it returns `false`; whether it never did.
  func allChildren(of entry: Int, _ body: (JSONNode) -> Bool) -> Bool {
    let kind = kind(entry)
    guard kind == .object || kind == .array else { return true }
    var child = entry + 1
    let end = payload(entry)
    while child < end {
      // An object's members are each a name, then its value.
      if kind == .object { child += 1 }
      guard body(JSONNode(tape: self, entry: child)) else { return false }
      child = next(after: child)
    }
    return true
  }

  /// The value of the member `name` of the object at `entry`, if it is an object and has it.
  func member(_ name: String, of entry: Int) -> JSONNode? {
    guard kind(entry) == .object else { return nil }
    // The first members one by one (most objects have a few), then the index of a large object.
    var wanted = name
    return wanted.withUTF8 { wanted in
      var member = entry + 1
      let end = payload(entry)
      var count = 0
      while member < end {
        if hasName(member, wanted) { return JSONNode(tape: self, entry: member + 1) }
        count += 1
        if count > Self.indexedMembers { return memberThroughIndex(name, of: entry) }
        member = next(after: member + 1)
      }
      return nil
    }
  }

  /// Finds a member of a large object through its index, made now if it has none.
  private func memberThroughIndex(_ name: String, of entry: Int) -> JSONNode? {
    let index = memberIndexes.withLock { indexes in
      if let index = indexes[entry] { return index }
      var index: [ExactText: Int] = [:]
      var member = entry + 1
      let end = payload(entry)
      while member < end {
        index[ExactText(string(member))] = member
        member = next(after: member + 1)
      }
      indexes[entry] = index
      return index
    }
    return index[ExactText(name)].map { JSONNode(tape: self, entry: $0 + 1) }
  }

  /// Whether the string at `entry` is `wanted`, compared as JSON compares names: scalar by scalar.
  func hasName(_ entry: Int, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
    Self.hasText(entries[entry], wanted, in: bytes)
  }

  /// Whether the string `entry` of `bytes` is `wanted`, scalar by scalar.
  static func hasText(_ entry: UInt64, _ wanted: UnsafeBufferPointer<UInt8>, in bytes: [UInt8]) -> Bool {
    let start = offset(of: entry) + 1
    let length = payload(of: entry)
    guard kind(of: entry) == .string else {
      var text = string(entry, in: bytes)
      return text.withUTF8 { $0.elementsEqual(wanted) }
    }
    guard length == wanted.count else { return false }
    return bytes.withUnsafeBufferPointer { bytes in
      length == 0 || memcmp(bytes.baseAddress! + start, wanted.baseAddress!, length) == 0
    }
  }

  /// The text of the string at `entry`, its escapes decoded.
  func string(_ entry: Int) -> String {
    Self.string(entries[entry], in: bytes)
  }

  /// The text of the string `entry` of `bytes`, its escapes decoded.
  static func string(_ entry: UInt64, in bytes: [UInt8]) -> String {
    let start = offset(of: entry) + 1
    let end = start + payload(of: entry)
    guard kind(of: entry) == .escapedString else {
      return String(decoding: bytes[start..<end], as: UTF8.self)
    }
    var utf8: [UInt8] = []
    utf8.reserveCapacity(end - start)
    var position = start
    var runStart = start
    while position < end {
      guard bytes[position] == UInt8(ascii: "\\") else {
        position += 1
        continue
      }
      utf8.append(contentsOf: bytes[runStart..<position])
      // Checked when the text was read.
      let (scalar, after) = (try? JSONReader.escape(in: bytes, at: position)) ?? ("\u{FFFD}", position + 2)
      utf8.append(contentsOf: String(scalar).utf8)
      position = after
      runStart = after
    }
    utf8.append(contentsOf: bytes[runStart..<end])
    return String(decoding: utf8, as: UTF8.self)
  }

  /// The number at `entry`, checked finite when it was read.
  func number(_ entry: Int) -> Double {
    let start = offset(entry)
    return Double(String(decoding: bytes[start..<start + payload(entry)], as: UTF8.self)) ?? .nan
  }
}

/// Reads JSON text (RFC 8259) into a ``JSONTape``, and gives its top-level value.
///
/// Nesting deeper than ``maximumDepth`` is an error, not a stack overflow, and a member name that
/// appears twice in one object is an error too (the file would mean two things).
struct JSONReader {
  /// The deepest nesting of objects and arrays read.
  static let maximumDepth = 64

  private let bytes: [UInt8]
  private var entries: [UInt64] = []
  private var file = 0
  private var index = 0
  private var line = 1
  /// The index of the first byte of the current line.
  private var lineStart = 0

  /// Reads `bytes`, UTF-8 text that must hold exactly one JSON value (with white space around
  /// it); its places are in `file` (see ``TextPlace/file``).
  static func read(bytes: [UInt8], file: Int = 0) throws(JSONReadError) -> JSONNode {
    var reader = JSONReader(bytes: bytes)
    reader.file = file
    guard bytes.count < JSONTape.maximumSize else {
      throw reader.error("a JSON text of \(JSONTape.maximumSize >> 20) MiB or more cannot be read", at: 0)
    }
    if reader.bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      reader.index = 3
      reader.lineStart = 3
    }
    let firstLineStart = reader.index
    reader.skipWhiteSpace()
    try reader.readValue(depth: 0)
    reader.skipWhiteSpace()
    guard reader.index == reader.bytes.count else {
      throw reader.error("unexpected \(reader.shownNext) after the JSON value")
    }
    let tape = JSONTape(
      bytes: reader.bytes, entries: reader.entries, file: file, firstLineStart: firstLineStart)
    return JSONNode(tape: tape, entry: 0)
  }

  private init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// The byte whose column `column` is, on the current line; columns are counted on from there,
  /// so that a long line is scanned once, not once per value.
  private var columnIndex = 0
  private var column = 1

  /// The place of the byte at `position`: on the current line, counted on from the last place
  /// asked for (columns count Unicode scalars, so continuation bytes of UTF-8 are not counted);
  /// on an earlier line, counted from the start of the text.
  private mutating func place(at position: Int) -> TextPlace {
    guard position >= lineStart else { return placeFromStart(of: position) }
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

  /// The place of the byte at `position`, counted from the start of the text (for a message about
  /// a value read earlier).
  private func placeFromStart(of position: Int) -> TextPlace {
    var line = 1
    var column = 1
    var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while index < position {
      let byte = bytes[index]
      index += 1
      if byte == 0x0A || (byte == 0x0D && (index == bytes.count || bytes[index] != 0x0A)) {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
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

  private mutating func append(_ kind: JSONTape.Kind, offset: Int, payload: Int = 0) {
    entries.append(JSONTape.entry(kind, offset: offset, payload: payload))
  }

  private mutating func readValue(depth: Int) throws(JSONReadError) {
    let start = index
    guard index < bytes.count else { throw error("expected a value, found the end of the file") }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      guard depth < Self.maximumDepth else {
        throw error("objects and arrays nested more than \(Self.maximumDepth) deep")
      }
      let entry = entries.count
      append(.object, offset: start)
      try readObject(depth: depth + 1)
      entries[entry] = JSONTape.entry(.object, offset: start, payload: entries.count)
    case UInt8(ascii: "["):
      guard depth < Self.maximumDepth else {
        throw error("objects and arrays nested more than \(Self.maximumDepth) deep")
      }
      let entry = entries.count
      append(.array, offset: start)
      try readArray(depth: depth + 1)
      entries[entry] = JSONTape.entry(.array, offset: start, payload: entries.count)
    case UInt8(ascii: "\""):
      let (length, isEscaped) = try readString()
      append(isEscaped ? .escapedString : .string, offset: start, payload: length)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      try readNumber()
      append(.number, offset: start, payload: index - start)
    default:
      for (word, kind) in [("true", JSONTape.Kind.true), ("false", .false), ("null", .null)]
      where bytes[index...].starts(with: word.utf8) {
        index += word.utf8.count
        append(kind, offset: start)
        return
      }
      throw error("expected a value, found \(shownNext)")
    }
  }

  /// How many members an object may have before a member named twice is found through a set of
  /// the names read, rather than by comparing the name with each earlier one.
  static let indexedMembers = 16

  /// An object's members, the opening brace at `index`.
  private mutating func readObject(depth: Int) throws(JSONReadError) {
    index += 1
    // The entries of the names read; past `indexedMembers` names, also a set of them, by text.
    var names: [Int] = []
    var seen: [ExactText: Int] = [:]
    skipWhiteSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return
    }
    while true {
      skipWhiteSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw error("expected a member name in quotes, found \(shownNext)")
      }
      let nameStart = index
      let (length, isEscaped) = try readString(maximumLength: Self.maximumNameLength)
      let name = entries.count
      append(isEscaped ? .escapedString : .string, offset: nameStart, payload: length)
      try checkNameIsNew(name, among: &names, seen: &seen)
      skipWhiteSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
        throw error("expected \":\" after the member name, found \(shownNext)")
      }
      index += 1
      skipWhiteSpace()
      try readValue(depth: depth)
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
      return
    }
  }

  /// Adds the name at entry `name` to those of its object, or throws when one of them is the same
  /// text (names that differ in any scalar are two names, as JSON compares them).
  private mutating func checkNameIsNew(_ name: Int, among names: inout [Int], seen: inout [ExactText: Int])
    throws(JSONReadError)
  {
    func text(_ entry: Int) -> String { JSONTape.string(entries[entry], in: bytes) }
    var earlier: Int?
    if names.count >= Self.indexedMembers {
      if seen.isEmpty {
        for entry in names { seen[ExactText(text(entry))] = entry }
      }
      let key = ExactText(text(name))
      earlier = seen[key]
      if earlier == nil { seen[key] = name }
    } else {
      var wanted = text(name)
      earlier = wanted.withUTF8 { wanted in
        names.first { JSONTape.hasText(entries[$0], wanted, in: bytes) }
      }
    }
    guard let earlier else {
      names.append(name)
      return
    }
    let first = place(at: JSONTape.offset(of: entries[earlier]))
    throw JSONReadError(
      message: "the member \(ShownText.quoted(text(name))) appears twice in one object (first at line "
        + "\(first.line), column \(first.column))",
      place: place(at: JSONTape.offset(of: entries[name])))
  }

  private mutating func readArray(depth: Int) throws(JSONReadError) {
    index += 1
    skipWhiteSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return
    }
    while true {
      skipWhiteSpace()
      try readValue(depth: depth)
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
      return
    }
  }

  /// The longest member name read, in bytes of UTF-8: four times the longest name of a token
  /// (whose own limit is checked where tokens are read), so that a name of megabytes is refused
  /// as soon as it passes this, not once read.
  static let maximumNameLength = TokenTree.maximumPathLength

  /// Checks the string whose opening quote is at `index` and steps past it: the length of its
  /// text between the quotes, in bytes, and whether it has escapes.
  private mutating func readString(maximumLength: Int = .max) throws(JSONReadError) -> (Int, Bool) {
    let start = index
    index += 1
    // The length of the text once its escapes are decoded, for the limit on names.
    var decodedLength = 0
    var isEscaped = false
    while true {
      guard index < bytes.count else {
        throw error("the string is not closed: expected '\"'", at: start)
      }
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        return (index - start - 2, isEscaped)
      case UInt8(ascii: "\\"):
        let escapeStart = index
        let scalar: Unicode.Scalar
        do {
          (scalar, index) = try Self.escape(in: bytes, at: index)
        } catch let problem {
          index = problem.position
          // An escape the file ends in leaves the string open, as any other last byte does.
          throw error(problem.message, at: problem.isNotClosed ? start : escapeStart)
        }
        decodedLength += UTF8.width(scalar)
        isEscaped = true
      case 0x00..<0x20:
        throw error(
          "a control character (U+\(hex(UInt32(byte), width: 4))) in a string; write it as an escape")
      default:
        index += 1
        decodedLength += 1
      }
      if decodedLength > maximumLength {
        throw error("a member name longer than \(maximumLength) bytes", at: start)
      }
    }
  }

  /// Why an escape cannot be read, and where reading stopped; told at the backslash, or, when the
  /// bytes end inside the escape (`position` is their count), at the string's opening quote.
  struct EscapeProblem: Error {
    var message: String
    var position: Int
    /// The bytes end inside the escape: the string is not closed.
    var isNotClosed = false

    /// The bytes end inside the escape.
    static func notClosed(_ bytes: [UInt8]) -> EscapeProblem {
      EscapeProblem(
        message: "the string is not closed: expected '\"'", position: bytes.count, isNotClosed: true)
    }

    /// Whether `bytes` end within `count` bytes from `index` with nothing but hexadecimal digits
    /// (or, with `orBackslashU`, the start of a `\u`): an escape cut short by the end of the text.
    static func endsInside(_ bytes: [UInt8], from index: Int, count: Int, orBackslashU: Bool = false) -> Bool
    {
      guard index + count > bytes.count else { return false }
      let rest = bytes[index...]
      if orBackslashU {
        return [UInt8(ascii: "\\"), UInt8(ascii: "u")].starts(with: rest)
      }
      return rest.allSatisfy {
        UInt8(ascii: "0")...UInt8(ascii: "9") ~= $0 || UInt8(ascii: "a")...UInt8(ascii: "f") ~= $0
          || UInt8(ascii: "A")...UInt8(ascii: "F") ~= $0
      }
    }
  }

  /// The scalar of the escape whose backslash is at `start` in `bytes`, and the position after it.
  static func escape(in bytes: [UInt8], at start: Int) throws(EscapeProblem) -> (Unicode.Scalar, Int) {
    var index = start + 1
    guard index < bytes.count else { throw .notClosed(bytes) }
    let letter = bytes[index]
    index += 1
    switch letter {
    case UInt8(ascii: "\""): return ("\"", index)
    case UInt8(ascii: "\\"): return ("\\", index)
    case UInt8(ascii: "/"): return ("/", index)
    case UInt8(ascii: "b"): return ("\u{08}", index)
    case UInt8(ascii: "f"): return ("\u{0C}", index)
    case UInt8(ascii: "n"): return ("\n", index)
    case UInt8(ascii: "r"): return ("\r", index)
    case UInt8(ascii: "t"): return ("\t", index)
    case UInt8(ascii: "u"):
      let first = try hexQuad(in: bytes, at: index)
      index += 4
      if (0xD800..<0xDC00).contains(first) {
        // A high surrogate must be followed by an escaped low one.
        let missing = EscapeProblem(
          message: "a \\u escape of a high surrogate without the low one after it", position: index)
        if EscapeProblem.endsInside(bytes, from: index, count: 2, orBackslashU: true) {
          throw .notClosed(bytes)
        }
        guard bytes[index...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else { throw missing }
        index += 2
        let second = try hexQuad(in: bytes, at: index)
        index += 4
        guard (0xDC00..<0xE000).contains(second) else { throw missing }
        return (Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!, index)
      }
      guard let scalar = Unicode.Scalar(first) else {
        throw EscapeProblem(message: "a \\u escape of a lone low surrogate", position: index)
      }
      return (scalar, index)
    default:
      var end = index
      while end < bytes.count, bytes[end] & 0xC0 == 0x80, end - index < 3 { end += 1 }
      let shown = ShownText.quoted(String(decoding: bytes[(index - 1)..<end], as: UTF8.self))
      throw EscapeProblem(
        message: "unknown escape \"\\\" followed by \(shown) in a string", position: index - 1)
    }
  }

  private static func hexQuad(in bytes: [UInt8], at index: Int) throws(EscapeProblem) -> UInt32 {
    if EscapeProblem.endsInside(bytes, from: index, count: 4) { throw .notClosed(bytes) }
    guard index + 4 <= bytes.count,
      let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16),
      bytes[index..<index + 4].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") })
    else {
      throw EscapeProblem(message: "a \\u escape needs four hexadecimal digits", position: index)
    }
    return value
  }

  private mutating func readNumber() throws(JSONReadError) {
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
