import DarkModeKit
import DarkModeKitTools
import Foundation

/// `dmkit preview FILE [--theme NAME]... [--no-color]`: the table in the terminal, one row per
/// key, one column per theme, each cell a colour swatch with its hex value.
@MainActor
enum PreviewCommand {
  static let spec = CommandSpec(
    name: "preview", summary: "Show a colour table in the terminal, with a swatch for each colour.",
    usage: """
      USAGE: dmkit preview FILE [--theme NAME]... [--no-color]

      Prints the colour table: one row per key, one column per theme, each cell a swatch in
      24-bit colour and the colour's hex value. Without colour (--no-color, a non-empty NO_COLOR
      variable, or standard output that is not a terminal) it prints the hex values only, in
      aligned columns.

      OPTIONS:
        --theme NAME   Show only this theme (repeatable: the themes in the order given).
        --no-color     Print hex values only.

      Exit status: 0 on success, 1 for a bad table, 2 for a bad command line or an unknown theme.

      """,
    flags: ["--no-color"], options: ["--theme"], positionals: 1...1)

  static func run(_ arguments: ParsedArguments, console: Console) -> Int32 {
    let path = arguments.positionals[0]
    guard let table = TableLoading.load(path, console: console) else { return 1 }
    var themes: [DMTheme]?
    if !arguments.values("--theme").isEmpty {
      themes = arguments.values("--theme").map { DMTheme(rawValue: $0) }
      if let unknown = themes?.first(where: { !table.themes.contains($0) }) {
        let available = table.themes.map(\.rawValue).joined(separator: ", ")
        console.error(
          "error: \(ShownText.escaped(path)) has no theme '\(ShownText.escaped(unknown.rawValue, limit: 64))'; its themes are \(available)\n"
        )
        return 2
      }
    }
    console.out(table.preview(themes: themes, usesColor: usesColor(arguments, console: console)))
    return 0
  }

  /// Colour only on a terminal, and neither `--no-color` nor a non-empty `NO_COLOR`
  /// (https://no-color.org).
  static func usesColor(_ arguments: ParsedArguments, console: Console) -> Bool {
    console.isTerminal && !arguments.flags.contains("--no-color")
      && (console.environment["NO_COLOR"] ?? "").isEmpty
  }
}
