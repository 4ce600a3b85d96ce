import DarkModeKitText

/// Problems the library reports instead of failing: a missing colour key, an unreadable preference
/// file, a bad colour table, a theme nothing has, a system source that went away.
///
/// Each report goes to one handler, which by default writes `darkmodekit: warning: <message>` to standard
/// error. Install your own to log elsewhere, or to collect reports in tests:
///
/// ```swift
/// DMDiagnostics.setHandler { diagnostic in logger.warning("\(diagnostic)") }
/// ```
public enum DMDiagnostics {
  /// Replaces the handler; `nil` restores the default, which writes to standard error.
  /// - Parameter handler: Receives each report, on the thread that made it.
  public static func setHandler(_ handler: (@Sendable (DMDiagnostic) -> Void)?) {
    // The old handler goes after the lock: what it captured may report something as it goes.
    let old = state.withLock { state in
      defer { state = handler }
      return state
    }
    extendLifetime(old)
  }

  /// Sends a report to the handler.
  package static func report(_ diagnostic: DMDiagnostic) {
    let handler = state.withLock { $0 }
    if let handler {
      handler(diagnostic)
    } else {
      // A message may carry text from outside (a bus peer's error, say).
      StandardError.write("darkmodekit: warning: \(ShownText.escaped(diagnostic.description))\n")
    }
  }

  private static let state = Locked<(@Sendable (DMDiagnostic) -> Void)?>(nil)
}

/// One problem reported through ``DMDiagnostics``.
public struct DMDiagnostic: Sendable, Hashable, CustomStringConvertible {
  /// What kind of problem it is.
  public enum Kind: String, Sendable, Hashable {
    /// A colour was looked up by a key that the table does not have.
    case missingColorKey
    /// The preference file could not be read or written.
    case preferenceFile
    /// A colour table file could not be loaded, or a table was asked for colours before one was.
    case colorTable
    /// A system appearance source could not reach the system.
    case systemAppearance
    /// A theme was chosen that no colour table, theme map or image has, and nothing declared.
    case unknownTheme
  }

  /// What kind of problem it is.
  public let kind: Kind
  /// A plain sentence that names the place (file, line, key) and the problem.
  public let message: String

  /// Creates a report.
  /// - Parameters:
  ///   - kind: What kind of problem it is.
  ///   - message: A plain sentence naming the place and the problem.
  public init(kind: Kind, message: String) {
    self.kind = kind
    self.message = message
  }

  /// The message.
  public var description: String { message }
}
