import DarkModeKit
import DarkModeKitText
import DarkModeKitTools
import Foundation

/// `dmkit preview FILE [--theme NAME]... [--no-color] [--with FILE]... [--allow-outside]`: the table in the terminal, one row per
/// key, one column per theme, each cell a colour swatch with its hex value.
@MainActor
enum PreviewCommand {
  static let spec = CommandSpec(
    name: "preview", summary: "Show a colour table in the terminal, with a swatch for each colour.",
    usage: """
      USAGE: dmkit preview FILE [--theme NAME]... [--no-color] [--with FILE]... [--allow-outside]

      Prints the colour table: one row per key, one column per variant of a theme (a side, light
      or dark, in normal or high contrast), under a row that says which variant each column is;
      each cell a swatch in 24-bit colour and the colour's hex value. Without colour (--no-color,
      a non-empty NO_COLOR variable, or standard output that is not a terminal) it prints the hex
      values only, in aligned columns.

      OPTIONS:
        --theme NAME   Show only this theme's columns, or one column written NAME:dark,
                       NAME:high... (repeatable: in the order given).
        --no-color     Print hex values only.
        --with FILE    Design tokens: a token file whose tokens the references of FILE may
                       name; its tokens are no keys. Repeatable.
        --allow-outside
                       Design tokens: let a resolver document read files outside its own
                       folder.

      Exit status: 0 on success, 1 for a bad table, 2 for a bad command line or an unknown theme.

      """,
    flags: ["--no-color", "--allow-outside"], options: ["--theme", "--with"], positionals: 1...1)

  static func run(_ arguments: ParsedArguments, console: Console) -> Int32 {
    let path = arguments.positionals[0]
    guard let table = TableLoading.load(path, console: console, options: TableLoading.tokenOptions(arguments))
    else { return 1 }
    var variants = table.variants
    if !arguments.values("--theme").isEmpty {
      variants = []
      for text in arguments.values("--theme") {
        // A name with a colon is one column; a bare name, every column of the theme.
        let chosen =
          text.contains(":")
          ? DMThemeVariant(text).map { table.variants.contains($0) ? [$0] : [] } ?? []
          : table.variants.filter { $0.theme.rawValue == text }
        guard !chosen.isEmpty else {
          let available = table.variants.map(\.description).joined(separator: ", ")
          console.error(
            "dmkit: error: \(ShownText.escaped(path)) has no theme \(ShownText.quoted(text)); its columns are \(available)\n"
          )
          return 2
        }
        variants += chosen
      }
    }
    console.out(table.preview(variants: variants, usesColor: usesColor(arguments, console: console)))
    return 0
  }

  /// Colour only on a terminal, and neither `--no-color` nor a non-empty `NO_COLOR`
  /// (https://no-color.org).
  static func usesColor(_ arguments: ParsedArguments, console: Console) -> Bool {
    console.isTerminal && !arguments.flags.contains("--no-color")
      && (console.environment["NO_COLOR"] ?? "").isEmpty
  }
}
