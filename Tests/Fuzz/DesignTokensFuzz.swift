// Fuzz target: reading design tokens (`DMDesignTokens.tableText(from:)`): the JSON reader, token
// files of every form, and resolver documents.
//
// Properties:
// - every error has a line in 0…(lines + 1), and a column of 0 only with a line of 0;
// - tokens that make a table give a text that parses as a table, and that table, written out as
//   design tokens and read back, is the same table (the same text once exported).

import Foundation

func fuzzSeeds() -> [[UInt8]] {
  let table = try! DMColorTable(
    string: "NORMAL NIGHT NORMAL:high SEPIA S:light S:dark\n#fff #000 #eee #f4ecd8 #fdf6e3 #002b36 Text\n"
      + "#111 #eee #000 #5b4636 #657b83 #839496 Text.Primary\n#00000080 #fff #000 #3b2f1e66 #00000044 #ffffff44 A..B\n"
  )
  return [
    table.exported(as: .json),
    ##"{"color": {"$type": "color", "a": {"$value": {"colorSpace": "srgb", "components": [1, 0, 0.5], "alpha": 0.5}}, "b": {"$value": "{color.a}"}, "c": {"$ref": "#/color/a/$value"}}}"##,
    ##"{"NORMAL": {"bg": {"$type": "color", "$value": "#ffffff"}}, "NIGHT": {"bg": {"$type": "color", "$value": "#000"}}}"##,
    ##"{"x": {"value": "#102030", "type": "color"}}"##,
    ##"{"version": "2025.10", "sets": {"s": {"sources": [{"c": {"$type": "color", "w": {"$value": {"colorSpace": "srgb", "components": [1, 1, 1]}}}}]}}, "modifiers": {"m": {"contexts": {"light": [], "dark": [{"c": {"w": {"$value": {"colorSpace": "srgb", "components": [0, 0, 0]}}}}]}}}, "resolutionOrder": [{"$ref": "#/sets/s"}, {"$ref": "#/modifiers/m"}]}"##,
    ##"{"$type": "color", "o": {"$value": {"colorSpace": "oklch", "components": [0.7, 0.3, 250]}}, "p": {"$value": {"colorSpace": "display-p3", "components": [1, 0, 0], "hex": "#ff0000"}}, "r": {"$value": "rgba(255 0 0 / 50%)"}, "h": {"$value": "hsl(210deg, 50%, 40%)"}, "e": {"$type": "cubic-bezier", "$value": [0, 0, 1, 1]}, "u": {"$value": 12}}"##,
    ##"{"version": "2025.10", "modifiers": {"mode": {"contexts": {"light": [{"bg": {"$type": "color", "$value": "#fff"}}], "dark-dimmed": [{"bg": {"$type": "color", "$value": "#222"}}], "darkHighContrast": [{"bg": {"$type": "color", "$value": "#000"}}]}, "default": "light"}}, "resolutionOrder": [{"$ref": "#/modifiers/mode"}]}"##,
    "[[[[[[[[[[]]]]]]]]]]", "{\"a\": \"\\ud800\\udc00\"}", "",
  ].map { Array($0.utf8) }
}

/// libFuzzer calls this with each input; a broken property aborts the run.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: fuzzBytes(data, size), as: UTF8.self)
  let lines = text.reduce(1) { $1 == "\n" || $1 == "\r" || $1 == "\r\n" ? $0 + 1 : $0 }
  do {
    let tableText = try DMDesignTokens.tableText(from: text)
    let table: DMColorTable
    do {
      table = try DMColorTable(string: tableText)
    } catch {
      require(false, "the tokens' table text does not parse: \(error)\n\(tableText)")
      return 0
    }
    // The same table, whatever spelling of its columns the tokens used (`SEPIA:light`, `SEPIA`).
    let again = try DMDesignTokens.table(from: table.exported(as: .json)).exported(as: .text)
    require(
      again == table.exported(as: .text),
      "written out and read back, the table changed:\n\(tableText)\n\(again)")
  } catch {
    require((0...lines + 1).contains(error.line), "an error's line \(error.line) is outside 0…\(lines + 1)")
    require((error.line == 0) == (error.column == 0), "an error has a line without a column: \(error)")
  }
  return 0
}
