import DarkModeKit
import DarkModeKitText

/// `dmkit`: the command table, usage, and dispatch.
@MainActor
enum DMKitTool {
  static let version = "0.1.0"

  /// A command: its spec and what it does; returns the exit status.
  struct Command {
    let spec: CommandSpec
    let run: @MainActor (ParsedArguments, Console) -> Int32
  }

  static let commands: [Command] = [
    Command(spec: LintCommand.spec, run: LintCommand.run),
    Command(spec: PreviewCommand.spec, run: PreviewCommand.run),
    Command(spec: ExportCommand.spec, run: ExportCommand.run),
    Command(spec: WatchCommand.spec, run: WatchCommand.run),
    Command(spec: DemoCommand.spec, run: DemoCommand.run),
  ]

  static var usage: String {
    let width = commands.map(\.spec.name.count).max() ?? 0
    let lines = commands.map {
      "  \($0.spec.name.padding(toLength: width + 2, withPad: " ", startingAt: 0))\($0.spec.summary)"
    }
    return """
      USAGE: dmkit <command> [options]

      Lint, preview and export colour tables, and follow the system appearance.

      COMMANDS:
      \(lines.joined(separator: "\n"))

      OPTIONS:
        -h, --help   Show this help; 'dmkit help <command>' shows a command's.
        --version    Show the version.

      """
  }

  /// Runs the tool on `arguments` (without the program name); returns the exit status.
  static func run(_ arguments: [String], console: Console) -> Int32 {
    guard let first = arguments.first else {
      console.out(usage)
      return 0
    }
    switch first {
    case "-h", "--help":
      console.out(usage)
      return 0
    case "--version":
      console.out("dmkit \(version)\n")
      return 0
    case "help":
      guard arguments.count > 1 else {
        console.out(usage)
        return 0
      }
      guard let command = commands.first(where: { $0.spec.name == arguments[1] }) else {
        return usageError("unknown command \(ShownText.quoted(arguments[1]))", console: console)
      }
      console.out(command.spec.usage)
      return 0
    default:
      guard let command = commands.first(where: { $0.spec.name == first }) else {
        return usageError("unknown command \(ShownText.quoted(first))", console: console)
      }
      do {
        let parsed = try command.spec.parse(Array(arguments.dropFirst()))
        if parsed.wantsHelp {
          console.out(command.spec.usage)
          return 0
        }
        return command.run(parsed, console)
      } catch {
        console.error("dmkit: error: \(error)\n\n" + command.spec.usage)
        return 2
      }
    }
  }

  private static func usageError(_ message: String, console: Console) -> Int32 {
    console.error("dmkit: error: \(message)\n\n" + usage)
    return 2
  }
}
