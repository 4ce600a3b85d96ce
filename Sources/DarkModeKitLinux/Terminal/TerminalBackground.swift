import DarkModeKit

/// What a terminal's background says about the style: parsing `COLORFGBG` and OSC 11 replies,
/// and deciding light or dark from a colour.
enum TerminalBackground {
  /// Whether the terminal is asked at all: not a `dumb` one, and not inside GNU screen, which
  /// answers the device-attributes request itself, before the terminal's own reply to OSC 11 has
  /// come through it, so that the reply would reach the program or the shell as typed text.
  static func asksTerminal(in environment: [String: String]) -> Bool {
    environment["TERM"] != "dumb" && !isInsideScreen(environment)
  }

  /// Inside GNU screen: `STY` set, or a `TERM` of screen's (`screen…`) outside tmux, as after
  /// `sudo` or `ssh`, which keep `TERM` but not `STY`.
  static func isInsideScreen(_ environment: [String: String]) -> Bool {
    !(environment["STY"] ?? "").isEmpty
      || ((environment["TERM"] ?? "").hasPrefix("screen") && (environment["TMUX"] ?? "").isEmpty)
  }

  /// Whether `COLORFGBG` is read: only from the terminals known to set it from their colours, the
  /// rxvt family (`TERM` `rxvt…`: rxvt and urxvt, which do not all answer OSC 11), outside a
  /// multiplexer (whose panes inherit the variable of the terminal the session was started in).
  /// Other terminals leave it unset, pass on the one they were started with, or set a constant
  /// (QTerminal always says `15;0`, white on black).
  static func trustsColorFGBG(in environment: [String: String]) -> Bool {
    let isMultiplexed = isInsideScreen(environment) || !(environment["TMUX"] ?? "").isEmpty
    return !isMultiplexed && (environment["TERM"] ?? "").hasPrefix("rxvt")
  }

  /// How long to wait for the terminal's reply by default: 250 ms, or 1 s over SSH (`SSH_TTY`,
  /// `SSH_CONNECTION`), where the reply makes a round trip over the network.
  static func defaultTimeoutMilliseconds(in environment: [String: String]) -> Int {
    let isRemote = !(environment["SSH_TTY"] ?? "").isEmpty || !(environment["SSH_CONNECTION"] ?? "").isEmpty
    return isRemote ? 1_000 : 250
  }

  /// The style `COLORFGBG` gives: its last field is the background's colour index (`15;0` is
  /// white on black). Indexes 0–6 and 8 are dark, 7 and 9–15 are light (the rxvt convention);
  /// anything else gives `nil`.
  static func style(fromColorFGBG value: String) -> DMUserInterfaceStyle? {
    guard let last = value.split(separator: ";", omittingEmptySubsequences: false).last,
      let index = Int(last.trimmingCharacters(in: .whitespaces)), (0...15).contains(index)
    else { return nil }
    return index == 7 || index >= 9 ? .light : .dark
  }

  /// The colour in an OSC 11 reply (`ESC ] 11 ; rgb:RRRR/GGGG/BBBB` ended by BEL, `ESC \` or the
  /// 8-bit ST, 0x9C), with 1 to 4 hexadecimal digits per component; `rgba:` with a fourth
  /// component and `#RRGGBB` are accepted too.
  static func color(fromOSC11Reply reply: [UInt8]) -> DMColor? {
    guard let start = find([0x1B, 0x5D, 0x31, 0x31, 0x3B], in: reply) else { return nil }
    var body = Array(reply[(start + 5)...])
    if let end = body.firstIndex(where: { $0 == 0x07 || $0 == 0x1B || $0 == 0x9C }) {
      body = Array(body[..<end])
    }
    let text = String(decoding: body, as: UTF8.self)
    if text.hasPrefix("#") { return try? DMColor(hex: text) }
    let parts = text.split(separator: ":", maxSplits: 1)
    guard parts.count == 2, parts[0] == "rgb" || parts[0] == "rgba" else { return nil }
    let components = parts[1].split(separator: "/", omittingEmptySubsequences: false)
    guard components.count == (parts[0] == "rgb" ? 3 : 4) else { return nil }
    var values: [Double] = []
    // Every component has the same number of digits: a reply cut short has fewer in its last.
    guard Set(components.prefix(3).map(\.count)).count == 1 else { return nil }
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
