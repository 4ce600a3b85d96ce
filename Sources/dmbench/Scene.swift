import DarkModeKit

/// An object with the three themed properties of the benchmarks.
@MainActor
protocol ThreeProperties: AnyObject {
  var background: DMColor { get set }
  var border: DMColor { get set }
  var opacity: Double { get set }
}

/// A view with three themed properties and a callback that counts, as in an app.
final class BenchView: DMView, ThreeProperties {
  // Ordinary properties, as an app's: every write to them, a binding's, a baseline's or the
  // floor's, pays Swift's dynamic exclusivity check.
  var background = DMColor.clear
  var border = DMColor.clear
  var opacity = 1.0
  var changes = 0

  override func dmTraitCollectionDidChange(_ previousTraitCollection: DMTraitCollection?) {
    changes &+= 1
  }
}

/// An object outside the hierarchy with the same three themed properties, bound through
/// `DMThemable` (a layer, a cell's style, a terminal program's palette).
final class BenchLayer: DMThemable, ThreeProperties {
  // Ordinary properties, as an app's (see `BenchView`).
  var background = DMColor.clear
  var border = DMColor.clear
  var opacity = 1.0

  /// `count` layers, each with its three properties bound.
  @MainActor
  static func bound(count: Int) -> [BenchLayer] {
    (0..<count).map { _ in
      // Bound through the concrete type, whose stored properties bindings write in place (a key
      // path through the protocol's requirement would go through its accessors).
      let layer = BenchLayer()
      layer.dm.bind(\.background, to: Theme.background)
      layer.dm.bind(\.border, to: Theme.border)
      layer.dm.bind(\.opacity, to: Theme.opacity)
      return layer
    }
  }
}

/// The same fields as a view without any theming machinery: superview, subviews, the three
/// properties and the counter. The floor for memory.
final class PlainView {
  weak var superview: PlainView?
  weak var controller: AnyObject?
  var subviews: [PlainView] = []
  var background = DMColor.clear
  var border = DMColor.clear
  var opacity = 1.0
  var changes = 0
}

/// The themed values every view binds: two table colours and a number.
enum Theme {
  static let table = try! DMColorTable(string: "NORMAL NIGHT\n#ffffff #1c1c1e BG\n#c6c6c8 #48484a SEP\n")
  static let background = DMDynamicColor(key: "BG", in: table)
  static let border = DMDynamicColor(key: "SEP", in: table)
  static let opacity = DMDynamic(light: 1.0, dark: 0.8)
}

/// A window holding two containers, each with half of `count` views in trees of fan-out 8.
@MainActor
struct Scene {
  let window: DMWindow
  let halves: [BenchView]
  let views: [BenchView]

  init(count: Int, binds: Bool = true) {
    window = DMWindow()
    var views: [BenchView] = []
    var halves: [BenchView] = []
    for half in 0..<2 {
      let container = BenchView()
      Scene.bind(container, binds)
      window.addSubview(container)
      halves.append(container)
      let target = count / 2 + (half == 0 ? count % 2 : 0)
      var made = 0
      var level: [DMView] = [container]
      while made < target {
        var next: [DMView] = []
        for parent in level {
          for _ in 0..<8 where made < target {
            let view = BenchView()
            Scene.bind(view, binds)
            parent.addSubview(view)
            views.append(view)
            next.append(view)
            made += 1
          }
        }
        level = next
      }
    }
    self.halves = halves
    self.views = views
  }

  static func bind(_ view: BenchView, _ binds: Bool) {
    guard binds else { return }
    view.dm.bind(\.background, to: Theme.background)
    view.dm.bind(\.border, to: Theme.border)
    view.dm.bind(\.opacity, to: Theme.opacity)
  }

  /// A subtree of exactly 100 descendants under one root: 10 children with 9 children each.
  static func subtreeOfHundred() -> BenchView {
    let root = BenchView()
    bind(root, true)
    for _ in 0..<10 {
      let child = BenchView()
      bind(child, true)
      root.addSubview(child)
      for _ in 0..<9 {
        let grandchild = BenchView()
        bind(grandchild, true)
        child.addSubview(grandchild)
      }
    }
    return root
  }
}
