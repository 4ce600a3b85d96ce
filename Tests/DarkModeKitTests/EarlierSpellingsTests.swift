import DarkModeKitTestSupport
import Foundation
import Testing

/// Code ported from FluentDarkModeKit and DKNightVersion, compiled against the library as a user
/// compiles it: each earlier spelling is one error that names what to write instead, and the code
/// written as the errors say compiles.
@Suite struct EarlierSpellingsTests {
  /// A snippet, and the errors it gives: the line and a part of the message of each.
  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let source: String
    let errors: [(line: Int, says: String)]
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "FluentDarkModeKit's set-up",
      source: """
        @MainActor func setUp() {
          var configuration = DMEnvironmentConfiguration()
          configuration.themeChangeHandler = { print("theme changed") }
          configuration.useImageAsset = false
          DarkModeManager.setup(with: configuration)
          DarkModeManager.register(with: DMApplication.shared, syncImmediately: true)
        }
        """,
      errors: [
        (
          2, "'DMEnvironmentConfiguration' has been renamed to 'DMConfiguration': DMConfiguration is a struct"
        ),
        (4, "'useImageAsset' is unavailable: there are no asset catalogs here"),
        (
          6,
          "'register(with:syncImmediately:animated:)' is unavailable: not needed: a DMWindow joins the "
            + "hierarchy"
        ),
      ]),
    Case(
      name: "FluentDarkModeKit's colours",
      source: """
        let pair = DMColor(.dm, light: .white, dark: .black)
        let computed = DMColor(.dm) { traits in traits.userInterfaceStyle == .dark ? .black : .white }
        let dynamic = DMDynamicColor(.dm, light: .white, dark: .black)
        """,
      errors: [
        (
          1,
          "'init(_:light:dark:)' is unavailable: a DMColor is one colour; a light/dark pair is "
            + "DMDynamicColor(light:dark:)"
        ),
        (
          2,
          "'init(_:dynamicProvider:)' is unavailable: a DMColor is one colour; a colour from a closure is "
            + "DMDynamicColor(dynamicProvider:)"
        ),
        (3, "'init(_:light:dark:)' has been renamed to 'init(light:dark:)'"),
      ]),
    Case(
      name: "DKNightVersion's manager",
      source: """
        @MainActor func switchTheme() {
          DKNightVersionManager.sharedManager().nightFalling()
          DKNightVersionManager.sharedManager().themeVersion = DKThemeVersionNight
          print(DKNightVersionManager.sharedManager().themeVersion == DKThemeVersionNormal)
          DKColorTable.shared().file = "DKColorTable.txt"
          _ = NotificationCenter.default.addObserver(
            forName: NSNotification.Name(rawValue: DKNightVersionThemeChangingNotification), object: nil,
            queue: nil
          ) { _ in }
        }
        """,
      errors: [
        (2, "'DKNightVersionManager' is unavailable: there is no manager"),
        (3, "'DKNightVersionManager' is unavailable: there is no manager"),
        (3, "'DKThemeVersionNight' is unavailable: DMTheme.night, a DMTheme"),
        (
          4,
          "'DKNightVersionManager' is unavailable: there is no manager: DMTraitCollection.setOverride(style:) "
            + "and setOverride(theme:) choose; DMTraitCollection.current.themeVariant.theme is the theme shown"
        ),
        (4, "'DKThemeVersionNormal' is unavailable: DMTheme.normal, a DMTheme"),
        (5, "'DKColorTable' is unavailable: the table is DMColorTable.shared"),
        (
          7,
          "'DKNightVersionThemeChangingNotification' is unavailable: observe "
            + "DMTraitCollection.didChangeNotification"
        ),
      ]),
    Case(
      name: "DKNightVersion's pickers",
      source: """
        @MainActor func colour(_ view: DMView) {
          view.dk_backgroundColorPicker = DKColorPickerWithKey("BG")
          view.dk_textColorPicker = DKColorPickerWithRGB(0xFFFFFF, 0x343434)
          view.dk_tintColorPicker = DKColorPickerWithColors(.white, .black)
          let picker: DKColorPicker? = nil
          _ = (picker, DKImagePickerWithNames("sun", "moon"))
        }
        """,
      errors: [
        (2, "'dk_backgroundColorPicker' is unavailable: bind the property: dm.bind(\\.backgroundColor"),
        (2, "'DKColorPickerWithKey' is unavailable: a table's colour is DMDynamicColor(key:)"),
        (3, "'dk_textColorPicker' is unavailable: bind the property: dm.bind(\\.textColor"),
        (3, "'DKColorPickerWithRGB' is unavailable: a light/dark pair is DMDynamicColor(light: DMColor(rgb:"),
        (4, "'dk_tintColorPicker' is unavailable: bind the property: dm.bind(\\.tintColor"),
        (4, "'DKColorPickerWithColors' is unavailable: a light/dark pair is DMDynamicColor(light:dark:)"),
        (5, "'DKColorPicker' has been renamed to 'DMDynamicColor'"),
        (6, "'DKImagePickerWithNames' is unavailable: an image for each side is DMDynamicImage(light:dark:)"),
      ]),
    Case(
      name: "the same code, written as the errors say",
      source: """
        @MainActor func setUp() {
          var configuration = DMConfiguration()
          configuration.themeChangeHandler = { print("theme changed") }
          DarkModeManager.setup(with: configuration)
          _ = DMDynamicColor(light: .white, dark: .black)
          _ = DMDynamicColor(dynamicProvider: { $0.userInterfaceStyle == .dark ? .black : .white })
          DMTraitCollection.setOverride(style: .dark, animated: false)
          DMTraitCollection.setOverride(theme: DMTheme.night, animated: false)
          print(DMTraitCollection.current.themeVariant.theme == DMTheme.normal)
          _ = NotificationCenter.default.addObserver(
            forName: DMTraitCollection.didChangeNotification, object: nil, queue: nil
          ) { _ in }
        }
        """,
      errors: []),
  ]

  /// `swiftc -typecheck` of `source` against the build: its status and each error, as line and
  /// message.
  static func typecheck(_ source: String) throws -> (status: Int32?, errors: [(line: Int, message: String)]) {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let file = folder.file("Ported.swift")
    // Two lines of imports come first: a case's line 1 is the file's line 3.
    try ("import DarkModeKit\nimport Foundation\n" + source + "\n").write(
      to: file, atomically: true, encoding: .utf8)
    let modules = try #require(LibraryBuild.found).modules
    let compiler = try ChildProcess(
      try #require(LibraryBuild.swiftc),
      ["-typecheck", "-swift-version", "6", "-diagnostic-style", "llvm", "-I", modules.path, file.path],
      environment: ProcessInfo.processInfo.environment)
    let status = compiler.wait(seconds: 120)
    let prefix = file.path + ":"
    let errors = compiler.standardError.split(separator: "\n").compactMap { line -> (Int, String)? in
      guard line.hasPrefix(prefix) else { return nil }
      let parts = line.dropFirst(prefix.count).split(separator: ":", maxSplits: 3)
      guard parts.count == 4, let number = Int(parts[0]), parts[2] == " error" else { return nil }
      return (number - 2, String(parts[3].dropFirst()))
    }
    return (status, errors)
  }

  @Test(
    .enabled(if: LibraryBuild.missing == nil, "needs swiftc and the build of DarkModeKit"),
    arguments: cases)
  func eachEarlierSpellingIsOneErrorNamingTheNewOne(_ snippet: Case) throws {
    let result = try Self.typecheck(snippet.source)
    let shown = result.errors.map { "\($0.line): \($0.message)" }
    #expect(result.status == (snippet.errors.isEmpty ? 0 : 1), "\(shown)")
    #expect(result.errors.count == snippet.errors.count, "\(shown)")
    for (expected, found) in zip(snippet.errors, result.errors) {
      #expect(found.line == expected.line, "\(found.message)")
      #expect(found.message.hasPrefix(expected.says), "line \(found.line): \(found.message)")
    }
  }
}
