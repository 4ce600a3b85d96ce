import Foundation

/// What a pass reports to: the app's handlers, and the duration of animated changes.
///
/// `DarkModeManager.setup(with:)` hands it in; the engine never reads the configuration itself.
struct ChangeHandlers {
  /// Called after each change of the resolved global collection.
  var themeChangeHandler: (@MainActor () -> Void)?
  /// Called for each visible window that may look different after a pass.
  var windowThemeChangeHandler: (@MainActor (DMWindow) -> Void)?
  /// The duration that ``DMTransition/current`` gives animated changes.
  var animationDuration = 0.25
}

/// Reporting a pass: the window handler for each window that may look different. The global
/// collection's notification and streams are reported through ``GlobalChangeReporter``.
extension TraitPropagator {
  /// The window at the root of `node`'s trait parents, if the root is a window.
  func windowHolding(_ node: DMResponder) -> DMWindow? {
    var root = node
    while let parent = root.traitParent { root = parent }
    return root as? DMWindow
  }

  /// Marks a window for the window handler, once per report.
  func markRestyled(_ window: DMWindow) {
    guard window.isVisible, !restyledWindows.contains(where: { $0 === window }) else { return }
    restyledWindows.append(window)
  }

  func reportRestyledWindows() {
    guard !restyledWindows.isEmpty else { return }
    let windows = restyledWindows
    restyledWindows.removeAll(keepingCapacity: true)
    guard let handler = handlers.windowThemeChangeHandler else { return }
    // A callback, or the handler for an earlier window, may have hidden a window since.
    for window in windows where window.isVisible { handler(window) }
  }
}

/// Tells the observers of chosen traits, the notification centre and the `changes` subscribers
/// about global changes, in that order.
enum GlobalChangeReporter {
  /// A registration made with `DMTraitCollection.registerForTraitChanges(_:handler:)`.
  struct Observer {
    var traits: [DMTrait]
    var handler: @MainActor (DMTraitCollection, DMTraitCollection) -> Void
  }

  private struct Subscribers {
    var nextID: UInt64 = 0
    var continuations: [UInt64: AsyncStream<DMTraitCollection>.Continuation] = [:]
    /// By number, so that observers are called in the order they registered.
    var observers: [UInt64: Observer] = [:]
  }

  private static let subscribers = Locked(Subscribers())

  static func subscribe(_ continuation: AsyncStream<DMTraitCollection>.Continuation) {
    let id = subscribers.withLock { state in
      state.nextID &+= 1
      state.continuations[state.nextID] = continuation
      return state.nextID
    }
    continuation.onTermination = { _ in
      subscribers.withLock { _ = $0.continuations.removeValue(forKey: id) }
    }
  }

  /// Adds an observer; the number to remove it with.
  static func observe(_ observer: Observer) -> UInt64 {
    subscribers.withLock { state in
      state.nextID &+= 1
      state.observers[state.nextID] = observer
      return state.nextID
    }
  }

  static func stopObserving(_ id: UInt64) {
    // Dropped outside the lock: the handler's captures may run code when freed.
    let removed = subscribers.withLock { $0.observers.removeValue(forKey: id) }
    extendLifetime(removed)
  }

  /// Whether observer `id` is still registered.
  static func isObserving(_ id: UInt64) -> Bool {
    subscribers.withLock { $0.observers[id] != nil }
  }

  /// The number of live `changes` subscriptions.
  static var subscriberCount: Int {
    subscribers.withLock { $0.continuations.count }
  }

  @MainActor
  static func report(previous: DMTraitCollection, current: DMTraitCollection) {
    let observers = subscribers.withLock { $0.observers.sorted { $0.key < $1.key } }
    for (id, observer) in observers where observer.traits.contains(where: { $0.differs(previous, current) }) {
      // An earlier handler may have ended it.
      if isObserving(id) { observer.handler(previous, current) }
    }
    NotificationCenter.default.post(
      name: DMTraitCollection.didChangeNotification, object: nil,
      userInfo: [
        DMTraitCollection.previousTraitCollectionUserInfoKey: previous,
        DMTraitCollection.newTraitCollectionUserInfoKey: current,
      ])
    let continuations = subscribers.withLock { Array($0.continuations.values) }
    for continuation in continuations { continuation.yield(current) }
  }
}
