import Foundation

/// Sets bound properties again after the values behind them changed without a trait change (a
/// colour table reload), then posts each reloaded table's ``DMColorTable/didReloadNotification``,
/// always on the main actor.
enum BindingRefresh {
  /// Tables reloaded on other threads whose refresh has not run yet.
  private static let pending = Locked<[DMColorTable]>([])

  /// Listens to colour-table reloads; evaluated once, by the first binding or pass.
  static let isListening: Void = ColorTableReloads.listen { tableDidReload($0) }

  /// After a reload on any thread: on the main actor, at once (after the running pass, if any);
  /// from another thread, on the main actor soon after, once for all the reloads that came in
  /// meanwhile.
  static func tableDidReload(_ table: DMColorTable) {
    if MainActorCheck.isOnMainActor {
      MainActor.assumeIsolated { refresh(after: [table]) }
      return
    }
    let mustSchedule = pending.withLock { tables in
      defer { if !tables.contains(where: { $0 === table }) { tables.append(table) } }
      return tables.isEmpty
    }
    guard mustSchedule else { return }
    Task { @MainActor in
      refresh(
        after: pending.withLock { tables in
          defer { tables.removeAll() }
          return tables
        })
    }
  }

  @MainActor
  private static func refresh(after tables: [DMColorTable]) {
    TraitPropagator.shared.bindingSourcesDidChange {
      for table in tables { ColorTableReloads.post(for: table) }
    }
  }
}
