import DarkModeKit
import DarkModeKitTestSupport
import Foundation
import Testing

/// The program of Docs/GTK.md (`Sources/dmkit-gtk-hello`, which the docs check holds word for
/// word), run as a user runs it on a desktop of its own, and read back from the screen.
@Suite(.serialized) struct GTKGuideTests {
  /// The program's source.
  static let source = GTKProbe.packageFolder.appendingPathComponent("Sources/dmkit-gtk-hello/main.swift")

  /// The colour table the program loads, read from its source.
  static func programTable() throws -> DMColorTable {
    let text = try String(contentsOf: source, encoding: .utf8)
    let parts = text.components(separatedBy: "\"\"\"")
    try #require(parts.count >= 3, "the program has no table between triple quotes")
    return try DMColorTable(string: parts[1])
  }

  @Test(.enabled(if: GTKProbe.missing == nil && GTKDemoTests.toolsMissing == nil))
  func theGuidesProgramFollowsTheDesktopAndItsButtonsDoWhatTheySay() async throws {
    let table = try Self.programTable()
    func surface(_ style: DMUserInterfaceStyle) -> DMColor? {
      table.color(forKey: "Surface", traitCollection: DMTraitCollection(userInterfaceStyle: style))
    }
    let session = try DesktopSession()
    defer { session.stop() }
    try session.gsettings("set", "org.gnome.desktop.interface", "color-scheme", "prefer-dark")
    let environment = GTKProbe.environment(of: session)
    let program = try ChildProcess(
      try GTKProbe.hello.get(), [], environment: environment, capturesOutput: true)
    defer { program.stop() }
    // Without a window manager the window opens at the top left, 480 × 320: below its buttons
    // there is only the window's own background.
    let background = (x: 240, y: 250)
    func shown() -> DMColor? { try? GTKDemoTests.screenPixel(session, background.x, background.y) }
    #expect(await eventually(10) { shown() == surface(.dark) }, "\(shown()?.hexString ?? "no pixel")")

    try session.gsettings("set", "org.gnome.desktop.interface", "color-scheme", "prefer-light")
    #expect(await eventually(5) { shown() == surface(.light) }, "\(shown()?.hexString ?? "no pixel")")

    // The buttons, one under the other under the text: "Dark", then "Follow the desktop".
    try GTKDemoTests.xdotool(session, ["mousemove", "240", "68", "click", "1"])
    #expect(await eventually(5) { shown() == surface(.dark) }, "\(shown()?.hexString ?? "no pixel")")
    try GTKDemoTests.xdotool(session, ["mousemove", "240", "114", "click", "1"])
    #expect(await eventually(5) { shown() == surface(.light) }, "\(shown()?.hexString ?? "no pixel")")
    #expect(!program.standardError.contains("CRITICAL"), "\(program.standardError)")
    #expect(!program.standardError.contains("did not answer"), "\(program.standardError)")
  }
}
