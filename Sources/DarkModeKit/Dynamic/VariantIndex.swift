/// The one rule that says which variant of a set applies to a trait collection, for colour-table
/// columns, theme maps and images by name alike.
///
/// With the collection's style as the side (for a collection made by hand without a style, the
/// side of a theme that has only one, else light) and its contrast:
/// 1. the collection's theme, if the set has that side of it: its variant in the collection's
///    contrast when there is one (`:high` for high contrast), else its variant in the other one;
/// 2. else the same side of the default theme, chosen in the same way: `NORMAL` for the light
///    side; `NIGHT`, else `DARK`, for the dark side;
/// 3. else nothing, and the caller has its own last resort.
///
/// A set without the collection's theme asks the catalog whether anything declares that theme, so
/// that a name nothing has (`"night"` for `NIGHT`) is reported once instead of silently showing
/// the default theme.
///
/// The style already agrees with the theme (see `DMTraitCollection.overlaid(with:)`), so what this
/// picks is never a side other than the style's.
@usableFromInline
struct VariantIndex: Sendable {
  /// The themes of the set, in the order they first appear.
  @usableFromInline let themes: [DMTheme]
  /// Four per theme, in the order of ``themes``: the positions of its light, light high-contrast,
  /// dark and dark high-contrast variants in the set, `-1` where it has none.
  @usableFromInline let positions: [Int32]
  /// The position of each theme in ``themes`` when there are many; a few are faster to scan.
  @usableFromInline let themeSlots: [DMTheme: Int]
  /// The slots of the default theme's light and dark sides, `-1` for none.
  @usableFromInline let defaultLightSlot: Int
  @usableFromInline let defaultDarkSlot: Int

  /// Indexes a set of variants; a variant that comes twice keeps its first position.
  /// - Parameters:
  ///   - variants: The set, in order.
  ///   - defaultsInOrder: Whether, without `NORMAL` (or without `NIGHT` and `DARK`), the theme of
  ///     the first light (dark) variant is the default one; a table's columns have an order that
  ///     means this, a dictionary's keys do not.
  init(_ variants: [DMThemeVariant], defaultsInOrder: Bool) {
    var themes: [DMTheme] = []
    var slots: [DMTheme: Int] = [:]
    var positions: [Int32] = []
    var firstLight = -1
    var firstDark = -1
    for (position, variant) in variants.enumerated() {
      let slot: Int
      if let known = slots[variant.theme] {
        slot = known
      } else {
        slot = themes.count
        slots[variant.theme] = slot
        themes.append(variant.theme)
        positions.append(contentsOf: [-1, -1, -1, -1])
      }
      let isDark = variant.userInterfaceStyle == .dark
      let index = slot * 4 + (isDark ? 2 : 0) + (variant.accessibilityContrast == .high ? 1 : 0)
      if positions[index] < 0 { positions[index] = Int32(position) }
      if isDark, firstDark < 0 { firstDark = slot }
      if !isDark, firstLight < 0 { firstLight = slot }
    }
    func slot(_ theme: DMTheme, dark: Bool) -> Int? {
      guard let slot = slots[theme] else { return nil }
      let base = slot * 4 + (dark ? 2 : 0)
      return positions[base] >= 0 || positions[base + 1] >= 0 ? slot : nil
    }
    defaultLightSlot = slot(.normal, dark: false) ?? (defaultsInOrder ? firstLight : -1)
    defaultDarkSlot =
      slot(.night, dark: true) ?? slot(.darkName, dark: true) ?? (defaultsInOrder ? firstDark : -1)
    self.themes = themes
    self.positions = positions
    themeSlots = themes.count > 8 ? slots : [:]
  }

  /// The position of the variant that applies to `traits`, or `nil` when none does; a theme the
  /// set lacks is checked with the catalog.
  @inlinable
  func position(for traits: DMTraitCollection) -> Int? {
    var lacked: DMTheme?
    let position = position(for: traits, lacked: &lacked)
    if let lacked { ThemeCatalog.valueLacks(lacked) }
    return position
  }

  /// The position of the variant that applies to `traits`, or `nil` when none does; the chosen
  /// theme goes to `lacked` when the set does not have it, for a caller that holds a lock to check
  /// it with the catalog once the lock is let go (the check may report, and a report runs the app's
  /// handler).
  @inlinable
  func position(for traits: DMTraitCollection, lacked: inout DMTheme?) -> Int? {
    let isDark = traits.resolvesDarkSide
    let isHigh = traits.isHighContrast
    if let theme = traits.theme {
      if let slot = slot(of: theme) {
        if let position = position(slot: slot, isDark: isDark, isHigh: isHigh) { return position }
      } else {
        lacked = theme
      }
    }
    let slot = isDark ? defaultDarkSlot : defaultLightSlot
    return slot < 0 ? nil : position(slot: slot, isDark: isDark, isHigh: isHigh)
  }

  /// The position of the default theme's variant of the other side, for a caller that must show
  /// something when the set has no variant of the style's side at all.
  @inlinable
  func otherSidePosition(for traits: DMTraitCollection) -> Int? {
    let isDark = !traits.resolvesDarkSide
    let slot = isDark ? defaultDarkSlot : defaultLightSlot
    return slot < 0
      ? nil : position(slot: slot, isDark: isDark, isHigh: traits.isHighContrast)
  }

  @inlinable
  func slot(of theme: DMTheme) -> Int? {
    themeSlots.isEmpty ? themes.firstIndex(of: theme) : themeSlots[theme]
  }

  /// A theme's variant of one side: in the contrast asked for if it has it, else in the other
  /// contrast, so that a side is never left for the other side.
  @inlinable
  func position(slot: Int, isDark: Bool, isHigh: Bool) -> Int? {
    let base = slot &* 4 &+ (isDark ? 2 : 0)
    let wanted = positions[base &+ (isHigh ? 1 : 0)]
    if wanted >= 0 { return Int(wanted) }
    let other = positions[base &+ (isHigh ? 0 : 1)]
    return other >= 0 ? Int(other) : nil
  }

  /// The position of one variant, or `nil` when the set does not have it.
  func position(of variant: DMThemeVariant) -> Int? {
    guard let slot = slot(of: variant.theme) else { return nil }
    let position = positions[
      slot * 4 + (variant.userInterfaceStyle == .dark ? 2 : 0)
        + (variant.accessibilityContrast == .high ? 1 : 0)]
    return position >= 0 ? Int(position) : nil
  }

  /// The first position of any variant of a theme, or `nil` when the set does not have the theme.
  func firstPosition(of theme: DMTheme) -> Int? {
    guard let slot = slot(of: theme) else { return nil }
    return positions[(slot * 4)..<(slot * 4 + 4)].filter { $0 >= 0 }.min().map(Int.init)
  }

  /// The sides the set has variants of, for one theme.
  func sides(of theme: DMTheme) -> DMTheme.Sides {
    guard let slot = slot(of: theme) else { return [] }
    let base = slot * 4
    var sides: DMTheme.Sides = []
    if positions[base] >= 0 || positions[base + 1] >= 0 { sides.insert(.light) }
    if positions[base + 2] >= 0 || positions[base + 3] >= 0 { sides.insert(.dark) }
    return sides
  }
}
