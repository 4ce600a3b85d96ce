import Foundation

/// Why a colour table could not be loaded, with the place in the file and the text at fault.
///
/// ``DMColorTable`` throws it from ``DMColorTable/init(string:)``,
/// ``DMColorTable/init(contentsOf:maximumFileSize:)`` and the reload methods. A table that throws keeps (or never
/// gets) its contents: nothing is ever half-loaded.
///
/// ```swift
/// do {
///   _ = try DMColorTable(string: "NORMAL NIGHT\n#fff #12G BG\n")
/// } catch {
///   print(error)
///   // line 2, column 6: bad colour "#12G": "G" at offset 3 is not a hexadecimal digit
///   print(error.line, error.column, error.token, error.kind)  // 2 6 #12G badColor
/// }
/// ```
///
/// `Docs/ColorTableFormat.md` lists every error with its message.
public struct DMColorTableError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What kind of problem was found.
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    /// The input has no header line naming the themes: it is empty, holds only blank lines and
    /// comments, or its first line starts with a colour.
    case noHeader
    /// A name in the header is not a valid theme name.
    case badThemeName
    /// The header names the same theme twice.
    case duplicateTheme
    /// A row has fewer colours than the header has themes.
    case tooFewColors
    /// A row has more colours than the header has themes.
    case tooManyColors
    /// A colour is not in a form ``DMColor/init(hex:)`` accepts.
    case badColor
    /// A row's key is not a valid key.
    case badKey
    /// A row has its colours but no key.
    case missingKey
    /// A row goes on after its key.
    case unexpectedToken
    /// Two rows have the same key.
    case duplicateKey
    /// The file could not be read: it does not exist, is not a regular file, or is larger than the
    /// limit (``DMColorTable/defaultMaximumFileSize`` unless the caller gave another).
    case unreadableFile
    /// The file is not UTF-8 text.
    case notUTF8
    /// The last problem of a lint report that stopped listing problems at its limit: how many more
    /// there are, and how many in all.
    case moreProblems
  }

  /// What kind of problem was found.
  public let kind: Kind
  /// The 1-based line of the problem, or `0` for ``Kind/unreadableFile``.
  ///
  /// Lines end at LF, CRLF or CR.
  public let line: Int
  /// The 1-based column where ``token`` starts, counted in Unicode scalars (a tab is one column;
  /// a byte order mark is not counted), or `0` for ``Kind/unreadableFile``.
  public let column: Int
  /// The text at fault: a theme name, a colour, a key, or the first bytes that are not UTF-8
  /// (written as `\xFF`). It is empty when something is missing at the end of a line or file.
  /// For ``Kind/unreadableFile`` it is the file's path.
  public let token: String
  /// What is wrong, as a plain sentence that quotes the token, for example
  /// `bad colour "#12G": "G" at offset 3 is not a hexadecimal digit`.
  public let message: String
  /// The file that was being read, or `nil` when the table came from a string.
  public let path: String?

  /// Creates an error.
  /// - Parameters:
  ///   - kind: What kind of problem was found.
  ///   - line: The 1-based line, or `0` when the problem has no place in the text.
  ///   - column: The 1-based column where the token starts, or `0`.
  ///   - token: The text at fault.
  ///   - message: The sentence describing the problem.
  ///   - path: The file that was being read, if any.
  public init(kind: Kind, line: Int, column: Int, token: String, message: String, path: String? = nil) {
    self.kind = kind
    self.line = line
    self.column = column
    self.token = token
    self.message = message
    self.path = path
  }

  /// The place and the message: `line 3, column 10: bad colour "#12G": …`, or only the message
  /// when the error has no place (an unreadable file).
  ///
  /// The path is not part of it, so that tools can put it in front in their own format
  /// (`FILE:LINE:COLUMN: error: …`).
  public var description: String {
    line > 0 ? "line \(line), column \(column): \(message)" : message
  }

  /// A copy that records the file it came from.
  func withPath(_ path: String?) -> DMColorTableError {
    DMColorTableError(kind: kind, line: line, column: column, token: token, message: message, path: path)
  }
}

extension DMColorTableError: LocalizedError {
  /// The same text as ``description``, so that `localizedDescription` shows it.
  public var errorDescription: String? { description }
}
