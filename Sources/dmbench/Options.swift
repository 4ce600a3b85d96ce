import DarkModeKit
import DarkModeKitText
import Foundation

/// What `dmbench` was asked to do, read from its arguments.
enum Mode: Equatable {
  /// Every section: `dmbench [--quick]`.
  case full(quick: Bool)
  /// Section 7 alone, as the full run starts it in a process of its own.
  case memory(quick: Bool)
  /// Section 9 alone, or section 8 alone with `tables`.
  case scale(tables: Bool, quick: Bool)
  /// Sections 3 and 4 alone: a no-op change and an override on one view.
  case local(quick: Bool)
  /// Section 11 alone: custom traits.
  case customTraits(quick: Bool)
  /// A scene of `views` bound views (or themable objects) switched `count` times.
  case switches(views: Int, count: Int, themables: Bool, ratio: Bool)
  /// Two choices saved in turn to `path`, `count` times or until killed (for the reliability
  /// tests).
  case writePreferences(path: String, count: Int?)
  /// The design tokens at `path` read once into a table (or, with `foundation`, parsed by
  /// `JSONSerialization`), for section 8b to measure in a process of its own.
  case readTokens(path: String, foundation: Bool)
  /// The usage, printed.
  case help

  /// The most views or objects `--switches` builds: about 2.2 GiB of them.
  static let mostViews = 10_000_000
  /// The most switches or saves a count asks for.
  static let mostCount = 1_000_000_000

  /// How to run `dmbench`, printed for `--help` and after an error.
  static let usage = """
    usage: dmbench [--quick]
           dmbench --memory [--quick]
           dmbench --hierarchy-scale [--quick]
           dmbench --table-scale [--quick]
           dmbench --local [--quick]
           dmbench --custom-traits [--quick]
           dmbench --switches VIEWS COUNT [--themables] [--ratio]
           dmbench --write-preferences PATH [COUNT]
           dmbench --read-tokens PATH tokens|json

      (no mode)          every section: medians, ratios against the baselines, targets met
      --quick            smaller sizes and fewer runs: checks that the benchmarks run
      --memory           section 7 only (memory per view)
      --hierarchy-scale  section 9 only: growth of hierarchy operations; exits 1 if one grows
                         faster than its input
      --table-scale      section 8 only: growth of colour-table and design-token work, alike
      --local            sections 3 and 4 only: a no-op change, an override on one view
      --custom-traits    section 11 only: a custom-trait switch against a built-in one, the
                         memory kept by collections of many custom traits and by tables of new
                         theme names; exits 1 on a miss
      --switches         builds VIEWS bound views (1 to 10,000,000) and switches COUNT times, for
                         counting allocations from outside (valgrind); with --themables, bound
                         themable objects instead; with --ratio, then prints the median switch,
                         the floor and their ratio
      --write-preferences
                         saves two choices in turn to PATH, COUNT times or until killed
      --read-tokens      reads the design tokens at PATH into a table (tokens) or parses them
                         with JSONSerialization (json), once, and prints the seconds and the
                         peak memory it took (section 8b runs it)
    """

  /// A wrong argument: the message names it and its position.
  struct UsageError: Error, CustomStringConvertible {
    let description: String
  }

  /// Reads the arguments after the program's name.
  init(_ arguments: [String]) throws(UsageError) {
    var rest = arguments[...]
    var position = 0
    func next() -> String? {
      guard let argument = rest.popFirst() else { return nil }
      position += 1
      return argument
    }
    func number(_ name: String, _ text: String?, from least: Int, to most: Int) throws(UsageError) -> Int {
      guard let text else { throw UsageError(description: "\(name) is missing after argument \(position)") }
      guard let value = Int(text), (least...most).contains(value) else {
        throw UsageError(
          description:
            "\(name) must be a whole number from \(least.formatted()) to \(most.formatted()),"
            + " not \(ShownText.quoted(text)) (argument \(position))")
      }
      return value
    }
    if arguments.first == "--read-tokens" {
      guard arguments.count == 3, ["tokens", "json"].contains(arguments[2]) else {
        throw UsageError(description: "--read-tokens needs PATH and tokens or json")
      }
      self = .readTokens(path: arguments[1], foundation: arguments[2] == "json")
      return
    }
    if arguments.first == "--write-preferences" {
      _ = next()
      guard let path = next() else {
        throw UsageError(description: "PATH is missing after --write-preferences")
      }
      let count = try rest.isEmpty ? nil : number("COUNT", next(), from: 0, to: Self.mostCount)
      if let extra = next() {
        throw UsageError(description: "unexpected argument \(ShownText.quoted(extra)) (argument \(position))")
      }
      self = .writePreferences(path: path, count: count)
      return
    }
    var modeFlag: String?
    var switches: (views: Int, count: Int)?
    var quick = false
    var themables = false
    var ratio = false
    while let argument = next() {
      switch argument {
      case "--quick": quick = true
      case "--themables": themables = true
      case "--ratio": ratio = true
      case "--help", "-h", "--memory", "--hierarchy-scale", "--table-scale", "--local", "--custom-traits",
        "--switches":
        if let modeFlag {
          throw UsageError(description: "\(argument) (argument \(position)) cannot be given with \(modeFlag)")
        }
        modeFlag = argument
        if argument == "--switches" {
          let views = try number("VIEWS", next(), from: 1, to: Self.mostViews)
          let count = try number("COUNT", next(), from: 0, to: Self.mostCount)
          switches = (views, count)
        }
      case "--write-preferences":
        throw UsageError(description: "--write-preferences (argument \(position)) must come first")
      default:
        throw UsageError(description: "unknown argument \(ShownText.quoted(argument)) (argument \(position))")
      }
    }
    if let switches {
      if quick { throw UsageError(description: "--quick cannot be given with --switches") }
      self = .switches(views: switches.views, count: switches.count, themables: themables, ratio: ratio)
      return
    }
    if themables || ratio {
      throw UsageError(description: "\(themables ? "--themables" : "--ratio") goes only with --switches")
    }
    switch modeFlag {
    case "--help", "-h": self = .help
    case "--memory": self = .memory(quick: quick)
    case "--hierarchy-scale": self = .scale(tables: false, quick: quick)
    case "--table-scale": self = .scale(tables: true, quick: quick)
    case "--custom-traits": self = .customTraits(quick: quick)
    case "--local": self = .local(quick: quick)
    default: self = .full(quick: quick)
    }
  }
}
