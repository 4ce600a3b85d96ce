/// The global trait state shared by every thread.
enum GlobalTraits {
  struct State {
    var override = DMTraitCollection()
    var system = DMTraitCollection()

    /// `system` merged with `override`, defaults filled in. Worked out on each read, as a theme's
    /// sides, which the merge reads, may change meanwhile.
    var resolved: DMTraitCollection {
      system.overlaid(with: override).withDefaults
    }

    mutating func set(override: DMTraitCollection? = nil, system: DMTraitCollection? = nil) {
      if let override { self.override = override }
      if let system { self.system = system }
    }
  }

  static let state = Locked(State())

  /// The collection made current by `performAsCurrent` in this task.
  @TaskLocal static var scoped: DMTraitCollection?
}
