import DarkModeKit
import Foundation

/// The error of ``DarkModeKit/DMColorTable/exported(as:options:maximumSize:)`` when an export
/// comes to more bytes than it may.
///
/// The export stops writing as soon as it has passed the limit: nothing of it is returned, and
/// it never holds more than a few times the limit in memory.
public struct DMColorTableExportSizeError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The format that was being written.
  public var format: DMColorTableExportFormat

  /// The most bytes (of UTF-8) the export could take.
  public var maximumSize: Int

  /// Creates the error of an export as `format` that passed `maximumSize` bytes.
  /// - Parameters:
  ///   - format: The format that was being written.
  ///   - maximumSize: The most bytes the export could take.
  public init(format: DMColorTableExportFormat, maximumSize: Int) {
    self.format = format
    self.maximumSize = maximumSize
  }

  /// Such as `the gtk export of this table comes to more than 134217728 bytes`.
  public var description: String {
    "the \(format.rawValue) export of this table comes to more than \(maximumSize) bytes"
  }
}

extension DMColorTableExportSizeError: LocalizedError {
  /// The same as ``description``.
  public var errorDescription: String? { description }
}

/// The bytes an export has written, against its limit: each piece of the output is counted once
/// as it is made, so that an export too big for its limit stops early, before it holds much more
/// than the limit in memory.
final class ExportBudget {
  let format: DMColorTableExportFormat
  let limit: Int
  private(set) var used = 0

  init(format: DMColorTableExportFormat, limit: Int) {
    self.format = format
    self.limit = limit
  }

  /// An export without a limit.
  static func unlimited(_ format: DMColorTableExportFormat) -> ExportBudget {
    ExportBudget(format: format, limit: .max)
  }

  var error: DMColorTableExportSizeError { DMColorTableExportSizeError(format: format, maximumSize: limit) }

  /// Counts `count` more bytes of the output, at most what the output will have for them.
  func spend(_ count: Int) throws(DMColorTableExportSizeError) {
    used = used > limit - count ? limit &+ 1 : used + count
    guard used <= limit else { throw error }
  }

  /// Appends `piece` to `text` and counts it.
  func append(_ piece: String, to text: inout String) throws(DMColorTableExportSizeError) {
    try spend(piece.utf8.count)
    text += piece
  }

  /// The finished output, checked by its real size.
  func finished(_ text: String) throws(DMColorTableExportSizeError) -> String {
    guard text.utf8.count <= limit else { throw error }
    return text
  }
}
