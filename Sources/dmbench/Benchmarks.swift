import DarkModeKit
import Foundation

/// The benchmark cases, each printing its figures against its baseline.
@MainActor
struct Benchmarks {
  let quick: Bool
  var sizes: [Int] { quick ? [1_000, 10_000] : [1_000, 10_000, 100_000] }
  var runs: Int { quick ? 3 : 15 }

  static let light = DMTraitCollection(userInterfaceStyle: .light)
  static let dark = DMTraitCollection(userInterfaceStyle: .dark)

  func run() {
    print(
      "dmbench: DarkModeKit benchmarks\(quick ? " (quick: smaller sizes, fewer runs; figures are not for comparison)" : "")"
    )
    print(
      "machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, \(formatBytes(Double(ProcessInfo.processInfo.physicalMemory))) memory; \(runs) runs per case, median [min–max]\n"
    )
    // The views' memory in a process of its own, whose heap holds nothing freed that new objects
    // could reuse; then the tables' memory, first in this one.
    memoryCasesInAFreshProcess()
    let tableMemoryIsLinear = ScaleCases(quick: quick, runs: runs).memory()
    let views = switchCases()
    let themables = themableCases()
    printRatios(views + themables)
    localCases()
    resolveCases()
    parseCase()
    let hierarchyIsLinear = HierarchyScaleCases(runs: runs).run()
    let customTraits = CustomTraitCases(runs: runs, quick: quick)
    _ = customTraits.switches()
    _ = customTraits.memoryKept()
    _ = customTraits.themeNamesKept()
    // 1,000 changes in the quick run too: the target is about the 99th percentile of as many.
    _ = LatencyCase(changes: 1_000).run()
    if !ScaleCases(quick: quick, runs: runs).run() || !tableMemoryIsLinear || !hierarchyIsLinear {
      print("dmbench: a case grew faster than its input")
      exit(1)
    }
  }

  /// Times 101 switches of `views` (or of `layers`, with `themables`) and the floor in this
  /// process, and prints both medians and their ratio (`--switches … --ratio`).
  static func printRatio(views: [BenchView], layers: [BenchLayer], themables: Bool) {
    let runs = 101
    let ours = Measure.time(runs: runs, prepare: { DMTraitCollection.setOverride(light, animated: false) }) {
      DMTraitCollection.setOverride(dark, animated: false)
    }
    let floor =
      themables
      ? Measure.time(runs: runs) { Baselines.floor(layers, dark) }
      : Measure.time(runs: runs) { Baselines.floor(views, dark) }
    print(
      "switch \(formatDuration(ours.median)), floor \(formatDuration(floor.median)): "
        + String(format: "%.2f× the floor", ours.median / floor.median))
  }

  // MARK: 1, 2: switches, against the baselines

  private func switchCases() -> [SideBySide] {
    print("1. Global light → dark switch; 2. the same with half the views under their own override")
    print("   (each view: two bound table colours, one bound number, a callback that counts)")
    var medians: [String: [Int: Double]] = [:]
    var sideBySide: [SideBySide] = []
    for count in sizes {
      let scene = Scene(count: count)
      scene.window.makeKeyAndVisible()
      let ours = Measure.time(
        runs: runs, prepare: { DMTraitCollection.setOverride(Self.light, animated: false) }
      ) {
        DMTraitCollection.setOverride(Self.dark, animated: false)
      }
      let calls = scene.views.reduce(0) { $0 + $1.changes }
      scene.halves[1].overrideUserInterfaceStyle = .light
      let half = Measure.time(
        runs: runs, prepare: { DMTraitCollection.setOverride(Self.light, animated: false) }
      ) {
        DMTraitCollection.setOverride(Self.dark, animated: false)
      }
      scene.halves[1].overrideUserInterfaceStyle = .unspecified
      let observers = Baselines.observe(scene.views)
      let broadcast = Measure.time(runs: runs, prepare: { Baselines.traits = Self.light }) {
        Baselines.traits = Self.dark
        Baselines.broadcast()
      }
      Baselines.stopObserving(observers)
      let naive = Measure.time(runs: runs) { Baselines.naiveWalk(scene.window, Self.dark) }
      let floor = Measure.time(runs: runs) { Baselines.floor(scene.views, Self.dark) }
      scene.window.isHidden = true
      DMTraitCollection.setOverride(DMTraitCollection(), animated: false)
      medians["switch", default: [:]][count] = ours.median
      medians["half", default: [:]][count] = half.median
      medians["broadcast", default: [:]][count] = broadcast.median
      print("   N = \(count) (\(calls > 0 ? "callbacks delivered" : "no callbacks!"))")
      let measured = SideBySide(kind: "views", count: count, switch: ours, broadcast: broadcast, floor: floor)
      sideBySide.append(measured)
      rows(
        measured,
        others: [
          (
            "half the views overridden", half,
            String(format: "%.2f× the full switch", half.median / ours.median)
          ),
          (
            "naive walk baseline", naive,
            String(format: "DarkModeKit is %.1f× faster", naive.median / ours.median)
          ),
        ])
      if count == 100_000 {
        target("100,000-view switch ≤ 16 ms", ours.median <= 0.016)
        target("≥ 5× faster than broadcast", broadcast.median / ours.median >= 5)
      }
    }
    growth(medians["switch"], "switch")
    growth(medians["half"], "half switch")
    growth(medians["broadcast"], "broadcast")
    print()
    return sideBySide
  }

