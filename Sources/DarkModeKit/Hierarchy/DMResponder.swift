import DarkModeKitText

/// The common base of views and view controllers: their overrides and resolved traits.
///
/// It holds what every node of the hierarchy has, as `UIResponder` does for UIKit's views and
/// controllers. Subclass ``DMView`` or ``DMViewController`` rather than this class.
@MainActor
open class DMResponder: DMTraitEnvironment, CustomStringConvertible {
  /// The style this environment and its descendants use, or `.unspecified` to inherit it.
  ///
  /// Wins over a style given in ``overrideTraitCollection``. Setting it updates the environment
  /// and its descendants in visible windows before returning (inside a callback: after the
  /// running pass).
  public var overrideUserInterfaceStyle: DMUserInterfaceStyle = .unspecified {
    didSet {
      if overrideUserInterfaceStyle != oldValue { TraitPropagator.shared.overridesDidChange(self) }
    }
  }
  // The four fields below are declared here, next to the style's single byte, to take no room
  // of their own (a class's stored properties are laid out in the order they are declared).
  /// Whether this environment is a view that is a controller's root view (see
  /// `DMView.owningController`), read on the propagation path instead of the weak reference.
  final var isRootViewOfController = false
  /// Whether the environment is in a visible window and ``reported`` is up to date. Attached
  /// environments have attached parents.
  final var isAttached = false
  /// Whether ``dmIdentifier`` is set: it is kept in a table of its own (`identifiers`).
  final var hasIdentifier = false
  /// Where a walk that recorded its window's ``UnsafeWalkOrder`` put this environment.
  final var walkPosition: Int32 = 0

  /// Traits this environment and its descendants use instead of the inherited ones; `nil` or
  /// unspecified traits inherit.
  public var overrideTraitCollection: DMTraitCollection? {
    get { extras?.traitCollection }
    set {
      guard newValue != overrideTraitCollection else { return }
      if newValue != nil || extras != nil { extrasBox.traitCollection = newValue }
      TraitPropagator.shared.overridesDidChange(self)
    }
  }

  /// The traits this environment overrides, one at a time, as UIKit's `traitOverrides`: each
  /// trait set here is used by this environment and its descendants, and an unspecified one (or a
  /// `nil` theme) is inherited.
  ///
  /// It reads and writes ``overrideTraitCollection``, so setting one trait keeps the others:
  ///
  /// ```swift
  /// panel.traitOverrides.theme = "SEPIA"
  /// panel.traitOverrides.accessibilityContrast = .high  // the theme stays
  /// panel.traitOverrides = DMTraitCollection()           // inherit everything again
  /// ```
  public var traitOverrides: DMTraitCollection {
    get { overrideTraitCollection ?? DMTraitCollection() }
    set { overrideTraitCollection = newValue.isUnspecified ? nil : newValue }
  }

  /// The override collections and the registrations for trait changes, kept out of line: most
  /// environments have none, and every environment would otherwise pay for them.
  final class Extras {
    /// The public ``DMResponder/overrideTraitCollection``.
    var traitCollection: DMTraitCollection?
    /// The merged overrides that resolution applies; updated from the public overrides outside a
    /// pass, so that a change made inside a callback takes effect only after the pass.
    var applied: DMTraitCollection?
    /// The registrations made with ``DMTraitEnvironment/registerForTraitChanges(_:handler:)``, in
    /// order; an ended one leaves a hole (`nil`) at its slot until the holes are half the list, so
    /// that ending one costs the same whatever its place.
    var observers: [DMTraitChangeRegistration?] = []
    /// How many of `observers` are holes.
    var observerHoles = 0
    /// A checkpoint of a long chain outside visible windows, kept at every
    /// `TraitPropagator.checkpointSpacing`-th environment so that the environments below it
    /// resolve without walking to the top: the collection resolved here, valid while the
    /// propagator's `resolutionVersion` is `detachedVersion`.
    var detachedTraits: DMTraitCollection?
    var detachedVersion: UInt64 = 0
    /// `ThemeCatalog.generation` when `detachedTraits` was resolved: a side declared or withdrawn on another
    /// thread makes it stale at once.
    var detachedSides: UInt64 = 0
    /// A checkpoint of a long superview chain, as above: the view at its top, valid while the
    /// propagator's `structureVersion` is `rootVersion`.
    weak var root: DMView?
    var rootVersion: UInt64 = 0
    /// The controller whose root view this view is (`DMView.owningController`).
    weak var owningController: DMViewController?
  }

  final var extras: Extras?

