import DarkModeKit
import Foundation

// `swift run -c release dmbench [--quick]`: prints each case's median and spread, the ratios
// against the baselines measured in the same run, and whether each target is met. The other modes
// are listed in `Mode.usage` (`dmbench --help`).
let mode: Mode
do {
  mode = try Mode(Array(CommandLine.arguments.dropFirst()))
} catch {
  FileHandle.standardError.write(Data("dmbench: \(error)\n\n\(Mode.usage)\n".utf8))
  exit(2)
}
switch mode {
case .readTokens(let path, let foundation):
  MainActor.assumeIsolated { TokenReadingCase.readOnce(path: path, foundation: foundation) }
case .help:
  print(Mode.usage)
case .writePreferences(let path, let count):
  PreferenceWriter.run(path: path, count: count)
case .memory(let quick):
  MainActor.assumeIsolated { Benchmarks(quick: quick).memoryCases() }
case .scale(let tables, let quick):
  MainActor.assumeIsolated {
    let benchmarks = Benchmarks(quick: quick)
    let linear =
      tables
      ? ScaleCases(quick: benchmarks.quick, runs: benchmarks.runs).run()
      : HierarchyScaleCases(runs: benchmarks.runs).run()
    if !linear {
      print("dmbench: a case grew faster than its input")
      exit(1)
    }
  }
case .local(let quick):
  MainActor.assumeIsolated { Benchmarks(quick: quick).localCases() }
case .customTraits(let quick):
  MainActor.assumeIsolated {
    let benchmarks = Benchmarks(quick: quick)
    let cases = CustomTraitCases(runs: benchmarks.runs, quick: quick)
    // Both run, whatever the first gives.
    let switchesMet = cases.switches()
    let memoryMet = cases.memoryKept()
    if !(cases.themeNamesKept() && memoryMet && switchesMet) {
      print("dmbench: a custom-trait target was missed")
      exit(1)
    }
  }
case .switches(let views, let count, let themables, let ratio):
  MainActor.assumeIsolated {
    let scene = Scene(count: themables ? 0 : views)
    let layers = themables ? BenchLayer.bound(count: views) : []
    scene.window.makeKeyAndVisible()
    for switchIndex in 0..<count {
      DMTraitCollection.setOverride(
        switchIndex.isMultiple(of: 2) ? Benchmarks.dark : Benchmarks.light, animated: false)
    }
    let last = count.isMultiple(of: 2) ? Benchmarks.light : Benchmarks.dark
    let opacity = Theme.opacity.resolved(with: count == 0 ? DMTraitCollection() : last)
    let follows =
      themables
      ? layers.allSatisfy { $0.opacity == opacity } : scene.views.allSatisfy { $0.opacity == opacity }
    print(
      "switched \(count) times over \(themables ? layers.count : scene.views.count) \(themables ? "themable objects" : "views")"
        + (follows ? ", every one follows" : ", and they do not follow")
    )
    if !follows { exit(1) }
    guard ratio else { return }
    Benchmarks.printRatio(views: scene.views, layers: layers, themables: themables)
  }
case .full(let quick):
  MainActor.assumeIsolated { Benchmarks(quick: quick).run() }
}
