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
