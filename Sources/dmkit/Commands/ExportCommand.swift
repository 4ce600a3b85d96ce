import DarkModeKit
import DarkModeKitTools
import Foundation

/// `dmkit export FILE --format css|json|swift|text [--output PATH] [--access LEVEL]
/// [--namespace NAME] [--table NAME]`: the table (or design tokens) as CSS custom properties,
/// Design Tokens JSON, Swift constants, or a colour table.
@MainActor
enum ExportCommand {
  static let spec = CommandSpec(
    name: "export",
    summary: "Write a colour table (or design tokens) as CSS, Design Tokens, Swift, or a table.",
    usage: """
      USAGE: dmkit export FILE --format css|json|swift|text [--output PATH] [--access LEVEL]
                          [--namespace NAME] [--table NAME]

      Writes the colour table in another format, to standard output or to a file. FILE may be
      design tokens (named *.json or *.tokens), which are read as a table first.
        css    custom properties: the first theme on :root, the NIGHT (or DARK) theme under
               @media (prefers-color-scheme: dark), every theme under [data-theme="name"]
               (the theme's name in lower case, _ as -), with color-scheme set
        json   Design Tokens 2025.10: a resolver document whose modifiers theme,
               color-scheme and contrast choose every variant of each key's colour token
        swift  one DMDynamicColor constant per key, so the compiler checks the keys you use
        text   the colour table's own format

      OPTIONS:
        --format FORMAT   css, json, swift or text (required).
        --output PATH     Write to PATH instead of standard output: a file is replaced at once
                          and keeps its permissions (through a link, the file it points to);
                          a FIFO or a device is written to; a directory is refused.
        --access LEVEL    The access level of the Swift constants: public (default), package
                          or internal.
        --namespace NAME  Put the Swift constants in `enum NAME` instead of an extension of
                          DMDynamicColor; give each table exported into one module its own.
        --table NAME      The table the Swift constants read, such as Tables.brand
                          (default: DMColorTable.shared).

      Exit status: 0 on success, 1 for a bad table or an unwritable output, 2 for a bad command
      line.

      """,
    options: ["--format", "--output", "--access", "--namespace", "--table"], positionals: 1...1)

  static func run(_ arguments: ParsedArguments, console: Console) -> Int32 {
    let formats = DMColorTableExportFormat.allCases.map(\.rawValue).joined(separator: ", ")
    guard let formatName = arguments.value("--format") else {
      console.error("error: 'export' needs --format (one of \(formats))\n")
      return 2
    }
    guard let format = DMColorTableExportFormat(rawValue: formatName) else {
      console.error(
        "error: unknown format '\(ShownText.escaped(formatName, limit: 64))'; use one of \(formats)\n")
      return 2
    }
    var options = DMColorTableExportOptions()
    for option in ["--access", "--namespace", "--table"]
    where format != .swift && arguments.value(option) != nil {
      console.error("error: \(option) applies only to --format swift\n")
      return 2
    }
    options.namespace = arguments.value("--namespace")
    options.tableName = arguments.value("--table")
    if let access = arguments.value("--access") {
      guard let level = DMColorTableExportOptions.AccessLevel(rawValue: access) else {
        let levels = DMColorTableExportOptions.AccessLevel.allCases.map(\.rawValue).joined(separator: ", ")
        console.error(
          "error: unknown access level '\(ShownText.escaped(access, limit: 64))'; use one of \(levels)\n")
        return 2
      }
      options.accessLevel = level
    }
    let path = arguments.positionals[0]
    guard let table = TableLoading.load(path, console: console) else { return 1 }
    if format == .swift {
      let problems = options.swiftProblems(for: table)
      guard problems.isEmpty else {
        for problem in problems { console.error("error: \(problem)\n") }
        return 2
      }
    }
    options.sourceName = URL(fileURLWithPath: path).lastPathComponent
    let text = table.exported(as: format, options: options)
    guard let output = arguments.value("--output") else {
      console.out(text)
      return 0
    }
    do {
      try OutputFile.write(text, to: output)
    } catch {
      console.error("error: cannot write \(ShownText.quoted(output, limit: nil)): \(error.reason)\n")
      return 1
    }
    return 0
  }
}
