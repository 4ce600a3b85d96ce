/// An object with a resolved trait collection that is told when it changes.
///
/// ``DMView``, ``DMWindow`` and ``DMViewController`` are trait environments. Every trait
/// environment can bind properties to dynamic values through ``DMThemable/dm``.
@MainActor
public protocol DMTraitEnvironment: DMThemable {
  /// The environment's resolved traits.
  var dmTraitCollection: DMTraitCollection { get }

  /// Called once when the environment's resolved traits changed.
  ///
  /// Inside the call, ``DMTraitCollection/current`` is the environment's collection and
  /// ``DMTransition/current`` says whether the change is animated.
  /// - Parameter previousTraitCollection: The collection the environment last reported, or `nil`
  ///   for its first report.
  func dmTraitCollectionDidChange(_ previousTraitCollection: DMTraitCollection?)
}
