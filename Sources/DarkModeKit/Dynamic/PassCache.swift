/// Numbers the passes, so that a dynamic value resolved for many environments in one pass is
/// resolved once per distinct trait collection.
@MainActor
@usableFromInline
enum PassGeneration {
  /// The number of the running (or last) pass; never 0. It changes only through ``advance()``.
  @usableFromInline
  private(set) static var current: UInt64 = 1

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
  /// The pass, traits and value of the last resolution.
  @usableFromInline
  struct Last {
    @usableFromInline var generation: UInt64 = 0
    @usableFromInline var traits = DMTraitCollection()
    @usableFromInline var value: Value?

    @inlinable
    init(generation: UInt64 = 0, traits: DMTraitCollection = DMTraitCollection(), value: Value? = nil) {
      self.generation = generation
      self.traits = traits
      self.value = value
    }
  }

  // Main-actor state read on every resolve in a pass and written when the traits differ, never
  // held across a call: no dynamic exclusivity checks, which would cost a switch 41% (one of the
  // four fields listed in Docs/Architecture.md).
  @usableFromInline @exclusivity(unchecked) var last = Last()

  @usableFromInline
  nonisolated init() {}

  /// The value for `traits` in the current pass: remembered, or resolved now and remembered.
  @inlinable
  func resolved(_ storage: DMDynamic<Value>.Storage, with traits: DMTraitCollection) -> Value {
    if last.generation == PassGeneration.current, last.traits == traits, let value = last.value {
      return value
    }
    let value = storage.resolved(with: traits)
    last = Last(generation: PassGeneration.current, traits: traits, value: value)
    return value
  }
}
