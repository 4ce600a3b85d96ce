/// A value that depends on traits: a colour, a number, a string, any `Sendable` value.
///
/// Resolution is pure and callable from any thread.
///
/// ```swift
/// let background = DMDynamic(light: DMColor.white, dark: DMColor(rgb: 0x1C1C1E))
/// let spacing = DMDynamic(light: 8.0, dark: 10.0)
/// let accent = DMDynamic(themes: ["RED": DMColor.red, "NIGHT": .orange], fallback: .blue)
/// background.resolved(with: .current)
/// ```
///
/// The value lives in one shared, immutable box, so a `DMDynamic` is one pointer wide and cheap to
/// copy into many bindings.
public struct DMDynamic<Value: Sendable>: Sendable {
  @usableFromInline
  let storage: Storage

  /// A value that is the same for all traits.
  /// - Parameter value: The value.
  public init(_ value: Value) {
    storage = Storage(.constant, light: value)
  }

  /// A light and a dark value: `.dark` picks `dark`, any other style picks `light`.
  /// - Parameters:
  ///   - light: The value for the light (and unspecified) style.
  ///   - dark: The value for the dark style.
  public init(light: Value, dark: Value) {
    storage = Storage(.pair, light: light, dark: dark)
  }

  /// A light and a dark value, each with an optional variant for high contrast.
  ///
  /// With `.high` contrast the high-contrast variant of the chosen style wins where it is given;
  /// otherwise the normal variant is used.
  /// - Parameters:
  ///   - light: The value for the light style.
  ///   - dark: The value for the dark style.
  ///   - highContrastLight: The value for the light style with high contrast.
  ///   - highContrastDark: The value for the dark style with high contrast.
  public init(light: Value, dark: Value, highContrastLight: Value? = nil, highContrastDark: Value? = nil) {
    storage = Storage(
      .pair, light: light, dark: dark, highContrastLight: highContrastLight,
      highContrastDark: highContrastDark)
  }

  /// A value computed from the traits each time it is resolved.
  ///
  /// The provider may run on any thread, and should be fast and free of side effects.
  /// - Parameter dynamicProvider: Returns the value for a trait collection.
  public init(dynamicProvider: @escaping @Sendable (DMTraitCollection) -> Value) {
    storage = Storage(.provider, provider: dynamicProvider)
  }

  /// One value per named theme.
  ///
  /// Resolution picks the trait collection's theme if the map has it; else, for the dark style,
  /// ``DMTheme/night``, else `DARK`; else ``DMTheme/normal``; else `fallback`. Colour-table columns
  /// and images by name are chosen by the same rule.
  /// - Parameters:
  ///   - themes: The value for each theme.
  ///   - fallback: The value when no theme of the map applies.
  public init(themes: [DMTheme: Value], fallback: Value) {
    storage = Storage(.themes, light: fallback, themes: themes)
  }

  /// The value for a trait collection.
  /// - Parameter traitCollection: The traits to resolve for, usually an environment's
  ///   ``DMTraitEnvironment/dmTraitCollection`` or ``DMTraitCollection/current``.
  /// - Returns: The value that applies.
  @inlinable
  public func resolved(with traitCollection: DMTraitCollection) -> Value {
    storage.resolved(with: traitCollection)
  }

  /// A value that `source` resolves, such as one key of a colour table.
  init(source: DynamicSource<Value>) {
    storage = Storage(.source, source: source)
  }
}

/// Something outside the dynamic-value layer that resolves a value for traits, such as one key of
/// a colour table; a subclass keeps what it needs to do so, so that this layer knows nothing of it.
///
/// A class rather than a protocol: a stored reference to it is called without retaining it, where
/// an existential would be copied, and retained, on every resolve.
@usableFromInline
class DynamicSource<Value>: @unchecked Sendable {
  // Safe: it has no state; subclasses say why theirs is safe.

