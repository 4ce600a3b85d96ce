import DarkModeKit
import DarkModeKitText
import DarkModeKitTools
import Foundation

/// 8b. Reading design tokens, side by side with Foundation's `JSONSerialization` parsing the same
/// file in this process: the time of each and the memory each takes at its peak, per byte of the
/// file, for a token file, a resolver document, and a token file made mostly of escapes.
@MainActor
struct TokenReadingCase {
  let quick: Bool

  func run() {
    print("8b. Design tokens read into a table, against JSONSerialization parsing the same file")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dmbench-tokens-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let size = quick ? 4 << 20 : 32 << 20
    for (name, text) in [
      ("token file", Self.tokenFile(bytes: size)),
      ("resolver document", Self.resolverDocument(bytes: size)),
      ("token file of escapes", Self.escapes(bytes: size)),
    ] {
      let url = folder.appendingPathComponent("\(name.replacingOccurrences(of: " ", with: "-")).json")
      try! Data(text.utf8).write(to: url)
      let fileSize = Double(text.utf8.count)
      guard let ours = measure(url, foundation: false), let foundation = measure(url, foundation: true) else {
        print("     \(name): the measuring process failed")
        continue
      }
      print("     \(name), \(formatBytes(fileSize))")
      print(
        column("       DarkModeKit", 30) + column(formatDuration(ours.time), 12)
          + String(format: "%5.1f bytes per byte", ours.peak / fileSize))
      print(
        column("       JSONSerialization", 30) + column(formatDuration(foundation.time), 12)
          + String(format: "%5.1f bytes per byte", foundation.peak / fileSize))
      let ratio = ours.time / max(foundation.time, 1e-9)
      let perByte = ours.peak / fileSize
      print(
        String(format: "     time: %.2f× JSONSerialization's", ratio)
          + "; target within \(Self.timeTarget)× and \(Int(Self.memoryTarget)) bytes per byte: "
          + (ratio <= Self.timeTarget && perByte <= Self.memoryTarget ? "met" : "not met"))
    }
    print()
  }

  /// The targets: DarkModeKit's time at most this many times JSONSerialization's, and its peak
  /// memory at most this many bytes per byte of the file.
  static let timeTarget = 1.5
  static let memoryTarget = 4.0

  /// The median time of three reads of the file, each in a process of its own (whose heap holds
  /// nothing freed that the read could reuse), and the most memory one took at its peak above
  /// what the process held before it.
  private func measure(_ url: URL, foundation: Bool) -> (time: Double, peak: Double)? {
    var times: [Double] = []
    var peak = 0.0
    for _ in 0..<3 {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
      process.arguments = ["--read-tokens", url.path, foundation ? "json" : "tokens"]
      let output = Pipe()
      process.standardOutput = output
      guard (try? process.run()) != nil else { return nil }
      let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      let fields = text.split(separator: " ").compactMap {
        Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
      }
      guard process.terminationStatus == 0, fields.count == 2 else { return nil }
      times.append(fields[0])
      peak = max(peak, fields[1])
    }
    return (Timing(samples: times).median, peak)
  }

  /// Reads the file once and prints the seconds it took and the peak memory above what the
  /// process held before (`--read-tokens`); a file that cannot be read is an error, exit status 1.
  static func readOnce(path: String, foundation: Bool) {
    let url = URL(fileURLWithPath: path)
    let before = Measure.residentBytes()
    Measure.resetPeak()
    let start = Measure.now()
    do {
      if foundation {
        blackHole(try JSONSerialization.jsonObject(with: try Data(contentsOf: url), options: []))
      } else {
        blackHole(try DMDesignTokens.table(contentsOf: url, maximumFileSize: 64 << 20))
      }
    } catch {
      FileHandle.standardError.write(Data("dmbench: cannot read \(ShownText.quoted(path)): \(error)\n".utf8))
      exit(1)
    }
    let seconds = Measure.now() - start
    print("\(seconds) \(Measure.peakResidentBytes() - before)")
  }

  /// A token file of about `bytes` bytes: groups of 100 colour tokens, each with a description.
  static func tokenFile(bytes: Int) -> String {
    var text = "{\"color\": {"
    var group = 0
    while text.utf8.count < bytes {
      if group > 0 { text += ", " }
      let tokens = (0..<100).map {
        ##""t\##($0)": {"$type": "color", "$value": "#\##(String(format: "%06x", (group * 100 + $0) & 0xFFFFFF))", "$description": "a colour of group \##(group)"}"##
      }
      text += "\"g\(group)\": {" + tokens.joined(separator: ", ") + "}"
      group += 1
    }
    return text + "}}"
  }

  /// A resolver document of about `bytes` bytes: a set of colours, and a light and a dark context
  /// whose tokens refer to them.
  static func resolverDocument(bytes: Int) -> String {
    let count = bytes / 165
    let colors = (0..<count).map {
      ##""c\##($0)": {"$type": "color", "$value": "#\##(String(format: "%06x", $0 & 0xFFFFFF))"}"##
    }
    func context(_ offset: Int) -> String {
      "[{"
        + (0..<count).map { ##""k\##($0)": {"$type": "color", "$value": "{c\##(($0 + offset) % count)}"}"## }
        .joined(separator: ", ") + "}]"
    }
    return """
      {"version": "2025.10", "sets": {"base": {"sources": [{\(colors.joined(separator: ", "))}]}},
        "modifiers": {"theme": {"contexts": {"light": \(context(0)), "dark": \(context(1))}, "default": "light"}},
        "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/theme"}]}
      """
  }

  /// A token file of about `bytes` bytes made mostly of escapes: each token's description is
  /// 1,000 of them.
  static func escapes(bytes: Int) -> String {
    let description = String(repeating: "\\n\\u0041\\t", count: 100)
    var tokens: [String] = []
    var size = 0
    while size < bytes {
      let token =
        ##""t\##(tokens.count)": {"$type": "color", "$value": "#102030", "$description": "\##(description)"}"##
      size += token.utf8.count + 2
      tokens.append(token)
    }
    return "{" + tokens.joined(separator: ", ") + "}"
  }
}
