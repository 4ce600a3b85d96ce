/// The light or dark appearance of an interface.
///
/// `.unspecified` means "no preference": a trait collection with an unspecified style takes the
/// style of whatever it is merged over, and the global collection falls back to `.light`.
public enum DMUserInterfaceStyle: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
  /// No style chosen: follow the parent environment or the system.
  case unspecified = 0
  /// The light appearance.
  case light = 1
  /// The dark appearance.
  case dark = 2

  /// The case name, as written in Swift (`light`, `dark`, `unspecified`).
  public var description: String {
    switch self {
    case .unspecified: "unspecified"
    case .light: "light"
    case .dark: "dark"
    }
  }
}
