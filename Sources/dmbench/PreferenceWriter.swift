import DarkModeKit
import Foundation

/// Saves two choices in turn with the library's store, as fast as it can, for the tests that kill
/// a writer half-way or run two at once. Not a benchmark, and not listed with the benchmarks.
enum PreferenceWriter {
  /// The two choices a writer alternates, the first one first.
  /// The tests expect these exact two.
  static let choices: [DMTraitCollection] = {
    var first = DMTraitCollection(userInterfaceStyle: .dark)
    first.accessibilityContrast = .high
    first.theme = "RED"
    return [first, DMTraitCollection(userInterfaceStyle: .light)]
  }()

  /// Saves `count` times (forever when `nil`), printing `ready` after the first save. On an error,
  /// prints `error: <description>` and ends with status 1.
  static func run(path: String, count: Int?) -> Never {
    let store = DMPreferenceStore(fileURL: URL(fileURLWithPath: path))
    var index = 0
    while count.map({ index < $0 }) ?? true {
      do {
        try store.save(choices[index % 2])
      } catch {
        print("error: \(error)")
        exit(1)
      }
      if index == 0 {
        print("ready")
        fflush(nil)
      }
      index += 1
    }
    print("saved \(index) times")
    exit(0)
  }
}
