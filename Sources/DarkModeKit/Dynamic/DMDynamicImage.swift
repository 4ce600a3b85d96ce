import Foundation

/// An image that depends on traits: a light/dark pair held in memory, or images kept by name and
/// loaded only when needed.
///
/// The by-name form keeps only the names. It loads an image the first time its name is resolved
/// in a pass, once however many views resolve it, does not load again while the same name keeps
/// being resolved, and holds only the images of the last pass, so switching themes frees the
/// previous theme's images once nothing else holds them.
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
    case names(VariantIndex, [String], cache: NamedImageCache<Image>)
  }

  private let source: Source

  /// Two images held in memory: `.dark` picks `dark`, any other style picks `light` (a collection
  /// made by hand with no style picks the side of a theme that has one side only).
  /// - Parameters:
  ///   - light: The image for the light (and unspecified) style.
  ///   - dark: The image for the dark style.
  public init(light: Image, dark: Image) {
    source = .pair(light: light, dark: dark)
  }

  /// Images kept by name, one per theme, loaded on demand; a bare theme name is the theme's light
  /// side, or the dark side for `NIGHT` and `DARK`.
  ///
  /// The same as ``init(variants:loader:)`` with each theme as its bare variant; a key written as a
  /// variant (`"SOLARIZED:dark"`) is read as that variant.
  /// - Parameters:
  ///   - names: The image name for each theme.
  ///   - loader: Loads the image of a name, or returns `nil` when it cannot; may run on any thread.
  public init(names: [DMTheme: String], loader: @escaping @Sendable (String) -> Image?) {
    self.init(
      variantList: names.map { (key: DMThemeVariant(bareOrWritten: $0.key), value: $0.value) }, loader: loader
    )
  }

  /// Images kept by name, one per theme variant, loaded on demand.
  ///
  /// The name is chosen as a theme map of ``DMDynamic/init(variants:fallback:)`` chooses its
  /// value: the collection's theme on the side of its style (its high-contrast variant for high
  /// contrast, where there is one), else the same side of the default theme. Making it declares
  /// its themes' sides (``DMTheme/sides``).
  ///
  /// ```swift
  /// let logo = DMDynamicImage(
  ///   variants: ["NORMAL": "logo", "NIGHT": "logo-night", "NIGHT:high": "logo-night-hc"]
  /// ) { name in Bitmap(contentsOfFile: "Assets/\(name).png") }
  /// ```
  /// - Parameters:
  ///   - variants: The image name for each variant.
  ///   - loader: Loads the image of a name, or returns `nil` when it cannot; may run on any thread.
  public init(variants: [DMThemeVariant: String], loader: @escaping @Sendable (String) -> Image?) {
    self.init(variantList: Array(variants), loader: loader)
  }

  private init(
    variantList: [(key: DMThemeVariant, value: String)], loader: @escaping @Sendable (String) -> Image?
  ) {
    ThemeCatalog.declare(variantList.lazy.map(\.key))
    source = .names(
      VariantIndex(variantList.map(\.key), defaultsInOrder: false), variantList.map(\.value),
      cache: NamedImageCache(loader: loader))
  }

  /// The image for a trait collection.
  /// - Parameter traitCollection: The traits to resolve for.
  /// - Returns: The image, or `nil` when no name applies or the loader returned `nil`.
  public func resolved(with traitCollection: DMTraitCollection) -> Image? {
    switch source {
    case .pair(let light, let dark):
      return traitCollection.resolvesDarkSide ? dark : light
    case .names(let variants, let names, let cache):
      guard let position = variants.position(for: traitCollection) else { return nil }
      return cache.image(named: names[position])
    }
  }

  /// The name the by-name form picks for a trait collection; `nil` for a pair.
  /// - Parameter traitCollection: The traits to resolve for.
  /// - Returns: The image name that applies.
  public func name(for traitCollection: DMTraitCollection) -> String? {
    guard case .names(let variants, let names, _) = source else { return nil }
    return variants.position(for: traitCollection).map { names[$0] }
  }

  /// This image as a dynamic optional value, for bindings.
  public var dynamic: DMDynamic<Image?> {
    DMDynamic { traits in resolved(with: traits) }
  }
}

/// The images a by-name ``DMDynamicImage`` resolved, by name, each with the pass that last
/// resolved it: each name is loaded at most once per pass, however many environments with
/// whatever traits resolve it, and an image that the running pass has not resolved (yet) is let go
/// of when the pass loads another. Outside passes, only the image resolved last is kept.
final class NamedImageCache<Image: Sendable>: Sendable {
  private struct Entry {
    var image: Image?
    /// The pass that last resolved it; `nil` outside passes.
    var pass: UInt64?
  }

  private let loader: @Sendable (String) -> Image?
  private let images = Locked<[String: Entry]>([:])

  init(loader: @escaping @Sendable (String) -> Image?) {
    self.loader = loader
  }

  func image(named name: String) -> Image? {
    let pass = Self.runningPass()
    let cached: Image?? = images.withLock { images in
      guard images[name] != nil else { return nil }
      images[name]!.pass = pass
      return images[name]!.image
    }
    if let cached { return cached }
    // Load outside the lock: a slow loader must not block other readers.
    let image = loader(name)
    images.withLock { images in
      if let pass {
        images = images.filter { $0.value.pass == pass }
      } else {
        images = [:]
      }
      images[name] = Entry(image: image, pass: pass)
    }
    return image
  }

  /// The number of the running pass, if the caller is on the main actor and one runs.
  private static func runningPass() -> UInt64? {
    guard MainActorCheck.isOnMainActor else { return nil }
    return MainActor.assumeIsolated {
      TraitPropagator.shared.isRunning ? TraitPropagator.shared.passNumber : nil
    }
  }
}
