import DarkModeKit
import DarkModeKitText

/// What a command accepts: flags (`--strict`), options with a value (`--format css`), and how many
/// positional arguments.
struct CommandSpec: Sendable {
  let name: String
  let summary: String
  let usage: String
  var flags: Set<String> = []
  var options: Set<String> = []
  var positionals: ClosedRange<Int> = 0...0
}

/// A command line taken apart by ``CommandSpec/parse(_:)``.
struct ParsedArguments: Equatable, Sendable {
  var positionals: [String] = []
  var flags: Set<String> = []
  var options: [String: [String]] = [:]
  var wantsHelp = false

  /// The last value given for an option.
  func value(_ option: String) -> String? { options[option]?.last }

  /// Every value given for a repeatable option, in order.
  func values(_ option: String) -> [String] { options[option] ?? [] }
}

/// A command line that does not fit the command: the one-line reason (exit status 2).
struct UsageError: Error, Equatable, CustomStringConvertible {
  let description: String
}

extension CommandSpec {
  /// Parses `arguments`: `--flag`, `--option value`, `--option=value`, `-h` / `--help`, and `--`
  /// before positionals that start with `-`.
  func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
    var parsed = ParsedArguments()
    var index = 0
    var onlyPositionals = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
        parsed.positionals.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositionals = true
        continue
      }
      if argument == "-h" || argument == "--help" {
        parsed.wantsHelp = true
        continue
      }
      let (name, inlineValue): (String, String?) =
        if let equals = argument.firstIndex(of: "=") {
          (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
        } else {
          (argument, nil)
        }
      if flags.contains(name) {
        guard inlineValue == nil else {
          throw UsageError(description: "\(ShownText.quoted(name)) takes no value")
        }
        parsed.flags.insert(name)
      } else if options.contains(name) {
        let value: String
        if let inlineValue {
          value = inlineValue
        } else {
          guard index < arguments.count else {
            throw UsageError(description: "\(ShownText.quoted(name)) needs a value")
          }
          value = arguments[index]
          index += 1
        }
        parsed.options[name, default: []].append(value)
      } else {
        throw UsageError(
          description: "unknown option \(ShownText.quoted(name)) for \"\(self.name)\"")
      }
    }
    if parsed.wantsHelp { return parsed }
    if parsed.positionals.count < positionals.lowerBound {
      throw UsageError(
        description: "\"\(name)\" needs \(positionals.lowerBound == 1 ? "a file" : "more arguments")")
    }
    if parsed.positionals.count > positionals.upperBound {
      throw UsageError(
        description:
          "unexpected argument \(ShownText.quoted(parsed.positionals[positionals.upperBound]))")
    }
    return parsed
  }
}
