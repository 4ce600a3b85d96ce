/// Whether the user asked for less motion: animations replaced by immediate changes.
///
/// `.unspecified` takes the motion of whatever it is merged over; the global collection falls back
/// to `.normal`. With `.reduced`, ``DMTransition/current`` never asks for an animation.
public enum DMAccessibilityMotion: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
  /// No preference chosen: follow the parent environment or the system.
  case unspecified = -1
  /// Animations as usual.
  case normal = 0
  /// Less motion: changes are shown at once.
  case reduced = 1

  /// The case name, as written in Swift (`normal`, `reduced`, `unspecified`).
  public var description: String {
    switch self {
    case .unspecified: "unspecified"
    case .normal: "normal"
    case .reduced: "reduced"
    }
  }
}
