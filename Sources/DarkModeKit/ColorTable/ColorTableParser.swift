import DarkModeKitText

/// The parsed contents of a colour table, before it is published by a ``DMColorTable``.
struct ParsedColorTable: Sendable {
  /// The columns, in header order.
  var columns: [ThemeColumn] = []
  /// The keys, in file order.
  var keys: [String] = []
  /// The position of each key in ``keys``.
  var keyIndex: [String: Int] = [:]
  /// The colours row by row: the colour of key `k` in column `c` is at `k * columns.count + c`.
  var colors: [DMColor] = []
  /// The 1-based line that defines each key of ``keys``.
  var keyLines: [Int] = []
  /// The colour each cell (by its index in ``colors``) was written in, where it came from a space
  /// wider than sRGB (design tokens); empty for a table read from its text.
  var origins: [Int: DMColorOrigin] = [:]
}

/// A colour as written in a space wider than sRGB (`color(display-p3 0 1 0)`), which a table holds
/// brought into sRGB: kept beside tables read from design tokens, so that their exports can say so.
package struct DMColorOrigin: Hashable, Sendable {
  /// The colour space, as CSS Color 4 and the Design Tokens format name it (`display-p3`).
  package let space: String
  /// The components in that space, as written.
  package let components: [Double]
  /// How CSS writes it: `color(display-p3 0 1 0)`, `oklch(0.7 0.3 145)`.
  package let text: String

  package init(space: String, components: [Double], text: String) {
    self.space = space
    self.components = components
    self.text = text
  }
}

/// Parses the colour-table format in one pass over UTF-8 bytes.
///
/// The grammar and every error message are documented in `Docs/ColorTableFormat.md`. The parser
/// always moves forward by at least one byte per step, never indexes outside the input, and
/// returns a table only when the whole input is valid.
struct ColorTableParser {
  /// A token's byte range on the current line.
  private struct Token {
    var start: Int
    var end: Int
  }

  private let bytes: [UInt8]
  /// Whether the input may hold bytes that are not UTF-8 (it came from a file, not a `String`).
  private let validatesUTF8: Bool
  private var table = ParsedColorTable()
  private var hasHeader = false

  /// In lint mode, where row errors go; the parser then skips a bad row and goes on.
  private var reportRowError: ((DMColorTableError) -> Void)?

  private var line = 1
  /// The byte offset at which the current line starts (after the byte order mark on line 1).
  private var lineStart = 0

  private init(bytes: [UInt8], validatesUTF8: Bool) {
    self.bytes = bytes
    self.validatesUTF8 = validatesUTF8
  }

  /// Parses a whole table.
  /// - Parameters:
  ///   - bytes: The input.
  ///   - validatesUTF8: Whether to check that the input is UTF-8; `false` only for text that
  ///     came from a `String`.
  /// - Returns: The table.
  /// - Throws: ``DMColorTableError`` for the first problem in the input.
  static func parse(_ bytes: [UInt8], validatesUTF8: Bool) throws(DMColorTableError) -> ParsedColorTable {
    var parser = ColorTableParser(bytes: bytes, validatesUTF8: validatesUTF8)
    return try parser.run()
  }

  /// Finds every problem: a bad row is reported and skipped, and the parse goes on; a problem that
  /// leaves nothing to go on with (no header, a bad header, text that is not UTF-8) ends it.
  /// - Parameters:
  ///   - bytes: The input.
  ///   - validatesUTF8: Whether to check that the input is UTF-8.
  ///   - report: Called with each problem, in the order they occur.
  static func lint(
    _ bytes: [UInt8], validatesUTF8: Bool, report: @escaping (DMColorTableError) -> Void
  ) {
    var parser = ColorTableParser(bytes: bytes, validatesUTF8: validatesUTF8)
    parser.reportRowError = report
    do {
      _ = try parser.run()
    } catch {
      report(error)
    }
  }

  // MARK: - Lines and tokens

