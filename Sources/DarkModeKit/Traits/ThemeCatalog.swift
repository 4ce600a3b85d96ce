import DarkModeKitText
import Dispatch

/// The theme names the process uses, each with a number, and the sides every theme has, as the
/// process's tables, theme maps and images declared them: the one place that knows that `SEPIA`
/// is light and `SOLARIZED` has both sides.
///
/// A name is kept while something may use its number: for the life of the process once a
/// ``DMTheme`` is made from it (the name is *pinned*: app code may hold the theme anywhere), and
/// while a table's contents hold it (a *lease*): a name only tables used goes with the last of
/// them, and its number is given to the next new name.
///
/// Theme maps, images and ``DMTheme/declare(_:)`` declare sides for good. A table's columns count
/// while the table has them: a reload that drops a column, or the table's end, withdraws its side
/// unless something else declares it. When the sides of a theme change, the listener (the
/// engine) brings every resolved collection up to date, since a theme's sides can change the
/// style it resolves to.
@usableFromInline
enum ThemeCatalog {
  typealias Listener = @Sendable () -> Void

  private struct State {
    /// By theme number: the name; empty for a number free to be given again.
    var names: [String] = []
    /// The number of each name in use.
    var ids: [String: UInt32] = [:]
    /// The numbers of names that went, to be given again.
    var freeIDs: [UInt32] = []
    /// By theme number: how many tables' contents hold the name.
    var leases: [UInt32] = []
    /// By theme number: whether a ``DMTheme`` was made from the name, which keeps it for good.
    var isPinned: [Bool] = []
    /// By theme number: the variants declared for good, as bits 2–5 of ``sides``.
    var declaredForGood: [UInt8] = []
    /// Four per theme number (light, light high-contrast, dark, dark high-contrast): how many
    /// tables have a column of that variant.
    var tableColumns: [UInt32] = []
    /// By theme number: bit 0 light, bit 1 dark (a variant of the side in either contrast); then
    /// which variants were declared: bit 2 light, bit 3 light high-contrast, bit 4 dark, bit 5 dark
    /// high-contrast.
    var sides: [UInt8] = []
    var listener: Listener?
    /// Counts the changes of a theme's sides, on any thread.
    var generation: UInt64 = 0
    /// The themes reported as chosen while nothing declared them, each reported once.
    var reportedUndeclared: Set<UInt32> = []
    /// The themes values lacked that nothing declared, to be checked again on the main queue.
    var pendingUndeclared: Set<UInt32> = []
    /// Whether that check is on its way.
    var checkScheduled = false

    /// The number of `name`, given now if the name has none.
    mutating func number(of name: String) -> UInt32 {
      if let id = ids[name] { return id }
      let id: UInt32
      if let free = freeIDs.popLast() {
        id = free
        names[Int(id)] = name
        // Nothing declared the old name when it went (see `release(_:)`); nothing declares the new one.
        assert(
          leases[Int(id)] == 0 && !isPinned[Int(id)] && declaredForGood[Int(id)] == 0 && sides[Int(id)] == 0)
        assert(tableColumns[Int(id) &* 4..<Int(id) &* 4 &+ 4].allSatisfy { $0 == 0 })
      } else {
        id = UInt32(names.count)
        names.append(name)
        leases.append(0)
        isPinned.append(false)
        declaredForGood.append(0)
        tableColumns.append(contentsOf: [0, 0, 0, 0])
        sides.append(0)
      }
      ids[name] = id
      return id
    }

    /// Sets `sides` of theme `id` from what declares it; whether its sides (bits 0 and 1) changed.
    mutating func updateSides(of id: Int) -> Bool {
      var bits = declaredForGood[id]
      for variant in 0..<4 where tableColumns[id &* 4 &+ variant] > 0 { bits |= 4 << variant }
      if bits & 0b1100 != 0 { bits |= 1 }
      if bits & 0b11_0000 != 0 { bits |= 2 }
      defer { sides[id] = bits }
      return (sides[id] ^ bits) & 3 != 0
    }
  }

  private static let state: Locked<State> = {
    // The default theme's sides, by name: `DMTheme` constants would come back here.
    var state = State()
    for (name, variantBit) in [("NORMAL", 4), ("NIGHT", 16), ("DARK", 16)] as [(String, UInt8)] {
      let id = Int(state.number(of: name))
      state.isPinned[id] = true
      state.declaredForGood[id] = variantBit
      _ = state.updateSides(of: id)
    }
    return Locked(state)
  }()

  // MARK: - Names

  /// The number of a theme's name, kept for the life of the process: a ``DMTheme`` made from it may
  /// be anywhere.
  static func id(of name: String) -> UInt32 {
    state.withLock { state in
      let id = state.number(of: name)
      state.isPinned[Int(id)] = true
      return id
    }
  }

  /// The name of theme number `id`.
  static func name(of id: UInt32) -> String {
    state.withLock { $0.names[Int(id)] }
  }

  /// Keeps the names of `themes` for the life of the process, before they are handed to app code;
  /// the caller holds what leases them meanwhile.
  static func pin(_ themes: some Sequence<DMTheme>) {
    state.withLock { state in
      for theme in themes {
        precondition(!state.names[Int(theme.id)].isEmpty, "a theme is pinned while its name is held")
        state.isPinned[Int(theme.id)] = true
      }
    }
  }

