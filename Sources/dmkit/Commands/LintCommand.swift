import DarkModeKit
import DarkModeKitText
import DarkModeKitTools
import Foundation

/// `dmkit lint FILE…`: every problem as `FILE:LINE:COLUMN: error: MESSAGE`, and the contrast of
/// key pairs in every theme.
@MainActor
enum LintCommand {
  static let spec = CommandSpec(
    name: "lint", summary: "Check colour tables: every problem, and the contrast of key pairs.",
    usage: """
      USAGE: dmkit lint FILE... [--pair FG:BG]... [--min-contrast RATIO] [--strict] [--max-errors N]
                            [--verbose] [--with FILE]... [--allow-outside]

      Checks each colour table and prints every problem as FILE:LINE:COLUMN: error: MESSAGE, as
      it is found; after N problems in a file, one line counts the rest. A valid table gets a
      warning for each variant its themes lack that their other variants lead one to expect
      (a high-contrast column of one side but not of the other).

      OPTIONS:
        --pair FG:BG          Check the WCAG contrast ratio of key FG on key BG in every column:
                              each side and contrast of each theme (repeatable); a column below
                              the minimum is a warning that names it.
        --min-contrast RATIO  The minimum ratio for --pair (default 4.5, WCAG AA for text).
        --strict              Report contrast problems as errors, and design tokens of a type
                              the format does not define (left out with a warning otherwise).
        --max-errors N        The most problems, and the most contrast lines, to print per
                              file (default 100).
        --verbose             Say how the header is read: which side, in which contrast, of
                              which theme each column is.
        --with FILE           Design tokens: a token file whose tokens the references of FILE
                              may name (primitives beside semantic colours); its tokens are no
                              keys. Repeatable.
        --allow-outside       Design tokens: let a resolver document read files outside its
                              own folder.

      Exit status: 0 when no file has an error, 1 otherwise, 2 for a bad command line.

      """,
    flags: ["--strict", "--verbose", "--allow-outside"],
    options: ["--pair", "--min-contrast", "--max-errors", "--with"],
    positionals: 1...Int.max)

  static func run(_ arguments: ParsedArguments, console: Console) -> Int32 {
    let minimum: Double
    if let text = arguments.value("--min-contrast") {
      guard let value = Double(text), value >= 1, value <= 21 else {
        console.error(
          "dmkit: error: --min-contrast \(ShownText.quoted(text)) is not a ratio from 1 to 21\n")
        return 2
      }
      minimum = value
    } else {
      minimum = 4.5
    }
    var pairs: [(foreground: String, background: String)] = []
    for pair in arguments.values("--pair") {
      let parts = pair.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
        console.error(
          "dmkit: error: --pair \(ShownText.quoted(pair)) is not FG:BG, two keys separated by a colon\n"
        )
        return 2
      }
      pairs.append((String(parts[0]), String(parts[1])))
    }
    let limit: Int
    if let text = arguments.value("--max-errors") {
      guard let value = Int(text), value >= 0 else {
        console.error(
          "dmkit: error: --max-errors \(ShownText.quoted(text)) is not a number from 0 up\n")
        return 2
      }
      limit = value
    } else {
      limit = DMColorTable.defaultLintLimit
    }
    var failed = false
    for path in arguments.positionals {
      let url = URL(fileURLWithPath: path)
      let shownPath = ShownText.escaped(path)
      let table: DMColorTable
      // Design tokens: every problem in a token, each token with one left out; a problem in the
      // JSON or the document's shape ends the list.
      let isTokens = TableLoading.isDesignTokens(path)
      if isTokens {
        let options = TableLoading.tokenOptions(arguments, strict: arguments.flags.contains("--strict"))
        let verbose = arguments.flags.contains("--verbose")
        let problems = TableLoading.lint(
          path, options: options, limit: limit, warning: { if verbose || $1 == .warning { console.out($0) } })
        guard problems.isEmpty else {
          for problem in problems { console.out(problem.reported) }
          failed = true
          continue
        }
        // Its warnings were shown: the table is read again without them.
        guard case .success(let read) = TableLoading.read(path, options: options) else { continue }
        table = read
      } else {
        // Each problem is printed as it is found, up to the limit, then one line that counts the
        // rest.
        let problemCount = DMColorTable.lint(contentsOf: url, limit: limit) { problem in
          let place = problem.line > 0 ? "\(shownPath):\(problem.line):\(problem.column)" : shownPath
          console.out("\(place): error: \(problem.message)\n")
        }
        failed = failed || problemCount > 0
        guard problemCount == 0, let read = try? DMColorTable(contentsOf: url) else { continue }
        table = read
      }
      if arguments.flags.contains("--verbose") {
        for note in table.columnNotes { console.out("\(shownPath): note: \(note)\n") }
      }
      // Bounded as problems are: at most `limit`, then one line that counts the rest.
      var warnings = 0
      table.forEachVariantWarning { warning in
        warnings += 1
        if warnings <= limit { console.out("\(shownPath): warning: \(warning)\n") }
      }
      if warnings > limit {
        let more = warnings - limit
        console.out(
          "\(shownPath): warning: \(more) more \(more == 1 ? "warning" : "warnings") about variants not shown; "
            + "\(warnings) in all\n")
      }
      guard !pairs.isEmpty else { continue }
      let severity = arguments.flags.contains("--strict") ? "error" : "warning"
      // Contrast lines are bounded as problems are: at most `limit`, then one that counts the rest.
      var contrastLines = 0
      func report(_ text: String) {
        contrastLines += 1
        if contrastLines <= limit { console.out(text) }
      }
      defer {
        if contrastLines > limit {
          let more = contrastLines - limit
          console.out(
            "\(shownPath): \(severity): \(more) more contrast \(more == 1 ? "problem" : "problems") not shown; "
              + "\(contrastLines) in all\n")
        }
      }
      for (foreground, background) in pairs {
        guard let line = table.line(ofKey: foreground), table.line(ofKey: background) != nil else {
          let missing = table.line(ofKey: foreground) == nil ? foreground : background
          report(
            "\(shownPath): error: --pair \(ShownText.escaped(foreground)):\(ShownText.escaped(background)): "
              + "the table has no key \(ShownText.quoted(missing))\n")
          failed = true
          continue
        }
        for (variant, name) in zip(table.variants, table.columnNames) {
          guard let text = table.color(forKey: foreground, variant: variant),
            let back = table.color(forKey: background, variant: variant)
          else { continue }
          let ratio = text.contrastRatio(with: back)
          guard ratio < minimum else { continue }
          report(
            "\(isTokens ? shownPath : "\(shownPath):\(line):1"): \(severity): \(foreground) on \(background) in theme "
              + "\(ShownText.escaped(name, limit: 64)): contrast \(format(ratio)):1 is below "
              + "\(format(minimum)):1\n")
          if arguments.flags.contains("--strict") { failed = true }
        }
      }
    }
    return failed ? 1 : 0
  }

  /// Two decimals, as contrast ratios are usually written.
  static func format(_ ratio: Double) -> String {
    String(format: "%.2f", ratio)
  }
}
