import DarkModeKitTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `dmbench` with wrong arguments stops at once with status 2 and a message naming the argument,
/// instead of crashing, running the full benchmark, or building a scene that never ends.
@Suite struct BenchArgumentsTests {
  /// What a run printed and how it ended.
  struct Run {
    var status: Int32?
    var output: String
    var firstErrorLine: String
  }

  static func run(_ arguments: [String]) async throws -> Run {
    let bench = try #require(DMBench.path)
    let child = try ChildProcess(
      bench, arguments, environment: DMBench.childEnvironment, capturesOutput: true)
    let output = await child.readToEnd(seconds: 20) ?? "(still running after 20 s)"
    let status = child.wait(seconds: 5)
    child.stop()
    let firstLine = child.standardError.split(separator: "\n").first.map(String.init) ?? ""
    return Run(status: status, output: output, firstErrorLine: firstLine)
  }

  @Test(
    .enabled(if: DMBench.path != nil),
    arguments: [
      (
        ["--switches", "5", "-3"],
        #"COUNT must be a whole number from 0 to 1,000,000,000, not "-3" (argument 3)"#
      ),
      (
        ["--switches", "abc", "3"],
        #"VIEWS must be a whole number from 1 to 10,000,000, not "abc" (argument 2)"#
      ),
      (["--switches", "5"], "COUNT is missing after argument 2"),
      (
        ["--switches", "99999999999999", "1"],
        #"VIEWS must be a whole number from 1 to 10,000,000, not "99999999999999" (argument 2)"#
      ),
      (
        ["--switches", "0", "0", "--ratio"],
        #"VIEWS must be a whole number from 1 to 10,000,000, not "0" (argument 2)"#
      ),
      (
        ["--write-preferences", "/nonexistent/x.json", "abc"],
        #"COUNT must be a whole number from 0 to 1,000,000,000, not "abc" (argument 3)"#
      ),
      (["--hierarchy-scale", "--bogus"], #"unknown argument "--bogus" (argument 2)"#),
      (["--memory", "--table-scale"], "--table-scale (argument 2) cannot be given with --memory"),
      (["--ratio"], "--ratio goes only with --switches"),
      (["--read-tokens", "colors.json"], "--read-tokens needs PATH and tokens or json"),
      (["--bad\u{1B}]0;title\u{07}"], #"unknown argument "--bad\u{1B}]0;title\u{7}" (argument 1)"#),
    ])
  func aWrongArgumentIsNamedAndEndsTheRunAtOnce(arguments: [String], message: String) async throws {
    let run = try await Self.run(arguments)
    #expect(run.status == 2, "dmbench \(arguments): \(run.output)")
    #expect(run.firstErrorLine == "dmbench: \(message)")
    #expect(run.output.isEmpty)
  }

  /// A file that `--read-tokens` cannot read is an error that names it, exit status 1.
  @Test(.enabled(if: DMBench.path != nil))
  func aTokenFileThatCannotBeReadIsNamed() async throws {
    let run = try await Self.run(["--read-tokens", "/nonexistent/colors.tokens.json", "tokens"])
    #expect(run.status == 1)
    #expect(run.firstErrorLine.hasPrefix("dmbench: cannot read \"/nonexistent/colors.tokens.json\": "))
    #expect(run.output.isEmpty)
  }

  @Test(.enabled(if: DMBench.path != nil))
  func rightArgumentsStillRun() async throws {
    let run = try await Self.run(["--switches", "10", "3"])
    #expect(run.status == 0)
    #expect(run.output == "switched 3 times over 10 views, every one follows\n")
    let help = try await Self.run(["--help"])
    #expect(help.status == 0)
    #expect(help.output.hasPrefix("usage: dmbench [--quick]\n"))
  }
}
