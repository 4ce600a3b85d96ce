import DarkModeKitText
import Foundation

/// Remembers the user's choice (style, contrast and theme) in a small versioned JSON file.
///
/// ```swift
/// let store = DMPreferenceStore(appName: "MyApp")  // ~/.config/MyApp/appearance.json
/// DarkModeManager.setup(with: DMConfiguration(preferenceStore: store))
/// // The saved choice is restored now, and every later `setOverride` is saved.
/// ```
///
/// The file looks like this:
///
/// ```json
/// {"contrast":"unspecified","style":"dark","theme":"RED","version":1}
/// ```
///
/// Writes are atomic (a temporary file beside it, then a rename), so a reader or a process killed
/// half-way sees the old choice or the new one, never a mix; a file that exists keeps its
/// permissions. A missing file means that no choice was saved yet: ``load()`` returns `nil` and
/// nothing is reported. A file that is truncated, corrupted, larger than
/// ``maximumFileSize`` (64 KiB), not a regular file, or written by a newer version throws from
/// ``load()``, which `DarkModeManager` reports through `DMDiagnostics` and ignores; it is not
/// overwritten until the user makes a new choice.
public final class DMPreferenceStore: Sendable {
  /// The file format version this library writes and reads.
  public static let formatVersion = 1

  /// The largest preference file ``load()`` reads: 64 KiB, far more than a choice takes.
  public static let maximumFileSize = 64 << 10

  /// The longest theme name a preference file may hold, in UTF-8 bytes.
  public static let maximumThemeLength = 256

  /// The file that holds the choice.
  public let fileURL: URL

  /// A store in a file of your choosing.
  /// - Parameter fileURL: The file; its folder is created when the choice is first saved.
  public init(fileURL: URL) {
    self.fileURL = fileURL
  }

