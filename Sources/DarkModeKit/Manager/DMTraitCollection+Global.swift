/// The app-wide trait collection: what the app chose, what the system reports, and what is current.
extension DMTraitCollection {
  /// The collection the app chose with ``setOverride(_:animated:)``.
  ///
  /// Starts with every trait unspecified, which means "follow the system" for each trait.
  /// Readable from any thread.
  public static var override: DMTraitCollection {
    GlobalTraits.state.withLock { $0.override }
  }

  /// The last collection reported by the configured system appearance source.
  ///
  /// Every trait is unspecified until a source reports, and again after the source is removed.
  /// Readable from any thread.
  public static var system: DMTraitCollection {
    GlobalTraits.state.withLock { $0.system }
  }

  /// Whether the system has a light/dark setting at all, as the configured source last reported:
  /// `true` for a desktop whose portal has `color-scheme` (even set to "no preference"), for
  /// `DM_COLOR_SCHEME` set, for a terminal that gave its background; `false` without a source, or
  /// when the source found no such setting. Readable from any thread.
  ///
  /// A settings screen can offer "Follow the system" only when it is `true`.
  public static var systemHasColorSchemeSetting: Bool {
    GlobalTraits.state.withLock { $0.systemHasColorSchemeSetting }
  }

  /// The collection that applies here and now. Readable from any thread or task.
  ///
  /// - Inside ``performAsCurrent(_:)``: that collection.
  /// - Inside a ``DMTraitEnvironment/dmTraitCollectionDidChange(_:)`` call or a binding update:
  ///   that environment's collection.
  /// - Otherwise: ``system`` merged with ``override``, with the defaults filled in (the
  ///   configuration's ``DMConfiguration/defaultUserInterfaceStyle``, `.light` unless set; contrast
  ///   `.normal`, level `.base`), so the style, contrast and level are never `.unspecified`.
  public static var current: DMTraitCollection {
    if let environment = PassContext.current { return environment }
    if let scoped = GlobalTraits.scoped { return scoped }
    return resolvedGlobal
  }

  /// ``system`` merged with ``override``, with the defaults filled in, wherever it is read: what
  /// ``current`` is outside environments and scopes. For renderers that follow the app, such as
  /// GTK's stock style, read from inside a window's callback.
  package static var resolvedGlobal: DMTraitCollection {
    GlobalTraits.state.withLock { $0.resolved }
  }

  /// Chooses the app's collection, and updates every visible window before returning.
  ///
  /// Unspecified traits follow the system. With a preference store configured, a changed override
  /// is saved. When the resolved global collection does not change,
  /// nothing is called. Called from inside a trait-change callback or a handler, the change is
  /// applied after the running pass ends, never in the middle of it.
  ///
  /// ```swift
  /// DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: true)
  /// DMTraitCollection.setOverride(DMTraitCollection(), animated: true) // follow the system again
  /// ```
  /// - Parameters:
  ///   - traitCollection: The collection the app chose.
  ///   - animated: Whether renderers should animate the change; callbacks read it from
  ///     ``DMTransition/current``, which never animates when the collection asks for reduced
  ///     motion.
  @MainActor
  public static func setOverride(_ traitCollection: DMTraitCollection, animated: Bool) {
    let previous = GlobalTraits.state.withLock { state in
      defer { state.set(override: traitCollection) }
      return state.override
    }
    if previous != traitCollection { DarkModeManager.overrideDidChange(to: traitCollection) }
    TraitPropagator.shared.globalTraitsDidChange(animated: animated)
  }

  /// Changes part of the app's override and keeps the rest: `change` gets the override in force
  /// and changes what it wants, and the result is set as by ``setOverride(_:animated:)``.
  ///
  /// ```swift
  /// DMTraitCollection.updateOverride { $0.accessibilityContrast = .high }  // style and theme kept
  /// ```
  /// - Parameters:
  ///   - animated: Whether renderers should animate the change.
  ///   - change: Changes the override.
  @MainActor
  public static func updateOverride(animated: Bool = true, _ change: (inout DMTraitCollection) -> Void) {
    var traits = override
    change(&traits)
    setOverride(traits, animated: animated)
  }

  /// Chooses the style, as a Light / Dark / System choice of an appearance menu does, and keeps
  /// the chosen theme when it can show that style.
  ///
  /// `.light` and `.dark` keep a theme that has a side of that style (or whose sides nothing
  /// declared) and drop one that has not: the user asked for the style. `.unspecified` follows the
  /// system's style again, and keeps a theme with both sides; a theme with one side, which could
  /// not follow it, is dropped. Contrast and the other traits stay as they are.
  ///
  /// ```swift
  /// DMTraitCollection.setOverride(theme: "SOLARIZED")
  /// DMTraitCollection.setOverride(style: .dark)         // SOLARIZED's dark side
  /// DMTraitCollection.setOverride(style: .unspecified)  // SOLARIZED, the system's side
  /// ```
  /// - Parameters:
  ///   - style: The style the user chose, or `.unspecified` for the system's.
  ///   - animated: Whether renderers should animate the change.
  @MainActor
  public static func setOverride(style: DMUserInterfaceStyle, animated: Bool = true) {
    updateOverride(animated: animated) { traits in
      traits.userInterfaceStyle = style
      guard let theme = traits.theme, !theme.sides.isEmpty else { return }
      let needed: DMTheme.Sides =
        switch style {
        case .light: .light
        case .dark: .dark
        case .unspecified: [.light, .dark]
        }
      if !theme.sides.isSuperset(of: needed) { traits.theme = nil }
    }
  }

  /// Chooses the theme, as a theme menu does, and keeps the chosen style when the theme has a
  /// side of it.
  ///
  /// A theme with one side whose style the override does not show makes the override's style
  /// follow it instead (the style becomes `.unspecified`, and the theme's side shows): after
  /// `setOverride(style: .dark)`, choosing the light-only `SEPIA` shows SEPIA. `nil` goes back to
  /// the default theme, keeping the style.
  ///
  /// ```swift
  /// DMTraitCollection.setOverride(style: .dark)
  /// DMTraitCollection.setOverride(theme: "SEPIA")  // light, SEPIA
  /// ```
  /// - Parameters:
  ///   - theme: The theme the user chose, or `nil` for the default theme.
  ///   - animated: Whether renderers should animate the change.
  @MainActor
  public static func setOverride(theme: DMTheme?, animated: Bool = true) {
    updateOverride(animated: animated) { traits in
      traits.theme = theme
      guard let theme, !theme.sides.isEmpty else { return }
      switch traits.userInterfaceStyle {
      case .light where !theme.sides.contains(.light), .dark where !theme.sides.contains(.dark):
        traits.userInterfaceStyle = .unspecified
      default: break
      }
    }
  }

  /// Runs `body` with this collection as ``current``, on this thread and in tasks that `body`
  /// starts.
  ///
  /// Scopes nest: an inner scope wins, and the outer value is back when it ends.
  ///
  /// ```swift
  /// let darkBackground = DMTraitCollection(userInterfaceStyle: .dark).performAsCurrent {
  ///   background.resolved(with: .current)
  /// }
  /// ```
  /// - Parameter body: The work to run.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  public func performAsCurrent<R>(_ body: () throws -> R) rethrows -> R {
    try GlobalTraits.$scoped.withValue(self) {
      try PassContext.withoutCurrent(body)
    }
  }
}
