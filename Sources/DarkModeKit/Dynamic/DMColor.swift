/// An sRGB colour with alpha, each component a `Double` in `0...1`.
///
/// ```swift
/// let background = DMColor(rgb: 0x343434)
/// let accent = try DMColor(hex: "#0A84FF")
/// let translucent = DMColor(white: 0, alpha: 0.5)
/// ```
public struct DMColor: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The red component, `0...1`.
  public var red: Double
  /// The green component, `0...1`.
  public var green: Double
  /// The blue component, `0...1`.
  public var blue: Double
  /// The opacity, `0...1`; `1` is opaque.
  public var alpha: Double

  /// Creates a colour from sRGB components. Values outside `0...1` are clamped, and NaN counts
  /// as `0`.
  /// - Parameters:
  ///   - red: The red component.
  ///   - green: The green component.
  ///   - blue: The blue component.
  ///   - alpha: The opacity; opaque by default.
  public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
    self.red = Self.clamped(red)
    self.green = Self.clamped(green)
    self.blue = Self.clamped(blue)
    self.alpha = Self.clamped(alpha)
  }

  /// Creates a colour from a `0xRRGGBB` integer, as colour tables and design tools write it.
  /// - Parameters:
  ///   - rgb: The colour; bits above the low 24 are ignored.
  ///   - alpha: The opacity; opaque by default.
  public init(rgb: UInt32, alpha: Double = 1) {
    self.init(
      red: Double((rgb >> 16) & 0xFF) / 255,
      green: Double((rgb >> 8) & 0xFF) / 255,
      blue: Double(rgb & 0xFF) / 255,
      alpha: alpha)
  }

  /// Creates a grey.
  /// - Parameters:
  ///   - white: The brightness, from `0` (black) to `1` (white).
  ///   - alpha: The opacity.
  public init(white: Double, alpha: Double) {
    self.init(red: white, green: white, blue: white, alpha: alpha)
  }

  /// Creates a colour from hue, saturation and brightness (HSB, also called HSV).
  /// - Parameters:
  ///   - hue: The hue, `0...1` around the colour wheel (`0` and `1` are red).
  ///   - saturation: The saturation, `0...1`.
  ///   - brightness: The brightness, `0...1`.
  ///   - alpha: The opacity.
  public init(hue: Double, saturation: Double, brightness: Double, alpha: Double) {
    let h = Self.clamped(hue) * 6
    let s = Self.clamped(saturation)
    let v = Self.clamped(brightness)
    let sector = min(Int(h), 5)
    let fraction = h - Double(sector)
    let p = v * (1 - s)
    let q = v * (1 - s * fraction)
    let t = v * (1 - s * (1 - fraction))
    let (r, g, b): (Double, Double, Double) =
      switch sector {
      case 0: (v, t, p)
      case 1: (q, v, p)
      case 2: (p, v, t)
      case 3: (p, q, v)
      case 4: (t, p, v)
      default: (v, p, q)
      }
    self.init(red: r, green: g, blue: b, alpha: alpha)
  }

  /// The colour as `#RRGGBB`, or `#RRGGBBAA` when it is not opaque; upper-case hexadecimal.
  public var hexString: String {
    // Byte by byte: tables of many colours write millions of them.
    var bytes: [UInt8] = [UInt8(ascii: "#")]
    bytes.reserveCapacity(9)
    for component in alpha < 1 ? [red, green, blue, alpha] : [red, green, blue] {
      Self.appendHexByte(component, to: &bytes)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The colour's ``hexString``.
  public var description: String { hexString }

  private static func clamped(_ value: Double) -> Double {
    value.isNaN ? 0 : min(max(value, 0), 1)
  }

  private static func appendHexByte(_ component: Double, to bytes: inout [UInt8]) {
    let byte = Int((component * 255).rounded())
    for digit in [byte >> 4, byte & 0xF] {
      bytes.append(digit < 10 ? UInt8(ascii: "0") + UInt8(digit) : UInt8(ascii: "A") + UInt8(digit - 10))
    }
  }
}

extension DMColor {
  /// Black (`#000000`).
  public static let black = DMColor(white: 0, alpha: 1)
  /// Dark grey: one-third white (`#555555`), as in UIKit.
  public static let darkGray = DMColor(white: 1.0 / 3.0, alpha: 1)
  /// Light grey: two-thirds white (`#AAAAAA`), as in UIKit.
  public static let lightGray = DMColor(white: 2.0 / 3.0, alpha: 1)
  /// White (`#FFFFFF`).
  public static let white = DMColor(white: 1, alpha: 1)
  /// Grey: half white (`#808080`).
  public static let gray = DMColor(white: 0.5, alpha: 1)
  /// Red (`#FF0000`).
  public static let red = DMColor(red: 1, green: 0, blue: 0)
  /// Green (`#00FF00`).
  public static let green = DMColor(red: 0, green: 1, blue: 0)
  /// Blue (`#0000FF`).
  public static let blue = DMColor(red: 0, green: 0, blue: 1)
  /// Cyan (`#00FFFF`).
  public static let cyan = DMColor(red: 0, green: 1, blue: 1)
  /// Yellow (`#FFFF00`).
  public static let yellow = DMColor(red: 1, green: 1, blue: 0)
  /// Magenta (`#FF00FF`).
  public static let magenta = DMColor(red: 1, green: 0, blue: 1)
  /// Orange (`#FF8000`), as in UIKit.
  public static let orange = DMColor(red: 1, green: 0.5, blue: 0)
  /// Purple (`#800080`), as in UIKit.
  public static let purple = DMColor(red: 0.5, green: 0, blue: 0.5)
  /// Brown (`#996633`), as in UIKit.
  public static let brown = DMColor(red: 0.6, green: 0.4, blue: 0.2)
  /// Fully transparent black.
  public static let clear = DMColor(white: 0, alpha: 0)
}
