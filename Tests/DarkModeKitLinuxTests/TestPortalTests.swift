import DarkModeKit
import DarkModeKitDBus
import DarkModeKitLinux
import DarkModeKitTestSupport
import Foundation
import Testing

@testable import DarkModeKit

/// A stand-in portal (Tests/DarkModeKitTestSupport/Fixtures/test_portal.py) on a private bus.
final class TestPortal: Sendable {
  static let script = TestFixtures.testPortal

  let process: ChildProcess
  let session: DesktopSession

  init(in session: DesktopSession, _ arguments: [String]) throws {
    self.session = session
    process = try session.start("/usr/bin/python3", [Self.script] + arguments, capturesOutput: true)
    guard process.readLine(seconds: 10) == "ready" else {
      process.stop()
      throw ChildProcessError("the test portal did not start")
    }
  }

  /// Changes a setting, which emits SettingChanged.
  func set(_ key: String, _ value: DBusValue) async throws {
    let bus = try await DBusConnection.connect(to: session.address, timeout: .seconds(5))
    defer { bus.close() }
    _ = try await bus.call(
      destination: "org.freedesktop.portal.Desktop", path: "/org/freedesktop/portal/desktop",
      interface: "org.dmkit.TestPortal", member: "Set", arguments: [.string(key), .variant(value)])
  }

  /// Changes a setting of any namespace, which emits SettingChanged.
  func set(_ namespace: String, _ key: String, _ value: DBusValue) async throws {
    let bus = try await DBusConnection.connect(to: session.address, timeout: .seconds(5))
    defer { bus.close() }
    _ = try await bus.call(
      destination: "org.freedesktop.portal.Desktop", path: "/org/freedesktop/portal/desktop",
      interface: "org.dmkit.TestPortal", member: "SetIn",
      arguments: [.string(namespace), .string(key), .variant(value)])
  }

  func flood(_ count: UInt32) async throws {
    let bus = try await DBusConnection.connect(to: session.address, timeout: .seconds(5))
    defer { bus.close() }
    _ = try await bus.call(
      destination: "org.freedesktop.portal.Desktop", path: "/org/freedesktop/portal/desktop",
      interface: "org.dmkit.TestPortal", member: "Flood", arguments: [.uint32(count)])
  }

  /// The Settings methods called so far, in order.
  func calls() async throws -> [String] {
    let bus = try await DBusConnection.connect(to: session.address, timeout: .seconds(5))
    defer { bus.close() }
    let reply = try await bus.call(
      destination: "org.freedesktop.portal.Desktop", path: "/org/freedesktop/portal/desktop",
      interface: "org.dmkit.TestPortal", member: "Calls")
    guard case .array(_, let names) = reply.first else { return [] }
    return names.compactMap(\.stringValue)
  }

  func sendBadSignal() async throws {
    let bus = try await DBusConnection.connect(to: session.address, timeout: .seconds(5))
    defer { bus.close() }
    _ = try await bus.call(
      destination: "org.freedesktop.portal.Desktop", path: "/org/freedesktop/portal/desktop",
      interface: "org.dmkit.TestPortal", member: "SendBadSignal")
  }
}

