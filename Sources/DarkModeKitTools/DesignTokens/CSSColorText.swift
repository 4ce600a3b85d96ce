import DarkModeKit
import DarkModeKitText
import Foundation

/// A colour written as CSS writes it with a function, as Tokens Studio and older drafts put it in a
/// token's value: `rgb(0, 0, 0)`, `rgba(255 0 0 / 50%)`, `hsl(210deg 50% 40%)`, `oklch(0.7 0.1
/// 250)`, `color(display-p3 1 0 0)`. Read into the components of a colour space as the Design Tokens
/// Color module writes them.
struct CSSColorText {
  let space: TokenColorSpace
  let components: [Double]
  let alpha: Double

  /// Reads `text`, or says what is wrong with it.
  static func read(_ text: String) -> Result<CSSColorText, CSSColorProblem> {
    let lowered = text.lowercased().trimmingCharacters(in: .whitespaces)
    guard let open = lowered.firstIndex(of: "("), lowered.hasSuffix(")") else {
      return .failure(
        CSSColorProblem(
          "expected #rrggbb, #rrggbbaa, #rgb or a CSS colour function such as rgb(…) or oklch(…)"))
    }
    let name = String(lowered[..<open])
    // The name as a message shows it: escaped, and cut.
    let shownName = ShownText.escaped(name, limit: 32)
    // The alpha after `/`, or as a fourth argument of the comma form.
    let halves = lowered[lowered.index(after: open)..<lowered.index(before: lowered.endIndex)]
      .split(separator: "/", omittingEmptySubsequences: false)
    guard halves.count <= 2 else {
      return .failure(CSSColorProblem("\(shownName)() has more than one \"/\""))
    }
    var arguments = halves[0].split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(String.init)
    var alphaText = halves.count == 2 ? halves[1].trimmingCharacters(in: .whitespaces) : nil
    let space: TokenColorSpace
    switch name {
    case "rgb", "rgba": space = .srgb
    case "hsl", "hsla": space = .hsl
    case "hwb", "lab", "lch", "oklab", "oklch": space = TokenColorSpace(rawValue: name)!
    case "color":
      guard let first = arguments.first, let named = TokenColorSpace(rawValue: first),
        ![.hsl, .hwb, .lab, .lch, .oklab, .oklch].contains(named)
      else {
        return .failure(
          CSSColorProblem("color() needs a colour space such as srgb or display-p3 first"))
      }
      space = named
      arguments.removeFirst()
    default:
      return .failure(CSSColorProblem("\(shownName)() is not a CSS colour function this reads"))
    }
    if alphaText == nil, arguments.count == 4 {
      alphaText = arguments.removeLast()
    }
    guard arguments.count == 3 else {
      return .failure(CSSColorProblem("\(shownName)() needs three components, found \(arguments.count)"))
    }
    var components: [Double] = []
    for (index, argument) in arguments.enumerated() {
      guard let value = component(argument, index: index, of: space, legacyRGB: name.hasPrefix("rgb")) else {
        return .failure(CSSColorProblem("\(ShownText.quoted(argument)) is not a component of \(shownName)()"))
      }
      components.append(value)
    }
    var alpha = 1.0
    if let alphaText {
      guard let value = number(alphaText, percentOf: 1) else {
        return .failure(CSSColorProblem("\(ShownText.quoted(alphaText)) is not an alpha"))
      }
      alpha = value
    }
    return .success(CSSColorText(space: space, components: components, alpha: alpha))
  }

  /// A component as the Color module writes it: `none` is 0, a percentage is of the component's
  /// reference range, a hue may be in degrees (`deg`).
  private static func component(_ text: String, index: Int, of space: TokenColorSpace, legacyRGB: Bool)
    -> Double?
  {
    if text == "none" { return 0 }
    switch (space, index) {
    case (.srgb, _) where legacyRGB:
      // rgb() takes 0–255, or a percentage.
      return text.hasSuffix("%") ? number(text, percentOf: 1) : Double(text).map { $0 / 255 }
    case (.hsl, 0), (.hwb, 0), (.lch, 2), (.oklch, 2):
      return Double(text.hasSuffix("deg") ? String(text.dropLast(3)) : text)
    case (.hsl, _), (.hwb, _): return number(text, percentOf: 100)
    case (.lab, 0), (.lch, 0): return number(text, percentOf: 100)
    case (.lab, _): return number(text, percentOf: 125)
    case (.lch, 1): return number(text, percentOf: 150)
    case (.oklab, 0), (.oklch, 0): return number(text, percentOf: 1)
    case (.oklab, _): return number(text, percentOf: 0.4)
    case (.oklch, 1): return number(text, percentOf: 0.4)
    default: return number(text, percentOf: 1)
    }
  }

  /// A number, or a percentage of `whole`.
  private static func number(_ text: String, percentOf whole: Double) -> Double? {
    guard text.hasSuffix("%") else { return Double(text).flatMap { $0.isFinite ? $0 : nil } }
    return Double(text.dropLast()).flatMap { $0.isFinite ? $0 / 100 * whole : nil }
  }
}

/// What is wrong with a colour's text.
struct CSSColorProblem: Error {
  let reason: String
  init(_ reason: String) { self.reason = reason }
}
