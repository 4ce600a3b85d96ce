import DarkModeKit
import DarkModeKitDBus
import DarkModeKitTestSupport
import Testing

@testable import DarkModeKitLinux

extension GlobalStateTests {
  /// Values of the wrong type that a session of following the portal meets: each reported once,
  /// sixteen at most, then one notice that no more will be.
  @Suite @MainActor struct PortalProblemsTests {
    @Test func aRepeatAfterSixteenKindsIsNotReportedAndTheSeventeenthKindEndsTheReports() {
      let recorder = DiagnosticsRecorder()
      recorder.install()
      defer { recorder.uninstall() }
      let problems = PortalSettings.Problems()
      let values: [DBusValue] = [
        .string("1"), .bool(true), .double(1), .objectPath("/a"), .bytes([1]), .struct([.bool(true)]),
        .array(element: .string, [.string("1")]), .array(element: .bool, [.bool(true)]),
      ]
      func messages() -> [String] { recorder.all.map(\.message) }
      for key in ["color-scheme", "contrast"] {
        for value in values { problems.report(key, value, "a number", meaning: "no preference") }
      }
      #expect(messages().count == 16)
      problems.report("color-scheme", .string("again"), "a number", meaning: "no preference")
      #expect(messages().count == 16, "a problem already reported is not reported again")
      problems.report("reduced-motion", .string("1"), "a number", meaning: "no preference")
      #expect(
        messages().last
          == "the desktop portal gave 16 kinds of values of the wrong type; no more are reported")
      problems.report("reduced-motion", .bool(true), "a number", meaning: "no preference")
      #expect(messages().count == 17)
    }
  }
}
