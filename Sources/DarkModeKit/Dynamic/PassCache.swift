/// Numbers the passes, so that a dynamic value resolved for many environments in one pass is
/// resolved once per distinct trait collection.
@MainActor
@usableFromInline
enum PassGeneration {
  /// The number of the running (or last) pass; never 0.
  @usableFromInline @exclusivity(unchecked)
  static var current: UInt64 = 1

  /// Starts a new pass: values remembered in earlier ones no longer count.
  static func advance() {
    current &+= 1
    if current == 0 { current = 1 }
  }
}

/// The last value one dynamic value resolved to within a pass, and for which traits.
///
/// Many environments bind the same dynamic value (a palette colour) and, in one pass, mostly have
/// the same traits: they then share one resolution. Main-actor state, like the passes.
@MainActor
@usableFromInline
final class PassCache<Value: Sendable> {
  // Main-actor state read and written on every resolve in a pass, never held across a call: no
  // dynamic exclusivity checks.
  @usableFromInline @exclusivity(unchecked) var generation: UInt64 = 0
  @usableFromInline @exclusivity(unchecked) var traits = DMTraitCollection()
  @usableFromInline @exclusivity(unchecked) var value: Value?

  @usableFromInline
  nonisolated init() {}

  /// The value for `traits` in the current pass: remembered, or resolved now and remembered.
  @inlinable
  func resolved(_ storage: DMDynamic<Value>.Storage, with traits: DMTraitCollection) -> Value {
    if generation == PassGeneration.current, self.traits == traits, let value { return value }
    let value = storage.resolved(with: traits)
    generation = PassGeneration.current
    self.traits = traits
    self.value = value
    return value
  }
}
