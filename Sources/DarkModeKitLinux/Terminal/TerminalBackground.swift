import DarkModeKit

/// What a terminal's background says about the style: parsing `COLORFGBG` and OSC 11 replies,
/// and deciding light or dark from a colour.
enum TerminalBackground {
  /// The style `COLORFGBG` gives: its last field is the background's colour index (`15;0` is
  /// white on black). Indexes 0–6 and 8 are dark, 7 and 9–15 are light (the rxvt convention);
  /// anything else gives `nil`.
  static func style(fromColorFGBG value: String) -> DMUserInterfaceStyle? {
    guard let last = value.split(separator: ";", omittingEmptySubsequences: false).last,
      let index = Int(last.trimmingCharacters(in: .whitespaces)), (0...15).contains(index)
    else { return nil }
    return index == 7 || index >= 9 ? .light : .dark
  }

  /// The colour in an OSC 11 reply (`ESC ] 11 ; rgb:RRRR/GGGG/BBBB` ended by BEL or `ESC \`),
  /// with 1 to 4 hexadecimal digits per component; `rgba:` with a fourth component and `#RRGGBB`
  /// are accepted too.
  static func color(fromOSC11Reply reply: [UInt8]) -> DMColor? {
    guard let start = find([0x1B, 0x5D, 0x31, 0x31, 0x3B], in: reply) else { return nil }
    var body = Array(reply[(start + 5)...])
    if let end = body.firstIndex(where: { $0 == 0x07 || $0 == 0x1B }) { body = Array(body[..<end]) }
    let text = String(decoding: body, as: UTF8.self)
    if text.hasPrefix("#") { return try? DMColor(hex: text) }
    let parts = text.split(separator: ":", maxSplits: 1)
    guard parts.count == 2, parts[0] == "rgb" || parts[0] == "rgba" else { return nil }
    let components = parts[1].split(separator: "/", omittingEmptySubsequences: false)
    guard components.count == (parts[0] == "rgb" ? 3 : 4) else { return nil }
    var values: [Double] = []
    for component in components.prefix(3) {
      guard (1...4).contains(component.count), let value = UInt32(component, radix: 16) else { return nil }
      values.append(Double(value) / Double((1 << (4 * component.count)) - 1))
    }
    return DMColor(red: values[0], green: values[1], blue: values[2])
  }

  /// Dark when the colour's relative luminance is below that of mid grey (L* 50), else light.
  static func style(forBackground color: DMColor) -> DMUserInterfaceStyle {
    color.relativeLuminance < 0.184 ? .dark : .light
  }

  static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    return (0...(haystack.count - needle.count)).first {
      haystack[$0..<($0 + needle.count)].elementsEqual(needle)
    }
  }
}
