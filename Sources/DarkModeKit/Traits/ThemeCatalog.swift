import DarkModeKitText
import Dispatch

/// The sides every theme has, as the process's tables, theme maps and images declared them: the
/// one place that knows that `SEPIA` is light and `SOLARIZED` has both sides.
///
/// Declarations only add sides. When one adds a side, the listener (the engine) brings every
/// resolved collection up to date, since a theme's sides can change the style it resolves to.
@usableFromInline
enum ThemeCatalog {
  typealias Listener = @Sendable () -> Void

  private struct State {
    /// Indexed by theme number: bit 0 light, bit 1 dark (a variant of the side in either
    /// contrast); then which variants were declared: bit 2 light, bit 3 light high-contrast, bit 4
    /// dark, bit 5 dark high-contrast.
    var sides: [UInt8] = []
    var listener: Listener?
    /// Counts declarations that added a side, on any thread.
    var generation: UInt64 = 0
    /// The themes reported as chosen while nothing declared them, each reported once.
    var reportedUndeclared: Set<UInt32> = []
    /// The themes values lacked that nothing declared, to be checked again on the main queue.
    var pendingUndeclared: Set<UInt32> = []
    /// Whether that check is on its way.
    var checkScheduled = false
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
    variantBits(of: theme) & 3
  }

  /// The sides of `theme` and which of their variants were declared, as `State.sides` holds them.
  static func variantBits(of theme: DMTheme) -> UInt8 {
    state.withLock { state in
      Int(theme.id) < state.sides.count ? state.sides[Int(theme.id)] : 0
    }
  }

  /// The contrast of the variant of `theme`'s side that values show: the contrast asked for when
  /// the side has a variant in it, else the other one, as ``VariantIndex`` chooses.
  static func contrastShown(of theme: DMTheme, dark: Bool, high: Bool) -> DMAccessibilityContrast {
    let bits = variantBits(of: theme) >> (dark ? 4 : 2)
    let hasNormal = bits & 1 != 0
    let hasHigh = bits & 2 != 0
    return (high ? hasHigh || !hasNormal : !hasNormal && hasHigh) ? .high : .normal
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

  /// Reports `theme`, once, if nothing has declared it by the main queue's next turn: a value was
  /// asked for it and did not have it.
  ///
  /// Values call this when they lack the chosen theme, so a theme that only some values have costs
  /// a lookup here (under the catalog's lock) and nothing more; a name nothing declares (`"night"`
  /// for `NIGHT`) is a mistake the user sees as the default theme, and the report names the
  /// closest declared theme. The check waits for the main queue, so that a table loaded or a theme
  /// map made just after the first value was asked still counts, and it never runs the app's
  /// handler inside a pass or under a value's lock.
  @usableFromInline
  static func valueLacks(_ theme: DMTheme) {
    let schedules = state.withLock { state -> Bool in
      guard isUndeclared(theme.id, in: state.sides),
        !state.reportedUndeclared.contains(theme.id), state.pendingUndeclared.insert(theme.id).inserted
      else { return false }
      defer { state.checkScheduled = true }
      return !state.checkScheduled
    }
    if schedules { DispatchQueue.main.async { reportUndeclared() } }
  }

  /// Whether nothing declared theme number `id`, in the catalog's `sides`.
  private static func isUndeclared(_ id: UInt32, in sides: [UInt8]) -> Bool {
    Int(id) >= sides.count || sides[Int(id)] == 0
  }

  /// Reports each theme a value lacked that nothing has declared since.
  static func reportUndeclared() {
    let (undeclared, declared) = state.withLock { state -> ([UInt32], [UInt32]) in
      let sides = state.sides
      let undeclared = state.pendingUndeclared.sorted().filter { isUndeclared($0, in: sides) }
      state.reportedUndeclared.formUnion(undeclared)
      state.pendingUndeclared.removeAll()
      state.checkScheduled = false
      return (undeclared, sides.indices.filter { sides[$0] != 0 }.map(UInt32.init))
    }
    guard !undeclared.isEmpty else { return }
    // Names are looked up after the catalog's lock: the two locks are never held together.
    let names = declared.map { DMTheme(id: $0).rawValue }
    for theme in undeclared {
      DMDiagnostics.report(
        DMDiagnostic(
          kind: .unknownTheme, message: undeclaredMessage(DMTheme(id: theme).rawValue, declared: names)))
    }
  }

  /// What the report of an undeclared theme says: the closest declared name when one is close
  /// (the same letters in another case, or a few letters apart), else the declared names.
  static func undeclaredMessage(_ name: String, declared: [String]) -> String {
    let start =
      "the theme \(ShownText.quoted(name)) was chosen, but no colour table, theme map or image has it "
      + "and DMTheme.declare(_:) did not declare it, so values show the default theme"
    if let closest = closestName(to: name, in: declared) {
      return start + "; did you mean \(ShownText.quoted(closest))?"
    }
    let shown = declared.prefix(8).map { ShownText.quoted($0) }.joined(separator: ", ")
    let more = declared.count > 8 ? " and \(declared.count - 8) more" : ""
    return start + "; the themes declared are \(shown)\(more)"
  }

  /// The declared name that `name` most likely meant: one that differs only in case, else the one
  /// fewest edits away, when that is at most a third of the name's length (at least one).
  static func closestName(to name: String, in declared: [String]) -> String? {
    let folded = Array(name.uppercased().unicodeScalars)
    guard folded.count <= 64 else { return nil }
    var best: (name: String, distance: Int)?
    for candidate in declared {
      let other = Array(candidate.uppercased().unicodeScalars)
      guard abs(other.count - folded.count) <= 64 else { continue }
      let distance = editDistance(folded, other)
      if distance < best?.distance ?? .max { best = (candidate, distance) }
    }
    guard let best, best.distance <= max(1, folded.count / 3) else { return nil }
    return best.name
  }

  /// The number of single-character insertions, deletions, substitutions and swaps of two
  /// neighbours that turn `a` into `b`.
  private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = previous
    for i in a.indices {
      current[0] = i + 1
      for j in b.indices {
        var distance = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1))
        if i > 0, j > 0, a[i] == b[j - 1], a[i - 1] == b[j] {
          distance = min(distance, beforePrevious[j - 1] + 1)
        }
        current[j + 1] = distance
      }
      (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[b.count]
  }

  /// Adds one variant's side and contrast; whether the side was new.
  @discardableResult
  private static func insert(_ variant: DMThemeVariant, into sides: inout [UInt8]) -> Bool {
    let index = Int(variant.theme.id)
    if index >= sides.count { sides.append(contentsOf: repeatElement(0, count: index + 1 - sides.count)) }
    let isDark = variant.userInterfaceStyle == .dark
    let bit: UInt8 = isDark ? 2 : 1
    let contrastBit: UInt8 = 1 << ((isDark ? 4 : 2) + (variant.accessibilityContrast == .high ? 1 : 0))
    let isNewSide = sides[index] & bit == 0
    sides[index] |= bit | contrastBit
    return isNewSide
  }
}
