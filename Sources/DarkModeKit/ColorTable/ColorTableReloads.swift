import Foundation

/// Where a colour table says that it was reloaded, on the thread that reloaded it.
///
/// The engine listens (see `BindingRefresh`): it sets bound properties again, tells the window
/// handler, then posts the table's ``DMColorTable/didReloadNotification``. The tables know nothing
/// of that. Before anything was bound, nothing listens, and the notification is posted at once on
/// the main actor, or soon after on it from another thread.
enum ColorTableReloads {
  typealias Listener = @Sendable (DMColorTable) -> Void

  private static let listener = Locked<Listener?>(nil)

  /// Makes `listener` the one that hears of every reload from now on.
  static func listen(_ listener: @escaping Listener) {
    self.listener.withLock { $0 = listener }
  }

  /// Called by a table after it published new contents.
  static func tableDidReload(_ table: DMColorTable) {
    if let listener = listener.withLock({ $0 }) { return listener(table) }
    if MainActorCheck.isOnMainActor {
      MainActor.assumeIsolated { post(for: table) }
    } else {
      Task { @MainActor in post(for: table) }
    }
  }

  /// Posts the table's notification.
  @MainActor
  static func post(for table: DMColorTable) {
    NotificationCenter.default.post(name: DMColorTable.didReloadNotification, object: table)
  }
}
