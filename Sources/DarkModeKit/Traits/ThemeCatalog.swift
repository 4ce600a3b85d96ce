/// The sides every theme has, as the process's tables, theme maps and images declared them: the
/// one place that knows that `SEPIA` is light and `SOLARIZED` has both sides.
///
/// Declarations only add sides. When one adds a side, the listener (the engine) brings every
/// resolved collection up to date, since a theme's sides can change the style it resolves to.
enum ThemeCatalog {
  typealias Listener = @Sendable () -> Void

  private struct State {
    /// Indexed by theme number: bit 0 light, bit 1 dark.
    var sides: [UInt8] = []
    var listener: Listener?
    /// Counts declarations that added a side, on any thread.
    var generation: UInt64 = 0
  }

  private static let state: Locked<State> = {
    var state = State()
    for variant in [DMThemeVariant.normal, .night, DMThemeVariant(.darkName)] {
      insert(variant, into: &state.sides)
    }
    return Locked(state)
  }()

  /// The sides of `theme`, as bits: 1 light, 2 dark, 0 when nothing declared it.
  @inline(__always)
  static func sideBits(of theme: DMTheme) -> UInt8 {
    state.withLock { state in
      Int(theme.id) < state.sides.count ? state.sides[Int(theme.id)] : 0
    }
  }

  /// The style a theme with one side makes, or `nil` for a theme with both or none.
  @inline(__always)
  static func onlySide(of theme: DMTheme) -> DMUserInterfaceStyle? {
    switch sideBits(of: theme) {
    case 1: .light
    case 2: .dark
    default: nil
    }
  }

  /// Adds the sides of `variants`; tells the listener when that added any.
  static func declare(_ variants: some Sequence<DMThemeVariant>) {
    let listener = state.withLock { state -> Listener?? in
      var changed = false
      for variant in variants where insert(variant, into: &state.sides) { changed = true }
      if changed { state.generation &+= 1 }
      return changed ? .some(state.listener) : nil
    }
    if case .some(.some(let listener)) = listener { listener() }
  }

  /// Counts the declarations that added a side, so that what was resolved with the sides before
  /// knows it may be stale, even before the listener's update reaches the main actor.
  static var generation: UInt64 {
    state.withLock { $0.generation }
  }

  /// Makes `listener` the one told of every added side from now on.
  static func listen(_ listener: @escaping Listener) {
    state.withLock { $0.listener = listener }
  }

  /// Adds one variant's side; whether it was new.
  @discardableResult
  private static func insert(_ variant: DMThemeVariant, into sides: inout [UInt8]) -> Bool {
    let index = Int(variant.theme.id)
    if index >= sides.count { sides.append(contentsOf: repeatElement(0, count: index + 1 - sides.count)) }
    let bit: UInt8 = variant.userInterfaceStyle == .dark ? 2 : 1
    guard sides[index] & bit == 0 else { return false }
    sides[index] |= bit
    return true
  }
}
