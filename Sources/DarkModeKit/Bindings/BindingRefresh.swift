/// Sets bound properties again after the values behind them changed without a trait change (a
/// colour table reload), once on the main actor however many reloads came in meanwhile.
enum BindingRefresh {
  private static let isScheduled = Locked(false)

  /// Asks for a refresh from any thread.
  static func schedule() {
    let mustSchedule = isScheduled.withLock { scheduled in
      defer { scheduled = true }
      return !scheduled
    }
    guard mustSchedule else { return }
    Task { @MainActor in
      isScheduled.withLock { $0 = false }
      TraitPropagator.shared.bindingSourcesDidChange()
    }
  }
}
