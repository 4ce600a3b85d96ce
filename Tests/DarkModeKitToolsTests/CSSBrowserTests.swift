import DarkModeKit
import DarkModeKitTestSupport
import DarkModeKitTools
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Headless Chromium (Debian's `chromium`), which renders pages made of a CSS export.
enum Chromium {
  static let path = "/usr/bin/chromium"

  /// Why the browser tests cannot run here, or `nil` when they can; printed when they skip.
  static let missing: String? = {
    guard access(path, X_OK) != 0 else { return nil }
    let reason =
      "Skipping the browser tests: \(path) is not installed (.ci/install-dependencies installs chromium)"
    print(reason)
    return reason
  }()

  /// How the browser is told what the user prefers.
  struct Preferences: CustomStringConvertible, Sendable {
    var style: DMUserInterfaceStyle
    var contrast: DMAccessibilityContrast

    /// Chromium's switches: the colour scheme through Blink's setting (0 dark, 1 light), more
    /// contrast through the forced high-contrast mode (which also forces colours, so that the
    /// pages' probes opt out with `forced-color-adjust: none`).
    var arguments: [String] {
      ["--blink-settings=preferredColorScheme=\(style == .dark ? 0 : 1)"]
        + (contrast == .high ? ["--force-high-contrast"] : [])
    }

    var description: String { "\(style), \(contrast == .high ? "more" : "normal") contrast" }
  }

  /// Runs the browser on `page` with `preferences` and `action` (`--dump-dom`, `--screenshot=…`),
  /// each run with a profile of its own; returns what it printed.
  static func run(_ page: String, _ preferences: Preferences, action: String, in folder: URL) async throws
    -> String
  {
    let file = folder.appendingPathComponent("page-\(UUID().uuidString).html")
    try page.write(to: file, atomically: true, encoding: .utf8)
    let profile = folder.appendingPathComponent("profile-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: profile) }
    let arguments =
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
        "--user-data-dir=\(profile.path)", "--window-size=400,300",
      ] + preferences.arguments + [action, file.absoluteString]
    let browser = try ChildProcess(
      path, arguments, environment: ["HOME": folder.path, "PATH": "/usr/bin:/bin"], capturesOutput: true)
    defer { browser.stop() }
    guard let output = await browser.readToEnd(seconds: 60) else {
      throw ChildProcessError("chromium did not finish in 60 s; \(browser.errorOutput)")
    }
    return output
  }
}

/// The CSS export in a real browser: pages that use every key of a table, rendered by headless
/// Chromium with the colour scheme forced light and dark, in normal and more contrast, with
/// `light-dark()` and with the rules for browsers without it. The colours the browser computes
/// must be those that `DMColorTable` gives for the same traits.
@Suite(.serialized) struct CSSBrowserTests {
  static let edgeTable = """
    NORMAL   NIGHT      NIGHT:high  DUSK:dark  PAPER    GLOW:light  GLOW:dark
    #ffffff  #101010    #000000     #202040    #f4ecd8  #fafaff     #000010     Background
    #00000080 #ffffff80 #ffffff     #ffffff    #000000  #112233     #aabbcc     Scrim
    #333333  #cccccc    #ffffff     #ddddee    #5b4636  #123456     #fedcba     scrim
    #0a60d0  #0a60d0    #0a60d0     #0a60d0    #0a60d0  #0a60d0     #0a60d0     Accent.Same
    """

  /// The tables the pages are made from: the bundled two, and one with alpha, colliding names,
  /// a high-contrast column of one side only, a dark-only, a light-only and a two-sided theme.
  static let tables: [(name: String, table: @Sendable () throws -> DMColorTable)] = [
    ("DKColorTable.txt", { try ExampleTables.load("DKColorTable.txt") }),
    ("Palette.txt", { try ExampleTables.load("Palette.txt") }),
    ("edge table", { try DMColorTable(string: edgeTable) }),
  ]

  /// A page that loads `css` and reads, with a script, the background colour of one probe per key:
  /// at the top level, inside an element of each theme, and with each theme set on the root
  /// element. Each line it writes is `SCOPE KEY-ROW COLOUR`.
  static func page(css: String, table: DMColorTable) -> String {
    let names = DMColorTableExportFormat.css.identifiers(forKeys: table.keys)
    let themes = DMColorTableExportFormat.css.identifiers(forKeys: table.themes.map(\.rawValue))
    let probes = names.enumerated().map { row, name in
      "<div class=\"probe\" data-row=\"\(row)\" style=\"background-color: var(--\(name))\"></div>"
    }.joined()
    let themed = themes.enumerated().map { index, theme in
      "<div data-theme=\"\(theme)\" data-scope=\"in:\(index)\">\(probes)</div>"
    }.joined(separator: "\n")
    let themeList = themes.map { "\"\($0)\"" }.joined(separator: ", ")
    return """
      <!doctype html>
      <html><head><meta charset="utf-8"><style>
      \(css)
      </style><style>.probe { width: 4px; height: 4px; forced-color-adjust: none; }</style></head>
      <body>
      <div data-scope="top">\(probes)</div>
      \(themed)
      <pre id="out"></pre>
      <script>
      const lines = [];
      function read(scope, element) {
        for (const probe of element.querySelectorAll(":scope > .probe")) {
          lines.push(scope + " " + probe.dataset.row + " " + getComputedStyle(probe).backgroundColor);
        }
      }
      for (const element of document.querySelectorAll("[data-scope]")) read(element.dataset.scope, element);
      [\(themeList)].forEach((theme, index) => {
        document.documentElement.setAttribute("data-theme", theme);
        read("root:" + index, document.querySelector("[data-scope=top]"));
      });
      document.documentElement.removeAttribute("data-theme");
      lines.push("light-dark " + CSS.supports("color", "light-dark(#000, #FFF)"));
      document.getElementById("out").textContent = "\\n" + lines.join("\\n") + "\\n";
      </script>
      </body></html>
      """
  }

  /// The export as a browser without `light-dark()` reads it: the function unknown (so that the
  /// values that use it are invalid where they are used), and the fallback's condition true.
  static func withoutLightDark(_ css: String) -> String {
    let condition = "@supports not (color: light-dark(#000, #FFF))"
    return
      css
      .replacingOccurrences(of: condition, with: "@supports (color: #000)")
      .replacingOccurrences(of: "light-dark(", with: "no-light-dark(")
  }

  /// `rgb(1, 2, 3)` or `rgba(1, 2, 3, 0.5)` as a colour.
  static func color(_ text: Substring) -> DMColor? {
    guard let open = text.firstIndex(of: "("), text.hasSuffix(")") else { return nil }
    let numbers = text[text.index(after: open)..<text.index(before: text.endIndex)]
      .split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    guard numbers.count == 3 || numbers.count == 4 else { return nil }
    return DMColor(
      red: numbers[0] / 255, green: numbers[1] / 255, blue: numbers[2] / 255,
      alpha: numbers.count == 4 ? numbers[3] : 1)
  }

  /// Whether two colours are the same in 8 bits per channel (the browser rounds alpha).
  static func same(_ a: DMColor, _ b: DMColor) -> Bool {
    [a.red - b.red, a.green - b.green, a.blue - b.blue, a.alpha - b.alpha].allSatisfy { abs($0) < 0.6 / 255 }
  }

  static let preferences = [DMUserInterfaceStyle.light, .dark].flatMap { style in
    [DMAccessibilityContrast.normal, .high].map { Chromium.Preferences(style: style, contrast: $0) }
  }

  @Test(.enabled(if: Chromium.missing == nil), arguments: [0, 1, 2], [true, false])
  func theBrowserShowsTheTablesColourForEachSchemeContrastAndTheme(table index: Int, lightDark: Bool)
    async throws
  {
    let (name, load) = Self.tables[index]
    let table = try load()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "dmkit-css-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let exported = table.exported(as: .css)
    let css = lightDark ? exported : Self.withoutLightDark(exported)
    for preferences in Self.preferences {
      let output = try await Chromium.run(
        Self.page(css: css, table: table), preferences, action: "--dump-dom", in: folder)
      // The script's lines, inside the `pre` element of the page as it stands after the script.
      let start = output.range(of: "<pre id=\"out\">")?.upperBound ?? output.endIndex
      let end = output[start...].range(of: "</pre>")?.lowerBound ?? output.endIndex
      let lines = output[start..<end].split(separator: "\n")
      let context = "\(name), \(lightDark ? "light-dark()" : "fallback"), \(preferences)"
      #expect(lines.contains("light-dark true"), "\(context): the browser has no light-dark()")
      var seen = 0
      for line in lines where !line.hasPrefix("light-dark") {
        let parts = line.split(separator: " ", maxSplits: 2)
        guard parts.count == 3, let row = Int(parts[1]), table.keys.indices.contains(row),
          let shown = Self.color(parts[2])
        else {
          Issue.record("\(context): unreadable line \(line)")
          continue
        }
        // The theme of the scope: none at the top, else the one set on an element or the root.
        let scope = parts[0].split(separator: ":")
        let theme = scope.count == 2 ? Int(scope[1]).map { table.themes[$0] } : nil
        // A theme with one side shows it whatever the system's setting, as choosing it in an app
        // makes that side's style.
        let sides = Set(table.variants.filter { $0.theme == theme }.map(\.userInterfaceStyle))
        let traits = DMTraitCollection(
          userInterfaceStyle: theme != nil && sides.count == 1 ? sides.first! : preferences.style,
          accessibilityContrast: preferences.contrast, theme: theme)
        let key = table.keys[row]
        guard let expected = table.color(forKey: key, traitCollection: traits) else {
          Issue.record("\(context): the table has no colour for \(key)")
          continue
        }
        #expect(
          Self.same(shown, expected),
          "\(context), \(parts[0]) \(theme?.rawValue ?? "default theme"): \(key) is \(parts[2]), the table says \(expected.hexString)"
        )
        seen += 1
      }
      // Every key at the top, in each theme's element and with each theme on the root.
      #expect(seen == table.keys.count * (1 + 2 * table.themes.count), "\(context): \(seen) colours read")
    }
  }

  /// What a person sees: a screenshot of a page whose background is the table's `BG`, its pixels
  /// read with ImageMagick, light and dark.
  @Test(.enabled(if: Chromium.missing == nil && access("/usr/bin/convert", X_OK) == 0))
  func aScreenshotShowsTheBackgroundOfEachScheme() async throws {
    let table = try ExampleTables.load("DKColorTable.txt")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "dmkit-css-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let page = """
      <!doctype html><html><head><style>\(table.exported(as: .css))</style>
      <style>html, body { margin: 0; height: 100%; background: var(--bg); }</style></head><body></body></html>
      """
    for style in [DMUserInterfaceStyle.light, .dark] {
      let picture = folder.appendingPathComponent("\(style).png")
      _ = try await Chromium.run(
        page, Chromium.Preferences(style: style, contrast: .normal), action: "--screenshot=\(picture.path)",
        in: folder)
      let convert = try ChildProcess(
        "/usr/bin/convert", [picture.path, "-format", "%[hex:p{200,150}]", "info:"], environment: [:],
        capturesOutput: true)
      let pixel = await convert.readToEnd(seconds: 30)?.trimmingCharacters(in: .whitespacesAndNewlines)
      let expected = table.color(forKey: "BG", traitCollection: DMTraitCollection(userInterfaceStyle: style))!
      #expect(pixel.map { "#" + $0.prefix(6) } == expected.hexString, "\(style): \(convert.errorOutput)")
    }
  }
}
