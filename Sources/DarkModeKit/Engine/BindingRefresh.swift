import Foundation

/// Sets bound properties again after the values behind them changed without a trait change (a
/// colour table reload), then posts each reloaded table's ``DMColorTable/didReloadNotification``;
/// and resolves every collection again after a theme got or lost a side, which may change the style it
/// makes. Always on the main actor.
enum BindingRefresh {
  /// Tables reloaded on other threads whose refresh has not run yet.
  private static let pending = Locked<[DMColorTable]>([])
  /// Whether a refresh for sides declared or withdrawn on another thread is on its way.
  private static let sidesRefreshIsScheduled = Locked(false)

  /// Listens to colour-table reloads and new theme sides; evaluated once, by the first binding or
  /// pass.
  static let isListening: Void = {
    ColorTableReloads.listen { tableDidReload($0) }
    ThemeCatalog.listen { themeSidesDidChange() }
  }()

  /// After a theme got or lost a side, on any thread: on the main actor, at once (after the running
  /// pass, if any); from another thread, on the main actor soon after, once for all the sides
  /// declared meanwhile.
  static func themeSidesDidChange() {
    if MainActorCheck.isOnMainActor {
      MainActor.assumeIsolated { TraitPropagator.shared.themeSidesDidChange() }
      return
    }
    let mustSchedule = sidesRefreshIsScheduled.withLock { isScheduled in
      defer { isScheduled = true }
      return !isScheduled
    }
    guard mustSchedule else { return }
    Task { @MainActor in
      sidesRefreshIsScheduled.withLock { $0 = false }
      TraitPropagator.shared.themeSidesDidChange()
    }
  }

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
