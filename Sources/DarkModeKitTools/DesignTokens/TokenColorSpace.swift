import DarkModeKit
import Foundation

/// The colour spaces of the Design Tokens Color module 2025.10, and the way each comes to sRGB: the
/// conversions of CSS Color 4, and its gamut mapping for a colour sRGB cannot show.
///
/// Components are as the module writes them: 0–1 for the RGB spaces and XYZ, hue in degrees,
/// `hsl` and `hwb` saturation, lightness, whiteness and blackness from 0 to 100, `lab` and `lch`
/// lightness from 0 to 100, `oklab` and `oklch` lightness from 0 to 1.
enum TokenColorSpace: String, CaseIterable {
  case srgb
  case srgbLinear = "srgb-linear"
  case hsl, hwb, lab, lch, oklab, oklch
  case displayP3 = "display-p3"
  case a98RGB = "a98-rgb"
  case prophotoRGB = "prophoto-rgb"
  case rec2020
  case xyzD65 = "xyz-d65"
  case xyzD50 = "xyz-d50"

  typealias Triple = SIMD3<Double>

  /// The range each component must be in, `nil` for none; a hue may be any angle.
  var ranges: [ClosedRange<Double>?] {
    switch self {
    case .srgb, .srgbLinear, .displayP3, .a98RGB, .prophotoRGB, .rec2020: [0...1, 0...1, 0...1]
    case .hsl, .hwb: [nil, 0...100, 0...100]
    case .lab: [0...100, nil, nil]
    case .lch: [0...100, 0...Double.greatestFiniteMagnitude, nil]
    case .oklab: [0...1, nil, nil]
    case .oklch: [0...1, 0...Double.greatestFiniteMagnitude, nil]
    case .xyzD65, .xyzD50: [nil, nil, nil]
    }
  }

  /// Whether CSS writes a colour of this space with a function of its own (`oklch(…)`), rather
  /// than `color(display-p3 …)`.
  var isFunction: Bool { [.hsl, .hwb, .lab, .lch, .oklab, .oklch].contains(self) }

  /// The colour in linear-light XYZ with the D65 white point.
  func xyzD65(_ c: Triple) -> Triple {
    switch self {
    case .srgb: Self.linearSRGBToXYZ * c.map(Self.srgbToLinear)
    case .srgbLinear: Self.linearSRGBToXYZ * c
    case .hsl: Self.srgb.xyzD65(Self.hslToSRGB(c))
    case .hwb: Self.srgb.xyzD65(Self.hwbToSRGB(c))
    case .lab: Self.d50ToD65 * Self.labToXYZD50(c)
    case .lch: Self.d50ToD65 * Self.labToXYZD50(Self.polarToRectangular(c))
    case .oklab: Self.oklabToXYZ(c)
    case .oklch: Self.oklabToXYZ(Self.polarToRectangular(c))
    case .displayP3: Self.linearP3ToXYZ * c.map(Self.srgbToLinear)
    case .a98RGB: Self.linearA98ToXYZ * c.map { Self.signed($0) { pow($0, 563 / 256) } }
    case .prophotoRGB: Self.d50ToD65 * (Self.linearProPhotoToXYZD50 * c.map(Self.prophotoToLinear))
    case .rec2020: Self.linearRec2020ToXYZ * c.map(Self.rec2020ToLinear)
    case .xyzD65: c
    case .xyzD50: Self.d50ToD65 * c
    }
  }

