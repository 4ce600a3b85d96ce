// Fuzz target: the colour-table parser, through `DMColorTable(string:)`, `DMColorTable.lint` and
// the byte-level parser that reads files.
//
// Properties:
// - a parsed table, written back out in the table format, parses to the same columns, keys and
//   colours;
// - every error has a line in 1…(lines + 1) and a column in 1…(that line's length + 1);
// - `lint` reports errors only for input that `parse` rejects, and its first error is the parse
//   error.

import Foundation

func fuzzSeeds() -> [[UInt8]] {
  [
    "NORMAL NIGHT\n#ffffff #343434 BG\n",
    "NORMAL NIGHT\n#fff #000 所有背景视图的默认颜色\n#111 #eee 1BG\n#222 #ddd a/b(c)\n#333 #ccc B\u{200B}G\n",
    "// comment\nNORMAL  NIGHT  RED\n#fff #000 #f00 Text.Primary // trailing\n0xAABBCC 0x11223380 #abc _x-1\n",
    "\u{FEFF}NORMAL\r\n#123456 A\r#12345678 B\n",
    "NORMAL NIGHT\n#fff #12G BG\n",
    "NORMAL NIGHT\n#fff BG\n#fff #000 #111 X\n#fff #000 BG extra\n#fff #000 BG\n",
    "NORMAL NORMAL\n",
    "#fff NIGHT\n",
    "\n\n// only comments\n",
    "",
    "NORMAL NIGHT\n#fff #000\n#fff\n1BG #fff\n",
    "NORMAL\té\n#fff\tkéy\n",
  ].map { Array($0.utf8) } + [[0xFF, 0xFE, 0x4E, 0x00], Array("NORMAL\n#fff K\u{1}".utf8) + [0xC3, 0x28]]
    + largeSeeds()
}

/// Large tables, so that mutations start from the sizes where the parser once went quadratic: many
/// keys, many themes, and many bad rows.
private func largeSeeds() -> [[UInt8]] {
  var keys = "NORMAL NIGHT RED\n"
  for key in 0..<20_000 { keys += "#\(String(key % 4096, radix: 16)) #000 #fff Key.\(key)\n" }
  let themes = (0..<5_000).map { "T\($0)" }.joined(separator: " ") + "\n#fff BG\n"
  let badRows =
    (0..<300).map { "T\($0)" }.joined(separator: " ") + "\n" + String(repeating: "#fff\n", count: 5_000)
  return [keys, themes, badRows].map { Array($0.utf8) }
}

/// libFuzzer calls this with each input; a broken property aborts the run.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = fuzzBytes(data, size)
  // As a file: raw bytes, UTF-8 checked.
  check(bytes, validatesUTF8: true)
  // As a `String`: what `DMColorTable(string:)` and `lint(string:)` see.
  let text = String(decoding: bytes, as: UTF8.self)
  check(Array(text.utf8), validatesUTF8: false)
  do {
    let table = try DMColorTable(string: text)
    require(table.themes.count > 0, "a parsed table has themes")
    require(DMColorTable.lint(string: text).isEmpty, "lint(string:) is empty for a valid table")
  } catch {
    require(
      DMColorTable.lint(string: text).first == error,
      "lint(string:) starts with the error init(string:) throws: \(error)")
  }
  return 0
}

private func check(_ bytes: [UInt8], validatesUTF8: Bool) {
  var lintErrors: [DMColorTableError] = []
  ColorTableParser.lint(bytes, validatesUTF8: validatesUTF8) { lintErrors.append($0) }
  // Counted once: the errors of a large input are many.
  let lengths = lineLengths(bytes)
  for error in lintErrors { checkPlace(error, lengths: lengths) }
  let parsed: ParsedColorTable
  do {
    parsed = try ColorTableParser.parse(bytes, validatesUTF8: validatesUTF8)
  } catch {
    checkPlace(error, lengths: lengths)
    require(
      lintErrors.first == error,
      "lint's first error \(lintErrors.first.map { "\($0)" } ?? "none") is the parse error \(error)")
    return
  }
  require(lintErrors.isEmpty, "lint reports \(lintErrors) for a table that parses")
  require(parsed.colors.count == parsed.keys.count * parsed.columns.count, "one colour per key and column")
  let written = format(parsed)
  do {
    let again = try ColorTableParser.parse(Array(written.utf8), validatesUTF8: true)
    require(again.columns == parsed.columns, "columns survive writing out: \(written)")
    require(again.keys == parsed.keys, "keys survive writing out: \(written)")
    require(again.colors == parsed.colors, "colours survive writing out: \(written)")
  } catch {
    require(false, "the written-out table does not parse: \(error)\n\(written)")
  }
}

/// The table in the colour-table format: the header, then one row per key.
private func format(_ table: ParsedColorTable) -> String {
  var text = table.columns.map(\.description).joined(separator: " ") + "\n"
  for (row, key) in table.keys.enumerated() {
    let colors = table.colors[row * table.columns.count..<(row + 1) * table.columns.count]
    text += colors.map(\.hexString).joined(separator: " ") + " " + key + "\n"
  }
  return text
}

/// Checks that an error's line and column are inside the input.
/// `lengths` are the input's line lengths (``lineLengths(_:)``).
private func checkPlace(_ error: DMColorTableError, lengths: [Int]) {
  require(
    error.line >= 1 && error.line <= lengths.count + 1,
    "line \(error.line) is outside 1…\(lengths.count + 1): \(error)")
  let length = error.line <= lengths.count ? lengths[error.line - 1] : 0
  require(
    error.column >= 1 && error.column <= length + 1,
    "column \(error.column) is outside 1…\(length + 1) on line \(error.line): \(error)")
}

/// The length of each line, in Unicode scalars (lead bytes), the byte order mark not counted; lines
/// end at LF, CRLF or CR.
private func lineLengths(_ bytes: [UInt8]) -> [Int] {
  var lengths: [Int] = []
  var index = 0
  if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
  var length = 0
  while index < bytes.count {
    let byte = bytes[index]
    index += 1
    if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
      if byte == UInt8(ascii: "\r"), index < bytes.count, bytes[index] == UInt8(ascii: "\n") { index += 1 }
      lengths.append(length)
      length = 0
    } else if byte & 0xC0 != 0x80 {
      length += 1
    }
  }
  lengths.append(length)
  return lengths
}
