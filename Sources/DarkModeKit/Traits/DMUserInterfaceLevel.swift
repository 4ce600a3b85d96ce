/// The visual level of content: the base level, or content elevated above it (a popover, a sheet).
///
/// `.unspecified` takes the level of whatever it is merged over; the global collection falls back
/// to `.base`.
public enum DMUserInterfaceLevel: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
  /// No level chosen: follow the parent environment.
  case unspecified = -1
  /// The base level of an interface.
  case base = 0
  /// Content shown above the base level.
  case elevated = 1

  /// The case name, as written in Swift (`base`, `elevated`, `unspecified`).
  public var description: String {
    switch self {
    case .unspecified: "unspecified"
    case .base: "base"
    case .elevated: "elevated"
    }
  }
}
