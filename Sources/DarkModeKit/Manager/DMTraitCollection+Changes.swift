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
}
