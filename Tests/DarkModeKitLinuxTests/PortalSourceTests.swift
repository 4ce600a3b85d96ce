import DarkModeKit
import DarkModeKitLinux
import DarkModeKitTestSupport
import Foundation
import Testing

@testable import DarkModeKit

extension GlobalStateTests {
  /// The portal source against the real xdg-desktop-portal and its GTK backend, on a private bus
  /// and display, driven by gsettings.
  @Suite(.enabled(if: DesktopSession.missing == nil)) @MainActor struct RealPortalTests {
    init() { DarkModeManager.reset() }

    @Test func theSourceReadsTheDesktopSettingAndFollowsItsChanges() async throws {
      let desktop = try DesktopSession()
      defer {
        DarkModeManager.reset()
        desktop.stop()
      }
      try desktop.setColorScheme("prefer-dark")
      let window = DMWindow()
      let view = CountingView()
      window.addSubview(view)
      window.makeKeyAndVisible()
      let source = DMPortalAppearanceSource(address: desktop.address)
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: source))
      #expect(await eventually { DMTraitCollection.system.userInterfaceStyle == .dark })
      #expect(view.dmTraitCollection.userInterfaceStyle == .dark)
      let callsBefore = view.calls
      try desktop.setColorScheme("prefer-light")
      #expect(await eventually { DMTraitCollection.system.userInterfaceStyle == .light })
      #expect(view.calls == callsBefore + 1)
      try desktop.setColorScheme("default")
      #expect(await eventually { DMTraitCollection.system.userInterfaceStyle == .unspecified })
      // Debian 12's portal is version 1 and has no `contrast`; GNOME's switch is off: normal.
      #expect(DMTraitCollection.system.accessibilityContrast == .normal)
    }

    @Test func gnomesHighContrastSwitchMakesTheSystemHighContrastLive() async throws {
      let desktop = try DesktopSession()
      defer {
        DarkModeManager.reset()
        desktop.stop()
      }
      try desktop.gsettings("set", "org.gnome.desktop.a11y.interface", "high-contrast", "true")
      let source = DMPortalAppearanceSource(address: desktop.address)
      #expect(try await source.read().accessibilityContrast == .high)
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: source))
      #expect(await eventually { DMTraitCollection.system.accessibilityContrast == .high })
      try desktop.gsettings("set", "org.gnome.desktop.a11y.interface", "high-contrast", "false")
      #expect(await eventually { DMTraitCollection.system.accessibilityContrast == .normal })
      try desktop.gsettings("set", "org.gnome.desktop.a11y.interface", "high-contrast", "true")
      #expect(await eventually { DMTraitCollection.current.accessibilityContrast == .high })
    }

    @Test func gnomesAnimationSwitchMakesTheSystemReduceMotionLive() async throws {
      let desktop = try DesktopSession()
      defer {
        DarkModeManager.reset()
        desktop.stop()
      }
      try desktop.gsettings("set", "org.gnome.desktop.interface", "enable-animations", "false")
      let source = DMPortalAppearanceSource(address: desktop.address)
      #expect(try await source.read().accessibilityMotion == .reduced)
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: source))
      #expect(await eventually { DMTraitCollection.system.accessibilityMotion == .reduced })
      try desktop.gsettings("set", "org.gnome.desktop.interface", "enable-animations", "true")
      #expect(await eventually { DMTraitCollection.system.accessibilityMotion == .normal })
    }

    @Test func readAsksOnceWithATimeout() async throws {
      let desktop = try DesktopSession()
      defer { desktop.stop() }
      try desktop.setColorScheme("prefer-dark")
      let traits = try await DMPortalAppearanceSource(address: desktop.address).read()
      #expect(traits.userInterfaceStyle == .dark)
    }

    @Test func theAutomaticSourcePicksThePortalOnADesktop() async throws {
      let desktop = try DesktopSession()
      defer {
        DarkModeManager.reset()
        desktop.stop()
      }
      try desktop.setColorScheme("prefer-dark")
      let source = DMAutomaticAppearanceSource(
        environment: [:], portal: DMPortalAppearanceSource(address: desktop.address),
        terminal: DMTerminalAppearanceSource(environment: ["TERM": "dumb"]))
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: source))
      #expect(await source.decision() == .portal)
      #expect(DMTraitCollection.system.userInterfaceStyle == .dark)
    }
  }

  @Suite @MainActor struct AutomaticSourceTests {
    init() { DarkModeManager.reset() }

    @Test func environmentVariablesWinOverEverything() async {
      let source = DMAutomaticAppearanceSource(
        environment: ["DM_COLOR_SCHEME": "dark"],
        portal: DMPortalAppearanceSource(address: "unix:path=/nonexistent"),
        terminal: DMTerminalAppearanceSource(
          environment: ["TERM": "rxvt-unicode", "COLORFGBG": "0;15"], input: -1, output: -1))
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: source))
      #expect(source.answeringSource == .variables)
      #expect(await source.decision() == .variables)
      #expect(DMTraitCollection.current.userInterfaceStyle == .dark)
      DarkModeManager.reset()
    }

    @Test func withoutAPortalTheTerminalAnswersThenNothing() async {
      let recorder = DiagnosticsRecorder()
      recorder.install()
      defer {
        recorder.uninstall()
        DarkModeManager.reset()
      }
      let terminal = DMAutomaticAppearanceSource(
        environment: [:], portal: DMPortalAppearanceSource(address: "unix:path=/nonexistent/bus"),
        terminal: DMTerminalAppearanceSource(
          environment: ["TERM": "rxvt-unicode", "COLORFGBG": "15;0"], input: -1, output: -1))
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: terminal))
      #expect(await terminal.decision() == .terminal)
      #expect(DMTraitCollection.system.userInterfaceStyle == .dark)
      let nothing = DMAutomaticAppearanceSource(
        environment: [:], portal: DMPortalAppearanceSource(address: "unix:path=/nonexistent/bus"),
        terminal: DMTerminalAppearanceSource(environment: ["TERM": "dumb"]))
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: nothing))
      #expect(await nothing.decision() == .noSource)
      #expect(DMTraitCollection.system == DMTraitCollection())
      let messages = recorder.all.map(\.message)
      let refused =
        "the desktop portal did not answer: cannot connect to D-Bus at \"unix:path=/nonexistent/bus\": "
      #expect(messages.count == 2, "\(messages)")
      #expect(messages.first?.hasPrefix(refused) == true, "\(messages)")
      #expect(
        messages.first?.hasSuffix(" (the terminal's background answered instead)") == true, "\(messages)")
      #expect(messages.last?.hasPrefix(refused) == true, "\(messages)")
      #expect(
        messages.last?.hasSuffix(" (no other source answered, so the defaults apply)")
          == true, "\(messages)")
      #expect(recorder.all.allSatisfy { $0.kind == .systemAppearance })
    }

    /// Starts an automatic source with no portal to reach; what it decided, and the messages it
    /// reported meanwhile.
    private func decideWithoutAPortal(
      environment: [String: String], terminal: [String: String]
    ) async -> (DMAutomaticAppearanceSource.Kind, [String]) {
      let recorder = DiagnosticsRecorder()
      recorder.install()
      defer {
        recorder.uninstall()
        DarkModeManager.reset()
      }
      let source = DMAutomaticAppearanceSource(
        environment: environment, portal: DMPortalAppearanceSource(address: "unix:path=/nonexistent/bus"),
        terminal: DMTerminalAppearanceSource(environment: terminal, input: -1, output: -1))
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: source))
      let kind = await source.decision()
      #expect(recorder.all.allSatisfy { $0.kind == .systemAppearance })
      return (kind, recorder.all.map(\.message))
    }

    @Test func aBadColorSchemeVariableIsReportedOnceWithTheSourceThatAnswered() async {
      let (kind, messages) = await decideWithoutAPortal(
        environment: ["DM_COLOR_SCHEME": "purple"],
        terminal: ["TERM": "rxvt-unicode", "COLORFGBG": "0;15"])
      #expect(kind == .terminal)
      #expect(
        messages.first
          == "DM_COLOR_SCHEME=purple is not \"light\" or \"dark\"; it is ignored (the terminal's background answered instead)",
        "\(messages)")
      #expect(messages.count == 2, "\(messages)")
      #expect(messages.last?.hasPrefix("the desktop portal did not answer: ") == true, "\(messages)")
    }

    @Test func aBadVariableBesideAGoodOneIsReportedOnceWithTheEnvironmentAnswering() async {
      let (kind, messages) = await decideWithoutAPortal(
        environment: ["DM_COLOR_SCHEME": "dark", "DM_CONTRAST": "bogus"], terminal: ["TERM": "dumb"])
      #expect(kind == .variables)
      #expect(
        messages == [
          "DM_CONTRAST=bogus is not \"normal\" or \"high\"; it is ignored (the environment variables answered)"
        ])
    }

    @Test func aMissingBusIsReportedOnceAndRetriedWithoutBlocking() async throws {
      let recorder = DiagnosticsRecorder()
      recorder.install()
      defer {
        recorder.uninstall()
        DarkModeManager.reset()
      }
      let started = ContinuousClock.now
      let source = DMPortalAppearanceSource(
        address: "unix:path=/nonexistent/bus", initialRetryDelay: .milliseconds(10),
        maximumRetryDelay: .milliseconds(20))
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: source))
      #expect(ContinuousClock.now - started < .seconds(1))  // setup does not wait for the bus
      #expect(await eventually(10) { !recorder.all.isEmpty })
      try await Task.sleep(for: .milliseconds(300))  // many retries at 10–20 ms
      #expect(recorder.all.count == 1)
      #expect(recorder.all.first?.kind == .systemAppearance)
      #expect(recorder.all.first?.message.contains("desktop portal cannot be reached") == true)
    }
  }
}
