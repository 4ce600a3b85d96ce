import DarkModeKit

/// Why a design-tokens file could not be read as a colour table: where, which token, and what is
/// wrong.
///
/// ```swift
/// do {
///   _ = try DMDesignTokens.table(from: #"{"bg": {"$type": "color", "$value": "#12G"}}"#)
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

  /// The same error, read from the file at `path`.
  func inFile(_ path: String) -> DMDesignTokensError {
    DMDesignTokensError(line: line, column: column, tokenPath: tokenPath, message: message, path: path)
  }
}
