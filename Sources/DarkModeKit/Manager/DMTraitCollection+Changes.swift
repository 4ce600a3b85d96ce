import Foundation

extension DMTraitCollection {
  /// Posted on `NotificationCenter.default` after each change of the resolved global collection,
  /// synchronously on the main actor at the end of the pass.
  ///
  /// The `userInfo` holds the collection before the change under
  /// ``previousTraitCollectionUserInfoKey`` and after it under ``newTraitCollectionUserInfoKey``.
  public static let didChangeNotification = Notification.Name("DMTraitCollectionDidChangeNotification")

  /// The `userInfo` key of ``didChangeNotification`` for the collection before the change.
  public static let previousTraitCollectionUserInfoKey = "previous"

  /// The `userInfo` key of ``didChangeNotification`` for the collection after the change.
  public static let newTraitCollectionUserInfoKey = "new"

  /// A new stream of the resolved global collection, one element per change from the moment it
  /// is read.
  ///
  /// Each read makes an independent subscription; it ends, and is freed, when the consuming task
  /// is cancelled or the stream is dropped. Elements are buffered, so a slow reader sees every
  /// change.
  ///
  /// ```swift
  /// for await traits in DMTraitCollection.changes {
  ///   print("now", traits.userInterfaceStyle)
  /// }
  /// ```
  public static var changes: AsyncStream<DMTraitCollection> {
    let (stream, continuation) = AsyncStream.makeStream(of: DMTraitCollection.self)
    GlobalChangeReporter.subscribe(continuation)
    return stream
  }

  /// Calls `handler` after each change of the resolved global collection in which one of
  /// `traits` changed, for as long as the returned token is kept.
  ///
  /// Observers are called on the main actor once the environments have been brought up to date
  /// with the change, in the order they registered, before ``didChangeNotification`` is posted
  /// and ``changes`` yields. The handler is kept until the observation ends, so a handler that
  /// holds the token's owner strongly keeps both alive: capture it weakly. Free or cancel the
  /// token on the main actor, so that what the handler captured is released there.
  ///
  /// ```swift
  /// @MainActor
  /// final class Player {
  ///   private var observation: DMTraitObservation?
  ///   var animates = true
  ///
  ///   init() {
  ///     observation = DMTraitCollection.registerForTraitChanges([.accessibilityMotion]) { [weak self] _, current in
  ///       self?.animates = current.accessibilityMotion != .reduced
  ///     }
  ///   }
  /// }
  /// ```
  /// - Parameters:
  ///   - traits: The traits to observe.
  ///   - handler: Called with the previous and the new global collection.
  /// - Returns: The observation; it ends when the token is freed or cancelled.
  @MainActor
  public static func registerForTraitChanges(
    _ traits: [DMTrait],
    handler: @escaping @MainActor (_ previous: DMTraitCollection, _ current: DMTraitCollection) -> Void
  ) -> DMTraitObservation {
    DMTraitObservation(id: GlobalChangeReporter.observe(.init(traits: traits, handler: handler)))
  }
}

/// An observation of the global collection made with
/// ``DMTraitCollection/registerForTraitChanges(_:handler:)``: it lasts as long as the token.
public final class DMTraitObservation: Sendable {
  private let id: UInt64

  init(id: UInt64) {
    self.id = id
  }

  deinit {
    GlobalChangeReporter.stopObserving(id)
  }

  /// Ends the observation now; from inside a handler, the handlers after it are not called for
  /// the change being reported if they are this one. Cancelling twice does nothing.
  public func cancel() {
    GlobalChangeReporter.stopObserving(id)
  }
}
