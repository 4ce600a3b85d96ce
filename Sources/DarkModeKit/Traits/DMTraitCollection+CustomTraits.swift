/// Traits the app defines, and traits named as values.
extension DMTraitCollection {
  /// The value of a trait the app defined: the value this collection sets, else the trait's
  /// default.
  ///
  /// Setting it makes the collection set the trait, even to its default value: merged over a
  /// collection with another value, it puts the default back.
  ///
  /// ```swift
  /// var traits = DMTraitCollection(userInterfaceStyle: .dark)
  /// traits[ContentDensity.self] = 0.8
  /// DMTraitCollection.setOverride(traits, animated: false)
  /// print(DMTraitCollection.current[ContentDensity.self])  // 0.8
  /// ```
  /// - Parameter definition: The trait's type.
  public subscript<Definition: DMTraitDefinition>(definition: Definition.Type) -> Definition.Value {
    get { CustomTraits.value(of: definition, in: custom) }
    set { CustomTraits.set(newValue, for: definition, in: &custom) }
  }

  /// Creates a collection that sets one trait the app defined; every other trait is unspecified.
  /// - Parameters:
  ///   - definition: The trait's type.
  ///   - value: Its value.
  public init<Definition: DMTraitDefinition>(_ definition: Definition.Type, _ value: Definition.Value) {
    self.init()
    self[definition] = value
  }

  /// Whether this collection sets a trait: a built-in trait that is not `.unspecified` (or `nil`),
  /// or a custom trait given a value, even its default.
  /// - Parameter trait: The trait.
  /// - Returns: `true` when the collection sets it; merging it over another collection then
  ///   replaces the other's value.
  public func contains(_ trait: DMTrait) -> Bool {
    switch trait.kind {
    case .userInterfaceStyle: userInterfaceStyle != .unspecified
    case .accessibilityContrast: accessibilityContrast != .unspecified
    case .userInterfaceLevel: userInterfaceLevel != .unspecified
    case .theme: theme != nil
    case .accessibilityMotion: accessibilityMotion != .unspecified
    case .accentColor: accentBits != 0
    case .custom(let identifier): CustomTraits.contains(identifier, in: custom)
    }
  }

  /// Makes a trait unspecified, so that it is inherited when this collection is merged over
  /// another.
  ///
  /// ```swift
  /// panel.traitOverrides.remove(.custom(ContentDensity.self))  // inherit the density again
  /// ```
  /// - Parameter trait: The trait.
  public mutating func remove(_ trait: DMTrait) {
    switch trait.kind {
    case .userInterfaceStyle: userInterfaceStyle = .unspecified
    case .accessibilityContrast: accessibilityContrast = .unspecified
    case .userInterfaceLevel: userInterfaceLevel = .unspecified
    case .theme: theme = nil
    case .accessibilityMotion: accessibilityMotion = .unspecified
    case .accentColor: accentBits = 0
    case .custom(let identifier): CustomTraits.remove(identifier, from: &custom)
    }
  }

  /// The traits, among `traits`, whose values differ between this collection and `other`.
  /// - Parameters:
  ///   - traits: The traits to compare.
  ///   - other: The collection to compare with.
  /// - Returns: The traits that differ, in the order given; a custom trait differs when its value
  ///   read back differs, defaults included.
  public func changedTraits(_ traits: [DMTrait], comparedTo other: DMTraitCollection) -> [DMTrait] {
    traits.filter { $0.differs(self, other) }
  }
}