  /// A store at `<config>/<appName>/appearance.json`, where `<config>` is `$XDG_CONFIG_HOME` when
  /// it is set to an absolute path, else `$HOME/.config`.
  /// - Parameters:
  ///   - appName: The app's folder name; `/` is replaced by `_`.
  ///   - environment: The environment to read the variables from; the process's by default.
  public convenience init(
    appName: String, environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    let configuration: URL
    if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
      configuration = URL(fileURLWithPath: xdg, isDirectory: true)
    } else {
      let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
      configuration = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config")
    }
    var folder = appName.replacingOccurrences(of: "/", with: "_")
    if folder.isEmpty || folder == "." || folder == ".." { folder = "DarkModeKit" }
    self.init(fileURL: configuration.appendingPathComponent(folder).appendingPathComponent("appearance.json"))
  }

  /// Reads the saved choice.
  /// - Returns: The saved override, or `nil` when no choice was saved yet (no file).
  /// - Throws: ``DMPreferenceStoreError`` when the file cannot be read, is not valid, or was
  ///   written by a newer version.
  public func load() throws(DMPreferenceStoreError) -> DMTraitCollection? {
    let bytes: [UInt8]
    do {
      bytes = try BoundedFile.contents(ofPath: fileURL.path, limit: Self.maximumFileSize)
    } catch {
      if error.isMissing { return nil }
      throw DMPreferenceStoreError(path: fileURL.path, kind: .unreadable, reason: error.reason)
    }
    return try Self.decode(Data(bytes), path: fileURL.path)
  }

  /// Saves a choice, replacing the file atomically.
  ///
  /// The style, contrast and theme are saved; the level, the motion and the accent colour (what
  /// the system reports) are not kept.
  /// - Parameter traitCollection: The override to remember.
  /// - Throws: ``DMPreferenceStoreError`` when the file cannot be written; the old file is intact.
  public func save(_ traitCollection: DMTraitCollection) throws(DMPreferenceStoreError) {
    let record = Record(
      version: Self.formatVersion, style: traitCollection.userInterfaceStyle.description,
      contrast: traitCollection.accessibilityContrast.description, theme: traitCollection.theme?.rawValue)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    do {
      try AtomicFile.replaceContents(of: fileURL, with: try encoder.encode(record))
    } catch let error as AtomicFileError {
      throw DMPreferenceStoreError(path: fileURL.path, kind: .unwritable, reason: error.reason)
    } catch {
      throw DMPreferenceStoreError(path: fileURL.path, kind: .unwritable, reason: "\(error)")
    }
  }

  /// Parses the contents of a preference file.
  static func decode(_ data: Data, path: String) throws(DMPreferenceStoreError) -> DMTraitCollection {
    func corrupted(_ reason: String) -> DMPreferenceStoreError {
      DMPreferenceStoreError(path: path, kind: .corrupted, reason: reason)
    }
    guard let object = try? JSONSerialization.jsonObject(with: data), let fields = object as? [String: Any]
    else {
      throw corrupted(data.isEmpty ? "the file is empty" : "the file is not a JSON object")
    }
    guard let versionValue = fields["version"] else { throw corrupted("\"version\" is missing") }
    guard let version = wholeNumber(versionValue) else {
      throw corrupted("\"version\" is \(shown(versionValue)); expected a whole number")
    }
    guard version <= formatVersion else {
      throw DMPreferenceStoreError(
        path: path, kind: .unsupportedVersion,
        reason: "written by format version \(version); this version reads up to \(formatVersion)")
    }
    guard version >= 1 else { throw corrupted("\"version\" \(version) is not a valid version") }
    func field<Value: CaseIterable & CustomStringConvertible>(_ name: String, _ type: Value.Type)
      throws(DMPreferenceStoreError) -> Value
    {
      let allowed = Value.allCases.map { "\"\($0)\"" }.joined(separator: ", ")
      guard let found = fields[name] else { throw corrupted("\"\(name)\" is missing") }
      guard let text = found as? String, let value = Value.allCases.first(where: { $0.description == text })
      else {
        throw corrupted("\"\(name)\" is \(shown(found)); expected one of \(allowed)")
      }
      return value
    }
    var traits = DMTraitCollection(userInterfaceStyle: try field("style", DMUserInterfaceStyle.self))
    traits.accessibilityContrast = try field("contrast", DMAccessibilityContrast.self)
    switch fields["theme"] {
    case nil, is NSNull: break
    case let theme as String:
      guard theme.utf8.count <= maximumThemeLength else {
        throw corrupted("\"theme\" is longer than \(maximumThemeLength) bytes")
      }
      if let problem = NameRule.problem(Array(theme.utf8)[...], noun: "theme name") {
        throw corrupted("\"theme\" is \(shown(theme)): \(problem)")
      }
      traits.theme = DMTheme(rawValue: theme)
    case let other?:
      throw corrupted("\"theme\" is \(shown(other)); expected a theme name or null")
    }
    return traits
  }

  /// A JSON number without a fraction, as an `Int`; `nil` for `true`, `1.5`, `1.0` or a string.
  private static func wholeNumber(_ value: Any) -> Int? {
    guard let number = value as? NSNumber, !(value is String) else { return nil }
    // JSON `true` and `false` come as numbers too; their type is a character ("c"), a fraction's
    // a double ("d").
    let type = String(cString: number.objCType)
    guard ["i", "l", "q", "s", "I", "L", "Q", "S"].contains(type) else { return nil }
    return number.intValue
  }

  /// A JSON value as a message shows it: a string quoted and escaped, else its JSON text.
  private static func shown(_ value: Any) -> String {
    switch value {
    case let text as String: return ShownText.quoted(text)
    case is NSNull: return "null"
    case let number as NSNumber:
      let type = String(cString: number.objCType)
      return type == "c" ? (number.boolValue ? "true" : "false") : number.description
    case is [Any]: return "an array"
    default: return "an object"
    }
  }

  private struct Record: Encodable {
    let version: Int
    let style: String
    let contrast: String
    let theme: String?

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(version, forKey: .version)
      try container.encode(style, forKey: .style)
      try container.encode(contrast, forKey: .contrast)
      if let theme {
        try container.encode(theme, forKey: .theme)
      } else {
        try container.encodeNil(forKey: .theme)
      }
    }

    private enum CodingKeys: String, CodingKey { case version, style, contrast, theme }
  }
}

/// A preference file that could not be read or written.
public struct DMPreferenceStoreError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: String, Sendable, Hashable {
    /// The file exists but cannot be read.
    case unreadable
    /// The file is truncated, not JSON, or has a field with a bad value.
    case corrupted
    /// The file was written by a newer version of the format.
    case unsupportedVersion
    /// The file cannot be written (a read-only or full folder, for example).
    case unwritable
  }

  /// The file's path.
  public let path: String
  /// What went wrong.
  public let kind: Kind
  /// The details, in a plain sentence.
  public let reason: String

  /// The path, then the problem, for example
  /// `/home/ann/.config/MyApp/appearance.json: corrupted: the file is not a JSON object`.
  public var description: String {
    let what: String =
      switch kind {
      case .unreadable: "cannot read"
      case .corrupted: "corrupted"
      case .unsupportedVersion: "unsupported version"
      case .unwritable: "cannot write"
      }
    // The path comes from outside (the environment, the app's name): shown escaped.
    return "\(ShownText.escaped(path)): \(what): \(reason)"
  }
}

extension DMPreferenceStoreError: LocalizedError {
  /// The same text as ``description``, so that `localizedDescription` shows it.
  public var errorDescription: String? { description }
}
