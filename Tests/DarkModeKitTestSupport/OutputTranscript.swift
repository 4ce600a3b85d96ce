/// Everything a child wrote to its terminal, read as the test needs it: texts are looked for in
/// order, each after the last one found, however the child's writes interleave (queries and
/// redraws, lines and queries) and however they were cut into reads.
public final class OutputTranscript {
  private let process: ChildProcess
  private var text = ""
  private var checked: String.Index

  /// A transcript of `process`'s standard output, which must be captured.
  public init(_ process: ChildProcess) {
    self.process = process
    checked = text.startIndex
  }

  /// Waits until `needle` comes after the last text found (or, `anywhere`, anywhere in the
  /// output, without moving on), reading more for at most `seconds` each time; returns whether it
  /// came. The default is generous: under a sanitizer, with the whole suite running on two cores,
  /// a program that answers at once here may take many seconds.
  public func read(until needle: String, anywhere: Bool = false, seconds: Double = 30) -> Bool {
    while true {
      if let range = text.range(of: needle, range: (anywhere ? text.startIndex : checked)..<text.endIndex) {
        if !anywhere { checked = range.upperBound }
        return true
      }
      let offset = text.distance(from: text.startIndex, to: checked)
      guard let more = process.readOutput(until: needle, seconds: seconds) else { return false }
      text += more
      checked = text.index(text.startIndex, offsetBy: offset)
    }
  }

  /// What was read so far, for a failure's message.
  public var all: String { text }
}
