import DarkModeKitTestSupport
import Testing

@testable import DarkModeKit

/// A storm node's serial number.
@MainActor
protocol Numbered: AnyObject {
  var serial: Int { get }
}

/// Random sequences of structural and trait changes, checked after every step against a model that
/// resolves each environment from scratch.
@MainActor
final class HierarchyStorm {
  struct Call {
    let node: Int
    let previous: DMTraitCollection?
    let current: DMTraitCollection
    let currentInside: DMTraitCollection
  }

  final class View: DMView, Numbered {
    unowned let storm: HierarchyStorm
    let serial: Int
    var color = DMColor.clear
    init(_ storm: HierarchyStorm) {
      self.storm = storm
      serial = storm.nextSerial()
    }
    override func dmTraitCollectionDidChange(_ previous: DMTraitCollection?) { storm.record(self, previous) }
  }

  final class Window: DMWindow, Numbered {
    unowned let storm: HierarchyStorm
    let serial: Int
    init(_ storm: HierarchyStorm) {
      self.storm = storm
      serial = storm.nextSerial()
    }
    override func dmTraitCollectionDidChange(_ previous: DMTraitCollection?) { storm.record(self, previous) }
  }

  final class Controller: DMViewController, Numbered {
    unowned let storm: HierarchyStorm
    let serial: Int
    init(_ storm: HierarchyStorm) {
      self.storm = storm
      serial = storm.nextSerial()
    }
    override func loadView() { view = View(storm) }
    override func dmTraitCollectionDidChange(_ previous: DMTraitCollection?) { storm.record(self, previous) }
  }

  var random: SeededGenerator
  let reentrant: Bool
  var windows: [Window] = []
  var controllers: [Controller] = []
  var views: [View] = []
  let source = DMManualAppearanceSource()
  var calls: [Call] = []
  /// Every call of every step: node, previous and current collection.
  var history: [String] = []
  /// Keyed by serial number: addresses of deallocated views are reused.
  var lastReported: [Int: DMTraitCollection] = [:]
  private var serials = 0

  func nextSerial() -> Int {
    serials += 1
    return serials
  }

  func id(_ node: DMResponder) -> Int { (node as? any Numbered)?.serial ?? -1 }
  var reentrantBudget = 0
  var failures: [String] = []
  /// The views whose `color` is bound, weakly, to check that bound values follow.
  var bound: [ObjectIdentifier: WeakBox<View>] = [:]
  let boundColor = DMDynamicColor(
    light: .white, dark: .black, highContrastLight: .gray, highContrastDark: .darkGray)
  /// Views dropped from the pool, weakly, to check that they deallocate.
  var dropped: [WeakBox<View>] = []

  /// Whether most steps switch the global style, so that walks run through the windows' recorded
  /// orders while callbacks change the structure.
  let switchesOften: Bool
  private var isDark = false

