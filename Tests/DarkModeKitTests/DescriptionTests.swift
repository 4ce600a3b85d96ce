import Testing

@testable import DarkModeKit

extension GlobalStateTests {
  /// What a window, a view or a controller prints: its type, the identifier the app gave it, and
  /// its resolved style and theme.
  @Suite @MainActor struct DescriptionTests {
    init() { DarkModeManager.reset() }

    final class CardView: DMView {}

    @Test func windowsViewsAndControllersPrintTheirTypeIdentifierStyleAndTheme() {
      let window = DMWindow()
      window.dmIdentifier = "main"
      let controller = DMViewController()
      controller.dmIdentifier = "settings"
      window.rootViewController = controller
      let card = CardView()
      controller.view.addSubview(card)
      window.makeKeyAndVisible()
      DMTraitCollection.setOverride(DMTraitCollection(theme: .night), animated: false)
      defer { DMTraitCollection.setOverride(DMTraitCollection(), animated: false) }

      #expect("\(window)" == #"DMWindow(identifier: "main", style: dark, theme: "NIGHT")"#)
      #expect(
        String(describing: controller)
          == #"DMViewController(identifier: "settings", style: dark, theme: "NIGHT")"#)
      #expect("\(card)" == #"CardView(style: dark, theme: "NIGHT")"#)
      card.overrideUserInterfaceStyle = .light
      #expect("\(card)" == #"CardView(style: light, theme: "NIGHT")"#)
    }

    @Test func anEnvironmentOutsideAWindowPrintsWhatItWouldResolve() {
      let view = DMView()
      #expect("\(view)" == "DMView(style: light, theme: nil)")
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
      defer { DMTraitCollection.setOverride(DMTraitCollection(), animated: false) }
      #expect("\(view)" == "DMView(style: dark, theme: nil)")
    }

    /// A named view follows a switch as any other: its callback once, its bound value set.
    @Test func aNamedViewFollowsSwitchesAsAnyOther() {
      final class Swatch: DMView {
        var fill = DMColor.clear
        var calls = 0
        override func dmTraitCollectionDidChange(_ previousTraitCollection: DMTraitCollection?) {
          calls += 1
          // Named from its own callback, during the pass.
          dmIdentifier = "swatch \(calls)"
        }
      }
      let window = DMWindow()
      let swatches = (0..<20).map { _ in Swatch() }
      for swatch in swatches {
        swatch.dm.bind(\.fill, to: DMDynamicColor(light: .white, dark: .black))
        window.addSubview(swatch)
      }
      swatches[3].dmIdentifier = "named"
      window.makeKeyAndVisible()
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
      defer { DMTraitCollection.setOverride(DMTraitCollection(), animated: false) }
      #expect(swatches.map(\.calls) == Array(repeating: 2, count: 20))
      #expect(swatches.allSatisfy { $0.fill == .black })
      #expect("\(swatches[3])" == #"Swatch(identifier: "swatch 2", style: dark, theme: nil)"#)
    }

    @Test func aLongIdentifierIsCutAndAFreedEnvironmentTakesItsOwnOut() {
      let before = DMResponder.identifiers.count
      do {
        let views = (0..<100).map { _ in DMView() }
        for (index, view) in views.enumerated() {
          view.dmIdentifier = String(repeating: "a", count: 60) + "\(index)"
        }
        #expect(DMResponder.identifiers.count == before + 100)
        #expect(
          "\(views[12])" == "DMView(identifier: \"" + String(repeating: "a", count: 60)
            + "12\", style: light, theme: nil)")
        #expect(
          "\(views[99])" == "DMView(identifier: \"" + String(repeating: "a", count: 60)
            + "99\", style: light, theme: nil)")
        let long = DMView()
        long.dmIdentifier = String(repeating: "b", count: 80)
        #expect(
          "\(long)" == "DMView(identifier: \"" + String(repeating: "b", count: 64)
            + "…\", style: light, theme: nil)")
      }
      #expect(DMResponder.identifiers.count == before)
    }

    @Test func offTheMainActorAnEnvironmentPrintsItsTypeOnly() async {
      let view = DMView()
      view.dmIdentifier = "card"
      let shown = await Task.detached { "\(view)" }.value
      #expect(shown == "DMView(off the main actor)")
      #expect("\(view)" == #"DMView(identifier: "card", style: light, theme: nil)"#)
    }

    @Test func anIdentifierIsShownEscapedAndCanBeCleared() {
      let view = DMView()
      view.dmIdentifier = "line\nbreak\u{1B}[2J"
      #expect("\(view)" == #"DMView(identifier: "line\u{A}break\u{1B}[2J", style: light, theme: nil)"#)
      view.dmIdentifier = nil
      #expect(view.dmIdentifier == nil)
      #expect("\(view)" == "DMView(style: light, theme: nil)")
    }
  }
}
