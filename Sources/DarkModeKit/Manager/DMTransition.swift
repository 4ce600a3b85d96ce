/// How the running trait change should be shown: at once, or animated over a duration.
///
/// Read ``current`` inside ``DMTraitEnvironment/dmTraitCollectionDidChange(_:)``, a binding
/// update or a handler to cross-fade a renderer when the change came from
/// `DMTraitCollection.setOverride(_:animated: true)`:
///
/// ```swift
/// final class Canvas: DMView {
///   override func dmTraitCollectionDidChange(_ previous: DMTraitCollection?) {
///     let transition = DMTransition.current
///     renderer.redraw(fadeDuration: transition.isAnimated ? transition.duration : 0)
///   }
/// }
/// ```
public struct DMTransition: Sendable, Hashable {
  /// Whether the change should be animated.
  public var isAnimated: Bool
  /// The animation's length in seconds; `0` when not animated.
  public var duration: Double

  /// Creates a transition.
  /// - Parameters:
  ///   - isAnimated: Whether the change should be animated.
  ///   - duration: The animation's length in seconds.
  public init(isAnimated: Bool, duration: Double) {
    self.isAnimated = isAnimated
    self.duration = duration
  }

  /// An immediate change.
  public static let none = DMTransition(isAnimated: false, duration: 0)

  /// The transition of the change being delivered right now; ``none`` outside a change.
  ///
  /// A change made with `animated: true` has the duration of
  /// ``DMConfiguration/animationDuration`` (0.25 s unless configured), unless the new global
  /// collection, or the collection of the environment being called, asks for reduced motion
  /// (``DMTraitCollection/accessibilityMotion``): then it is ``none``, so that renderers show it at
  /// once. Changes from the system source, from view
  /// overrides and from moving views are not animated.
  @MainActor
  public static var current: DMTransition {
    let transition = TraitPropagator.shared.transition
    // An environment that asks for reduced motion (its own override, say) is never animated.
    if transition.isAnimated, PassContext.current?.accessibilityMotion == .reduced { return .none }
    return transition
  }
}
