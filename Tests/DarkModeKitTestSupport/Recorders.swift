import DarkModeKit
import Foundation

/// A fresh folder under the system's temporary folder, removed by `remove()`.
public struct TemporaryFolder: Sendable {
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
///
/// Reports of undeclared themes are left out unless asked for: tests that run alongside choose
/// themes nothing declares on purpose, to check the fallback, and each such name is reported once
/// per process, into whichever recorder is installed then.
public final class DiagnosticsRecorder: Sendable {
  private let reports = Locked<[DMDiagnostic]>([])
  private let includesUnknownThemes: Bool

  /// A recorder that records nothing until installed.
  /// - Parameter includingUnknownThemes: Whether reports of undeclared themes are recorded too.
  public init(includingUnknownThemes: Bool = false) {
    includesUnknownThemes = includingUnknownThemes
  }

  /// The reports received, in order.
  public var all: [DMDiagnostic] { reports.withLock { $0 } }

  /// Makes this recorder the `DMDiagnostics` handler.
  public func install() {
    DMDiagnostics.setHandler { [reports, includesUnknownThemes] diagnostic in
      guard includesUnknownThemes || diagnostic.kind != .unknownTheme else { return }
      reports.withLock { $0.append(diagnostic) }
    }
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
