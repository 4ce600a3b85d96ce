import DarkModeKit
import Foundation

/// A fresh folder under the system's temporary folder, removed by `remove()`.
public struct TemporaryFolder {
  /// The folder.
  public let url: URL

  /// Makes a new, empty folder.
  public init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("dmkit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// A file in the folder (not created).
  public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

  /// Removes the folder and everything in it.
  public func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Collects the reports sent to `DMDiagnostics` while installed.
public final class DiagnosticsRecorder: Sendable {
  private let reports = Locked<[DMDiagnostic]>([])

  /// A recorder that records nothing until installed.
  public init() {}

  /// The reports received, in order.
  public var all: [DMDiagnostic] { reports.withLock { $0 } }

  /// Makes this recorder the `DMDiagnostics` handler.
  public func install() {
    DMDiagnostics.setHandler { [reports] diagnostic in reports.withLock { $0.append(diagnostic) } }
  }

  /// Puts back the default handler.
  public func uninstall() { DMDiagnostics.setHandler(nil) }
}

/// A view that counts its trait-change calls.
@MainActor
public final class CountingView: DMView {
  /// How many times `dmTraitCollectionDidChange` ran.
  public var calls = 0

  public override init() {}

  public override func dmTraitCollectionDidChange(_ previousTraitCollection: DMTraitCollection?) {
    calls += 1
  }
}
