import Foundation

let version = "0.1.0"

let usage = """
  USAGE: dmkit <command> [options]

  Lint, preview and export colour tables, and follow the system appearance.

  OPTIONS:
    -h, --help     Show this help.
    --version      Show the version.

  """

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case nil, "-h", "--help", "help":
  print(usage, terminator: "")
case "--version":
  print("dmkit \(version)")
case let other?:
  var standardError = StandardError()
  print("error: unknown command or option '\(other)'\n", to: &standardError)
  print(usage, terminator: "", to: &standardError)
  exit(2)
}

struct StandardError: TextOutputStream {
  mutating func write(_ string: String) {
    FileHandle.standardError.write(Data(string.utf8))
  }
}
