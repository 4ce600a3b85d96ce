import DarkModeKit
import DarkModeKitTestSupport
import Foundation
import Testing

/// The GTK demo, driven as a person would drive it: clicks from the X server's input, and
/// pictures of the screen taken from outside the program.
@Suite(.serialized) struct GTKDemoTests {
  static let palette = GTKProbe.packageFolder.appendingPathComponent("Docs/Examples/Palette.txt")

  static let toolsMissing: String? = {
    let absent = ["/usr/bin/xdotool", "/usr/bin/import"].filter {
      !FileManager.default.isExecutableFile(atPath: $0)
    }
    guard absent.isEmpty else {
      let reason =
        "Skipping the GTK demo test: \(absent.joined(separator: ", ")) not installed (.ci/install-dependencies)"
      print(reason)
      return reason
    }
    return nil
  }()

  /// The colour on screen at (x, y), from a picture of the whole screen.
  static func screenPixel(_ session: DesktopSession, _ x: Int, _ y: Int) throws -> DMColor? {
    let picture = try ChildProcess(
      "/usr/bin/import", ["-window", "root", "-crop", "1x1+\(x)+\(y)", "txt:-"],
      environment: session.environment,
      capturesOutput: true)
    let text = picture.readToEnd(seconds: 20) ?? ""
    // "# ImageMagick pixel enumeration: …", then "0,0: (…)  #…  srgb(44,44,46)", in 8 or 16 bits
    // before the srgb part, 8 bits in it.
    guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("0,0:") }),
      let start = line.range(of: "srgb(")?.upperBound, let end = line[start...].firstIndex(of: ")")
    else { return nil }
    let channels = line[start..<end].split(separator: ",").compactMap { UInt32($0) }
    guard channels.count >= 3 else { return nil }
    return DMColor(rgb: channels[0] << 16 | channels[1] << 8 | channels[2])
  }

  static func xdotool(_ session: DesktopSession, _ arguments: [String]) throws {
    let tool = try ChildProcess("/usr/bin/xdotool", arguments, environment: session.environment)
    guard tool.wait(seconds: 10) == 0 else {
      throw ChildProcessError("xdotool \(arguments) failed: \(tool.errorOutput)")
    }
  }

  /// A table the demo cannot read is named in its error, with the line and column, as a compiler
  /// names a file; the demo then ends with status 1 before it opens a window.
  @Test(.enabled(if: GTKProbe.missing == nil))
  func aTableTheDemoCannotReadIsNamedWithThePlaceInIt() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "dmkit-demo-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let table = folder.appendingPathComponent("few colours.txt")
    try "NORMAL NIGHT\n#ffffff #000000 Background\n#f0f0f0 Text\n".write(
      to: table, atomically: true, encoding: .utf8)
    let demo = try ChildProcess(
      try GTKProbe.demo.get(), ["--table", table.path], environment: [:], capturesOutput: true)
    defer { demo.stop() }
    _ = demo.readToEnd(seconds: 30)
    #expect(demo.wait(seconds: 10) == 1)
    #expect(
      demo.standardError.hasPrefix(
        "dmkit-gtk-demo: \(table.path):3:9: error: too few colours for key \"Text\""),
      "\(demo.errorOutput)")
  }

  @Test(.enabled(if: GTKProbe.missing == nil && toolsMissing == nil))
  func clickingTheDemosButtonsChangesWhatTheScreenShows() async throws {
    let table = try DMColorTable(contentsOf: Self.palette)
    let session = try DesktopSession()
    defer { session.stop() }
    try session.gsettings("set", "org.gnome.desktop.interface", "color-scheme", "prefer-light")
    let environment = GTKProbe.environment(of: session)
    let demo = try ChildProcess(
      try GTKProbe.demo.get(), ["--print-layout"], environment: environment, capturesOutput: true)
    defer { demo.stop() }
    guard let report = demo.readOutput(until: "ready\n", seconds: 30) else {
      Issue.record("the demo did not report its layout: \(demo.errorOutput)")
      return
    }
    var layout: [String: (x: Int, y: Int, width: Int, height: Int)] = [:]
    for line in report.split(separator: "\n") where line.hasPrefix("layout ") {
      let parts = line.split(separator: " ").dropFirst()
      let numbers = parts.dropFirst().compactMap { Int($0) }
      if numbers.count == 4 {
        layout[String(parts.first!)] = (numbers[0], numbers[1], numbers[2], numbers[3])
      }
    }
    let card = try #require(layout["card"])
    let dark = try #require(layout["dark"])
    let system = try #require(layout["system"])
    // Without a window manager both windows open at the top left: move the second one away.
    try Self.xdotool(session, ["search", "--name", "^Second window", "windowmove", "600", "0"])
    try Self.xdotool(session, ["search", "--name", "^DarkModeKit$", "windowmove", "0", "0"])
    try await Task.sleep(for: .milliseconds(300))
    // A corner of the card, clear of its text.
    let cardPoint = (x: card.x + 3, y: card.y + 3)
    func surface(_ style: DMUserInterfaceStyle) -> DMColor? {
      table.color(forKey: "Surface", traitCollection: DMTraitCollection(userInterfaceStyle: style))
    }
    let first = try Self.screenPixel(session, cardPoint.x, cardPoint.y)
    #expect(first == surface(.light), "\(first?.hexString ?? "no pixel")")
    let second = try Self.screenPixel(session, 600 + cardPoint.x, cardPoint.y)
    #expect(second == surface(.dark), "the second window's own override: \(second?.hexString ?? "no pixel")")

    try Self.xdotool(
      session, ["mousemove", "\(dark.x + dark.width / 2)", "\(dark.y + dark.height / 2)", "click", "1"])
    #expect(
      await eventually(5) { (try? Self.screenPixel(session, cardPoint.x, cardPoint.y)) == surface(.dark) })

    // Back to following the system, which now asks for dark through the real portal.
    try session.gsettings("set", "org.gnome.desktop.interface", "color-scheme", "prefer-light")
    try Self.xdotool(
      session,
      ["mousemove", "\(system.x + system.width / 2)", "\(system.y + system.height / 2)", "click", "1"])
    #expect(
      await eventually(5) { (try? Self.screenPixel(session, cardPoint.x, cardPoint.y)) == surface(.light) })
    try session.gsettings("set", "org.gnome.desktop.interface", "color-scheme", "prefer-dark")
    #expect(
      await eventually(5) { (try? Self.screenPixel(session, cardPoint.x, cardPoint.y)) == surface(.dark) })

    // The style and the theme are two choices: each button does what it says whatever was
    // pressed before, and the image always suits the side shown (the system is dark now).
    let picture = try #require(layout["picture"])
    let theme = try #require(layout["theme"])
    let light = try #require(layout["light"])
    // A point of the image inside both the sun and the moon: the image is drawn 64 × 64 in the
    // middle of the picture, from 48 × 48 pixels (the disc's centre less 9, plus 6).
    let imagePoint = (x: picture.x + picture.width / 2 - 12, y: picture.y + picture.height / 2 + 8)
    func click(_ place: (x: Int, y: Int, width: Int, height: Int)) throws {
      try Self.xdotool(
        session, ["mousemove", "\(place.x + place.width / 2)", "\(place.y + place.height / 2)", "click", "1"])
    }
    let steps: [((x: Int, y: Int, width: Int, height: Int), DMThemeVariant)] = [
      (dark, "NIGHT"), (theme, "SEPIA"), (theme, "SOLARIZED:dark"), (light, "SOLARIZED:light"),
      (system, "SOLARIZED:dark"), (theme, "NIGHT"), (light, "NORMAL"),
      // Dark drops the light-only SEPIA; the theme button goes on from the theme chosen then.
      (theme, "SEPIA"), (dark, "NIGHT"), (theme, "SEPIA"), (theme, "SOLARIZED:dark"),
    ]
    for (button, variant) in steps {
      try click(button)
      let expected = table.color(forKey: "Surface", variant: variant)
      #expect(
        await eventually(5) { (try? Self.screenPixel(session, cardPoint.x, cardPoint.y)) == expected },
        "\(variant): \((try? Self.screenPixel(session, cardPoint.x, cardPoint.y))?.hexString ?? "none")")
      let background = try #require(table.color(forKey: "Background", variant: variant))
      let image = try #require(try Self.screenPixel(session, imagePoint.x, imagePoint.y))
      #expect(
        image.contrastRatio(with: background) >= 3,
        "\(variant): image \(image.hexString) on \(background.hexString)")
    }
    #expect(!demo.standardError.contains("CRITICAL"), "\(demo.standardError)")
  }
}
