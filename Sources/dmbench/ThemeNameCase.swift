import DarkModeKit
import Foundation

extension CustomTraitCases {
  /// Prints the memory a process keeps after loading tables whose headers name themes never seen
  /// before and letting them go, against the same loads whose themes the app reads (and so keeps
  /// for good); returns whether the first keeps under 1 MiB in all.
  ///
  /// The baseline runs first: what it keeps is far more than the freed memory the heap holds for
  /// reuse, which the resident size cannot see into.
  func themeNamesKept() -> Bool {
    let names = 1_000
    let loads = quick ? 200 : 1_000
    let baselineLoads = 100
    var load = 0
    /// A table of one key whose header has `names` new theme names.
    func newTable() -> DMColorTable {
      load += 1
      let header = (0..<names).map { "LOAD\(load)_THEME\($0)" }.joined(separator: " ")
      let row = String(repeating: "#102030 ", count: names) + "BG"
      do {
        return try DMColorTable(string: header + "\n" + row + "\n")
      } catch {
        fatalError("the benchmark's table does not parse: \(error)")
      }
    }
    let baselineBefore = Measure.residentBytes()
    for _ in 0..<baselineLoads { blackHole(newTable().themes) }
    let keptByRead = Measure.residentBytes() - baselineBefore
    // The heap grows to what one load needs before it is measured.
    for _ in 0..<20 { blackHole(newTable()) }
    let before = Measure.residentBytes()
    for _ in 0..<loads { blackHole(newTable()) }
    let kept = Measure.residentBytes() - before
    let met = kept < 1 << 20
    print("   tables of \(names.formatted()) new theme names each, loaded and gone")
    print(
      column("     baseline: \(baselineLoads) whose themes are read", 48) + formatBytes(Double(keptByRead))
        + ", \(formatBytes(Double(keptByRead / baselineLoads))) a table (a theme read is kept for good)")
    print(
      column("     \(loads.formatted()) whose themes are not read", 48) + formatBytes(Double(kept))
        + ", \(formatBytes(Double(kept / loads))) a table")
    print("   target: under 1 MiB kept after \(loads.formatted()) tables: \(met ? "met" : "MISSED")")
    return met
  }
}