  // MARK: 1a: themable objects

  /// Objects outside the hierarchy, bound through `DMThemable`, switched as the views are.
  private func themableCases() -> [SideBySide] {
    print("1a. Global light → dark switch of objects bound through DMThemable (outside the hierarchy)")
    print("   (each object: two bound table colours, one bound number)")
    var sideBySide: [SideBySide] = []
    for count in sizes {
      let layers = BenchLayer.bound(count: count)
      let ours = Measure.time(
        runs: runs, prepare: { DMTraitCollection.setOverride(Self.light, animated: false) }
      ) {
        DMTraitCollection.setOverride(Self.dark, animated: false)
      }
      let followed = layers.allSatisfy { $0.opacity == Theme.opacity.resolved(with: Self.dark) }
      DMTraitCollection.setOverride(DMTraitCollection(), animated: false)
      let observers = Baselines.observe(layers)
      let broadcast = Measure.time(runs: runs, prepare: { Baselines.traits = Self.light }) {
        Baselines.traits = Self.dark
        Baselines.broadcast()
      }
      Baselines.stopObserving(observers)
      let floor = Measure.time(runs: runs) { Baselines.floor(layers, Self.dark) }
      let weakLayers = layers.map { Baselines.WeakLayer(layer: $0) }
      let weakFloor = Measure.time(runs: runs) { Baselines.weakFloor(weakLayers, Self.dark) }
      print("   N = \(count) (\(followed ? "every object follows" : "objects do not follow!"))")
      let measured = SideBySide(
        kind: "themables", count: count, switch: ours, broadcast: broadcast, floor: floor)
      sideBySide.append(measured)
      rows(
        measured,
        others: [
          (
            "floor through weak refs", weakFloor,
            String(format: "DarkModeKit costs %.1f× it", ours.median / weakFloor.median)
          )
        ])
      blackHole(layers)
    }
    print()
    return sideBySide
  }

  // MARK: 1b: the ratios

  /// One size of a switch case, with its two baselines.
  struct SideBySide {
    let kind: String
    let count: Int
    let `switch`: Timing
    let broadcast: Timing
    let floor: Timing
  }

  /// Prints the rows of one size: the switch, `others` after it (name, timing, note), the
  /// broadcast baseline and the floor.
  private func rows(_ measured: SideBySide, others: [(String, Timing, String)] = []) {
    let ours = measured.switch
    row("DarkModeKit switch", ours, count: measured.count)
    for (name, timing, note) in others { row(name, timing, count: measured.count, note: note) }
    row(
      "broadcast baseline", measured.broadcast, count: measured.count,
      note: String(format: "DarkModeKit is %.1f× faster", measured.broadcast.median / ours.median))
    row(
      "floor (three plain writes)", measured.floor, count: measured.count,
      note: String(format: "DarkModeKit costs %.1f× the floor", ours.median / measured.floor.median))
  }

  /// The switch against the broadcast baseline and the floor, for views and themable objects.
  private func printRatios(_ rows: [SideBySide]) {
    print("1b. Side by side (medians): the switch against the broadcast baseline and the floor")
    print(
      "     objects      N        switch      broadcast   floor       broadcast ÷ switch   switch ÷ floor")
    for row in rows {
      let speedUp = row.broadcast.median / row.switch.median
      let overFloor = row.switch.median / row.floor.median
      print(
        "     " + column(row.kind, 12) + column(row.count.formatted(), 9)
          + column(formatDuration(row.switch.median), 12)
          + column(formatDuration(row.broadcast.median), 12) + column(formatDuration(row.floor.median), 12)
          + column(String(format: "%.1f×", speedUp), 21) + String(format: "%.1f×", overFloor))
      target(
        "\(row.kind), N = \(row.count.formatted()): ≥ 10× faster than broadcast", speedUp >= 10)
      if row.count >= 10_000 {
        target("\(row.kind), N = \(row.count.formatted()): within 4× of the floor", overFloor <= 4)
      }
    }
    print()
  }

