extension DMDynamic where Value == DMColor {
  /// A colour looked up in a colour table each time it is resolved, so it follows reloads.
  ///
  /// The column is chosen as ``DMColorTable/color(forKey:traitCollection:)`` chooses it. A key
  /// the table lacks resolves to ``DMColor/magenta``, so that it shows, and is reported once
  /// through the table's ``DMColorTable/missingKeyHandler``.
  ///
  /// The key is looked up once per version of the table's contents, not on every resolve.
  ///
  /// ```swift
  /// try DMColorTable.shared.reload(contentsOf: URL(filePath: "Colors.txt"))
  /// view.dm.bind(\.backgroundColor, to: DMDynamicColor(key: "BG"))
  /// ```
  /// - Parameters:
  ///   - key: The key, case-sensitive.
  ///   - table: The table to look in; ``DMColorTable/shared`` by default.
  public init(key: String, in table: DMColorTable = .shared) {
    let lookup = ColorTableKeyLookup(key: key, table: table)
    self.init(dynamicProvider: { lookup.resolved(with: $0) })
  }
}

/// Resolves one key of one table, remembering the key's row for the table version it last saw.
final class ColorTableKeyLookup: Sendable {
  /// The row of the key in one version of the table's contents; `-1` when the key is missing.
  private struct Cache {
    var generation: UInt64?
    var row = -1
  }

  let key: String
  let table: DMColorTable
  private let cache = Locked(Cache())

  init(key: String, table: DMColorTable) {
    self.key = key
    self.table = table
  }

  func resolved(with traits: DMTraitCollection) -> DMColor {
    let contents = table.contents
    let generation = contents.generation
    let (row, isFirstLookup): (Int, Bool) = cache.withLock { cache in
      if cache.generation == generation { return (cache.row, false) }
      let row = contents.keyIndex[key] ?? -1
      // A reader still holding an older version must not replace a newer entry.
      if cache.generation.map({ $0 < generation }) ?? true {
        cache = Cache(generation: generation, row: row)
      }
      return (row, true)
    }
    guard row >= 0 else {
      if isFirstLookup, !contents.isEmpty { table.reportMissingKey(key) }
      return .magenta
    }
    return contents.color(row: row, column: contents.column(for: traits))
  }

  /// The cached row for a table version, or `nil` when the cache holds another version; for tests.
  func cachedRow(generation: UInt64) -> Int? {
    cache.withLock { $0.generation == generation ? $0.row : nil }
  }
}
