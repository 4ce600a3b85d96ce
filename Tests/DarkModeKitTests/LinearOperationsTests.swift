import Foundation
import Testing

@testable import DarkModeKit

/// The lists and walks that everyday operations use, kept correct where they take shortcuts:
/// removal by remembered position, the cycle check that walks both ways, the checkpoints of long
/// chains, and images loaded once per pass.
extension GlobalStateTests {
  @Suite @MainActor struct LinearOperationsTests {
    init() { DarkModeManager.reset() }

    /// A chain of `depth` new views, each the only subview of the one before, hung under `top`;
    /// `configure` sees each view with its level first.
    func chain(under top: DMView, depth: Int, _ configure: (Int, DMView) -> Void = { _, _ in }) -> [DMView] {
      var views: [DMView] = []
      var bottom = top
      for level in 0..<depth {
        let view = DMView()
        configure(level, view)
        bottom.addSubview(view)
        views.append(view)
        bottom = view
      }
      return views
    }

    /// Views named by number, for readable lists.
    final class Numbered: DMView {
      let number: Int
      init(_ number: Int) { self.number = number }
    }

    @Test func removalsInAnyOrderKeepTheOtherSubviewsInOrder() {
      let parent = DMView()
      var views = (0..<40).map(Numbered.init)
      // Inserted at the front and in the middle, so that remembered positions go stale.
      for (index, view) in views.enumerated() {
        parent.insertSubview(view, at: index.isMultiple(of: 3) ? 0 : index / 2)
      }
      var expected = parent.subviews.map { ($0 as! Numbered).number }
      #expect(Set(expected) == Set(0..<40))
      var generator = SystemRandomNumberGenerator()
      views.shuffle(using: &generator)
      for view in views.prefix(30) {
        view.removeFromSuperview()
        expected.removeAll { $0 == view.number }
        #expect(parent.subviews.map { ($0 as! Numbered).number } == expected)
        #expect(view.superview == nil)
      }
      // Inserted at the front, then removed from the end: every place moved.
      let front = DMView()
      let queue = (0..<50).map(Numbered.init)
      for view in queue { front.insertSubview(view, at: 0) }
      for view in queue.prefix(20) { view.removeFromSuperview() }
      #expect(front.subviews.map { ($0 as! Numbered).number } == Array((20..<50).reversed()))
      // Moved to another parent and back: in the new place once.
      let other = DMView()
      for view in views.suffix(10) { other.addSubview(view) }
      #expect(parent.subviews.isEmpty)
      for view in views.suffix(10).reversed() { parent.insertSubview(view, at: 0) }
      #expect(parent.subviews.map { ($0 as! Numbered).number } == views.suffix(10).map(\.number))
      #expect(other.subviews.isEmpty)
    }

    @Test func childControllersAndWindowsComeOutOfTheirListsInAnyOrder() {
      let parent = DMViewController()
      let children = (0..<20).map { _ in DMViewController() }
      for child in children { parent.addChild(child) }
      for index in [19, 0, 10, 1, 18, 5] { children[index].removeFromParent() }
      let left = children.indices.filter { ![19, 0, 10, 1, 18, 5].contains($0) }
      #expect(parent.children.map { child in children.firstIndex { $0 === child }! } == left)

      let windows = (0..<10).map { _ in DMWindow() }
      for window in windows { window.isHidden = false }
      for index in [9, 0, 4] { windows[index].isHidden = true }
      windows[0].isHidden = false
      windows[4].isHidden = false
      windows[4].isHidden = false
      #expect(
        DMApplication.shared.windows.map { window in windows.firstIndex { $0 === window }! } == [
          1, 2, 3, 5, 6, 7, 8, 0, 4,
        ])
      for window in windows { window.isHidden = true }
      #expect(DMApplication.shared.windows.isEmpty)
    }

