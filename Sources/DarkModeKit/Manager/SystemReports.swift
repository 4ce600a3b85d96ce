/// Carries system reports from any thread to the main actor, dropping those of stopped sources
/// and coalescing bursts.
enum SystemReports {
  /// What a source reports: the system's traits, and whether it has a light/dark setting at all.
  struct Report: Sendable {
    var traits: DMTraitCollection
    var hasColorSchemeSetting: Bool
  }

  private struct State {
    var generation: UInt64 = 0
    var reportedGeneration: UInt64 = 0
    var pending: Report?
    var isDrainScheduled = false
  }

  private static let state = Locked(State())

  /// Starts a new generation: reports of earlier sources are ignored from now on.
  static func begin() -> UInt64 {
    state.withLock {
      $0.generation &+= 1
      $0.pending = nil
      return $0.generation
    }
  }

  static func isCurrent(_ generation: UInt64) -> Bool {
    state.withLock { $0.generation == generation }
  }

  /// Whether the source of `generation` has reported yet.
  static func hasReported(_ generation: UInt64) -> Bool {
    state.withLock { $0.reportedGeneration == generation }
  }

  /// A report from the source of `generation`, on any thread: applied by the next drain.
  static func send(_ report: Report, generation: UInt64) {
    let mustSchedule = state.withLock { state in
      guard state.generation == generation else { return false }
      state.pending = report
      defer { state.isDrainScheduled = true }
      return !state.isDrainScheduled
    }
    if mustSchedule {
      Task { @MainActor in drain() }
    }
  }

  @MainActor
  private static func drain() {
    let traits = state.withLock { state in
      defer {
        state.pending = nil
        state.isDrainScheduled = false
      }
      return state.pending.map { ($0, state.generation) }
    }
    if let (report, generation) = traits { apply(report, generation: generation) }
  }

  /// Makes the report's traits the system collection, on behalf of the source of `generation`.
  @MainActor
  static func apply(_ report: Report, generation: UInt64) {
    state.withLock { $0.reportedGeneration = generation }
    let traits = report.traits
    let previous = GlobalTraits.state.withLock { state in
      defer {
        state.set(system: traits)
        state.systemHasColorSchemeSetting = report.hasColorSchemeSetting
      }
      return state.system
    }
    TraitPropagator.shared.globalTraitsDidChange(animated: false)
    if traits != previous { DarkModeManager.systemAppearanceDidChange(to: traits) }
  }
}
