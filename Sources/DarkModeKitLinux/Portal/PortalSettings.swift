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
  /// GNOME's own high-contrast switch, which the portal passes on; it counts when the portal has
  /// no `contrast` (as Debian 12's has not), as libadwaita and Qt do.
  static let gnomeAccessibilityNamespace = "org.gnome.desktop.a11y.interface"
  static let gnomeHighContrastKey = "high-contrast"
  static let reducedMotionKey = "reduced-motion"
  static let accentColorKey = "accent-color"
  /// GNOME's animation switch, read when the portal has no `reduced-motion`.
  static let gnomeInterfaceNamespace = "org.gnome.desktop.interface"
  static let gnomeAnimationsKey = "enable-animations"

  /// The settings, as the portal numbers them.
  struct Values: Equatable, Sendable {
    /// 0 no preference, 1 prefer dark, 2 prefer light; anything else counts as 0.
    var colorScheme: Int64 = 0
    /// Whether the portal has a `color-scheme` setting at all.
    var hasColorScheme = false
    /// 0 normal, 1 higher contrast, anything else counts as 0; `nil` when the portal has no
    /// `contrast` setting, and GNOME's switch decides.
    var contrast: Int64?
    /// GNOME's `high-contrast`, used only when the portal has no `contrast`.
    var gnomeHighContrast = false
    /// 0 no preference, 1 reduced motion, anything else counts as 0; `nil` when the portal has no
    /// `reduced-motion` setting, and GNOME's `enable-animations` decides.
    var reducedMotion: Int64?
    /// GNOME's `enable-animations`, used only when the portal has no `reduced-motion`; `nil` when
    /// unknown.
    var gnomeAnimations: Bool?
    /// The accent colour, or `nil` for none (also for components outside 0–1).
    var accentColor: DMColor?

    /// Sends the settings to `reporter`.
    func send(to reporter: DMAppearanceReporter) {
      reporter.send(traitCollection, hasColorSchemeSetting: hasColorScheme)
    }

    var traitCollection: DMTraitCollection {
      var traits = DMTraitCollection()
      switch colorScheme {
      case 1: traits.userInterfaceStyle = .dark
      case 2: traits.userInterfaceStyle = .light
      default: traits.userInterfaceStyle = .unspecified
      }
      let isHigh = contrast.map { $0 == 1 } ?? gnomeHighContrast
      traits.accessibilityContrast = isHigh ? .high : .normal
      if let reducedMotion {
        traits.accessibilityMotion = reducedMotion == 1 ? .reduced : .normal
      } else if let gnomeAnimations {
        traits.accessibilityMotion = gnomeAnimations ? .normal : .reduced
      }
      traits.accentColor = accentColor
      return traits
    }

    /// Whether `update(namespace:key:value:)` takes the setting.
    static func follows(namespace: String, key: String) -> Bool {
      switch (namespace, key) {
      case (PortalSettings.namespace, colorSchemeKey), (PortalSettings.namespace, contrastKey),
        (gnomeAccessibilityNamespace, gnomeHighContrastKey), (PortalSettings.namespace, reducedMotionKey),
        (gnomeInterfaceNamespace, gnomeAnimationsKey), (PortalSettings.namespace, accentColorKey):
        return true
      default: return false
      }
    }

    /// Takes a setting's new value, reporting a value of the wrong type to `problems`; returns
    /// whether it was one of ours.
    mutating func update(namespace: String, key: String, value: DBusValue, problems: Problems) -> Bool {
      switch (namespace, key) {
      case (PortalSettings.namespace, colorSchemeKey):
        colorScheme = number(value, key: key, problems: problems)
        hasColorScheme = true
      case (PortalSettings.namespace, contrastKey): contrast = number(value, key: key, problems: problems)
      case (gnomeAccessibilityNamespace, gnomeHighContrastKey):
        gnomeHighContrast = flag(value, key: key, problems: problems) ?? false
      case (PortalSettings.namespace, reducedMotionKey):
        reducedMotion = number(value, key: key, problems: problems)
      case (gnomeInterfaceNamespace, gnomeAnimationsKey):
        gnomeAnimations = flag(value, key: key, problems: problems)
      case (PortalSettings.namespace, accentColorKey):
        accentColor = color(value, key: key, problems: problems)
      default: return false
      }
      return true
    }
  }

  /// A setting's value as a number; a value of another type is reported and counts as 0.
  static func number(_ value: DBusValue, key: String, problems: Problems) -> Int64 {
    let inner = value.unwrappingVariants
    if let number = inner.integerValue { return number }
    problems.report(key, inner, "a number", meaning: "no preference")
    return 0
  }

  /// The accent colour in a `(ddd)` value of sRGB components from 0 to 1; components outside that
  /// range mean "no accent", and a value of another type is reported and means none too.
  static func color(_ value: DBusValue, key: String, problems: Problems) -> DMColor? {
    let inner = value.unwrappingVariants
    guard case .struct(let fields) = inner, fields.count == 3 else {
      problems.report(key, inner, "three numbers (ddd)", meaning: "no accent colour")
      return nil
    }
    var components: [Double] = []
    for field in fields {
      guard case .double(let component) = field else {
        problems.report(key, inner, "three numbers (ddd)", meaning: "no accent colour")
        return nil
      }
      guard (0...1).contains(component) else { return nil }
      components.append(component)
    }
    return DMColor(red: components[0], green: components[1], blue: components[2])
  }

  /// A setting's value as a switch; a value of another type is reported and counts as unknown
  /// (`nil`).
  static func flag(_ value: DBusValue, key: String, problems: Problems) -> Bool? {
    let inner = value.unwrappingVariants
    if let flag = inner.boolValue { return flag }
    problems.report(key, inner, "a boolean", meaning: "unknown")
    return nil
  }

  /// Reports the values of the wrong type one session of reading the settings met: each problem
  /// once, and at most `limit` of them, so that a portal that sends a wrong value with every
  /// change is reported once, not once a change.
  final class Problems: Sendable {
    static let limit = 16

    private struct State {
      var reported: Set<String> = []
      /// Whether a problem past `limit` came, and the report that no more would be was made.
      var isOver = false
    }

    private let state = Locked(State())
    /// Whether the problems go to `DMDiagnostics`: a read made only to decide, which a source
    /// that follows the portal reads again, reports none, so that each problem is told once.
    private let reports: Bool

    init(reports: Bool = true) {
      self.reports = reports
    }

    func report(_ key: String, _ value: DBusValue, _ expected: String, meaning: String) {
      let message =
        "the desktop portal gave \(key) as a value of type \"\(value.type)\", not \(expected); it counts as \(meaning)"
      let shown: String? = state.withLock { state in
        guard reports, !state.isOver, !state.reported.contains(message) else { return nil }
        guard state.reported.count < Self.limit else {
          state.isOver = true
          return
            "the desktop portal gave \(Self.limit) kinds of values of the wrong type; no more are reported"
        }
        state.reported.insert(message)
        return message
      }
      if let shown { DMDiagnostics.report(DMDiagnostic(kind: .systemAppearance, message: shown)) }
    }
  }

  /// The interface version. Reading it starts the portal when it is not running yet.
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

  /// Every setting, in one `ReadAll` of the followed namespaces (every version of the interface
  /// has it): one round trip, where reading the keys one by one took up to seven. GNOME's
  /// high-contrast switch counts only when the portal has no `contrast`, and GNOME's animation
  /// switch only when it has no `reduced-motion` (see ``Values/traitCollection``).
  static func readAll(on bus: DBusConnection, timeout: Duration, problems: Problems = Problems()) async throws
    -> Values
  {
    let reply = try await bus.call(
      destination: destination, path: path, interface: interface, member: "ReadAll",
      arguments: [.array(element: .string, followedNamespaces.map { .string($0) })], timeout: timeout)
    guard let all = reply.first, case .array(_, let namespaces) = all else {
      throw DBusError.invalidValue(
        "the desktop portal answered ReadAll with \"\(reply.map(\.type.description).joined())\", not \"a{sa{sv}}\""
      )
    }
    var values = Values()
    for case .dictEntry(let namespace, .array(_, let settings)) in namespaces {
      guard let namespace = namespace.stringValue else { continue }
      for case .dictEntry(let key, let value) in settings {
        guard let key = key.stringValue else { continue }
        _ = values.update(namespace: namespace, key: key, value: value, problems: problems)
      }
    }
    return values
  }

  /// Reads `color-scheme` alone, as libadwaita does when it starts (`Read`, with no time limit),
  /// and tells why libadwaita cannot read the portal: the call timed out, or the reply is not a
  /// variant holding a variant (libadwaita takes it apart as one whatever it is, and crashes).
  /// `nil` when it can: the reply has that shape, or is an error, which libadwaita reads as one,
  /// or the call failed otherwise, which says nothing of libadwaita's own connection.
  static func whyLibadwaitaCannotRead(on bus: DBusConnection, timeout: Duration) async -> String? {
    do {
      let reply = try await bus.call(
        destination: destination, path: path, interface: interface, member: "Read",
        arguments: [.string(namespace), .string(colorSchemeKey)], timeout: timeout)
      guard reply.count == 1, case .variant(.variant) = reply[0] else {
        return "it answers a read of \(colorSchemeKey) with \"\(reply.map(\.type.description).joined())\", "
          + "not a variant holding a variant"
      }
      return nil
    } catch DBusError.timedOut {
      return "it did not answer a read of \(colorSchemeKey) within \(timeout)"
    } catch {
      return nil
    }
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

  /// The namespaces whose `SettingChanged` signals the source follows.
  static let followedNamespaces = [namespace, gnomeAccessibilityNamespace, gnomeInterfaceNamespace]

  /// The rule for `SettingChanged` signals of one namespace sent by `owner`, the portal's unique
  /// name (see ``owner(on:timeout:)``). Any client may send such a signal; with the sender in the
  /// rule, the bus routes no one else's, and the connection drops any that reach it (one sent to
  /// it alone) before reading it. With the namespace in the rule, the bus routes none of the
  /// desktop's other settings, so a burst of those cannot push a change of ours out of the stream's
  /// buffer.
  static func settingChangedRule(sender owner: String, namespace: String) -> DBusMatchRule {
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