    @Test func aCycleIsRefusedWhicheverWalkEndsFirst() {
      // A deep chain under `top`, and a wide subtree at its bottom.
      let top = DMView()
      let bottom = chain(under: top, depth: 200).last!
      let wide = DMView()
      for _ in 0..<500 { wide.addSubview(DMView()) }
      bottom.addSubview(wide)
      let leaf = wide.subviews[250]
      // The subtree walk is shorter: the top is found only by walking up 250 levels.
      leaf.addSubview(top)
      #expect(top.superview == nil)
      // The walk up is shorter: `wide` holds 500 views.
      wide.subviews[499].addSubview(wide)
      #expect(wide.superview === bottom)
      // Neither is an ancestor: both walks end without finding it.
      let other = DMView()
      other.addSubview(DMView())
      leaf.addSubview(other)
      #expect(other.superview === leaf)
      // A view into itself.
      leaf.addSubview(leaf)
      #expect(leaf.superview === wide)
    }

    @Test func theWindowOfADeepChainFollowsMovesAndFreedAncestors() {
      let first = DMWindow()
      let second = DMWindow()
      let middle = DMView()
      first.addSubview(middle)
      let chain = chain(under: middle, depth: 300)
      #expect(chain.allSatisfy { $0.window === first })
      second.addSubview(middle)
      #expect(chain.reversed().allSatisfy { $0.window === second })
      // A window stays a root: adding it to a view does nothing.
      let holder = DMView()
      holder.addSubview(second)
      #expect(second.superview == nil && chain.last!.window === second)
      // A view above the chain in a window: freeing the window leaves the view the root.
      var outer: DMWindow? = DMWindow()
      let inner = DMView()
      outer!.addSubview(inner)
      inner.addSubview(middle)
      #expect(chain.last!.window === outer)
      outer = nil
      #expect(inner.superview == nil)
      #expect(chain.last!.window == nil && chain[150].window == nil)
      first.addSubview(inner)
      #expect(chain.last!.window === first && chain[150].window === first)
      middle.removeFromSuperview()
      #expect(chain.last!.window == nil)
    }

    @Test func aLongDetachedChainResolvesEachChangeAtEveryLevel() {
      let top = DMView()
      let chain = chain(under: top, depth: 300) { level, view in
        if level == 100 { view.traitOverrides.theme = "UNDECLARED" }
      }
      func styles() -> [DMUserInterfaceStyle] { chain.reversed().map(\.dmTraitCollection.userInterfaceStyle) }
      #expect(styles().allSatisfy { $0 == .unspecified || $0 == .light })
      top.overrideUserInterfaceStyle = .dark
      #expect(styles().allSatisfy { $0 == .dark })
      #expect(chain[99].dmTraitCollection.theme == nil)
      #expect(chain[250].dmTraitCollection.theme == "UNDECLARED")
      // A change in the middle, after the checkpoints were placed.
      chain[200].overrideUserInterfaceStyle = .light
      #expect(chain[299].dmTraitCollection.userInterfaceStyle == .light)
      #expect(chain[199].dmTraitCollection.userInterfaceStyle == .dark)
      // A global change, and a move under a window that is shown.
      DMTraitCollection.setOverride(DMTraitCollection(accessibilityContrast: .high), animated: false)
      #expect(chain[299].dmTraitCollection.accessibilityContrast == .high)
      let window = DMWindow()
      window.overrideUserInterfaceStyle = .light
      window.makeKeyAndVisible()
      top.removeFromSuperview()
      chain[50].removeFromSuperview()
      window.addSubview(chain[50])
      #expect(chain[150].dmTraitCollection.userInterfaceStyle == .light)
      #expect(chain[150].dmTraitCollection.theme == "UNDECLARED")
      #expect(chain[10].dmTraitCollection.userInterfaceStyle == .dark)
      window.isHidden = true
    }

    @Test func aSideDeclaredOnAnotherThreadReachesALongDetachedChainAtOnce() {
      let top = DMView()
      top.traitOverrides.theme = "LINEAR-ONE-SIDE"
      let chain = chain(under: top, depth: 100)
      let bottom = chain.last!
      #expect(bottom.dmTraitCollection.userInterfaceStyle != .dark)
      // Declared on another thread while the main actor waits: the engine hears of it only
      // later, on the main actor, but the collections resolved from now on have the side.
      let declared = DispatchSemaphore(value: 0)
      Thread {
        DMTheme.declare(["LINEAR-ONE-SIDE:dark"])
        declared.signal()
      }.start()
      declared.wait()
      #expect(chain.allSatisfy { $0.dmTraitCollection.userInterfaceStyle == .dark })
    }

