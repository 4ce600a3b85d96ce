import DarkModeKit
import DarkModeKitDBus

/// What the XDG Desktop Portal's `org.freedesktop.appearance` settings mean, and how to read them.
enum PortalSettings {
  static let destination = "org.freedesktop.portal.Desktop"
  static let path = "/org/freedesktop/portal/desktop"
  static let interface = "org.freedesktop.portal.Settings"
  static let namespace = "org.freedesktop.appearance"
  static let colorSchemeKey = "color-scheme"
  static let contrastKey = "contrast"
  static let notFoundError = "org.freedesktop.portal.Error.NotFound"

  /// The two settings, as the portal numbers them.
  struct Values: Equatable, Sendable {
    /// 0 no preference, 1 prefer dark, 2 prefer light; anything else counts as 0.
    var colorScheme: Int64 = 0
    /// 0 normal, 1 higher contrast; anything else counts as 0.
    var contrast: Int64 = 0

    var traitCollection: DMTraitCollection {
      var traits = DMTraitCollection()
      switch colorScheme {
      case 1: traits.userInterfaceStyle = .dark
      case 2: traits.userInterfaceStyle = .light
      default: traits.userInterfaceStyle = .unspecified
      }
      traits.accessibilityContrast = contrast == 1 ? .high : .normal
      return traits
    }

    /// Takes a setting's new value; returns whether it was one of ours.
    mutating func update(key: String, value: DBusValue) -> Bool {
      switch key {
      case colorSchemeKey: colorScheme = number(value, key: key)
      case contrastKey: contrast = number(value, key: key)
      default: return false
      }
      return true
    }
  }

  /// A setting's value as a number; a value of another type is reported and counts as 0.
  static func number(_ value: DBusValue, key: String) -> Int64 {
    let inner = value.unwrappingVariants
    if let number = inner.integerValue { return number }
    DMDiagnostics.report(
      DMDiagnostic(
        kind: .systemAppearance,
        message: "the desktop portal gave \(key) as a value of type '\(inner.type)', not a number; "
          + "it counts as no preference"))
    return 0
  }

  /// The interface version: 2 and later have `ReadOne`; 1 only the deprecated `Read`.
  static func version(on bus: DBusConnection, timeout: Duration) async throws -> Int64 {
    do {
      let value = try await bus.property(
        "version", interface: interface, destination: destination, path: path, timeout: timeout)
      return value.integerValue ?? 1
    } catch let error as DBusError where error.remoteName != nil {
      // A portal too old to have the property is version 1.
      return 1
    }
  }

  /// Reads one setting; a setting the portal does not know is 0, "no preference".
  static func read(_ key: String, version: Int64, on bus: DBusConnection, timeout: Duration) async throws
    -> Int64
  {
    do {
      let reply = try await bus.call(
        destination: destination, path: path, interface: interface, member: version >= 2 ? "ReadOne" : "Read",
        arguments: [.string(namespace), .string(key)], timeout: timeout)
      // `Read` wraps the value in one more variant than `ReadOne`; unwrapping all of them reads both.
      return number(reply.first ?? .variant(.bool(false)), key: key)
    } catch let error as DBusError where error.remoteName == notFoundError {
      return 0
    }
  }

  /// Both settings, from a portal of interface `version`.
  static func readAll(on bus: DBusConnection, version: Int64, timeout: Duration) async throws -> Values {
    Values(
      colorScheme: try await read(colorSchemeKey, version: version, on: bus, timeout: timeout),
      contrast: try await read(contrastKey, version: version, on: bus, timeout: timeout))
  }

  /// The unique name that owns the portal's name now, such as `:1.7`.
  static func owner(on bus: DBusConnection, timeout: Duration) async throws -> String {
    let reply = try await bus.call(
      destination: DBusConnection.busName, path: "/org/freedesktop/DBus", interface: DBusConnection.busName,
      member: "GetNameOwner", arguments: [.string(destination)], timeout: timeout)
    guard let owner = reply.first?.stringValue else {
      throw DBusError.invalidValue("GetNameOwner answered without a name")
    }
    return owner
  }

  /// The rule for `SettingChanged` signals of the appearance namespace sent by `owner`, the
  /// portal's unique name (see ``owner(on:timeout:)``). Any client may send such a signal; with
  /// the sender in the rule, the bus routes no one else's, and the connection drops any that reach
  /// it (one sent to it alone) before reading it.
  static func settingChangedRule(sender owner: String) -> DBusMatchRule {
    DBusMatchRule(
      sender: owner, interface: interface, member: "SettingChanged", path: path,
      arguments: [0: namespace])
  }

  /// The rule for the bus's `NameOwnerChanged` signals about the portal's name.
  static var ownerChangedRule: DBusMatchRule {
    DBusMatchRule(
      sender: DBusConnection.busName, interface: DBusConnection.busName, member: "NameOwnerChanged",
      path: "/org/freedesktop/DBus", arguments: [0: destination])
  }
}
