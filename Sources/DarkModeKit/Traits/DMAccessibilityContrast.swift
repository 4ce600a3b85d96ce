/// Whether the user asked for increased contrast.
///
/// `.unspecified` takes the contrast of whatever it is merged over; the global collection falls
/// back to `.normal`.
public enum DMAccessibilityContrast: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
  /// No contrast chosen: follow the parent environment or the system.
  case unspecified = -1
  /// The normal contrast.
  case normal = 0
  /// Increased contrast.
  case high = 1

  /// The case name, as written in Swift (`normal`, `high`, `unspecified`).
  public var description: String {
    switch self {
    case .unspecified: "unspecified"
    case .normal: "normal"
    case .high: "high"
    }
  }
}