  /// The colour in sRGB, each component from 0 to 1, and whether it had to be brought into sRGB's
  /// gamut (CSS Color 4's gamut mapping: the chroma lowered in OKLCH until the colour, clipped, is
  /// within a just noticeable difference of it).
  /// `nil` for components so large that the conversion overflows.
  func srgb(_ components: Triple) -> (color: Triple, wasMapped: Bool)? {
    // sRGB written otherwise is taken as it is, without a round trip through XYZ that would tip a
    // channel on a half (`hsl(0 0% 50%)` is #808080).
    switch self {
    case .srgb: return (components, false)
    case .hsl: return (Self.hslToSRGB(components).clamped(lowerBound: .zero, upperBound: .one), false)
    case .hwb: return (Self.hwbToSRGB(components).clamped(lowerBound: .zero, upperBound: .one), false)
    default: break
    }
    let xyz = xyzD65(components)
    let rgb = Self.xyzToSRGB(xyz)
    if Self.isInSRGB(rgb) { return (rgb.clamped(lowerBound: .zero, upperBound: .one), false) }
    // OKLCH and OKLab are mapped from their own components, which may hold any chroma.
    let oklch =
      switch self {
      case .oklch: Triple(components.x, components.y, Self.hue(components.z))
      case .oklab: Self.rectangularToPolar(components)
      default: Self.rectangularToPolar(Self.xyzToOKLab(xyz))
      }
    guard oklch.x.isFinite, oklch.y.isFinite, oklch.z.isFinite else { return nil }
    return (Self.mapIntoSRGB(oklch), true)
  }

  // MARK: Gamut mapping

  /// CSS Color 4's "just noticeable difference" in OKLab, and the precision of its search.
  private static let justNoticeable = 0.02
  private static let precision = 0.0001

  /// Within sRGB, allowing for rounding: a colour exactly on the gamut's edge often comes back a
  /// hair outside.
  private static func isInSRGB(_ rgb: Triple) -> Bool {
    let margin = 0.000_075
    return (0..<3).allSatisfy { (-margin...(1 + margin)).contains(rgb[$0]) }
  }

  /// CSS Color 4's gamut mapping of an OKLCH colour into sRGB.
  private static func mapIntoSRGB(_ origin: Triple) -> Triple {
    if origin.x >= 1 { return .one }
    if origin.x <= 0 { return .zero }
    func toSRGB(_ oklch: Triple) -> Triple { xyzToSRGB(oklabToXYZ(polarToRectangular(oklch))) }
    func clip(_ rgb: Triple) -> Triple { rgb.clamped(lowerBound: .zero, upperBound: .one) }
    func difference(_ rgb: Triple, _ oklch: Triple) -> Double {
      let delta = xyzToOKLab(linearSRGBToXYZ * rgb.map(srgbToLinear)) - polarToRectangular(oklch)
      return (delta * delta).sum().squareRoot()
    }
    var current = origin
    var clipped = clip(toSRGB(current))
    if difference(clipped, current) < justNoticeable { return clipped }
    var low = 0.0
    // No colour of sRGB has a chroma near 1: the search starts there at most, so that a chroma of
    // any size costs no more steps and no overflow (the colour found is the same).
    var high = min(origin.y, 1)
    current.y = high
    var lowIsInGamut = true
    while high - low > precision {
      current.y = (low + high) / 2
      let rgb = toSRGB(current)
      if lowIsInGamut, isInSRGB(rgb) {
        low = current.y
        continue
      }
      clipped = clip(rgb)
      let error = difference(clipped, current)
      if error < justNoticeable {
        if justNoticeable - error < precision { return clipped }
        lowIsInGamut = false
        low = current.y
      } else {
        high = current.y
      }
    }
    return clipped
  }

  // MARK: Conversions (CSS Color 4)

  private static func signed(_ value: Double, _ transfer: (Double) -> Double) -> Double {
    value < 0 ? -transfer(-value) : transfer(value)
  }

  private static func srgbToLinear(_ value: Double) -> Double {
    signed(value) { $0 <= 0.04045 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }
  }

  private static func linearToSRGB(_ value: Double) -> Double {
    signed(value) { $0 <= 0.003_130_8 ? $0 * 12.92 : 1.055 * pow($0, 1 / 2.4) - 0.055 }
  }

  private static func prophotoToLinear(_ value: Double) -> Double {
    signed(value) { $0 <= 16 / 512 ? $0 / 16 : pow($0, 1.8) }
  }