  /// The value for `traits`; subclasses override it.
  @usableFromInline
  func resolved(with traits: DMTraitCollection) -> Value {
    fatalError("a DynamicSource subclass must override resolved(with:)")
  }
}

extension DMDynamic {
  /// The immutable representation shared by all copies of one dynamic value.
  ///
  /// Plain fields and a tag rather than an enum with payloads: resolving reads the one field it
  /// needs, where switching over an enum would copy the whole payload first.
  @usableFromInline
  final class Storage: Sendable {
    @usableFromInline
    enum Kind: UInt8, Sendable {
      case constant, pair, provider, themes, source
    }

    @usableFromInline let kind: Kind
    /// The constant; the light value of a pair; the fallback of a theme map.
    @usableFromInline let light: Value?
    @usableFromInline let dark: Value?
    @usableFromInline let highContrastLight: Value?
    @usableFromInline let highContrastDark: Value?
    @usableFromInline let provider: (@Sendable (DMTraitCollection) -> Value)?
    @usableFromInline let themes: [DMTheme: Value]
    /// What resolves a value made with `init(source:)`.
    @usableFromInline let source: DynamicSource<Value>?
    /// The value last resolved in a pass, shared by every binding of this value.
    @usableFromInline let passCache = PassCache<Value>()

    init(
      _ kind: Kind, light: Value? = nil, dark: Value? = nil, highContrastLight: Value? = nil,
      highContrastDark: Value? = nil, provider: (@Sendable (DMTraitCollection) -> Value)? = nil,
      themes: [DMTheme: Value] = [:], source: DynamicSource<Value>? = nil
    ) {
      self.kind = kind
      self.light = light
      self.dark = dark
      self.highContrastLight = highContrastLight
      self.highContrastDark = highContrastDark
      self.provider = provider
      self.themes = themes
      self.source = source
    }

    @inlinable
    func resolved(with traits: DMTraitCollection) -> Value {
      switch kind {
      case .constant:
        return light.unsafelyUnwrapped
      case .pair:
        let isDark = traits.userInterfaceStyle == .dark
        if traits.accessibilityContrast == .high,
          let highContrast = isDark ? highContrastDark : highContrastLight
        {
          return highContrast
        }
        return (isDark ? dark : light).unsafelyUnwrapped
      case .provider:
        return provider.unsafelyUnwrapped(traits)
      case .themes:
        return ThemeChoice.pick(from: themes, for: traits) ?? light.unsafelyUnwrapped
      case .source:
        return source.unsafelyUnwrapped.resolved(with: traits)
      }
    }
  }
}

/// The one rule that says which named theme applies to a trait collection, for theme maps, images
/// by name and colour-table columns alike.
///
/// The collection's theme, if there is something for it; else, for the dark style,
/// ``DMTheme/night``, else `DARK`; else nothing, and the caller applies its own default:
/// ``DMTheme/normal`` for maps and images, the first column for a table.
@usableFromInline
enum ThemeChoice {
  /// The theme `DARK`, which a table or map may use for its dark side instead of `NIGHT`.
  @usableFromInline
  static let dark: DMTheme = "DARK"

  /// What `lookup` gives for the theme that applies, or `nil` when none of them has anything.
  @inlinable
  static func pick<Choice>(for traits: DMTraitCollection, _ lookup: (DMTheme) -> Choice?) -> Choice? {
    if let theme = traits.theme, let choice = lookup(theme) { return choice }
    guard traits.userInterfaceStyle == .dark else { return nil }
    return lookup(.night) ?? lookup(dark)
  }

  /// The entry of a theme map that applies: as ``pick(for:_:)`` chooses, else ``DMTheme/normal``.
  @inlinable
  static func pick<Entry>(from entries: [DMTheme: Entry], for traits: DMTraitCollection) -> Entry? {
    pick(for: traits) { entries[$0] } ?? entries[.normal]
  }
}

/// A colour that depends on traits.
public typealias DMDynamicColor = DMDynamic<DMColor>
