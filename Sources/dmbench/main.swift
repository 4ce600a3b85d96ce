import DarkModeKit
import Foundation

// `swift run -c release dmbench [--quick]`: prints each case's median and spread, the ratios
// against the baselines measured in the same run, and whether each target is met.
//
// `dmbench --switches VIEWS COUNT [--themables]`: only builds a scene of VIEWS bound views (or as
// many bound themable objects) and switches COUNT times, for counting allocations from outside, e.g. with valgrind: the difference between
// COUNT = 10 and COUNT = 0 is what the switches allocate. With `--ratio`, it then prints the median
// switch and the median floor, timed in that process, and their ratio.
//
// `dmbench --memory [--quick]`: only section 7 (the full run starts it as a process of its own).
//
// `dmbench --hierarchy-scale [--quick]`: only section 9, the growth of hierarchy operations; exits 1
// when one grows faster than its input. `dmbench --table-scale [--quick]`: only section 8, the
// growth of colour-table and design-token work, alike.
//
// `dmbench --write-preferences PATH [COUNT]` (for the reliability tests):
// saves two choices in turn to PATH with `DMPreferenceStore`, COUNT times or until killed.
let arguments = CommandLine.arguments
if arguments.count > 2, arguments[1] == "--write-preferences" {
  PreferenceWriter.run(path: arguments[2], count: arguments.count > 3 ? Int(arguments[3]) : nil)
} else if arguments.contains("--memory") {
  MainActor.assumeIsolated { Benchmarks(quick: arguments.contains("--quick")).memoryCases() }
} else if arguments.contains("--hierarchy-scale") || arguments.contains("--table-scale") {
  MainActor.assumeIsolated {
    let benchmarks = Benchmarks(quick: arguments.contains("--quick"))
    let linear =
      arguments.contains("--table-scale")
      ? ScaleCases(quick: benchmarks.quick, runs: benchmarks.runs).run()
      : HierarchyScaleCases(runs: benchmarks.runs).run()
    if !linear {
      print("dmbench: a case grew faster than its input")
      exit(1)
    }
  }
} else if let index = arguments.firstIndex(of: "--switches"), arguments.count > index + 2,
  let views = Int(arguments[index + 1]), let count = Int(arguments[index + 2])
{
  MainActor.assumeIsolated {
    let themables = arguments.contains("--themables")
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
    guard arguments.contains("--ratio") else { return }
    Benchmarks.printRatio(views: scene.views, layers: layers, themables: themables)
  }

} else {
  let quick = arguments.contains("--quick")
  MainActor.assumeIsolated { Benchmarks(quick: quick).run() }
}