    final class Values: DMView {
      var values = Array(repeating: -1.0, count: 200)
    }

    @Test func manyBindingsOfOneViewSurviveUnbindingAndRebindingInAnyOrder() {
      let window = DMWindow()
      let view = Values()
      window.addSubview(view)
      window.makeKeyAndVisible()
      DMTraitCollection.setOverride(.light, animated: false)
      let keyPaths = (0..<200).map { \Values.values[$0] }
      for (index, keyPath) in keyPaths.enumerated() {
        view.dm.bind(keyPath, to: DMDynamic(light: Double(index), dark: Double(-index)))
      }
      // Unbound: every third, from the front, and the last ten from the end; rebound: every
      // ninth, to a new value.
      var bound = Set(0..<200)
      for index in stride(from: 0, to: 200, by: 3) { view.dm.unbind(keyPaths[index]) }
      for index in (190..<200).reversed() { view.dm.unbind(keyPaths[index]) }
      bound.subtract(stride(from: 0, to: 200, by: 3))
      bound.subtract(190..<200)
      for index in stride(from: 0, to: 200, by: 9) {
        view.dm.bind(keyPaths[index], to: DMDynamic(light: 1000.0, dark: -1000.0))
        bound.insert(index)
      }
      #expect(keyPaths.indices.filter { view.dm.isBound(keyPaths[$0]) } == bound.sorted())
      view.values = Array(repeating: 7, count: 200)
      DMTraitCollection.setOverride(.dark, animated: false)
      for index in 0..<200 {
        let expected = !bound.contains(index) ? 7 : index.isMultiple(of: 9) ? -1000 : Double(-index)
        #expect(view.values[index] == expected, "value \(index)")
      }
      // Changes made inside a pass, from a callback: new storage, the pass unharmed.
      let changer = LoggingView("changer", log: CallLog())
      window.addSubview(changer)
      changer.onChange = { _ in
        for index in 0..<50 { view.dm.unbind(keyPaths[index]) }
      }
      DMTraitCollection.setOverride(.light, animated: false)
      #expect((0..<50).allSatisfy { !view.dm.isBound(keyPaths[$0]) })
      #expect(view.values[100] == 100)
      window.isHidden = true
    }

    /// Many properties of one view bound from its own callback, during a pass: the list changes
    /// in place (it keeps its storage), as outside passes, and every binding follows.
    @Test func manyBindingsMadeInACallbackChangeTheListInPlace() {
      let window = DMWindow()
      let view = CallbackValues()
      window.addSubview(view)
      window.makeKeyAndVisible()
      let keyPaths = (0..<400).map { \CallbackValues.values[$0] }
      var storages: [ObjectIdentifier?] = []
      view.onChange = { view in
        view.onChange = nil
        for (index, keyPath) in keyPaths.enumerated() {
          view.dm.bind(keyPath, to: DMDynamic(light: Double(index), dark: Double(-index)))
          storages.append(view.bindings.storageIdentity)
        }
        for keyPath in keyPaths[..<100] { view.dm.unbind(keyPath) }
        storages.append(view.bindings.storageIdentity)
      }
      DMTraitCollection.setOverride(.dark, animated: false)
      // New storage only when the list grows past its room (by half again each time).
      #expect(Set(storages).count < 20, "\(Set(storages).count) storages for 400 bindings")
      #expect((0..<400).allSatisfy { view.values[$0] == Double(-$0) })
      DMTraitCollection.setOverride(.light, animated: false)
      #expect((100..<400).allSatisfy { view.values[$0] == Double($0) })
      // Unbound: they keep the values they had.
      #expect((0..<100).allSatisfy { view.values[$0] == Double(-$0) })
      window.isHidden = true
    }