  // MARK: 3, 4: changes that must not grow with N

  func localCases() {
    print("3. No-op change (override set to a value that resolves the same); 4. override on one view")
    print("   with 100 descendants inside the window")
    var noops: [Int: Double] = [:]
    var locals: [Int: Double] = [:]
    let repeats = 200
    for count in sizes {
      let scene = Scene(count: count)
      let subtree = Scene.subtreeOfHundred()
      scene.views[count / 3].addSubview(subtree)
      scene.window.makeKeyAndVisible()
      DMTraitCollection.setOverride(Self.dark, animated: false)
      var same = Self.dark
      same.userInterfaceLevel = .base  // resolves the same as `.dark`
      let noop = Measure.time(runs: runs) {
        for index in 0..<repeats {
          DMTraitCollection.setOverride(index.isMultiple(of: 2) ? same : Self.dark, animated: false)
        }
      }
      let local = Measure.time(runs: runs) {
        for index in 0..<repeats {
          subtree.overrideUserInterfaceStyle = index.isMultiple(of: 2) ? .light : .dark
        }
      }
      scene.window.isHidden = true
      DMTraitCollection.setOverride(DMTraitCollection(), animated: false)
      let perNoop = Timing(samples: noop.samples.map { $0 / Double(repeats) })
      let perLocal = Timing(samples: local.samples.map { $0 / Double(repeats) })
      noops[count] = perNoop.median
      locals[count] = perLocal.median
      print("   N = \(count)")
      row("no-op change", perNoop, count: nil)
      row("one view + 100 descendants", perLocal, count: nil)
    }
    if let big = sizes.last {
      target("no-op change < 50 µs at N = \(big)", (noops[big] ?? 1) < 50e-6)
      target("single-view override < 50 µs at N = \(big)", (locals[big] ?? 1) < 50e-6)
    }
    growth(noops, "no-op")
    growth(locals, "single-view override")
    print()
  }

  // MARK: 5: resolving

  private func resolveCases() {
    print("5. Resolving one dynamic colour (per resolve)")
    let iterations = quick ? 200_000 : 5_000_000
    let traits = [Self.light, Self.dark]
    // Four values of the same kind held in locals, resolved in turn for alternating traits: the
    // cost of a resolve with the value in hand (no array access, no retain), which the optimizer
    // cannot hoist out of the loop because the traits change every iteration.
    func perResolve(_ dynamics: [DMDynamicColor]) -> Timing {
      let (d0, d1, d2, d3) = (dynamics[0], dynamics[1], dynamics[2], dynamics[3])
      let timing = Measure.time(runs: runs) {
        var sum = 0.0
        for index in 0..<(iterations / 4) {
          let current = traits[index & 1]
          sum += d0.resolved(with: current).red + d1.resolved(with: current).green
          sum += d2.resolved(with: current).blue + d3.resolved(with: current).red
        }
        blackHole(sum)
      }
      return Timing(samples: timing.samples.map { $0 / Double(iterations) })
    }
    let tableText =
      "NORMAL NIGHT\n#ffffff #000000 A\n#eeeeee #111111 B\n#dddddd #222222 C\n#cccccc #333333 D\n"
    let table = try! DMColorTable(string: tableText)
    let tableBacked = perResolve(["A", "B", "C", "D"].map { DMDynamicColor(key: $0, in: table) })
    let pair = perResolve(
      (0..<4).map { DMDynamicColor(light: DMColor(white: Double($0) / 4, alpha: 1), dark: .black) })
    let provider = perResolve(
      (0..<4).map { index in
        DMDynamicColor {
          $0.userInterfaceStyle == .dark ? .black : DMColor(white: Double(index) / 4, alpha: 1)
        }
      })
    row("table-backed (key lookup)", tableBacked, count: nil)
    row("light/dark pair", pair, count: nil)
    row("provider closure", provider, count: nil)
    target("table-backed resolve ≤ 20 ns", tableBacked.median <= 20e-9)
    target("pair resolve ≤ 5 ns", pair.median <= 5e-9)
    print()
  }

  // MARK: 6: parsing

  private func parseCase() {
    let keys = quick ? 1_000 : 10_000
    print("6. Parsing a colour table of \(keys) keys × 4 themes")
    var text = "NORMAL NIGHT SEPIA CONTRAST\n"
    for index in 0..<keys {
      let value = index & 0xFFFFFF
      text += String(
        format: "#%06x #%06x #%06x #%06x Key.%d\n", value, value ^ 0xFFFFFF, value / 2, 0xFFFFFF - value / 2,
        index)
    }
    let parse = Measure.time(runs: runs) { blackHole(try! DMColorTable(string: text)) }
    row("parse \(text.utf8.count / 1024) KiB", parse, count: nil)
    if !quick { target("parsing 10,000 × 4 ≤ 10 ms", parse.median <= 0.010) }
    print()
  }

