/// An image that depends on traits: a light/dark pair held in memory, or images kept by name and
/// loaded only when needed.
///
/// The by-name form keeps only the names. It loads an image the first time its name is resolved,
/// does not load again while the same name keeps being resolved, and holds at most the image it
/// resolved last, so switching themes frees the previous theme's image once nothing else holds it.
///
/// ```swift
/// let logo = DMDynamicImage(names: [.normal: "logo", .night: "logo-night"]) { name in
///   Bitmap(contentsOfFile: "Assets/\(name).png")
/// }
/// view.dm.bind(\.image, to: logo)
/// ```
public struct DMDynamicImage<Image: Sendable>: Sendable {
  private enum Source: Sendable {
    case pair(light: Image, dark: Image)
    case names([DMTheme: String], cache: NamedImageCache<Image>)
  }

  private let source: Source

  /// Two images held in memory: `.dark` picks `dark`, any other style picks `light`.
  /// - Parameters:
  ///   - light: The image for the light (and unspecified) style.
  ///   - dark: The image for the dark style.
  public init(light: Image, dark: Image) {
    source = .pair(light: light, dark: dark)
  }

  /// Images kept by name, one per theme, loaded on demand.
  ///
  /// The name is chosen like a theme map of ``DMDynamic/init(themes:fallback:)``: the trait
  /// collection's theme if the map has it, else ``DMTheme/night`` (or `DARK`) for the dark style,
  /// else ``DMTheme/normal``.
  /// - Parameters:
  ///   - names: The image name for each theme.
  ///   - loader: Loads the image of a name, or returns `nil` when it cannot; may run on any thread.
  public init(names: [DMTheme: String], loader: @escaping @Sendable (String) -> Image?) {
    source = .names(names, cache: NamedImageCache(loader: loader))
  }

  /// The image for a trait collection.
  /// - Parameter traitCollection: The traits to resolve for.
  /// - Returns: The image, or `nil` when no name applies or the loader returned `nil`.
  public func resolved(with traitCollection: DMTraitCollection) -> Image? {
    switch source {
    case .pair(let light, let dark):
      return traitCollection.userInterfaceStyle == .dark ? dark : light
    case .names(let names, let cache):
      guard let name = ThemeChoice.pick(from: names, for: traitCollection) else { return nil }
      return cache.image(named: name)
    }
  }

  /// The name the by-name form picks for a trait collection; `nil` for a pair.
  /// - Parameter traitCollection: The traits to resolve for.
  /// - Returns: The image name that applies.
  public func name(for traitCollection: DMTraitCollection) -> String? {
    guard case .names(let names, _) = source else { return nil }
    return ThemeChoice.pick(from: names, for: traitCollection)
  }

  /// This image as a dynamic optional value, for bindings.
  public var dynamic: DMDynamic<Image?> {
    DMDynamic { traits in resolved(with: traits) }
  }
}

/// The image a by-name ``DMDynamicImage`` resolved last, and its name.
final class NamedImageCache<Image: Sendable>: Sendable {
  private let loader: @Sendable (String) -> Image?
  private let last = Locked<(name: String, image: Image?)?>(nil)

  init(loader: @escaping @Sendable (String) -> Image?) {
    self.loader = loader
  }

  func image(named name: String) -> Image? {
    if let cached = last.withLock({ $0 }), cached.name == name { return cached.image }
    // Load outside the lock: a slow loader must not block other readers.
    let image = loader(name)
    last.withLock { $0 = (name, image) }
    return image
  }
}