  final var extrasBox: Extras {
    if let extras { return extras }
    let made = Extras()
    extras = made
    // A walk's run of common cases checks the environments it calls for extras made meanwhile.
    RunBreaks.record()
    return made
  }

  /// The merged overrides that resolution applies; updated from the public overrides outside a
  /// pass, so that a change made inside a callback takes effect only after the pass.
  @inline(__always)
  final var appliedOverride: DMTraitCollection? { extras?.applied }
  /// The collection last reported to ``dmTraitCollectionDidChange(_:)``; while ``isAttached``, the
  /// resolved collection.
  final var reported: DMTraitCollection?
  /// Bindings of this object's properties.
  ///
  /// Read for every environment a switch calls, on the main actor only, and never held across a
  /// call that could reach it again: its dynamic exclusivity checks, which would cost a switch
  /// 13%, are turned off (one of the four fields listed in Docs/Architecture.md).
  @exclusivity(unchecked) final var bindings = BindingList()

  /// Creates an environment with no overrides.
  public init() {}

  /// A name the app gives this environment, shown in its ``description`` and so wherever it is
  /// printed (logs, handlers); `nil` by default. DarkModeKit uses it for nothing else, and a
  /// switch costs a named environment what it costs any other.
  public final var dmIdentifier: String? {
    get { hasIdentifier ? Self.identifiers[ObjectIdentifier(self)] : nil }
    set {
      guard newValue != nil || hasIdentifier else { return }
      Self.identifiers[ObjectIdentifier(self)] = newValue
      hasIdentifier = newValue != nil
    }
  }

  /// The identifiers of the environments that have one, kept apart from the environments so that
  /// a name changes nothing a pass reads; an environment takes its own out as it goes.
  private(set) static var identifiers: [ObjectIdentifier: String] = [:]

  /// A short description: the type, ``dmIdentifier`` when set, and the resolved style and theme,
  /// for example `DMWindow(identifier: "main", style: dark, theme: "NIGHT")`. The identifier and
  /// the theme are shown escaped, and cut after 64 characters.
  ///
  /// Read off the main thread, where the environment's state cannot be read, it is the type and
  /// `(off the main actor)`.
  nonisolated open var description: String {
    guard MainActorCheck.isOnMainActor else { return "\(type(of: self))(off the main actor)" }
    return MainActor.assumeIsolated {
      let traits = dmTraitCollection
      let identifier = dmIdentifier.map { "identifier: \(ShownText.quoted($0)), " } ?? ""
      let theme = traits.theme.map { ShownText.quoted($0.rawValue) } ?? "nil"
      return "\(type(of: self))(\(identifier)style: \(traits.userInterfaceStyle), theme: \(theme))"
    }
  }

  // On the main actor, as the rest of its state: its binding list may be shared with other
  // objects (see `BindingShapes`).
  isolated deinit {
    if hasIdentifier { Self.identifiers[ObjectIdentifier(self)] = nil }
  }

  /// The environment's resolved traits.
  ///
  /// In a visible window this is the collection last reported; elsewhere it is computed from the
  /// superview chain and the global collection. During a pass, environments not yet reached still
  /// show their previous collection. The view of a freed view controller, and what hangs below
  /// it, computes its collection so until the pass that places it (see
  /// ``DMViewController``): its bound properties keep their values until then.
  public final var dmTraitCollection: DMTraitCollection {
    if isAttached, let reported { return reported }
    return TraitPropagator.shared.resolveDetached(self)
  }

  /// Called once when the resolved traits changed; the default does nothing.
  ///
  /// Override it to redraw. Bound properties are already updated when it runs.
  /// - Parameter previousTraitCollection: The collection last reported, or `nil` for the first
  ///   report.
  open func dmTraitCollectionDidChange(_ previousTraitCollection: DMTraitCollection?) {}

  /// The node whose traits this one inherits; `nil` for a root.
  var traitParent: DMResponder? { nil }

  /// Appends the nodes that inherit this one's traits, in reverse order, as walk entries.
  func appendTraitChildren(to stack: UnsafeWalkStack) {}

  /// Recomputes ``appliedOverride`` from the public overrides.
  final func applyOverrides() {
    let applied: DMTraitCollection?
    if overrideUserInterfaceStyle == .unspecified {
      applied = overrideTraitCollection.flatMap { $0.isUnspecified ? nil : $0 }
    } else {
      applied = (overrideTraitCollection ?? DMTraitCollection())
        .overlaid(with: DMTraitCollection(userInterfaceStyle: overrideUserInterfaceStyle))
    }
    if applied != nil || extras != nil { extrasBox.applied = applied }
  }
}
