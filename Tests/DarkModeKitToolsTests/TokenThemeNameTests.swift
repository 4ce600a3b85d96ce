import DarkModeKitTools
import Foundation
import Testing

@testable import DarkModeKit

/// Reading a token file keeps none of its theme names once the table it made goes.
@Suite struct TokenThemeNameTests {
  static func uniqueName(_ prefix: String) -> String {
    prefix + "_" + UUID().uuidString.replacingOccurrences(of: "-", with: "_").uppercased()
  }

  /// A group with one colour token, `bg`.
  static func token(_ hex: String) -> String {
    "{\"bg\": {\"$type\": \"color\", \"$value\": \"\(hex)\"}}"
  }

  @Test func aTokenFilesGroupsAndContextsAreNotKeptAfterItsTable() throws {
    let group = Self.uniqueName("GROUP")
    let token = Self.token("#102030")
    var table: DMColorTable? = try DMDesignTokens.table(
      from: "{\"NORMAL\": \(token), \"NIGHT\": \(token), \"\(group):dark\": \(token)}")
    #expect(table?.columnNames == ["NORMAL", "NIGHT", "\(group):dark"])
    #expect(ThemeCatalog.isKept(group))
    table = nil
    #expect(!ThemeCatalog.isKept(group))

    let context = Self.uniqueName("CONTEXT").lowercased()
    let document = """
      {"version": "2025.10",
       "modifiers": {"theme": {"contexts": {"light": [\(Self.token("#ffffff"))],
         "dark-\(context)": [\(Self.token("#000000"))]}, "default": "light"}},
       "resolutionOrder": [{"$ref": "#/modifiers/theme"}]}
      """
    var resolved: DMColorTable? = try DMDesignTokens.table(from: document)
    let theme = context.uppercased()
    #expect(resolved?.columnNames == ["NORMAL", "\(theme):dark"])
    resolved = nil
    #expect(!ThemeCatalog.isKept(theme))
    extendLifetime(table)
    extendLifetime(resolved)
  }
}
