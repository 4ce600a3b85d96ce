import DarkModeKit
import Foundation

/// `dmkit lint FILE…`: every problem as `FILE:LINE:COLUMN: error: MESSAGE`, and the contrast of
/// key pairs in every theme.
@MainActor
enum LintCommand {
  static let spec = CommandSpec(
    name: "lint", summary: "Check colour tables: every problem, and the contrast of key pairs.",
    usage: """
      USAGE: dmkit lint FILE... [--pair FG:BG]... [--min-contrast RATIO] [--strict]

      Checks each colour table and prints every problem as FILE:LINE:COLUMN: error: MESSAGE.

      OPTIONS:
        --pair FG:BG          Check the WCAG contrast ratio of key FG on key BG in every theme
                              (repeatable); a theme below the minimum is a warning.
        --min-contrast RATIO  The minimum ratio for --pair (default 4.5, WCAG AA for text).
        --strict              Report contrast problems as errors.

      Exit status: 0 when no file has an error, 1 otherwise, 2 for a bad command line.

      """,
    flags: ["--strict"], options: ["--pair", "--min-contrast"], positionals: 1...Int.max)

  static func run(_ arguments: ParsedArguments, console: Console) -> Int32 {
    let minimum: Double
    if let text = arguments.value("--min-contrast") {
      guard let value = Double(text), value >= 1, value <= 21 else {
        console.error("error: --min-contrast \(text) is not a ratio from 1 to 21\n")
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
        console.error("error: --pair \(pair) is not FG:BG, two keys separated by a colon\n")
        return 2
      }
      pairs.append((String(parts[0]), String(parts[1])))
    }
    var failed = false
    for path in arguments.positionals {
      let url = URL(fileURLWithPath: path)
      let problems = DMColorTable.lint(contentsOf: url)
      for problem in problems {
        let place = problem.line > 0 ? "\(path):\(problem.line):\(problem.column)" : path
        console.out("\(place): error: \(problem.message)\n")
      }
      failed = failed || !problems.isEmpty
      guard problems.isEmpty, !pairs.isEmpty, let table = try? DMColorTable(contentsOf: url) else { continue }
      let severity = arguments.flags.contains("--strict") ? "error" : "warning"
      for (foreground, background) in pairs {
        guard let line = table.line(ofKey: foreground), table.line(ofKey: background) != nil else {
          let missing = table.line(ofKey: foreground) == nil ? foreground : background
          console.out(
            "\(path): error: --pair \(foreground):\(background): the table has no key \"\(missing)\"\n")
          failed = true
          continue
        }
        for theme in table.themes {
          guard let text = table.color(forKey: foreground, theme: theme),
            let back = table.color(forKey: background, theme: theme)
          else { continue }
          let ratio = text.contrastRatio(with: back)
          guard ratio < minimum else { continue }
          console.out(
            "\(path):\(line):1: \(severity): \(foreground) on \(background) in theme \(theme.rawValue): contrast "
              + "\(format(ratio)):1 is below \(format(minimum)):1\n")
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
