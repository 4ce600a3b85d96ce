import DarkModeKit
import Foundation

/// The bundled example tables, read from `Docs/Examples/`.
public enum ExampleTables {
  /// The folder that holds them.
  public static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Docs/Examples").standardizedFileURL

  /// The file of one example, such as `DKColorTable.txt`.
  public static func url(_ name: String) -> URL { folder.appendingPathComponent(name) }

  /// One example, loaded.
  public static func load(_ name: String) throws -> DMColorTable {
    try DMColorTable(contentsOf: url(name))
  }
}

/// Files that tests run or read, kept beside the support code.
public enum TestFixtures {
  /// A stand-in desktop portal in Python, for the portal tests (see its header).
  public static let testPortal = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/test_portal.py").path
  /// A client that sends one large message to another connection (see its header).
  public static let hostilePeer = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/hostile_peer.py").path
  /// Converts colours to sRGB with ColorAide, an implementation of CSS Color 4 of its own (see its
  /// header).
  public static let referenceColors = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/reference_colors.py").path
  /// Where `.ci/install-dependencies` puts ColorAide.
  public static let referencePython = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../.build/reference-python").standardizedFileURL.path
}
