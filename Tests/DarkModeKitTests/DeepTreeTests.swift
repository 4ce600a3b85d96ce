import Testing

@testable import DarkModeKit

/// Freeing deep trees: nested releases once overflowed the stack at about 40,000 views. Each case
/// runs in a child process, so that an overflow fails the test instead of ending the run.
@Suite struct DeepTreeTests {
  @Test func aDetachedChainOfAMillionViewsIsFreed() async {
    await #expect(processExitsWith: .success) {
      await MainActor.run {
        weak var top: DMView?
        do {
          // Built from the bottom up, so that each view is added to a view with no superview.
          var chain = DMView()
          for _ in 1..<1_000_000 {
            let parent = DMView()
            parent.addSubview(chain)
            chain = parent
          }
          top = chain
        }
        precondition(top == nil, "the chain was not freed")
      }
    }
  }

  @Test func aChainOfAMillionViewsInAWindowThatWasShownIsFreedWithIt() async {
    await #expect(processExitsWith: .success) {
      await MainActor.run {
        weak var bottom: DMView?
        do {
          let leaf = DMView()
          bottom = leaf
          var chain = leaf
          for _ in 1..<1_000_000 {
            let parent = DMView()
            parent.addSubview(chain)
            chain = parent
          }
          let window = DMWindow()
          window.addSubview(chain)
          window.makeKeyAndVisible()
          DMTraitCollection.setOverride(.dark, animated: false)
          precondition(leaf.dmTraitCollection.userInterfaceStyle == .dark)
          window.isHidden = true
        }
        precondition(bottom == nil, "the chain was not freed")
      }
    }
  }

  @Test func aChainOfAHundredThousandChildControllersIsFreed() async {
    await #expect(processExitsWith: .success) {
      await MainActor.run {
        weak var top: DMViewController?
        do {
          var chain = DMViewController()
          for _ in 1..<100_000 {
            let parent = DMViewController()
            parent.addChild(chain)
            chain = parent
          }
          top = chain
        }
        precondition(top == nil, "the chain was not freed")
      }
    }
  }

  @Test @MainActor func aViewHeldElsewhereOutlivesItsSuperviewWithItsSubviews() {
    let kept = DMView()
    let below = DMView()
    kept.addSubview(below)
    do {
      let parent = DMView()
      parent.addSubview(kept)
    }
    #expect(kept.superview == nil)
    #expect(kept.subviews.count == 1 && kept.subviews[0] === below)
    #expect(below.superview === kept)
  }
}