  private mutating func run() throws(DMColorTableError) -> ParsedColorTable {
    let count = bytes.count
    if validatesUTF8, count >= 2,
      (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF)
    {
      throw DMColorTableError(
        kind: .notUTF8, line: 1, column: 1, token: Self.escaped(bytes[0..<2]),
        message: "the file is not UTF-8 text: it starts with a UTF-16 byte order mark; save it as UTF-8")
    }
    var index = 0
    if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
      index = 3
    }
    lineStart = index
    var tokens: [Token] = []
    var sawContent = false
    while true {
      tokens.removeAll(keepingCapacity: true)
      var lineEnd = count
      // Scan one line: tokens, separators and an optional trailing comment.
      scan: while index < count {
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "\n"):
          lineEnd = index
          index += 1
          break scan
        case UInt8(ascii: "\r"):
          lineEnd = index
          index += 1
          if index < count, bytes[index] == UInt8(ascii: "\n") { index += 1 }
          break scan
        case UInt8(ascii: " "), UInt8(ascii: "\t"):
          index += 1
        case UInt8(ascii: "/") where index + 1 < count && bytes[index + 1] == UInt8(ascii: "/"):
          sawContent = true
          index = try skipComment(from: index)
        default:
          sawContent = true
          let start = index
          while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
              || byte == UInt8(ascii: "\r")
            {
              break
            }
            if byte == UInt8(ascii: "/"), index + 1 < count, bytes[index + 1] == UInt8(ascii: "/") {
              break
            }
            index = try advance(from: index)
          }
          tokens.append(Token(start: start, end: index))
        }
      }
      if !tokens.isEmpty {
        if hasHeader, let reportRowError {
          let colorCount = table.colors.count
          let keyCount = table.keys.count
          do {
            try parseRow(tokens)
          } catch {
            reportRowError(error)
            // Take the bad row back out, so that later rows are checked against the good ones.
            table.colors.removeSubrange(colorCount...)
            for key in table.keys[keyCount...] { table.keyIndex[key] = nil }
            table.keys.removeSubrange(keyCount...)
            table.keyLines.removeSubrange(keyCount...)
          }
        } else if hasHeader {
          try parseRow(tokens)
        } else {
          try parseHeader(tokens)
        }
      }
      if index >= count {
        guard hasHeader else {
          throw DMColorTableError(
            kind: .noHeader, line: line, column: column(of: lineEnd), token: "",
            message: sawContent
              ? "no header: the file has only blank lines and comments; the first line that is not "
                + "blank or a comment must name the themes, for example \"NORMAL NIGHT\""
              : "no header: the file is empty; the first line must name the themes, for example "
                + "\"NORMAL NIGHT\"")
        }
        return table
      }
      line += 1
      lineStart = index
    }
  }

  /// Skips a `//` comment up to (not including) the line end.
  private func skipComment(from start: Int) throws(DMColorTableError) -> Int {
    var index = start
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { break }
      index = try advance(from: index)
    }
    return index
  }

  /// The offset after the character at `index`, checking that a non-ASCII character is UTF-8.
  @inline(__always)
  private func advance(from index: Int) throws(DMColorTableError) -> Int {
    let byte = bytes[index]
    if byte < 0x80 || !validatesUTF8 { return index + 1 }
    guard let length = utf8Length(at: index) else {
      let end = min(index + 4, bytes.count)
      var badEnd = index + 1
      while badEnd < end, bytes[badEnd] & 0xC0 == 0x80 { badEnd += 1 }
      let token = Self.escaped(bytes[index..<badEnd])
      throw DMColorTableError(
        kind: .notUTF8, line: line, column: column(of: index), token: token,
        message: "the file is not UTF-8 text: the byte sequence \(token) is not valid UTF-8")
    }
    return index + length
  }

  /// The length of the well-formed UTF-8 sequence at `index`, or `nil` if it is malformed.
  private func utf8Length(at index: Int) -> Int? {
    let lead = bytes[index]
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      high = 0x9F
    case 0xF0:
      length = 4
      low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      high = 0x8F
    default: return nil
    }
    guard index + length <= bytes.count else { return nil }
    let second = bytes[index + 1]
    guard second >= low, second <= high else { return nil }
    for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 {
      return nil
    }
    return length
  }

  // MARK: - Header and rows

  private mutating func parseHeader(_ tokens: [Token]) throws(DMColorTableError) {
    if let first = tokens.first, isColorLike(first) {
      throw error(
        .noHeader, at: first,
        "no header: expected theme names, found the colour \(quoted(first)); the first line that is "
          + "not blank or a comment must name the themes, for example \"NORMAL NIGHT\"")
    }
    // Where each variant is, for a duplicate's message; its column is counted only then, as
    // counting it for every name would take time in the square of the header's length.
    var seen: [ThemeColumn: Token] = [:]
    for token in tokens {
      let variant: ThemeColumn
      switch ThemeColumn.parse(bytes[token.start..<token.end]) {
      case .success(let parsed): variant = parsed
      case .failure(let problem):
        throw error(.badThemeName, at: token, "bad theme name \(quoted(token)): \(problem.reason)")
      }
      if let earlier = seen[variant] {
        let same = shown(earlier) == shown(token) ? "" : " as \(quoted(earlier))"
        throw error(
          .duplicateTheme, at: token,
          "duplicate theme \(quoted(token)): the header already names it\(same) at column \(column(of: earlier.start))"
        )
      }
      seen[variant] = token
      table.columns.append(variant)
    }
    hasHeader = true
    themeList = Self.themeList(table.columns)
  }

  private mutating func parseRow(_ tokens: [Token]) throws(DMColorTableError) {
    let themeCount = table.columns.count
    for (position, token) in tokens.enumerated() {
      if position < themeCount {
        guard isColorLike(token) else {
          if position == tokens.count - 1 {
            throw error(
              .tooFewColors, at: token,
              "too few colours for key \(quoted(token)): found \(position), expected "
                + "\(Self.count(themeCount, "colour")), one per theme \(themeList)")
          }
          throw badColor(token)
        }
        guard let color = DMColor.parseHex(bytes[token.start..<token.end]) else { throw badColor(token) }
        table.colors.append(color)
      } else if position == themeCount {
        if isColorLike(token) {
          var found = themeCount
          while found < tokens.count, isColorLike(tokens[found]) { found += 1 }
          throw error(
            .tooManyColors, at: token,
            "too many colours: \(quoted(token)) is colour \(themeCount + 1) of \(found), but the header "
              + "names \(Self.count(themeCount, "theme")) \(themeList)")
        }
        if let problem = KeyRule.problem(bytes[token.start..<token.end]) {
          throw error(.badKey, at: token, "bad key \(quoted(token)): \(problem); \(KeyRule.text)")
        }
        let key = string(token)
        if let earlier = table.keyIndex[key] {
          throw error(
            .duplicateKey, at: token,
            "duplicate key \(quoted(token)): line \(table.keyLines[earlier]) already defines it")
        }
        table.keyIndex[key] = table.keys.count
        table.keys.append(key)
        table.keyLines.append(line)
      } else {
        throw error(
          .unexpectedToken, at: token,
          "unexpected \(quoted(token)) after the key \(quoted(tokens[themeCount])): a row ends with its "
            + "key, and comments start with \"//\"")
      }
    }
    let rowEnd = tokens[tokens.count - 1].end
    if tokens.count < themeCount {
      throw DMColorTableError(
        kind: .tooFewColors, line: line, column: column(of: rowEnd), token: "",
        message: "too few colours and no key: found \(Self.count(tokens.count, "colour")) and the end of "
          + "the line, expected \(Self.count(themeCount, "colour")), one per theme \(themeList), then a key")
    }
    if tokens.count == themeCount {
      throw DMColorTableError(
        kind: .missingKey, line: line, column: column(of: rowEnd), token: "",
        message: "missing key: expected a key after the \(Self.count(themeCount, "colour")), found the "
          + "end of the line")
    }
  }

  // MARK: - Helpers

  /// `(NORMAL, NIGHT, RED)`; after eight names, `…, 1000 in all)`, each name cut after 64
  /// characters, so that a message stays short however many and however long the themes are.
  /// Made once, with the header.
  private var themeList = ""

  private static func themeList(_ themes: [ThemeColumn]) -> String {
    let shown = themes.prefix(8).map { ShownText.escaped($0.description, limit: 64) }.joined(separator: ", ")
    return themes.count > 8 ? "(\(shown), …, \(themes.count) in all)" : "(\(shown))"
  }

  /// `1 colour`, `2 colours`.
  private static func count(_ number: Int, _ noun: String) -> String {
    number == 1 ? "1 \(noun)" : "\(number) \(noun)s"
  }

  private func badColor(_ token: Token) -> DMColorTableError {
    let reason: String
    do {
      _ = try DMColor(hex: string(token))
      reason = "not a colour"
    } catch let error as DMColorError {
      reason = error.reason
    } catch {
      reason = "\(error)"
    }
    return self.error(.badColor, at: token, "bad colour \(quoted(token)): \(reason)")
  }

  /// Whether a token is meant as a colour: it starts with `#` or `0x`.
  private func isColorLike(_ token: Token) -> Bool {
    let first = bytes[token.start]
    if first == UInt8(ascii: "#") { return true }
    return first == UInt8(ascii: "0") && token.end - token.start >= 2
      && (bytes[token.start + 1] == UInt8(ascii: "x") || bytes[token.start + 1] == UInt8(ascii: "X"))
  }

  private func string(_ token: Token) -> String {
    String(decoding: bytes[token.start..<token.end], as: UTF8.self)
  }

  /// The token as a message shows it: quoted, escaped and cut (see ``shown(_:)``).
  private func quoted(_ token: Token) -> String {
    "\"\(shown(token))\""
  }

  /// The token as a message shows it: control characters escaped and at most 64 characters (a
  /// table's text may be anything, and a message reaches a terminal).
  private func shown(_ token: Token) -> String {
    // 64 characters take at most 256 bytes; a few more show that there is more.
    let end = min(token.end, token.start + 260)
    return ShownText.escaped(String(decoding: bytes[token.start..<end], as: UTF8.self), limit: 64)
  }

  /// The 1-based column of a byte offset on the current line, counted in Unicode scalars.
  private func column(of offset: Int) -> Int {
    var column = 1
    var index = lineStart
    while index < offset {
      if bytes[index] & 0xC0 != 0x80 { column += 1 }
      index += 1
    }
    return column
  }

  private func error(
    _ kind: DMColorTableError.Kind, at token: Token, _ message: String
  ) -> DMColorTableError {
    DMColorTableError(
      kind: kind, line: line, column: column(of: token.start), token: shown(token), message: message)
  }

  /// Bytes written as `\xFF\xFE`.
  private static func escaped(_ bytes: ArraySlice<UInt8>) -> String {
    let digits = Array("0123456789ABCDEF")
    return bytes.map { "\\x\(digits[Int($0 >> 4)])\(digits[Int($0 & 0xF)])" }.joined()
  }
}