  /// Rec. 2020 as a display shows it: ITU-R BT.1886's power of 2.4, as CSS Color 4 now has it.
  private static func rec2020ToLinear(_ value: Double) -> Double {
    signed(value) { pow($0, 2.4) }
  }

  private static func xyzToSRGB(_ xyz: Triple) -> Triple { (xyzToLinearSRGB * xyz).map(linearToSRGB) }

  /// A hue in degrees, any angle, in 0–360.
  private static func hue(_ degrees: Double) -> Double {
    let turned = degrees.truncatingRemainder(dividingBy: 360)
    return turned < 0 ? turned + 360 : turned
  }

  private static func hslToSRGB(_ c: Triple) -> Triple {
    let saturation = c.y / 100
    let lightness = c.z / 100
    func channel(_ n: Double) -> Double {
      let k = (n + hue(c.x) / 30).truncatingRemainder(dividingBy: 12)
      let a = saturation * min(lightness, 1 - lightness)
      return lightness - a * max(-1, min(k - 3, 9 - k, 1))
    }
    return Triple(channel(0), channel(8), channel(4))
  }

  private static func hwbToSRGB(_ c: Triple) -> Triple {
    let white = c.y / 100
    let black = c.z / 100
    if white + black >= 1 { return Triple(repeating: white / (white + black)) }
    let pure = hslToSRGB(Triple(c.x, 100, 50))
    return pure * (1 - white - black) + Triple(repeating: white)
  }

  /// (L, C, H) to (L, a, b).
  private static func polarToRectangular(_ c: Triple) -> Triple {
    let radians = hue(c.z) * .pi / 180
    return Triple(c.x, c.y * cos(radians), c.y * sin(radians))
  }

  /// (L, a, b) to (L, C, H).
  private static func rectangularToPolar(_ c: Triple) -> Triple {
    Triple(c.x, (c.y * c.y + c.z * c.z).squareRoot(), hue(atan2(c.z, c.y) * 180 / .pi))
  }

  private static func labToXYZD50(_ lab: Triple) -> Triple {
    let kappa = 24_389.0 / 27
    let epsilon = 216.0 / 24_389
    let white = Triple(0.3457 / 0.3585, 1, (1 - 0.3457 - 0.3585) / 0.3585)
    let f1 = (lab.x + 16) / 116
    let f0 = lab.y / 500 + f1
    let f2 = f1 - lab.z / 200
    let x = pow(f0, 3) > epsilon ? pow(f0, 3) : (116 * f0 - 16) / kappa
    let y = lab.x > kappa * epsilon ? pow(f1, 3) : lab.x / kappa
    let z = pow(f2, 3) > epsilon ? pow(f2, 3) : (116 * f2 - 16) / kappa
    return Triple(x, y, z) * white
  }

  private static func oklabToXYZ(_ oklab: Triple) -> Triple {
    let lms = (oklabToLMS * oklab).map { $0 * $0 * $0 }
    return lmsToXYZ * lms
  }

  private static func xyzToOKLab(_ xyz: Triple) -> Triple {
    lmsToOKLab * (xyzToLMS * xyz).map { cbrt($0) }
  }

