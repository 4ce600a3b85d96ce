/// The global trait state shared by every thread.
enum GlobalTraits {
  struct State {
    var override = DMTraitCollection()
    var system = DMTraitCollection()
    /// `system` merged with `override`, defaults filled in; kept in step by the setters.
    private(set) var resolved = DMTraitCollection().withDefaults

    mutating func set(override: DMTraitCollection? = nil, system: DMTraitCollection? = nil) {
      if let override { self.override = override }
      if let system { self.system = system }
      resolved = self.system.overlaid(with: self.override).withDefaults
    }
  }

  static let state = Locked(State())

  /// The collection made current by `performAsCurrent` in this task.
  @TaskLocal static var scoped: DMTraitCollection?
}
