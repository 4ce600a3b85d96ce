import DarkModeKit
import DarkModeKitText
import Foundation

/// Why a design-tokens file could not be read as a colour table: where, which token, and what is
/// wrong.
///
/// ```swift
/// do {
///   _ = try DMDesignTokens.table(from: ##"{"bg": {"$type": "color", "$value": "#12G"}}"##)
/// } catch {
///   print(error)
///   // line 1, column 37: token "bg": bad colour "#12G": "G" at offset 3 is not a hexadecimal digit
/// }
/// ```
public struct DMDesignTokensError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The 1-based line of the problem, or `0` when it has no place in the text (a file that could
  /// not be read).
  public let line: Int
  /// The 1-based column, counted in Unicode scalars, or `0`.
  public let column: Int
  /// The path of the token (or group, or resolver entry) at fault, its names joined by dots, such
  /// as `Text.Primary` or `modifiers.theme`; `nil` when the problem is in the JSON itself.
  public let tokenPath: String?
  /// What is wrong, as a plain sentence.
  public let message: String
  /// The file that was being read, or `nil` when the tokens came from a string.
  public let path: String?

  /// Creates an error.
  /// - Parameters:
  ///   - line: The 1-based line, or `0`.
  ///   - column: The 1-based column, or `0`.
  ///   - tokenPath: The token's path, if the problem is in one.
  ///   - message: The sentence describing the problem.
  ///   - path: The file that was being read, if any.
  public init(line: Int, column: Int, tokenPath: String?, message: String, path: String? = nil) {
    self.line = line
    self.column = column
    self.tokenPath = tokenPath
    self.message = message
    self.path = path
  }

  /// The message with the token's path: `token "Text.Primary": bad colour …`. Text from the file
  /// is escaped (`\u{1B}`), so that it can be shown in a terminal.
  public var explanation: String {
    tokenPath.map { "token \(ShownText.quoted($0)): \(message)" } ?? message
  }

  /// `line 3, column 7: token "bg": …`, with the file first when there is one.
  public var description: String {
    let place = line > 0 ? "line \(line), column \(column): " : ""
    return (path.map { ShownText.escaped($0) + ": " } ?? "") + place + explanation
  }

  /// The same error, read from the file at `path`, unless it already names the file it is in (one
  /// that the file names).
  func inFile(_ path: String) -> DMDesignTokensError {
    DMDesignTokensError(
      line: line, column: column, tokenPath: tokenPath, message: message, path: self.path ?? path)
  }
}

extension DMDesignTokensError: LocalizedError {
  /// The same text as ``description``, so that `localizedDescription` shows it.
  public var errorDescription: String? { description }
}

/// Something design tokens were read with that the table does not show as the file says: a colour
/// outside sRGB brought into it, for example. The table is made; the warning says where and what.
///
/// ```swift
/// let tokens = #"{"red": {"$type": "color", "$value": {"colorSpace": "oklch", "components": [0.7, 0.4, 30]}}}"#
/// var warnings: [DMDesignTokensWarning] = []
/// let table = try DMDesignTokens.table(from: tokens) { warnings.append($0) }
/// print(table.color(forKey: "red", theme: .normal)!, warnings[0])
/// // #FF5843 line 1, column 38: token "red": the colour oklch(0.7 0.4 30) is outside sRGB; it is
/// // shown as #FF5843, the nearest colour of the same hue and lightness (CSS Color 4's gamut mapping)
/// ```
public struct DMDesignTokensWarning: Hashable, Sendable, CustomStringConvertible {
  /// A warning, or a note that says how the tokens were read (`dmkit lint --verbose` shows them).
  public enum Kind: Hashable, Sendable {
    /// Something the table does not show as the tokens say.
    case warning
    /// How a part of the tokens was read: which column a resolver document's context gives.
    case note
  }

  /// A warning, or a note.
  public let kind: Kind
  /// The 1-based line, or `0` when the warning has no place in the text.
  public let line: Int
  /// The 1-based column, counted in Unicode scalars, or `0`.
  public let column: Int
  /// The path of the token concerned, its names joined by dots, or `nil`.
  public let tokenPath: String?
  /// What was done, as a plain sentence.
  public let message: String
  /// The file that was being read, or `nil` when the tokens came from a string.
  public let path: String?

  /// The message with the token's path first, as ``DMDesignTokensError/explanation`` has it.
  public var explanation: String { located.explanation }

  /// `line 3, column 7: token "bg": …`, with the file first when there is one.
  public var description: String { located.description }

  private var located: DMDesignTokensError {
    DMDesignTokensError(line: line, column: column, tokenPath: tokenPath, message: message, path: path)
  }

  init(_ problem: DMDesignTokensError, kind: Kind = .warning) {
    self.kind = kind
    line = problem.line
    column = problem.column
    tokenPath = problem.tokenPath
    message = problem.message
    path = problem.path
  }

  /// The same warning, read from the file at `path`.
  func inFile(_ path: String) -> DMDesignTokensWarning {
    DMDesignTokensWarning(located.inFile(path), kind: kind)
  }
}