extension GlobalStateTests {
  @Suite(.enabled(if: DesktopSession.testPortalMissing == nil)) @MainActor struct TestPortalTests {
    init() { DarkModeManager.reset() }

    private func traits(_ style: DMUserInterfaceStyle, _ contrast: DMAccessibilityContrast)
      -> DMTraitCollection
    {
      var traits = DMTraitCollection(userInterfaceStyle: style)
      traits.accessibilityContrast = contrast
      return traits
    }

    @Test(arguments: [
      (
        ["--version", "2", "--color-scheme", "1", "--contrast", "1"], DMUserInterfaceStyle.dark,
        DMAccessibilityContrast.high
      ),
      (["--version", "2", "--color-scheme", "2", "--contrast", "0"], .light, .normal),
      (["--version", "1", "--color-scheme", "1", "--contrast", "absent"], .dark, .normal),
      (["--version", "1", "--color-scheme", "2", "--contrast", "1"], .light, .high),
      (["--version", "2", "--color-scheme", "7", "--contrast", "5"], .unspecified, .normal),
      (["--version", "2", "--color-scheme", "1", "--mode", "malformed"], .unspecified, .normal),
      // Without `contrast`, GNOME's own switch decides; with it, `contrast` does.
      (
        ["--version", "1", "--color-scheme", "1", "--contrast", "absent", "--gnome-high-contrast", "true"],
        .dark, .high
      ),
      (["--version", "2", "--contrast", "absent", "--gnome-high-contrast", "false"], .unspecified, .normal),
      (["--version", "2", "--contrast", "0", "--gnome-high-contrast", "true"], .unspecified, .normal),
      (["--version", "2", "--contrast", "1", "--gnome-high-contrast", "false"], .unspecified, .high),
    ])
    func readingTakesEverySettingInOneCallAndCountsUnknownValuesAsNoPreference(
      _ arguments: [String], _ style: DMUserInterfaceStyle, _ contrast: DMAccessibilityContrast
    ) async throws {
      let session = try DesktopSession(withDisplay: false)
      defer { session.stop() }
      let portal = try TestPortal(in: session, arguments)
      defer { portal.process.stop() }
      let read = try await DMPortalAppearanceSource(address: session.address).read()
      #expect(read == traits(style, contrast))
      // One round trip for every setting, whatever the portal has.
      #expect(try await portal.calls() == ["ReadAll"])
    }

    /// What DarkModeKitGTK asks before libadwaita reads the portal itself: why libadwaita cannot
    /// read it (it did not answer within the start-up wait, or answers a read of one setting with
    /// another shape than a variant holding a variant), or nothing when it can, also when only
    /// values inside `ReadAll` have the wrong type (libadwaita warns of those). A wait that ran out
    /// is not waited for again when the source starts; the settings of a portal that answered are
    /// the first ones the app gets.
    @Test(
      arguments: [
        (["--mode", "normal"], nil),
        (["--mode", "normal", "--accent", "string"], nil),
        (["--mode", "silent"], "it did not answer within 2.0 seconds"),
        (
          ["--mode", "malformed"],
          "it answers a read of color-scheme with \"s\", not a variant holding a variant"
        ),
        (
          ["--mode", "read-once-wrapped"],
          "it answers a read of color-scheme with \"v\", not a variant holding a variant"
        ),
      ] as [([String], String?)])
    func libadwaitaCannotReadAPortalThatDoesNotAnswerInTimeOrAnswersAReadWithAnotherShape(
      _ arguments: [String], _ reason: String?
    ) async throws {
      let session = try DesktopSession(withDisplay: false)
      defer { session.stop() }
      let portal = try TestPortal(in: session, ["--version", "2", "--color-scheme", "1"] + arguments)
      defer { portal.process.stop() }
      defer { DarkModeManager.reset() }
      let source = DMAutomaticAppearanceSource(
        environment: [:], portal: DMPortalAppearanceSource(address: session.address, timeout: .seconds(5)),
        terminal: nil, startupWait: .seconds(2))
      let clock = ContinuousClock()
      let asked = clock.now
      #expect(source.whyLibadwaitaCannotReadPortal() == reason)
      #expect(clock.now - asked < .seconds(4))
      let started = clock.now
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: source))
      #expect(clock.now - started < .seconds(1), "the start waited for the portal again")
      if arguments.contains("read-once-wrapped") || arguments == ["--mode", "normal"] {
        #expect(DMTraitCollection.system.userInterfaceStyle == .dark)
        #expect(try await portal.calls().prefix(2) == ["ReadAll", "Read"])
      }
    }

    @Test func aValueOfTheWrongTypeIsReportedAndCountsAsNoPreference() async throws {
      let session = try DesktopSession(withDisplay: false)
      defer { session.stop() }
      let portal = try TestPortal(
        in: session, ["--version", "2", "--color-scheme", "1", "--mode", "malformed"])
      defer { portal.process.stop() }
      let recorder = DiagnosticsRecorder()
      recorder.install()
      defer { recorder.uninstall() }
      #expect(
        try await DMPortalAppearanceSource(address: session.address).read() == traits(.unspecified, .normal))
      #expect(
        recorder.all.map(\.message).contains(
          "the desktop portal gave color-scheme as a value of type \"s\", not a number; it counts as no preference"
        ),
        "\(recorder.all)")
    }

    /// Runs `body` with the stand-in portal started with `arguments` on a bus of its own, which the
    /// app follows; stops both and resets the app after.
    func withFollowedPortal(
      _ arguments: [String], _ body: (DesktopSession, TestPortal) async throws -> Void
    ) async throws {
      let session = try DesktopSession(withDisplay: false)
      defer {
        DarkModeManager.reset()
        session.stop()
      }
      let portal = try TestPortal(in: session, arguments)
      defer { portal.process.stop() }
      DarkModeManager.setup(
        with: DMConfiguration(systemAppearanceSource: DMPortalAppearanceSource(address: session.address)))
      try await body(session, portal)
    }

    @Test func changesArriveAsSignalsAndBadOrForgedSignalsAreIgnored() async throws {
      try await withFollowedPortal(["--version", "2", "--color-scheme", "2", "--contrast", "0"]) {
        session, portal in
        let window = DMWindow()
        let view = CountingView()
        window.addSubview(view)
        window.makeKeyAndVisible()
        #expect(await eventually { DMTraitCollection.system == traits(.light, .normal) })
        try await portal.sendBadSignal()
        try await portal.set("unrelated-key", .uint32(1))
        // Any client on the bus can send the portal's signal, from its own name.
        let intruder = try await DBusConnection.connect(to: session.address, timeout: .seconds(5))
        defer { intruder.close() }
        try intruder.emitSignal(
          path: "/org/freedesktop/portal/desktop", interface: "org.freedesktop.portal.Settings",
          member: "SettingChanged",
          arguments: [.string("org.freedesktop.appearance"), .string("color-scheme"), .variant(.uint32(1))])
        // A real change after them: once it is seen, the others were handled before it.
        try await portal.set("contrast", .uint32(1))
        #expect(await eventually { DMTraitCollection.system.accessibilityContrast == .high })
        #expect(DMTraitCollection.system == traits(.light, .high))
        try await portal.set("color-scheme", .uint32(1))
        #expect(await eventually { view.dmTraitCollection.userInterfaceStyle == .dark })
        #expect(DMTraitCollection.current.accessibilityContrast == .high)
      }
    }

    /// A portal that sends a value of the wrong type with every change is reported once for each
    /// setting and type, and at most for sixteen of them, with a last report saying so.
    @Test func valuesOfTheWrongTypeInEveryChangeAreReportedOnceEachAndBounded() async throws {
      let recorder = DiagnosticsRecorder()
      recorder.install()
      defer { recorder.uninstall() }
      try await withFollowedPortal(["--version", "2", "--color-scheme", "2", "--contrast", "0"]) {
        _, portal in
        #expect(await eventually { DMTraitCollection.system == traits(.light, .normal) })
        for index in 0..<50 { try await portal.set("color-scheme", .string("dark \(index)")) }
        // Three settings, six types each: eighteen problems.
        let wrong: [DBusValue] = [
          .string("1"), .bool(true), .double(1), .objectPath("/a"), .signature(try DBusSignature("u")),
          .array(element: .string, [.string("1")]),
        ]
        for key in ["color-scheme", "reduced-motion", "contrast"] {
          for value in wrong { try await portal.set(key, value) }
        }
        // A real change after them: once it is seen, the others were handled before it.
        try await portal.set("contrast", .uint32(1))
        #expect(await eventually { DMTraitCollection.system.accessibilityContrast == .high })
      }
      let messages = recorder.all.map(\.message).filter { $0.hasPrefix("the desktop portal gave") }
      #expect(
        messages.filter { $0.hasPrefix("the desktop portal gave color-scheme as a value of type \"s\"") }
          .count
          == 1)
      #expect(messages.count == 17, "\(messages)")
      #expect(
        messages.last == "the desktop portal gave 16 kinds of values of the wrong type; no more are reported")
    }

    @Test func withoutContrastGNOMEsHighContrastSwitchIsFollowedLive() async throws {
      let session = try DesktopSession(withDisplay: false)
      defer {
        DarkModeManager.reset()
        session.stop()
      }
      let portal = try TestPortal(
        in: session, ["--version", "1", "--contrast", "absent", "--gnome-high-contrast", "false"])
      defer { portal.process.stop() }
      DarkModeManager.setup(
        with: DMConfiguration(systemAppearanceSource: DMPortalAppearanceSource(address: session.address)))
      #expect(await eventually { DMTraitCollection.system == traits(.unspecified, .normal) })
      let gnome = "org.gnome.desktop.a11y.interface"
      try await portal.set(gnome, "high-contrast", .bool(true))
      #expect(await eventually { DMTraitCollection.system.accessibilityContrast == .high })
      // A value of the wrong type is reported and counts as unknown: normal contrast.
      let recorder = DiagnosticsRecorder()
      recorder.install()
      defer { recorder.uninstall() }
      try await portal.set(gnome, "high-contrast", .string("yes"))
      #expect(await eventually { DMTraitCollection.system.accessibilityContrast == .normal })
      #expect(
        recorder.all.map(\.message).contains(
          "the desktop portal gave high-contrast as a value of type \"s\", not a boolean; it counts as unknown"
        )
      )
      // Another namespace's key of the same name changes nothing.
      try await portal.set("org.example.other", "high-contrast", .bool(true))
      try await portal.set(gnome, "high-contrast", .bool(true))
      #expect(await eventually { DMTraitCollection.system.accessibilityContrast == .high })
    }

    @Test(arguments: [("0", true), ("1", true), ("absent", false)])
    func whetherThePortalHasAColorSchemeSettingIsKnown(_ scheme: String, _ hasSetting: Bool) async throws {
      let session = try DesktopSession(withDisplay: false)
      defer {
        DarkModeManager.reset()
        session.stop()
      }
      let portal = try TestPortal(in: session, ["--version", "2", "--color-scheme", scheme])
      defer { portal.process.stop() }
      DarkModeManager.setup(
        with: DMConfiguration(systemAppearanceSource: DMPortalAppearanceSource(address: session.address)))
      #expect(await eventually { DMTraitCollection.systemHasColorSchemeSetting == hasSetting })
      #expect(
        await eventually {
          DMTraitCollection.system.userInterfaceStyle == (scheme == "1" ? .dark : .unspecified)
        })
      #expect(DMTraitCollection.systemHasColorSchemeSetting == hasSetting)
    }

    @Test(arguments: [
      (["--reduced-motion", "1"], DMAccessibilityMotion.reduced),
      (["--reduced-motion", "0", "--gnome-animations", "false"], .normal),
      (["--gnome-animations", "false"], .reduced),
      (["--gnome-animations", "true"], .normal),
      ([], .unspecified),
    ])
    func reducedMotionComesFromThePortalElseFromGNOMEsAnimationSwitch(
      _ arguments: [String], _ motion: DMAccessibilityMotion
    ) async throws {
      let session = try DesktopSession(withDisplay: false)
      defer { session.stop() }
      let portal = try TestPortal(in: session, ["--version", "2"] + arguments)
      defer { portal.process.stop() }
      #expect(
        try await DMPortalAppearanceSource(address: session.address).read().accessibilityMotion == motion)
    }

    @Test(
      arguments: [
        ("0.2,0.4,0.6", "#336699"), ("1,0,0", "#FF0000"), ("1.5,0,0", nil), ("-0.1,0,0", nil),
        ("absent", nil),
        ("string", nil),
      ] as [(String, String?)])
    func theAccentColourIsReadAndOutOfRangeMeansNone(_ accent: String, _ hex: String?) async throws {
      let session = try DesktopSession(withDisplay: false)
      defer { session.stop() }
      // With `=`, so that a value starting with a minus sign is not read as an option.
      let portal = try TestPortal(in: session, ["--version", "2", "--accent=\(accent)"])
      defer { portal.process.stop() }
      let recorder = DiagnosticsRecorder()
      recorder.install()
      defer { recorder.uninstall() }
      let read = try await DMPortalAppearanceSource(address: session.address).read()
      #expect(read.accentColor?.hexString == hex)
      #expect(
        recorder.all.map(\.message).contains {
          $0.hasPrefix("the desktop portal gave accent-color as a value of type \"s\"")
        } == (accent == "string"))
    }

    @Test func accentAndMotionAreFollowedLive() async throws {
      let session = try DesktopSession(withDisplay: false)
      defer {
        DarkModeManager.reset()
        session.stop()
      }
      let portal = try TestPortal(in: session, ["--version", "1", "--gnome-animations", "true"])
      defer { portal.process.stop() }
      DarkModeManager.setup(
        with: DMConfiguration(systemAppearanceSource: DMPortalAppearanceSource(address: session.address)))
      #expect(await eventually { DMTraitCollection.system.accessibilityMotion == .normal })
      try await portal.set("org.gnome.desktop.interface", "enable-animations", .bool(false))
      #expect(await eventually { DMTraitCollection.current.accessibilityMotion == .reduced })
      try await portal.set(
        "org.freedesktop.appearance", "accent-color", .struct([.double(0.2), .double(0.4), .double(0.6)]))
      #expect(await eventually { DMTraitCollection.current.accentColor?.hexString == "#336699" })
      // A wrongly typed animation switch is unknown, not "animations off".
      try await portal.set("org.gnome.desktop.interface", "enable-animations", .string("no"))
      #expect(await eventually { DMTraitCollection.system.accessibilityMotion == .unspecified })
      try await portal.set("reduced-motion", .uint32(0))
      #expect(await eventually { DMTraitCollection.system.accessibilityMotion == .normal })
    }

    @Test func aPortalWithContrastIgnoresGNOMEsSwitch() async throws {
      let session = try DesktopSession(withDisplay: false)
      defer {
        DarkModeManager.reset()
        session.stop()
      }
      let portal = try TestPortal(
        in: session, ["--version", "2", "--contrast", "0", "--gnome-high-contrast", "false"])
      defer { portal.process.stop() }
      DarkModeManager.setup(
        with: DMConfiguration(systemAppearanceSource: DMPortalAppearanceSource(address: session.address)))
      #expect(await eventually { DMTraitCollection.system == traits(.unspecified, .normal) })
      try await portal.set("org.gnome.desktop.a11y.interface", "high-contrast", .bool(true))
      try await portal.set("color-scheme", .uint32(1))
      #expect(await eventually { DMTraitCollection.system.userInterfaceStyle == .dark })
      #expect(DMTraitCollection.system.accessibilityContrast == .normal)
    }

    @Test func aFloodOfSettingChangedSignalsIsCoalescedAndEndsOnTheLastValue() async throws {
      let session = try DesktopSession(withDisplay: false)
      defer {
        DarkModeManager.reset()
        session.stop()
      }
      let portal = try TestPortal(in: session, ["--version", "2", "--color-scheme", "2"])
      defer { portal.process.stop() }
      let window = DMWindow()
      let view = CountingView()
      window.addSubview(view)
      window.makeKeyAndVisible()
      DarkModeManager.setup(
        with: DMConfiguration(
          systemAppearanceSource: DMPortalAppearanceSource(address: session.address)))
      #expect(await eventually { DMTraitCollection.system.userInterfaceStyle == .light })
      let callsBefore = view.calls
      let signals: UInt32 = 5_000
      try await portal.flood(signals)
      #expect(await eventually(20) { DMTraitCollection.system.userInterfaceStyle == .dark })
      // Give any backlog time to arrive: the last value must stay, with far fewer calls than signals.
      try await Task.sleep(for: .milliseconds(300))
      #expect(DMTraitCollection.system.userInterfaceStyle == .dark)
      let calls = view.calls - callsBefore
      print("TestPortalTests: \(signals) SettingChanged signals gave \(calls) trait changes")
      #expect(calls < Int(signals))
    }

    @Test func aPortalThatNeverAnswersTimesOutWithoutBlockingTheMainActor() async throws {
      let session = try DesktopSession(withDisplay: false)
      defer {
        DarkModeManager.reset()
        session.stop()
      }
      let portal = try TestPortal(in: session, ["--mode", "silent"])
      defer { portal.process.stop() }
      let clock = ContinuousClock()
      let started = clock.now
      await #expect(throws: DBusError.self) {
        try await DMPortalAppearanceSource(address: session.address, timeout: .milliseconds(300)).read()
      }
      // Bounded by the timeout, with room for a machine loaded by the sanitizer runs.
      #expect(clock.now - started < .seconds(15))
      let recorder = DiagnosticsRecorder()
      recorder.install()
      defer { recorder.uninstall() }
      let setupStarted = clock.now
      DarkModeManager.setup(
        with: DMConfiguration(
          systemAppearanceSource: DMPortalAppearanceSource(
            address: session.address, timeout: .seconds(3))))
      // Far below the 3-second call timeout: setup does not wait for the portal.
      #expect(clock.now - setupStarted < .seconds(1))
      #expect(await eventually(30) { !recorder.all.isEmpty })
      #expect(recorder.all.first?.message.contains("timed out") == true)
    }

    @Test func aPortalThatLeavesIsReportedOnceAndFollowedAgainWhenItReturns() async throws {
      let session = try DesktopSession(withDisplay: false)
      defer {
        DarkModeManager.reset()
        session.stop()
      }
      let recorder = DiagnosticsRecorder()
      recorder.install()
      defer { recorder.uninstall() }
      let first = try TestPortal(in: session, ["--color-scheme", "1", "--mode", "exit-after-read"])
      DarkModeManager.setup(
        with: DMConfiguration(
          systemAppearanceSource: DMPortalAppearanceSource(
            address: session.address, timeout: .milliseconds(500), initialRetryDelay: .milliseconds(20),
            maximumRetryDelay: .milliseconds(100))))
      #expect(await eventually { DMTraitCollection.system.userInterfaceStyle == .dark })
      #expect(first.process.wait(seconds: 5) != nil)  // it left the bus
      #expect(await eventually { recorder.all.count == 1 })
      try await Task.sleep(for: .milliseconds(300))
      #expect(recorder.all.count == 1)  // reported once, however many retries
      #expect(DMTraitCollection.system.userInterfaceStyle == .dark)  // the last value is kept
      let second = try TestPortal(in: session, ["--color-scheme", "2"])
      defer { second.process.stop() }
      #expect(await eventually { DMTraitCollection.system.userInterfaceStyle == .light })
    }

    @Test func theSourceReconnectsAfterTheBusDaemonIsKilledAndRestarted() async throws {
      let session = try DesktopSession(withDisplay: false)
      defer {
        DarkModeManager.reset()
        session.stop()
      }
      let first = try TestPortal(in: session, ["--color-scheme", "1"])
      DarkModeManager.setup(
        with: DMConfiguration(
          systemAppearanceSource: DMPortalAppearanceSource(
            address: session.address, timeout: .milliseconds(500), initialRetryDelay: .milliseconds(20),
            maximumRetryDelay: .milliseconds(100))))
      #expect(await eventually { DMTraitCollection.system.userInterfaceStyle == .dark })
      session.crashBus()
      first.process.stop()
      try session.restartBus()
      let second = try TestPortal(in: session, ["--color-scheme", "2"])
      defer { second.process.stop() }
      #expect(await eventually { DMTraitCollection.system.userInterfaceStyle == .light })
    }
  }
}
