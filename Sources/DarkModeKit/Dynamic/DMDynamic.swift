/// A value that depends on traits: a colour, a number, a string, any `Sendable` value.
///
/// Resolution is pure and callable from any thread.
///
/// ```swift
/// let background = DMDynamic(light: DMColor.white, dark: DMColor(rgb: 0x1C1C1E))
/// let spacing = DMDynamic(light: 8.0, dark: 10.0)
/// let accent = DMDynamic(themes: ["RED": DMColor.red, "NIGHT": .orange], fallback: .blue)
/// print(background.resolved(with: .current))
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
  ///
  /// A collection made by hand with no style and a theme that has a dark side only (such as
  /// `NIGHT`) picks `dark` too, as it would once merged (see <doc:ThemesAndSides>).
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

  /// One value per named theme; a bare name is a theme's light side, or the dark side for
  /// `NIGHT` and `DARK`.
  ///
  /// The same as ``init(variants:fallback:)`` with each theme as its bare variant: `RED` is the
  /// light side of `RED`, and `NORMAL` and `NIGHT` the sides of the default theme. A key written
  /// as a variant (`"SOLARIZED:dark"`) is read as that variant.
  /// - Parameters:
  ///   - themes: The value for each theme.
  ///   - fallback: The value when no variant of the map applies.
  public init(themes: [DMTheme: Value], fallback: Value) {
    self.init(
      variantList: themes.map { (key: DMThemeVariant(bareOrWritten: $0.key), value: $0.value) },
      fallback: fallback)
  }

  /// One value per theme variant: a side of a theme, in normal or high contrast.
  ///
  /// Resolution picks as a colour table picks its column (see <doc:ThemesAndSides>): the
  /// collection's theme on the side of its style, in high contrast when the collection asks for
  /// it and the map has it; else the same side of the default theme (`NORMAL`, or `NIGHT` or
  /// `DARK`); else `fallback`. Making the map declares its themes' sides (``DMTheme/sides``).
  ///
  /// ```swift
  /// let link = DMDynamic(variants: [
  ///   "NORMAL": DMColor(rgb: 0x0055C4), "NIGHT": DMColor(rgb: 0x64A8FF),
  ///   "SOLARIZED:light": DMColor(rgb: 0x268BD2), "SOLARIZED:dark": DMColor(rgb: 0x2AA198),
  /// ], fallback: .blue)
  /// ```
  /// - Parameters:
  ///   - variants: The value for each variant.
  ///   - fallback: The value when no variant of the map applies.
  public init(variants: [DMThemeVariant: Value], fallback: Value) {
    self.init(variantList: Array(variants), fallback: fallback)
  }

  private init(variantList: [(key: DMThemeVariant, value: Value)], fallback: Value) {
    ThemeCatalog.declare(variantList.lazy.map(\.key))
    storage = Storage(
      .themes, light: fallback, variants: VariantIndex(variantList.map(\.key), defaultsInOrder: false),
      values: variantList.map(\.value))
  }

  /// The value for a trait collection.
  /// - Parameter traitCollection: The traits to resolve for, usually an environment's
  ///   ``DMTraitEnvironment/dmTraitCollection`` or ``DMTraitCollection/current``.
  /// - Returns: The value that applies.
  @inlinable
  public func resolved(with traitCollection: DMTraitCollection) -> Value {
    storage.resolved(with: traitCollection)
  }

  /// The value of `storage`, which other values may share: one made with `Storage(.source,
  /// source:)` resolves through its source, such as one key of a colour table.
  init(storage: Storage) {
    self.storage = storage
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
    /// The variants of a theme map, and their values in the same order.
    @usableFromInline let variants: VariantIndex?
    @usableFromInline let values: [Value]
    /// What resolves a value of the `.source` kind.
    @usableFromInline let source: DynamicSource<Value>?
    /// The value last resolved in a pass, shared by every binding of this value.
    @usableFromInline let passCache = PassCache<Value>()

    init(
      _ kind: Kind, light: Value? = nil, dark: Value? = nil, highContrastLight: Value? = nil,
      highContrastDark: Value? = nil, provider: (@Sendable (DMTraitCollection) -> Value)? = nil,
      variants: VariantIndex? = nil, values: [Value] = [], source: DynamicSource<Value>? = nil
    ) {
      self.kind = kind
      self.light = light
      self.dark = dark
      self.highContrastLight = highContrastLight
      self.highContrastDark = highContrastDark
      self.provider = provider
      self.variants = variants
      self.values = values
      self.source = source
    }

    @inlinable
    func resolved(with traits: DMTraitCollection) -> Value {
      switch kind {
      case .constant:
        return light.unsafelyUnwrapped
      case .pair:
        let isDark = traits.resolvesDarkSide
        if traits.isHighContrast,
          let highContrast = isDark ? highContrastDark : highContrastLight
        {
          return highContrast
        }
        return (isDark ? dark : light).unsafelyUnwrapped
      case .provider:
        return provider.unsafelyUnwrapped(traits)
      case .themes:
        guard let position = variants.unsafelyUnwrapped.position(for: traits) else {
          return light.unsafelyUnwrapped
        }
        return values[position]
      case .source:
        return source.unsafelyUnwrapped.resolved(with: traits)
      }
    }
  }
}

/// A colour that depends on traits.
public typealias DMDynamicColor = DMDynamic<DMColor>

extension DMDynamic where Value == DMColor {
  /// The colour for a trait collection, by the name UIKit's `UIColor` gives it; the same as
  /// ``resolved(with:)``.
  ///
  /// ```swift
  /// let background = DMDynamicColor(light: .white, dark: DMColor(rgb: 0x1C1C1E))
  /// let dark = background.resolvedColor(with: DMTraitCollection(userInterfaceStyle: .dark))
  /// ```
  /// - Parameter traitCollection: The traits to resolve for.
  /// - Returns: The colour that applies.
  @inlinable
  public func resolvedColor(with traitCollection: DMTraitCollection) -> DMColor {
    resolved(with: traitCollection)
  }
}