  init(seed: UInt64, reentrant: Bool, switchesOften: Bool = false) {
    random = SeededGenerator(seed: seed)
    self.reentrant = reentrant
    self.switchesOften = switchesOften
    windows = (0..<3).map { _ in Window(self) }
    controllers = (0..<4).map { _ in Controller(self) }
    views = (0..<30).map { _ in View(self) }
    DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: source))
  }

  /// The views of controllers let go of, which live on wherever they hang.
  var leftViews: [DMView] = []

  var allNodes: [DMResponder] { windows + controllers + views + controllers.map(\.view) + leftViews }

  func record(_ node: DMResponder, _ previous: DMTraitCollection?) {
    let id = id(node)
    let current = node.dmTraitCollection
    calls.append(
      Call(node: id, previous: previous, current: current, currentInside: DMTraitCollection.current))
    history.append("\(id) \(String(describing: previous)) → \(current)")
    if previous != lastReported[id] {
      failures.append(
        "\(id): previous \(String(describing: previous)) but last reported \(String(describing: lastReported[id]))"
      )
    }
    lastReported[id] = current
    if reentrant && reentrantBudget > 0 && Int.random(in: 0..<8, using: &random) == 0 {
      reentrantBudget -= 1
      step()
    }
  }

  // MARK: The model

  func modelParent(_ node: DMResponder) -> DMResponder? {
    if node is DMWindow { return nil }
    if let view = node as? DMView { return view.owningController ?? view.superview }
    return (node as? DMViewController)?.viewIfLoaded?.superview
  }

  /// The node's collection computed from scratch, and whether it is in a visible window.
  func model(_ node: DMResponder) -> (DMTraitCollection, Bool) {
    var chain: [DMResponder] = [node]
    while let parent = modelParent(chain.last!) { chain.append(parent) }
    var traits = DMTraitCollection(traitsFrom: [DMTraitCollection.system, DMTraitCollection.override])
    traits = DMTraitCollection(traitsFrom: [
      DMTraitCollection(userInterfaceStyle: .light), DMTraitCollection(accessibilityContrast: .normal),
      DMTraitCollection(userInterfaceLevel: .base), DMTraitCollection(accessibilityMotion: .normal), traits,
    ])
    for link in chain.reversed() {
      traits = DMTraitCollection(traitsFrom: [
        traits, link.overrideTraitCollection ?? DMTraitCollection(),
        DMTraitCollection(userInterfaceStyle: link.overrideUserInterfaceStyle),
      ])
    }
    let visible = (chain.last as? DMWindow).map { !$0.isHidden } ?? false
    return (traits, visible)
  }

  // MARK: Steps

  func randomTraits() -> DMTraitCollection {
    var traits = DMTraitCollection(
      userInterfaceStyle: DMUserInterfaceStyle.allCases.randomElement(using: &random)!)
    if Bool.random(using: &random) { traits.theme = ["A", "B"].randomElement(using: &random)! }
    if Int.random(in: 0..<4, using: &random) == 0 { traits.accessibilityContrast = .high }
    return traits
  }

  func randomContainer() -> DMView {
    let containers: [DMView] = windows + views + controllers.map(\.view)
    return containers.randomElement(using: &random)!
  }

  func step() {
    if switchesOften, Bool.random(using: &random) {
      // Every environment without an override changes: walks go through the whole tree.
      isDark.toggle()
      return DMTraitCollection.setOverride(isDark ? .dark : .light, animated: false)
    }
    switch Int.random(in: 0..<15, using: &random) {
    case 13:
      // A controller's view placed in a container: the tree holds the controller only weakly.
      randomContainer().addSubview(controllers.randomElement(using: &random)!.view)
    case 14:
      // A controller let go of, whose view may hang in a window: it is freed now or once
      // nothing else holds it, and its view then inherits from its superview.
      let index = Int.random(in: 0..<controllers.count, using: &random)
      if let view = controllers[index].viewIfLoaded { leftViews.append(view) }
      controllers[index] = Controller(self)
    case 10:
      let view = views.randomElement(using: &random)!
      view.dm.bind(\.color, to: boundColor)
      bound[ObjectIdentifier(view)] = WeakBox(view)
    case 11:
      let view = views.randomElement(using: &random)!
      view.dm.unbind(\.color)
      bound[ObjectIdentifier(view)] = nil
    case 12:
      // Drop a view (and whatever hangs below it) from the pool: it should deallocate, even in
      // the middle of a pass.
      let index = Int.random(in: 0..<views.count, using: &random)
      let old = views[index]
      old.removeFromSuperview()
      for subview in old.subviews { subview.removeFromSuperview() }
      bound[ObjectIdentifier(old)] = nil
      dropped.append(WeakBox(old))
      views[index] = View(self)
    case 0, 1:
      randomContainer().addSubview(views.randomElement(using: &random)!)
    case 2:
      let container = randomContainer()
      container.insertSubview(
        views.randomElement(using: &random)!,
        at: Int.random(in: -1...container.subviews.count + 1, using: &random))
    case 3:
      views.randomElement(using: &random)!.removeFromSuperview()
    case 4:
      allNodes.randomElement(using: &random)!.overrideUserInterfaceStyle =
        DMUserInterfaceStyle.allCases.randomElement(using: &random)!
    case 5:
      allNodes.randomElement(using: &random)!.overrideTraitCollection =
        Bool.random(using: &random) ? nil : randomTraits()
    case 6:
      let window = windows.randomElement(using: &random)!
      window.isHidden.toggle()
    case 7:
      DMTraitCollection.setOverride(randomTraits(), animated: Bool.random(using: &random))
    case 8:
      windows.randomElement(using: &random)!.rootViewController =
        Bool.random(using: &random) ? nil : controllers.randomElement(using: &random)!
    default:
      source.traitCollection = randomTraits()
    }
  }

  /// Runs one top-level step and checks the invariants; returns the failures found.
  func runStep(index: Int) {
    let before = Dictionary(
      uniqueKeysWithValues: allNodes.map { (id($0), lastReported[id($0)]) })
    calls.removeAll()
    reentrantBudget = 20
    step()
    // The views of controllers freed in the step are called once the main actor is free.
    TraitPropagator.shared.placeOrphanedViews()
    for node in allNodes {
      let id = id(node)
      let (expected, visible) = model(node)
      if node.dmTraitCollection != expected {
        failures.append(
          "step \(index): \(type(of: node)) resolves \(node.dmTraitCollection), model says \(expected)")
      }
      let nodeCalls = calls.filter { $0.node == id }
      if visible && lastReported[id] != expected {
        failures.append(
          "step \(index): \(type(of: node)) last reported \(String(describing: lastReported[id])), is \(expected)"
        )
      }
      if !reentrant {
        let changed = visible && before[id]! != expected
        if nodeCalls.count != (changed ? 1 : 0) {
          failures.append(
            "step \(index): \(type(of: node)) called \(nodeCalls.count) times, changed: \(changed)")
        }
        if !visible && !nodeCalls.isEmpty { failures.append("step \(index): hidden node called") }
      }
      for call in nodeCalls where call.currentInside != call.current {
        failures.append("step \(index): current inside the callback was \(call.currentInside)")
      }
      if visible, let view = node as? View, bound[ObjectIdentifier(view)]?.value === view,
        view.color != boundColor.resolved(with: expected)
      {
        failures.append("step \(index): a bound colour is \(view.color), its traits give another")
      }
    }
    if !reentrant {
      // Parents before children.
      let order = Dictionary(
        calls.enumerated().map { ($0.element.node, $0.offset) }, uniquingKeysWith: { a, _ in a })
      for node in allNodes {
        if let parent = modelParent(node), let childIndex = order[id(node)],
          let parentIndex = order[id(parent)], parentIndex > childIndex
        {
          failures.append("step \(index): child called before its parent")
        }
      }
    }
  }
}

