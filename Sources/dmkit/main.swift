import Foundation

let version = "0.1.0"

let usage = """
  USAGE: dmkit <command> [options]

  Lint, preview and export colour tables, and follow the system appearance.

  COMMANDS:
    watch          Print the system appearance, and each change, until interrupted.

  OPTIONS:
    -h, --help     Show this help.
    --version      Show the version.

  """

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case nil, "-h", "--help", "help":
  Output.standard(usage)
case "--version":
  Output.standard("dmkit \(version)\n")
case "watch":
  WatchCommand.run(arguments: Array(arguments.dropFirst()))
case let other?:
  Output.error("error: unknown command or option '\(other)'\n\n" + usage)
  exit(2)
}
