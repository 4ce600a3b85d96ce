// What the examples in doc comments take as given, as a reader does: an app's view, its logger,
// its renderer, a table. The examples of Sources/ are compiled with this module imported; a name
// an example declares itself hides the one here. Nothing here is run.

import DarkModeKit
import DarkModeKitDBus
import Foundation

/// An image type of the app's.
public struct Bitmap: Sendable {
  public init?(contentsOfFile path: String) { return nil }
}

/// A view of the app's, with the properties the examples bind.
@MainActor public final class ExampleView: DMView {
  public var backgroundColor = DMColor.clear
  public var cornerRadius = 0.0
  public var image: Bitmap?
  public func relayout() {}
}

/// A view whose background is optional.
@MainActor public final class OptionalBackgroundView: DMView {
  public var backgroundColor: DMColor?
}

/// A label of the app's.
@MainActor public final class Label: DMView {
  public var textColor = DMColor.black
}

@MainActor public let view = ExampleView()
@MainActor public let panel = ExampleView()
@MainActor public let sidebar = ExampleView()
@MainActor public let widget = OptionalBackgroundView()

/// The app's logger.
public struct Logger: Sendable {
  public func warning(_ message: String) {}
}
public let logger = Logger()

/// The app's renderer.
@MainActor public final class Renderer {
  public func redraw(_ window: DMWindow) {}
  public func redraw(fadeDuration: Double) {}
}
@MainActor public let renderer = Renderer()

public func isNight() -> Bool { false }

/// A custom trait of the app's.
public enum ContentDensity: DMTraitDefinition {
  public static let defaultValue = 1.0
  public static let affectsColorAppearance = false
}

/// A controller of the app's.
@MainActor public final class SettingsViewController: DMViewController {}

public let background = DMDynamicColor(light: .white, dark: .black)
public let table = DMColorTable()
public let rule = DBusMatchRule(interface: "org.freedesktop.portal.Settings", member: "SettingChanged")
/// A connection to the session bus.
public var bus: DBusConnection {
  get async throws { try await DBusConnection.connect() }
}