extension GlobalStateTests {
  @Suite @MainActor struct HierarchyStormTests {
    init() { DarkModeManager.reset() }

    @Test(arguments: [1 as UInt64, 2, 3, 0xDA4C])
    func randomChangesKeepEveryEnvironmentExact(seed: UInt64) {
      print("HierarchyStormTests: seed \(seed), no re-entrant changes")
      let storm = HierarchyStorm(seed: seed, reentrant: false)
      for index in 0..<1_500 where storm.failures.isEmpty {
        storm.runStep(index: index)
      }
      #expect(storm.failures.first == nil, "seed \(seed)")
      DarkModeManager.reset()
    }

    @Test(arguments: [21 as UInt64, 22])
    func droppedViewsDeallocateEvenDuringAPass(seed: UInt64) {
      print("HierarchyStormTests: seed \(seed), dropping views")
      let storm = HierarchyStorm(seed: seed, reentrant: true)
      for index in 0..<1_000 where storm.failures.isEmpty {
        storm.runStep(index: index)
      }
      #expect(storm.failures.first == nil, "seed \(seed)")
      #expect(storm.dropped.count > 20)
      let alive = storm.dropped.filter { $0.value != nil }.count
      #expect(alive == 0, "\(alive) of \(storm.dropped.count) dropped views are still alive")
      DarkModeManager.reset()
    }

    @Test(arguments: [31 as UInt64, 32, 33])
    func randomChangesInCallbacksOfSwitchesThroughRecordedOrdersKeepEveryEnvironmentExact(seed: UInt64) {
      print("HierarchyStormTests: seed \(seed), switches with re-entrant changes")
      // The storm's windows are small.
      TraitPropagator.shared.minimumOrderCount = 1
      let storm = HierarchyStorm(seed: seed, reentrant: true, switchesOften: true)
      let walksBefore = TraitPropagator.shared.orderedWalkCount
      for index in 0..<1_500 where storm.failures.isEmpty {
        storm.runStep(index: index)
      }
      #expect(storm.failures.first == nil, "seed \(seed)")
      // Most of those walks went through an order, and callbacks changed the structure in many.
      #expect(TraitPropagator.shared.orderedWalkCount - walksBefore > 150)
      DarkModeManager.reset()
    }

    /// The same storm twice, once with walks through recorded orders and once with every walk a
    /// stack walk: the same calls, in the same order, with the same collections.
    @Test(arguments: [41 as UInt64, 42, 43, 44])
    func walksThroughRecordedOrdersMakeTheCallsOfStackWalks(seed: UInt64) {
      var histories: [[String]] = []
      for usesOrders in [true, false] {
        TraitPropagator.shared.usesWalkOrders = usesOrders
        // The storm's windows are small.
        TraitPropagator.shared.minimumOrderCount = 1
        defer { DarkModeManager.reset() }
        let storm = HierarchyStorm(seed: seed, reentrant: true, switchesOften: true)
        let walks = TraitPropagator.shared.orderedWalkCount
        for index in 0..<1_200 where storm.failures.isEmpty {
          storm.runStep(index: index)
        }
        let orderedWalks = TraitPropagator.shared.orderedWalkCount - walks
        #expect(
          usesOrders ? orderedWalks > 100 : orderedWalks == 0, "seed \(seed): \(orderedWalks) ordered walks")
        #expect(storm.failures.first == nil, "seed \(seed)")
        histories.append(storm.history)
        DarkModeManager.reset()
      }
      // Enough calls to compare (how many depends on the themes earlier tests gave sides to).
      #expect(histories[0].count > 500)
      let firstDifference = zip(histories[0], histories[1]).enumerated().first {
        $0.element.0 != $0.element.1
      }?.offset
      #expect(firstDifference == nil && histories[0].count == histories[1].count, "seed \(seed)")
    }

    @Test(arguments: [11 as UInt64, 12, 13, 0xBEEF])
    func randomReentrantChangesEndInTheStateLastSet(seed: UInt64) {
      print("HierarchyStormTests: seed \(seed), with re-entrant changes")
      let storm = HierarchyStorm(seed: seed, reentrant: true)
      for index in 0..<1_500 where storm.failures.isEmpty {
        storm.runStep(index: index)
      }
      #expect(storm.failures.first == nil, "seed \(seed)")
      DarkModeManager.reset()
    }
  }
}
