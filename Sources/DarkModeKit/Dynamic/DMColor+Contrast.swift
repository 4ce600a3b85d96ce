import Foundation

extension DMColor {
  /// The WCAG 2.x relative luminance: 0 for black, 1 for white. Alpha is ignored.
  public var relativeLuminance: Double {
    func linear(_ component: Double) -> Double {
      component <= 0.04045 ? component / 12.92 : pow((component + 0.055) / 1.055, 2.4)
    }
    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
  }

  /// The WCAG 2.x contrast ratio of two colours, from 1 (none) to 21 (black on white).
  ///
  /// WCAG asks for 4.5 for body text (level AA), 3 for large text, and 7 for level AAA.
  ///
  /// ```swift
  /// print(DMColor.black.contrastRatio(with: .white))           // 21.0
  /// print(DMColor(rgb: 0x777777).contrastRatio(with: .white))  // about 4.48
  /// ```
  /// - Parameter other: The other colour; the order does not matter.
  /// - Returns: The ratio, `(lighter + 0.05) / (darker + 0.05)`.
  public func contrastRatio(with other: DMColor) -> Double {
    let (a, b) = (relativeLuminance, other.relativeLuminance)
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)
  }
}
