/// The global trait state shared by every thread.
enum GlobalTraits {
  struct State {
    var override = DMTraitCollection()
    var system = DMTraitCollection()
    /// The style when neither `override` nor `system` chooses one; the configuration's
    /// `defaultUserInterfaceStyle`.
    var defaultStyle = DMUserInterfaceStyle.light
    /// Whether the system source said it has a light/dark setting; see
    /// `DMTraitCollection.systemHasColorSchemeSetting`.
    var systemHasColorSchemeSetting = false

    /// `system` merged with `override`, defaults filled in. Worked out on each read, as a theme's
    /// sides, which the merge reads, may change meanwhile.
    var resolved: DMTraitCollection {
      var merged = system.overlaid(with: override)
      if merged.userInterfaceStyle == .unspecified { merged.userInterfaceStyle = defaultStyle }
      return merged.withDefaults
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
