// Fuzz target: `DMColor(hex:)`.
//
// Properties:
// - a colour that parses gives the same `hexString` when its `hexString` is parsed again;
// - a failure names the input as its token, at an offset within 0…(the token's length);
// - the byte-level parser the colour table uses agrees with `DMColor(hex:)`.

import Foundation

func fuzzSeeds() -> [[UInt8]] {
  [
    "#ffffff", "#343434", "#FaFaFa", "0xaabbcc", "0XAABBCC", "#abc", "#11223380", "0x11223380", "",
    "ffffff", "#12G", "#12345", "0xabc", "# ffffff", "#ffé", "#0A84FF80", "0x", "#",
  ].map { Array($0.utf8) }
}

/// libFuzzer calls this with each input; a broken property aborts the run.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = fuzzBytes(data, size)
  let text = String(decoding: bytes, as: UTF8.self)
  let fast = DMColor.parseHex(Array(text.utf8)[...])
  do {
    let color = try DMColor(hex: text)
    require(
      fast == color,
      "parseHex gives \(String(describing: fast)), init(hex:) \(color) for \(text.debugDescription)")
    let again = try DMColor(hex: color.hexString)
    require(again.hexString == color.hexString, "\(color.hexString) parses to \(again.hexString)")
  } catch let error as DMColorError {
    require(fast == nil, "parseHex accepts \(text.debugDescription), which init(hex:) rejects")
    require(
      error.token == text, "the token \(error.token.debugDescription) is the input \(text.debugDescription)")
    require(
      error.offset >= 0 && error.offset <= text.count,
      "offset \(error.offset) is outside 0…\(text.count) for \(text.debugDescription)")
    require(
      error.description.hasPrefix(ShownText.quoted(text)),
      "the message starts with the token as shown: \(error)")
  } catch {
    require(false, "init(hex:) threw \(type(of: error)), not DMColorError")
  }
  return 0
}
