// FluentDarkModeKit's and DKNightVersion's spellings whose shape is new here. Each compiles to an
// error that names what to write instead (Docs/Migrating.md has the whole list); none can be
// called.

/// The `.dm` of FluentDarkModeKit's `UIColor(.dm, light:dark:)`, kept so that the spelling ported
/// as `DMColor(.dm, light:dark:)` reaches a compiler message naming ``DMDynamicColor``.
///
/// It has no other use: every initializer that takes it is unavailable.
public enum DMNamespace: Sendable {
  /// FluentDarkModeKit's namespace marker.
  case dm
}

extension DMColor {
  /// FluentDarkModeKit's light/dark colour: here a ``DMDynamicColor``, bound to a property.
  @available(
    *, unavailable,
    message:
      "a DMColor is one colour; a light/dark pair is DMDynamicColor(light:dark:), set on a property with object.dm.bind(\\.property, to:)"
  )
  public init(_ namespace: DMNamespace, light: DMColor, dark: DMColor) {
    fatalError("unavailable")
  }

  /// FluentDarkModeKit's colour from a closure: here a ``DMDynamicColor``.
  @available(
    *, unavailable,
    message: "a DMColor is one colour; a colour from a closure is DMDynamicColor(dynamicProvider:)"
  )
  public init(
    _ namespace: DMNamespace, dynamicProvider: @escaping @Sendable (DMTraitCollection) -> DMColor
  ) {
    fatalError("unavailable")
  }
}

extension DMDynamic {
  /// FluentDarkModeKit's spelling of a light/dark pair.
  @available(*, unavailable, renamed: "init(light:dark:)")
  public init(_ namespace: DMNamespace, light: Value, dark: Value) {
    fatalError("unavailable")
  }
}

extension DMDynamicImage {
  /// FluentDarkModeKit's spelling of a light/dark image.
  @available(*, unavailable, renamed: "init(light:dark:)")
  public init(_ namespace: DMNamespace, light: Image, dark: Image) {
    fatalError("unavailable")
  }
}

/// FluentDarkModeKit's configuration class.
@available(
  *, unavailable, renamed: "DMConfiguration",
  message:
    "DMConfiguration is a struct: declare it with var, or pass the handlers to DMConfiguration(themeChangeHandler:windowThemeChangeHandler:systemAppearanceSource:)"
)
public typealias DMEnvironmentConfiguration = DMConfiguration

extension DMConfiguration {
  /// FluentDarkModeKit's switch for asset catalogs, which do not exist here.
  @available(*, unavailable, message: "there are no asset catalogs here; remove the line")
  public var useImageAsset: Bool {
    get { false }
    set {}
  }
}

extension DarkModeManager {
  /// FluentDarkModeKit's hook into UIKit, not needed here.
  @available(
    *, unavailable,
    message: "not needed: a DMWindow joins the hierarchy when it is shown with makeKeyAndVisible()"
  )
  public static func register(with application: Any, syncImmediately: Bool = false, animated: Bool = false) {}
}

/// DKNightVersion's manager: here the static API of ``DMTraitCollection``.
@available(
  *, unavailable,
  message:
    "there is no manager: DMTraitCollection.setOverride(style:) and setOverride(theme:) choose; DMTraitCollection.current.themeVariant.theme is the theme shown (themeVersion)"
)
public final class DKNightVersionManager {
  /// The manager.
  public static func sharedManager() -> DKNightVersionManager { fatalError("unavailable") }
  /// The manager.
  public static func shared() -> DKNightVersionManager { fatalError("unavailable") }
  /// The switch to `NIGHT`.
  public func nightFalling() {}
  /// The switch to `NORMAL`.
  public func dawnComing() {}
  /// The theme shown.
  public var themeVersion: String {
    get { "" }
    set {}
  }
}

/// DKNightVersion's name of the light side of the default theme.
@available(
  *, unavailable,
  message: "DMTheme.normal, a DMTheme (compare DMTraitCollection.current.themeVariant.theme with it)"
)
public var DKThemeVersionNormal: String { "NORMAL" }