  // MARK: 7: memory

  /// Runs section 7 in a new process of this program (`dmbench --memory`) and prints what it
  /// prints; in this process if that cannot be started.
  private func memoryCasesInAFreshProcess() {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
    process.arguments = ["--memory"] + (quick ? ["--quick"] : [])
    let output = Pipe()
    process.standardOutput = output
    do {
      try process.run()
      let text = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      guard process.terminationStatus == 0 else {
        print("7. Memory: the measuring process failed (status \(process.terminationStatus))\n")
        return
      }
      print(String(decoding: text, as: UTF8.self), terminator: "")
    } catch {
      print("   (the memory cases run in this process: \(error))")
      memoryCases()
    }
  }

  /// Section 7: the memory of views, measured as the resident size's growth.
  func memoryCases() {
    // 100,000 views in the quick run too: at 10,000, one-time costs and the heap's growth steps
    // are a large part of the growth.
    let count = 100_000
    print("7. Memory (resident-size growth over \(count) views)")
    let plainBefore = Measure.residentBytes()
    var plain: [PlainView] = []
    plain.reserveCapacity(count)
    let plainRoot = PlainView()
    for _ in 0..<count {
      let view = PlainView()
      view.superview = plainRoot
      plain.append(view)
    }
    let plainBytes = Double(Measure.residentBytes() - plainBefore) / Double(count)
    let unboundBefore = Measure.residentBytes()
    let unbound = Scene(count: count, binds: false)
    let unboundBytes = Double(Measure.residentBytes() - unboundBefore) / Double(count)
    let boundBefore = Measure.residentBytes()
    let bound = Scene(count: count, binds: true)
    let boundBytes = Double(Measure.residentBytes() - boundBefore) / Double(count)
    let hiddenBytes = Measure.residentBytes()
    bound.window.makeKeyAndVisible()
    let orderBytes = Double(Measure.residentBytes() - hiddenBytes) / Double(count)
    Measure.resetPeak()
    let beforeSwitch = Measure.residentBytes()
    DMTraitCollection.setOverride(Self.dark, animated: false)
    let peak = Double(Measure.peakResidentBytes() - beforeSwitch)
    bound.window.isHidden = true
    DMTraitCollection.setOverride(DMTraitCollection(), animated: false)
    print("   plain object with the same fields, no theming: \(formatBytes(plainBytes)) per view")
    print("   DMView, no bindings:                           \(formatBytes(unboundBytes)) per view")
    print("   DMView, three bindings:                        \(formatBytes(boundBytes)) per view")
    let theming = boundBytes - plainBytes
    print("   theming state (three bindings − plain):        \(formatBytes(theming)) per view")
    print("   shown: the window's walk order and the rest:   \(formatBytes(orderBytes)) per view")
    print("   theming state and the walk order:              \(formatBytes(theming + orderBytes)) per view")
    print("   peak growth during a \(count)-view switch:       \(formatBytes(max(peak, 0)))")
    target(
      "≤ 128 bytes of theming state per view with three bindings, the walk order included",
      theming + orderBytes <= 128)
    blackHole((plain, unbound, bound))
    print()
  }

  // MARK: Printing

  private func row(_ name: String, _ timing: Timing, count: Int?, note: String = "") {
    let label = name.padding(toLength: 28, withPad: " ", startingAt: 0)
    let median = formatDuration(timing.median).padding(toLength: 10, withPad: " ", startingAt: 0)
    let spread = "[\(formatDuration(timing.minimum))–\(formatDuration(timing.maximum))]"
      .padding(toLength: 24, withPad: " ", startingAt: 0)
    let perView = count.map { "  " + formatDuration(timing.median / Double($0)) + "/view" } ?? ""
    print("     \(label) \(median) \(spread)\(perView)\(note.isEmpty ? "" : "   " + note)")
  }

  private func growth(_ medians: [Int: Double]?, _ name: String) {
    guard let medians, let small = medians[10_000], let big = medians[100_000] else { return }
    print(String(format: "   growth 10,000 → 100,000 views, %@: %.1f× (10× is linear)", name, big / small))
  }

  private func target(_ name: String, _ met: Bool) {
    guard !quick else { return }
    print("   target: \(name): \(met ? "met" : "MISSED")")
  }
}