    final class CallbackValues: DMView {
      var values = Array(repeating: 7.0, count: 400)
      var onChange: ((CallbackValues) -> Void)?
      override func dmTraitCollectionDidChange(_ previous: DMTraitCollection?) { onChange?(self) }
    }

    /// Runs `onDeinit` when it is freed.
    final class Token {
      let onDeinit: () -> Void
      init(_ onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
      deinit { onDeinit() }
    }

    @Test func aBindingWhoseReleaseChangesTheSameListLeavesItWhole() {
      let window = DMWindow()
      let view = Values()
      window.addSubview(view)
      window.makeKeyAndVisible()
      DMTraitCollection.setOverride(.light, animated: false)
      let slot = (0..<4).map { \Values.values[$0] }
      view.dm.bind(slot[0], to: DMDynamic(light: 1.0, dark: 2.0))
      do {
        // The setter holds the only reference to a token whose release binds another property.
        let token = Token { [weak view] in
          MainActor.assumeIsolated { view?.dm.bind(slot[2], to: DMDynamic(light: 5.0, dark: 6.0)) }
        }
        view.dm.bind(slot[1], to: DMDynamic(light: 3.0, dark: 4.0)) { view, value in
          withExtendedLifetime(token) { view.values[1] = value }
        }
      }
      view.dm.unbind(slot[1])
      #expect(view.dm.isBound(slot[0]) && !view.dm.isBound(slot[1]) && view.dm.isBound(slot[2]))
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(view.values[0] == 2 && view.values[1] == 3 && view.values[2] == 6)

      // The first of three, whose release unbinds the last: a tombstone, then the list shrinks.
      do {
        let token = Token { [weak view] in MainActor.assumeIsolated { view?.dm.unbind(slot[3]) } }
        view.dm.bind(slot[3], to: DMDynamic(light: 7.0, dark: 8.0))
        view.dm.bind(slot[0], to: DMDynamic(light: 1.0, dark: 2.0)) { view, value in
          withExtendedLifetime(token) { view.values[0] = value }
        }
      }
      view.dm.unbind(slot[0])
      #expect(!view.dm.isBound(slot[0]) && view.dm.isBound(slot[2]) && !view.dm.isBound(slot[3]))
      view.dm.unbind(slot[2])
      #expect((0..<4).allSatisfy { !view.dm.isBound(slot[$0]) })
      view.values = Array(repeating: 0, count: 200)
      DMTraitCollection.setOverride(.light, animated: false)
      #expect(view.values.prefix(4) == [0, 0, 0, 0])
      window.isHidden = true
    }

    @Test func anImageByNameLoadsOncePerNameInAPassOverAlternatingTraits() {
      let loader = ImageLoader()
      let logo = DMDynamicImage(names: [.normal: "logo", .night: "logo-night"]) { loader.load($0) }
      let window = DMWindow()
      var views: [ImageView] = []
      for index in 0..<200 {
        let view = ImageView()
        view.overrideUserInterfaceStyle = index.isMultiple(of: 2) ? .dark : .light
        view.dm.bind(\.image, to: logo)
        window.addSubview(view)
        views.append(view)
      }
      window.makeKeyAndVisible()
      let before = (loader.loads(of: "logo"), loader.loads(of: "logo-night"))
      DMTraitCollection.setOverride(DMTraitCollection(accessibilityContrast: .high), animated: false)
      #expect(loader.loads(of: "logo") - before.0 <= 1)
      #expect(loader.loads(of: "logo-night") - before.1 <= 1)
      #expect(views[0].image?.name == "logo-night")
      #expect(views[1].image?.name == "logo")
      // Both names are in use pass after pass: nothing loads again.
      let loaded = (loader.loads(of: "logo"), loader.loads(of: "logo-night"))
      DMTraitCollection.setOverride(DMTraitCollection(), animated: false)
      DMTraitCollection.setOverride(DMTraitCollection(accessibilityContrast: .high), animated: false)
      #expect(loader.loads(of: "logo") == loaded.0)
      #expect(loader.loads(of: "logo-night") == loaded.1)
      window.isHidden = true
    }
  }
}
