import DarkModeKit
import DarkModeKitText
import DarkModeKitTools
import Foundation

/// Loading the colour table a command was given, with errors in the `FILE:LINE:COLUMN: error:`
/// form that `lint` uses. A file named `*.json` or `*.tokens` is read as design tokens.
enum TableLoading {
  /// Whether `path` names a design-tokens file (`.json`, `.tokens`, `.tokens.json`,
  /// `.resolver.json`) rather than a colour table.
  static func isDesignTokens(_ path: String) -> Bool {
    let lowered = path.lowercased()
    return lowered.hasSuffix(".json") || lowered.hasSuffix(".tokens")
  }

  /// The table at `path`, or the problem as `FILE:LINE:COLUMN: MESSAGE` (without the severity).
  /// Design tokens read with a loss (a colour outside sRGB, tokens of an unknown type left out)
  /// give `warning` each line that says so, `FILE:LINE:COLUMN: warning: MESSAGE`, and notes on how
  /// they were read, `FILE:LINE:COLUMN: note: MESSAGE`.
  static func read(
    _ path: String, options: DMDesignTokensOptions = DMDesignTokensOptions(),
    warning: (String, DMDesignTokensWarning.Kind) -> Void = { _, _ in }
  ) -> Result<DMColorTable, Problem> {
    let url = URL(fileURLWithPath: path)
    if isDesignTokens(path) {
      do {
        return .success(
          try DMDesignTokens.table(contentsOf: url, options: options) {
            warning(Problem($0, in: path).reported(as: $0.kind == .note ? "note" : "warning"), $0.kind)
          })
      } catch {
        return .failure(Problem(error, in: path))
      }
    }
    do {
      return .success(try DMColorTable(contentsOf: url))
    } catch {
      return .failure(Problem(path: path, line: error.line, column: error.column, message: error.message))
    }
  }

  /// Every problem of the design tokens at `path`, as `lint` lists them (at most `limit`, then one
  /// that counts the rest), each naming its file; warnings as ``read(_:options:warning:)`` gives
  /// them.
  static func lint(
    _ path: String, options: DMDesignTokensOptions, limit: Int,
    warning: (String, DMDesignTokensWarning.Kind) -> Void
  ) -> [Problem] {
    let url = URL(fileURLWithPath: path)
    let problems = DMDesignTokens.lint(contentsOf: url, options: options, limit: limit) {
      warning(Problem($0, in: path).reported(as: $0.kind == .note ? "note" : "warning"), $0.kind)
    }
    return problems.map { Problem($0, in: path) }
  }

  /// A problem that keeps a file from being read.
  struct Problem: Error {
    var path: String
    var line: Int
    var column: Int
    var message: String

    init(path: String, line: Int, column: Int, message: String) {
      self.path = path
      self.line = line
      self.column = column
      self.message = message
    }

    /// A design-tokens error or warning of the file given as `path`: one in another file (one
    /// the document names) names that file.
    init(_ error: DMDesignTokensError, in path: String) {
      let file = error.path == nil || error.path == URL(fileURLWithPath: path).path ? path : error.path!
      self.init(path: file, line: error.line, column: error.column, message: error.explanation)
    }

    init(_ warning: DMDesignTokensWarning, in path: String) {
      self.init(
        DMDesignTokensError(
          line: warning.line, column: warning.column, tokenPath: nil, message: warning.explanation,
          path: warning.path),
        in: path)
    }

    /// `FILE:LINE:COLUMN: error: MESSAGE`, the path escaped.
    var reported: String { reported(as: "error") }

    /// `FILE:LINE:COLUMN: SEVERITY: MESSAGE`, the path escaped.
    func reported(as severity: String) -> String {
      let shownPath = ShownText.escaped(path)
      let place = line > 0 ? "\(shownPath):\(line):\(column)" : shownPath
      return "\(place): \(severity): \(message)\n"
    }
  }

  /// The options of design tokens a command line gives: `--with FILE` (repeatable) and
  /// `--allow-outside`, and `strict` when the command is strict.
  static func tokenOptions(_ arguments: ParsedArguments, strict: Bool = false) -> DMDesignTokensOptions {
    var options = DMDesignTokensOptions()
    options.isStrict = strict
    options.tokenFiles = arguments.values("--with").map { URL(fileURLWithPath: $0) }
    options.readsFilesOutsideFolder = arguments.flags.contains("--allow-outside")
    return options
  }

  /// The lines of a command's usage for the options of design tokens.
  static let tokenOptionsUsage = """
      --with FILE       Design tokens: a token file whose tokens the references of FILE
                        may name (primitives beside semantic colours); its tokens are
                        no keys. Repeatable.
      --allow-outside   Design tokens: let a resolver document read files outside its
                        own folder.
    """

  /// The table at `path`, or `nil` after printing the problem to standard error; warnings go to
  /// standard error too.
  static func load(_ path: String, console: Console, options: DMDesignTokensOptions = DMDesignTokensOptions())
    -> DMColorTable?
  {
    switch read(path, options: options, warning: { if $1 == .warning { console.error($0) } }) {
    case .success(let table): return table
    case .failure(let problem):
      console.error(problem.reported)
      return nil
    }
  }
}
