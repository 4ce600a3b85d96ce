import Foundation

// `swift run -c release dmbench [--quick]`: prints each case's median and spread, the ratios
// against the baselines measured in the same run, and whether each target is met.
let quick = CommandLine.arguments.contains("--quick")
MainActor.assumeIsolated { Benchmarks(quick: quick).run() }