/// DKNightVersion's name of the dark side of the default theme.
@available(
  *, unavailable, message: "DMTheme.night, a DMTheme (choose it with DMTraitCollection.setOverride(theme:))"
)
public var DKThemeVersionNight: String { "NIGHT" }

/// DKNightVersion's notification of a theme change.
@available(
  *, unavailable,
  message:
    "observe DMTraitCollection.didChangeNotification, a Notification.Name, or DMTraitCollection.changes"
)
public var DKNightVersionThemeChangingNotification: String { "" }

/// DKNightVersion's colour table: here ``DMColorTable``.
@available(
  *, unavailable,
  message:
    "the table is DMColorTable.shared, loaded with reload(contentsOf:) or DMConfiguration(colorTableURL:); a colour by key is DMDynamicColor(key:)"
)
public final class DKColorTable {
  /// The table.
  public static func sharedColorTable() -> DKColorTable { fatalError("unavailable") }
  /// The table, as Swift imports its name.
  public static func shared() -> DKColorTable { fatalError("unavailable") }
  /// Reads the file again.
  public func reloadColorTable() {}
  /// The file the table was loaded from.
  public var file: String {
    get { "" }
    set {}
  }
}

/// DKNightVersion's colour picker: here a ``DMDynamicColor``, bound to the property it colours.
@available(
  *, unavailable, renamed: "DMDynamicColor",
  message:
    "a colour that follows the theme is a DMDynamicColor, set on a property with object.dm.bind(\\.property, to:)"
)
public typealias DKColorPicker = DMDynamicColor

/// DKNightVersion's picker of a table's colour.
@available(
  *, unavailable,
  message: "a table's colour is DMDynamicColor(key:), set on a property with object.dm.bind(\\.property, to:)"
)
public func DKColorPickerWithKey(_ key: String) -> DMDynamicColor { fatalError("unavailable") }

/// DKNightVersion's picker of one colour for each of `NORMAL` and `NIGHT`, in hex.
@available(
  *, unavailable,
  message:
    "a light/dark pair is DMDynamicColor(light: DMColor(rgb: 0xFFFFFF), dark: DMColor(rgb: 0x1C1C1E)), set with object.dm.bind(\\.property, to:)"
)
public func DKColorPickerWithRGB(_ normal: UInt32, _ night: UInt32...) -> DMDynamicColor {
  fatalError("unavailable")
}

/// DKNightVersion's picker of one colour for each of `NORMAL` and `NIGHT`.
@available(
  *, unavailable,
  message: "a light/dark pair is DMDynamicColor(light:dark:), set with object.dm.bind(\\.property, to:)"
)
public func DKColorPickerWithColors(_ normal: DMColor, _ night: DMColor...) -> DMDynamicColor {
  fatalError("unavailable")
}

/// DKNightVersion's picker of an image by name for each of `NORMAL` and `NIGHT`.
@available(
  *, unavailable,
  message:
    "an image for each side is DMDynamicImage(light:dark:), or by name DMDynamicImage(names:loader:); set it with object.dm.bind(\\.property, to:)"
)
public func DKImagePickerWithNames(_ normal: String, _ night: String...) -> Never {
  fatalError("unavailable")
}

extension DMResponder {
  /// DKNightVersion's background picker.
  @available(
    *, unavailable,
    message: "bind the property: dm.bind(\\.backgroundColor, to: DMDynamicColor(key:)) on a view that has one"
  )
  public var dk_backgroundColorPicker: DMDynamicColor? {
    get { nil }
    set {}
  }

  /// DKNightVersion's text colour picker.
  @available(
    *, unavailable,
    message: "bind the property: dm.bind(\\.textColor, to: DMDynamicColor(key:)) on a view that has one"
  )
  public var dk_textColorPicker: DMDynamicColor? {
    get { nil }
    set {}
  }

  /// DKNightVersion's tint colour picker.
  @available(
    *, unavailable,
    message: "bind the property: dm.bind(\\.tintColor, to: DMDynamicColor(key:)) on a view that has one"
  )
  public var dk_tintColorPicker: DMDynamicColor? {
    get { nil }
    set {}
  }
}
