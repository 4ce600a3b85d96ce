/// A trait the app defines, carried by every ``DMTraitCollection`` next to the built-in ones.
///
/// Declare a type with the trait's default value; set the trait in the global override, on any
/// environment's ``DMResponder/traitOverrides``, or in a system source's collection; read it from
/// any resolved collection with the collection's subscript. It inherits and merges as the
/// built-in traits do: the nearest environment that sets it wins, and an environment is called
/// only when its resolved value changed.
///
/// ```swift
/// enum ContentDensity: DMTraitDefinition {
///   static let defaultValue = 1.0
///   static let affectsColorAppearance = false
/// }
///
/// sidebar.traitOverrides[ContentDensity.self] = 0.8
/// let density = sidebar.dmTraitCollection[ContentDensity.self]  // 0.8
/// ```
///
/// A collection keeps its custom values in storage of its own, shared by its copies and copied
/// when one of them changes; a collection without custom traits has none. Building or merging a
/// collection of m custom traits takes time in proportion to m (a trait set through an
/// environment's ``DMResponder/traitOverrides`` copies that environment's custom values), and the
/// values go with the last collection that holds them: the process keeps only what each trait
/// type's definition says (identifier, name, default, whether it affects colours), read once.
/// Identifiers must be unique: a second type with an identifier already used reads as the first.
///
/// A value that is not equal to itself (a floating-point NaN) is stored as the default. Values may
/// be compared while DarkModeKit holds a lock: the value type's `==` and `hash(into:)` must not use
/// DarkModeKit.
///
/// A resolved collection (an environment's, ``DMTraitCollection/current``) does not hold a custom
/// trait whose value is the default, so ``DMTraitCollection/contains(_:)`` is `false` for it
/// there; collections made by hand keep every value set.
public protocol DMTraitDefinition {
  /// The type of the trait's values.
  associatedtype Value: Hashable & Sendable

  /// The value of a collection that does not set the trait.
  static var defaultValue: Value { get }

  /// A name unique among the process's traits; by default the type's full name. Read once, the
  /// first time the trait is used, as are the other requirements.
  static var identifier: String { get }

  /// The name printed in a collection's description; by default the type's name.
  static var name: String { get }

  /// Whether a change of the trait may change colours (and other bound values); `true` by default.
  ///
  /// When `false`, a change of the trait alone calls ``DMTraitEnvironment/dmTraitCollectionDidChange(_:)``
  /// and the observers registered for it, but sets no bound property again and does not count as
  /// a different colour appearance
  /// (``DMTraitCollection/hasDifferentColorAppearance(comparedTo:)``).
  static var affectsColorAppearance: Bool { get }
}

extension DMTraitDefinition {
  /// The type's full name, module included.
  public static var identifier: String { String(reflecting: Self.self) }

  /// The type's name.
  public static var name: String { String(describing: Self.self) }

  /// `true`: a change may change colours.
  public static var affectsColorAppearance: Bool { true }
}

/// One trait of a collection, built-in or custom, as named in a registration for trait changes.
///
/// ```swift
/// panel.registerForTraitChanges([.userInterfaceStyle, .custom(ContentDensity.self)]) { panel, previous in
///   panel.relayout()
/// }
/// ```
public struct DMTrait: Sendable, Hashable, CustomStringConvertible {
  enum Kind: Sendable, Hashable {
    case userInterfaceStyle, accessibilityContrast, userInterfaceLevel, theme, accessibilityMotion,
      accentColor
    case custom(identifier: String)
  }

  let kind: Kind

  /// ``DMTraitCollection/userInterfaceStyle``.
  public static let userInterfaceStyle = DMTrait(kind: .userInterfaceStyle)
  /// ``DMTraitCollection/accessibilityContrast``.
  public static let accessibilityContrast = DMTrait(kind: .accessibilityContrast)
  /// ``DMTraitCollection/userInterfaceLevel``.
  public static let userInterfaceLevel = DMTrait(kind: .userInterfaceLevel)
  /// ``DMTraitCollection/theme``.
  public static let theme = DMTrait(kind: .theme)
  /// ``DMTraitCollection/accessibilityMotion``.
  public static let accessibilityMotion = DMTrait(kind: .accessibilityMotion)
  /// ``DMTraitCollection/accentColor``.
  public static let accentColor = DMTrait(kind: .accentColor)

  /// A trait the app defined.
  /// - Parameter definition: The trait's type.
  /// - Returns: The trait.
  public static func custom<Definition: DMTraitDefinition>(_ definition: Definition.Type) -> DMTrait {
    DMTrait(kind: .custom(identifier: CustomTraits.definition(of: definition).identifier))
  }

  /// The trait's name: the property's for a built-in trait, the definition's ``DMTraitDefinition/name``
  /// for a custom one.
  public var description: String {
    switch kind {
    case .userInterfaceStyle: "userInterfaceStyle"
    case .accessibilityContrast: "accessibilityContrast"
    case .userInterfaceLevel: "userInterfaceLevel"
    case .theme: "theme"
    case .accessibilityMotion: "accessibilityMotion"
    case .accentColor: "accentColor"
    case .custom(let identifier): CustomTraits.name(of: identifier)
    }
  }

  /// Whether the trait has different values in two collections; a custom trait compares the
  /// values read back, defaults included.
  func differs(_ lhs: DMTraitCollection, _ rhs: DMTraitCollection) -> Bool {
    switch kind {
    case .userInterfaceStyle: lhs.userInterfaceStyle != rhs.userInterfaceStyle
    case .accessibilityContrast: lhs.accessibilityContrast != rhs.accessibilityContrast
    case .userInterfaceLevel: lhs.userInterfaceLevel != rhs.userInterfaceLevel
    case .theme: lhs.theme != rhs.theme
    case .accessibilityMotion: lhs.accessibilityMotion != rhs.accessibilityMotion
    case .accentColor: lhs.accentBits != rhs.accentBits
    case .custom(let identifier):
      CustomTraits.valueDiffers(identifier, lhs.custom, rhs.custom)
    }
  }
}