  /// The variants of a table's columns, their names held until ``release(_:)``: a table's
  /// contents take them when made and give them back when freed.
  static func lease(_ columns: [ThemeColumn]) -> [DMThemeVariant] {
    state.withLock { state in
      columns.map { column in
        let id = state.number(of: column.themeName)
        state.leases[Int(id)] += 1
        return DMThemeVariant(
          id: id, userInterfaceStyle: column.userInterfaceStyle,
          accessibilityContrast: column.accessibilityContrast)
      }
    }
  }

  /// Gives back the names ``lease(_:)`` took; a name nothing else holds goes, and its number is
  /// free. Nothing declares its sides: only tables hold it, and a table counts its columns only
  /// while it holds their contents.
  static func release(_ variants: [DMThemeVariant]) {
    state.withLock { state in
      for variant in variants {
        let id = Int(variant.theme.id)
        state.leases[id] -= 1
        guard state.leases[id] == 0, !state.isPinned[id] else { continue }
        assert(
          state.tableColumns[id &* 4..<id &* 4 &+ 4].allSatisfy { $0 == 0 } && state.declaredForGood[id] == 0)
        state.ids[state.names[id]] = nil
        state.names[id] = ""
        state.sides[id] = 0
        state.reportedUndeclared.remove(UInt32(id))
        state.pendingUndeclared.remove(UInt32(id))
        state.freeIDs.append(UInt32(id))
      }
    }
  }

  /// Whether the process keeps `name`: a theme was made from it, or a table holds it.
  static func isKept(_ name: String) -> Bool {
    state.withLock { $0.ids[name] != nil }
  }

  /// How many names are in use (kept for good or held by a table), for tests and benchmarks.
  static var nameCount: Int {
    state.withLock { $0.ids.count }
  }

  // MARK: - Sides

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

  /// Adds the sides of `variants` for good; tells the listener when that added any.
  static func declare(_ variants: some Sequence<DMThemeVariant>) {
    changing { state in
      var changed = false
      for variant in variants {
        let id = Int(variant.theme.id)
        state.declaredForGood[id] |= variantBit(variant)
        if state.updateSides(of: id) { changed = true }
      }
      return changed
    }?()
  }

  /// A table's columns changed from `old` to `new` (from or to none when it is made or freed).
  ///
  /// The caller counts each table's changes in the order they happen (under the table's lock), and
  /// calls what this returns once it holds no lock: the listener, when a theme's sides changed.
  static func tableColumnsDidChange(from old: [DMThemeVariant], to new: [DMThemeVariant]) -> Listener? {
    guard !old.isEmpty || !new.isEmpty else { return nil }
    return changing { state in
      for variant in old { state.tableColumns[columnIndex(variant)] -= 1 }
      for variant in new { state.tableColumns[columnIndex(variant)] += 1 }
      var changed = false
      for variant in old where state.updateSides(of: Int(variant.theme.id)) { changed = true }
      for variant in new where state.updateSides(of: Int(variant.theme.id)) { changed = true }
      return changed
    }
  }

  /// Runs `body` under the lock; the listener when it says that sides changed.
  private static func changing(_ body: (inout State) -> Bool) -> Listener? {
    state.withLock { state -> Listener? in
      guard body(&state) else { return nil }
      state.generation &+= 1
      return state.listener
    }
  }

  /// The bit of `sides` that says a variant was declared: 4 light, 8 light high-contrast, 16 dark,
  /// 32 dark high-contrast.
  private static func variantBit(_ variant: DMThemeVariant) -> UInt8 {
    4 << variantOffset(variant)
  }

  /// Where a variant's count is in `tableColumns`.
  private static func columnIndex(_ variant: DMThemeVariant) -> Int {
    Int(variant.theme.id) &* 4 &+ variantOffset(variant)
  }

  private static func variantOffset(_ variant: DMThemeVariant) -> Int {
    (variant.userInterfaceStyle == .dark ? 2 : 0) + (variant.accessibilityContrast == .high ? 1 : 0)
  }

  /// Counts the changes of a theme's sides, so that what was resolved with the sides before knows
  /// it may be stale, even before the listener's update reaches the main actor.
  static var generation: UInt64 {
    state.withLock { $0.generation }
  }

  /// Makes `listener` the one told of every change of a theme's sides from now on.
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
    let (undeclared, declared) = state.withLock { state -> ([String], [String]) in
      let sides = state.sides
      let undeclared = state.pendingUndeclared.sorted().filter { isUndeclared($0, in: sides) }
      state.reportedUndeclared.formUnion(undeclared)
      state.pendingUndeclared.removeAll()
      state.checkScheduled = false
      return (
        undeclared.map { state.names[Int($0)] },
        sides.indices.filter { sides[$0] != 0 }.map { state.names[$0] }
      )
    }
    guard !undeclared.isEmpty else { return }
    for name in undeclared {
      DMDiagnostics.report(
        DMDiagnostic(kind: .unknownTheme, message: undeclaredMessage(name, declared: declared)))
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
}
