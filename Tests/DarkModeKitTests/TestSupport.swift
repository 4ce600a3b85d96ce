import DarkModeKitTestSupport
import Testing

@testable import DarkModeKit

/// Every test that touches the global collection, the windows or the manager lives in a suite
/// nested in this one; each runs alone among every such test of every target (see
/// `GlobalStateIsolation`), while the other tests run alongside.
@Suite(.globalState) struct GlobalStateTests {}

/// Records the trait-change calls of the environments it is given, in order.
@MainActor
final class CallLog {
  struct Call: Equatable {
    let name: String
    let previous: DMTraitCollection?
    let current: DMTraitCollection
  }

  var calls: [Call] = []
  var names: [String] { calls.map(\.name) }

  func record(_ name: String, _ previous: DMTraitCollection?, _ current: DMTraitCollection) {
    calls.append(Call(name: name, previous: previous, current: current))
  }

  func calls(of name: String) -> [Call] { calls.filter { $0.name == name } }
  func reset() { calls.removeAll() }
}

/// A view that logs its calls, with what `DMTraitCollection.current` was inside them.
@MainActor
class LoggingView: DMView {
  let name: String
  let log: CallLog
  var currentInsideCallback: DMTraitCollection?
  var onChange: ((LoggingView) -> Void)?

  init(_ name: String, log: CallLog) {
    self.name = name
    self.log = log
  }

  override func dmTraitCollectionDidChange(_ previousTraitCollection: DMTraitCollection?) {
    currentInsideCallback = DMTraitCollection.current
    log.record(name, previousTraitCollection, dmTraitCollection)
    onChange?(self)
  }
}

@MainActor
final class LoggingWindow: DMWindow {
  let name: String
  let log: CallLog
  var onChange: ((LoggingWindow) -> Void)?

  init(_ name: String, log: CallLog) {
    self.name = name
    self.log = log
  }

  override func dmTraitCollectionDidChange(_ previousTraitCollection: DMTraitCollection?) {
    log.record(name, previousTraitCollection, dmTraitCollection)
    onChange?(self)
  }
}

@MainActor
final class LoggingController: DMViewController {
  let name: String
  let log: CallLog
  let viewName: String

  init(_ name: String, log: CallLog, viewName: String) {
    self.name = name
    self.log = log
    self.viewName = viewName
  }

  override func loadView() {
    view = LoggingView(viewName, log: log)
  }

  override func dmTraitCollectionDidChange(_ previousTraitCollection: DMTraitCollection?) {
    log.record(name, previousTraitCollection, dmTraitCollection)
  }
}

extension DMTraitCollection {
  static let light = DMTraitCollection(userInterfaceStyle: .light)
  static let dark = DMTraitCollection(userInterfaceStyle: .dark)
  /// Fully resolved light / dark collections, as environments report them.
  static let resolvedLight = DMTraitCollection(userInterfaceStyle: .light).withDefaults
  static let resolvedDark = DMTraitCollection(userInterfaceStyle: .dark).withDefaults
}

/// window → a → a1; window → b, with the window shown and the log cleared.
@MainActor
func makeShownTree(log: CallLog) -> (LoggingWindow, LoggingView, LoggingView, LoggingView) {
  let window = LoggingWindow("window", log: log)
  let a = LoggingView("a", log: log)
  let a1 = LoggingView("a1", log: log)
  let b = LoggingView("b", log: log)
  window.addSubview(a)
  a.addSubview(a1)
  window.addSubview(b)
  window.makeKeyAndVisible()
  log.reset()
  return (window, a, a1, b)
}
