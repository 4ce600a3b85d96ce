/// A registration made with ``DMTraitEnvironment/registerForTraitChanges(_:handler:)``: the token to
/// hand to ``DMResponder/unregisterForTraitChanges(_:)``.
///
/// The environment keeps its registrations; dropping the token does not end one.
@MainActor
public final class DMTraitChangeRegistration {
  /// The traits whose changes the registration observes.
  public let traits: [DMTrait]
  private let handler: @MainActor (DMTraitCollection) -> Void
  /// `false` once unregistered, so that a registration ended by an earlier handler of the same
  /// change is not called.
  fileprivate(set) var isRegistered = true
  /// The environment's registrations that hold this one, and its place among them.
  fileprivate weak var owner: DMResponder.Extras?
  fileprivate var slot = 0

  fileprivate init(traits: [DMTrait], handler: @escaping @MainActor (DMTraitCollection) -> Void) {
    self.traits = traits
    self.handler = handler
  }

  /// Calls the handler if one of the traits changed from `previous` to `current`.
  @inline(__always)
  func notify(previous: DMTraitCollection, current: DMTraitCollection) {
    guard isRegistered,
      traits.contains(where: { TraitPropagator.shared.trait($0, differsFrom: previous, to: current) })
    else { return }
    handler(previous)
  }
}

/// Observing chosen traits, as UIKit's `registerForTraitChanges(_:handler:)`.
extension DMTraitEnvironment where Self: DMResponder {
  /// Calls `handler` each time one of `traits` changes in this environment's resolved collection.
  ///
  /// The rules are those of ``dmTraitCollectionDidChange(_:)``, which keeps its meaning and runs
  /// first: once per change, parents first, bound properties already set, only for an environment
  /// in a visible window (a hidden one is called when shown, if the traits changed meanwhile).
  /// The handler gets the environment and its previous collection; the environment's
  /// ``dmTraitCollection`` is the new one (unless the environment's own callback moved it to a
  /// place that resolves another collection: it then reads its new place's, and
  /// ``DMTraitCollection/current`` is the one of the change). It is not called for an
  /// environment's first collection.
  /// Registrations are called in the order they were made.
  ///
  /// ```swift
  /// sidebar.registerForTraitChanges([.accessibilityMotion, .custom(ContentDensity.self)]) { sidebar, previous in
  ///   sidebar.relayout()
  /// }
  /// ```
  /// - Parameters:
  ///   - traits: The traits to observe.
  ///   - handler: Called with the environment and its previous collection. It holds the
  ///     environment unowned, so capturing it is not needed.
  /// - Returns: A token for ``DMResponder/unregisterForTraitChanges(_:)``; the environment keeps the
  ///   registration until then, or until it is freed.
  @discardableResult
  public func registerForTraitChanges(
    _ traits: [DMTrait], handler: @escaping @MainActor (Self, DMTraitCollection) -> Void
  ) -> DMTraitChangeRegistration {
    // Unowned: the environment holds the registration.
    unowned let environment = self
    let registration = DMTraitChangeRegistration(traits: traits) { previous in
      handler(environment, previous)
    }
    let extras = extrasBox
    registration.owner = extras
    registration.slot = extras.observers.count
    extras.observers.append(registration)
    return registration
  }
}

/// Ending registrations, and calling them.
extension DMResponder {
  /// Ends a registration made with ``DMTraitEnvironment/registerForTraitChanges(_:handler:)``; from inside a handler,
  /// it is not called for the change being reported either. Ending one twice, or another
  /// environment's, does nothing.
  /// - Parameter registration: The token the registration returned.
  public final func unregisterForTraitChanges(_ registration: DMTraitChangeRegistration) {
    guard let extras, registration.owner === extras, registration.isRegistered else { return }
    extras.observers[registration.slot] = nil
    extras.observerHoles += 1
    registration.isRegistered = false
    // Past half holes, the list is made whole again: each registration moved once per its share.
    guard extras.observerHoles * 2 > extras.observers.count else { return }
    extras.observers.removeAll { $0 == nil }
    extras.observerHoles = 0
    for (slot, registration) in extras.observers.enumerated() { registration?.slot = slot }
  }

  /// Calls the registrations whose traits changed from `previous` to `current`.
  @inline(__always)
  final func notifyTraitObservers(previous: DMTraitCollection, current: DMTraitCollection) {
    // A copy: a handler may register or unregister meanwhile.
    guard let observers = extras?.observers, !observers.isEmpty else { return }
    for case let registration? in observers { registration.notify(previous: previous, current: current) }
  }
}