  // The matrices of CSS Color 4's sample code.
  private static let linearSRGBToXYZ = Matrix(
    Triple(506_752 / 1_228_815, 87_881 / 245_763, 12_673 / 70_218),
    Triple(87_098 / 409_605, 175_762 / 245_763, 12_673 / 175_545),
    Triple(7_918 / 409_605, 87_881 / 737_289, 1_001_167 / 1_053_270))
  private static let xyzToLinearSRGB = Matrix(
    Triple(12_831 / 3_959, -329 / 214, -1_974 / 3_959),
    Triple(-851_781 / 878_810, 1_648_619 / 878_810, 36_519 / 878_810),
    Triple(705 / 12_673, -2_585 / 12_673, 705 / 667))
  private static let linearP3ToXYZ = Matrix(
    Triple(608_311 / 1_250_200, 189_793 / 714_400, 198_249 / 1_000_160),
    Triple(35_783 / 156_275, 247_089 / 357_200, 198_249 / 2_500_400),
    Triple(0, 32_229 / 714_400, 5_220_557 / 5_000_800))
  private static let linearA98ToXYZ = Matrix(
    Triple(573_536 / 994_567, 263_643 / 1_420_810, 187_206 / 994_567),
    Triple(591_459 / 1_989_134, 6_239_551 / 9_945_670, 374_412 / 4_972_835),
    Triple(53_769 / 1_989_134, 351_524 / 4_972_835, 4_929_758 / 4_972_835))
  private static let linearProPhotoToXYZD50 = Matrix(
    Triple(0.797_766_644_900_642_3, 0.135_181_297_400_533_08, 0.031_347_734_128_392_2),
    Triple(0.288_074_828_819_401_3, 0.711_835_234_241_873, 0.000_089_936_938_725_64),
    Triple(0, 0, 0.825_104_602_510_460_2))
  private static let linearRec2020ToXYZ = Matrix(
    Triple(63_426_534 / 99_577_255, 20_160_776 / 139_408_157, 47_086_771 / 278_816_314),
    Triple(26_158_966 / 99_577_255, 472_592_308 / 697_040_785, 8_267_143 / 139_408_157),
    Triple(0, 19_567_812 / 697_040_785, 295_819_943 / 278_816_314))
  /// Bradford's chromatic adaptation from D50 to D65.
  private static let d50ToD65 = Matrix(
    Triple(0.955_473_421_488_075, -0.023_098_454_948_764_71, 0.063_259_243_200_570_72),
    Triple(-0.028_369_709_333_863_7, 1.009_995_398_081_304_1, 0.021_041_441_191_917_323),
    Triple(0.012_314_014_864_481_998, -0.020_507_649_298_898_964, 1.330_365_926_242_124))
  private static let oklabToLMS = Matrix(
    Triple(1, 0.396_337_777_376_174_9, 0.215_803_757_309_913_6),
    Triple(1, -0.105_561_345_815_658_6, -0.063_854_172_825_813_3),
    Triple(1, -0.089_484_177_529_811_9, -1.291_485_548_019_409_2))
  private static let lmsToXYZ = Matrix(
    Triple(1.226_879_875_845_924_3, -0.557_814_994_460_217_1, 0.281_391_045_665_964_7),
    Triple(-0.040_575_745_214_800_8, 1.112_286_803_280_317, -0.071_711_058_065_516_4),
    Triple(-0.076_372_936_674_660_1, -0.421_493_332_402_243_2, 1.586_924_019_836_781_6))
  private static let xyzToLMS = Matrix(
    Triple(0.819_022_437_996_703, 0.361_906_260_052_890_4, -0.128_873_781_520_987_9),
    Triple(0.032_983_653_932_388_5, 0.929_286_861_586_343_4, 0.036_144_666_350_642_4),
    Triple(0.048_177_189_359_624_2, 0.264_239_531_752_730_8, 0.633_547_828_469_430_9))
  private static let lmsToOKLab = Matrix(
    Triple(0.210_454_268_309_314, 0.793_617_774_702_305_4, -0.004_072_043_011_619_3),
    Triple(1.977_998_532_431_168_4, -2.428_592_242_048_579_9, 0.450_593_709_617_411),
    Triple(0.025_904_042_465_547_8, 0.782_771_712_457_529_6, -0.808_675_754_923_077_4))

  /// A 3 × 3 matrix, by rows.
  struct Matrix {
    let rows: (Triple, Triple, Triple)
    init(_ first: Triple, _ second: Triple, _ third: Triple) { rows = (first, second, third) }

    static func * (matrix: Matrix, vector: Triple) -> Triple {
      Triple((matrix.rows.0 * vector).sum(), (matrix.rows.1 * vector).sum(), (matrix.rows.2 * vector).sum())
    }
  }
}

extension SIMD3<Double> {
  /// Each component transformed.
  fileprivate func map(_ transform: (Double) -> Double) -> SIMD3<Double> {
    SIMD3(transform(x), transform(y), transform(z))
  }
}
