import DarkModeKitTestSupport
import Testing

@testable import DarkModeKit

/// `setOverride(style:)` and `setOverride(theme:)`, the two choices of an appearance menu: in every
/// order, under either system style, the last choice shows, and the first stays when it can.
///
/// Theme sides are process-wide, so the themes here have names no other test declares.
extension GlobalStateTests {
  @Suite @MainActor struct OverrideChoiceTests {
    init() {
      DarkModeManager.reset()
      DMTheme.declare(["CHOICE_SEPIA", "CHOICE_BLACK:dark", "CHOICE_SOLAR:light", "CHOICE_SOLAR:dark"])
    }

    static let styles: [DMUserInterfaceStyle] = [.light, .dark, .unspecified]
    static let themes: [DMTheme?] = [
      nil, "CHOICE_SEPIA", "CHOICE_BLACK", "CHOICE_SOLAR", "CHOICE_UNDECLARED",
    ]

    /// The style a theme shows by itself, when it has one side.
    static func ownStyle(_ theme: DMTheme?) -> DMUserInterfaceStyle? {
      switch theme?.sides {
      case .some(.light): .light
      case .some(.dark): .dark
      default: nil
      }
    }

    /// Every system style, style and theme: `check` gets them with the override set by `choose`
    /// from an empty one.
    static func forEachChoice(
      _ choose: (DMUserInterfaceStyle, DMTheme?) -> Void,
      check: (_ system: DMUserInterfaceStyle, _ style: DMUserInterfaceStyle, _ theme: DMTheme?) -> Void
    ) {
      let source = DMManualAppearanceSource()
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: source))
      for system in [DMUserInterfaceStyle.light, .dark] {
        source.traitCollection = DMTraitCollection(userInterfaceStyle: system)
        for theme in themes {
          for style in styles {
            DMTraitCollection.setOverride(DMTraitCollection(), animated: false)
            choose(style, theme)
            check(system, style, theme)
          }
        }
      }
    }

    @Test func theStyleChosenAfterATheme() {
      Self.forEachChoice({ style, theme in
        DMTraitCollection.setOverride(theme: theme, animated: false)
        DMTraitCollection.setOverride(style: style, animated: false)
      }) { system, style, theme in
        let current = DMTraitCollection.current
        let label = "system \(system), \(theme?.rawValue ?? "default") then \(style)"
        // The style shows: the one chosen, or the system's.
        #expect(current.userInterfaceStyle == (style == .unspecified ? system : style), "\(label)")
        // The theme stays when it can show that style (a one-sided theme cannot follow the
        // system's).
        let sides = theme?.sides ?? []
        let kept =
          sides.isEmpty
          || (style == .unspecified ? sides == [.light, .dark] : Self.ownStyle(theme) ?? style == style)
        #expect(current.theme == (kept ? theme : nil), "\(label)")
      }
    }

    @Test func theThemeChosenAfterAStyle() {
      Self.forEachChoice({ style, theme in
        DMTraitCollection.setOverride(style: style, animated: false)
        DMTraitCollection.setOverride(theme: theme, animated: false)
      }) { system, style, theme in
        let label = "system \(system), \(style) then \(theme?.rawValue ?? "default")"
        // The theme shows, with its own side when it has one.
        #expect(DMTraitCollection.current.theme == theme, "\(label)")
        let shown = Self.ownStyle(theme) ?? (style == .unspecified ? system : style)
        #expect(DMTraitCollection.current.userInterfaceStyle == shown, "\(label)")
        // The style stays when the theme has that side.
        let kept = Self.ownStyle(theme).map { style == .unspecified || style == $0 } ?? true
        #expect(DMTraitCollection.override.userInterfaceStyle == (kept ? style : .unspecified), "\(label)")
      }
    }

    @Test func updateOverrideChangesOnePartAndKeepsTheRest() {
      DMTraitCollection.setOverride(
        DMTraitCollection(userInterfaceStyle: .dark, theme: "CHOICE_SOLAR"), animated: false)
      DMTraitCollection.updateOverride(animated: false) { $0.accessibilityContrast = .high }
      #expect(
        DMTraitCollection.override
          == DMTraitCollection(userInterfaceStyle: .dark, accessibilityContrast: .high, theme: "CHOICE_SOLAR")
      )
    }
  }
}

extension GlobalStateTests.OverrideChoiceTests {
  /// DKNightVersion's `themeVersion`, read: the theme on screen, whichever way it was chosen.
  @Test func theThemeShownIsNIGHTAfterTheDarkStyleAsAfterChoosingNIGHT() {
    let source = DMManualAppearanceSource()
    DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: source))
    source.traitCollection = DMTraitCollection(userInterfaceStyle: .light)
    #expect(DMTraitCollection.current.themeVariant == .normal)
    DMTraitCollection.setOverride(style: .dark, animated: false)
    #expect(DMTraitCollection.current.theme == nil)
    #expect(DMTraitCollection.current.themeVariant == .night)
    DMTraitCollection.setOverride(style: .unspecified, animated: false)
    DMTraitCollection.setOverride(theme: .night, animated: false)
    #expect(DMTraitCollection.current.themeVariant == .night)
    DMTraitCollection.setOverride(theme: "CHOICE_SEPIA", animated: false)
    #expect(DMTraitCollection.current.themeVariant.description == "CHOICE_SEPIA")
    // A light-only theme with the dark style: the default theme's dark side shows.
    DMTraitCollection.setOverride(style: .dark, animated: false)
    #expect(DMTraitCollection.current.themeVariant == .night)
    DMTraitCollection.setOverride(theme: "CHOICE_SOLAR", animated: false)
    #expect(DMTraitCollection.current.themeVariant.description == "CHOICE_SOLAR:dark")
    // The system's dark, with no choice at all, and in high contrast: NIGHT:high once a table,
    // map or image has it, as the palettes of high-contrast apps do.
    DMTraitCollection.setOverride(DMTraitCollection(), animated: false)
    DMTheme.declare(["NIGHT:high"])
    source.traitCollection = DMTraitCollection(userInterfaceStyle: .dark, accessibilityContrast: .high)
    #expect(DMTraitCollection.current.themeVariant.description == "NIGHT:high")
  }
}
