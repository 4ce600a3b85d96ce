import DarkModeKit
import DarkModeKitText
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `dmkit demo [FILE]`: a themed window drawn in the terminal with the library's own hierarchy and
/// bindings, following the system and switched by keys.
@MainActor
enum DemoCommand {
  static let spec = CommandSpec(
    name: "demo", summary: "Show a themed window in the terminal; keys switch light, dark and themes.",
    usage: """
      USAGE: dmkit demo [FILE] [--with FILE]... [--allow-outside]

      Draws a small window in the terminal, built from DMWindow, DMViewController and DMView with
      every colour bound to a key of the colour table FILE (the bundled Docs/Examples/Palette.txt
      by default). It follows the system appearance (DM_COLOR_SCHEME, then the desktop portal,
      then the terminal) and redraws on every change.

      OPTIONS:
        --with FILE      Design tokens: a token file whose tokens the references of FILE may
                         name; its tokens are no keys. Repeatable.
        --allow-outside  Design tokens: let a resolver document read files outside its own
                         folder.

      KEYS:
        l  light          d  dark           s  follow the system
        t  next theme of the table          q  quit (Ctrl-C too)

      Needs a terminal on standard input and output; 'dmkit preview FILE' shows a table's colours
      without one. Exit status: 0 on quit, 1 for a bad file or no terminal, 2 for a bad command line.

      """,
    flags: ["--allow-outside"], options: ["--with"], positionals: 0...1)

  static func run(_ arguments: ParsedArguments, console: Console) -> Int32 {
    let table: DemoTable
    if let path = arguments.positionals.first {
      guard
        let loaded = TableLoading.load(path, console: console, options: TableLoading.tokenOptions(arguments))
      else { return 1 }
      table = DemoTable(
        table: loaded, name: ShownText.escaped(URL(fileURLWithPath: path).lastPathComponent, limit: 64))
    } else {
      table = DemoTable.bundled()
    }
    guard console.isTerminal, isatty(STDIN_FILENO) == 1 else {
      console.error(
        "dmkit: error: dmkit demo needs a terminal: standard input and output must both be one "
          + "(\"dmkit preview FILE\" works without one)\n")
      return 1
    }
    let session = DemoSession(table: table, console: console)
    session.start()
  }
}
