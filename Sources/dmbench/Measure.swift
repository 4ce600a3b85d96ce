import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Repeated timings of one case: median and spread.
struct Timing {
  var samples: [Double]  // seconds

  var median: Double {
    let sorted = samples.sorted()
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
  }

  var minimum: Double { samples.min() ?? 0 }
  var maximum: Double { samples.max() ?? 0 }
}

enum Measure {
  /// Seconds on the monotonic clock.
  static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// Times `body` `runs` times, after one untimed warm-up run; `prepare` runs before each, untimed.
  static func time(runs: Int, prepare: () -> Void = {}, _ body: () -> Void) -> Timing {
    prepare()
    body()
    var samples: [Double] = []
    for _ in 0..<runs {
      prepare()
      let start = now()
      body()
      samples.append(now() - start)
    }
    return Timing(samples: samples)
  }

  /// The resident set size, in bytes.
  static func residentBytes() -> Int {
    guard let text = try? readProc("/proc/self/statm") else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }

  /// The peak resident set size since the last ``resetPeak()``, in bytes (`VmHWM`).
  static func peakResidentBytes() -> Int {
    guard let text = try? readProc("/proc/self/status"),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return 0 }
    let digits = line.filter(\.isNumber)
    return (Int(String(digits)) ?? 0) * 1024
  }

  /// Resets the peak resident size to the current one (Linux: `5` into `/proc/self/clear_refs`).
  static func resetPeak() {
    let fd = open("/proc/self/clear_refs", O_WRONLY)
    guard fd >= 0 else { return }
    _ = "5".withCString { write(fd, $0, 1) }
    close(fd)
  }

  private static func readProc(_ path: String) throws -> String {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(fd, &buffer, buffer.count)
      guard count > 0 else { break }
      bytes.append(contentsOf: buffer[0..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// Keeps a value from being optimized away.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// `text` padded with spaces to `width` characters, for a column; a longer text is kept whole and
/// followed by one space, so that it never runs into the next column.
func column(_ text: String, _ width: Int) -> String {
  text.padding(toLength: max(width, text.count + 1), withPad: " ", startingAt: 0)
}

/// Formats seconds with a unit that fits: ns, µs, ms or s.
func formatDuration(_ seconds: Double) -> String {
  switch seconds {
  case ..<1e-6: return String(format: "%.1f ns", seconds * 1e9)
  case ..<1e-3: return String(format: "%.1f µs", seconds * 1e6)
  case ..<1: return String(format: "%.2f ms", seconds * 1e3)
  default: return String(format: "%.2f s", seconds)
  }
}

func formatBytes(_ bytes: Double) -> String {
  bytes >= 1_048_576 ? String(format: "%.1f MiB", bytes / 1_048_576) : String(format: "%.0f B", bytes)
}
