extension DMDynamic where Value == DMColor {
  /// A colour looked up in a colour table each time it is resolved, so it follows reloads.
  ///
  /// The column is chosen as ``DMColorTable/color(forKey:traitCollection:)`` chooses it. A key
  /// the table lacks resolves to ``DMColor/magenta``, so that it shows, and is reported once
  /// through the table's ``DMColorTable/missingKeyHandler``.
  ///
  /// The key is looked up once per version of the table's contents, not on every resolve.
  /// Values made for the same key of the same table while one of them lives are one value: objects
  /// of one class bound alike to them share their bindings, and a switch resolves the key once for
  /// each run of objects with the same traits, not once per object.
  ///
  /// ```swift
  /// try DMColorTable.shared.reload(contentsOf: URL(filePath: "Colors.txt"))
  /// view.dm.bind(\.backgroundColor, to: DMDynamicColor(key: "BG"))
  /// ```
  /// - Parameters:
  ///   - key: The key, case-sensitive.
  ///   - table: The table to look in; ``DMColorTable/shared`` by default.
  public init(key: String, in table: DMColorTable = .shared) {
    var alive: [DMDynamic<DMColor>.Storage] = []
    self.init(storage: table.keyValues.withLock { $0.storage(forKey: key, in: table, alive: &alive) })
    // Let go of after the lock (see `KeyValues.storage(forKey:in:alive:)`).
    extendLifetime(alive)
  }
}

extension DMColorTable {
  /// The storages of the values made for a table's keys (see ``DMDynamic/init(key:in:)``), held
  /// weakly: a value lives as long as something holds it, and the table keeps no value alive.
  struct KeyValues {
    private final class Entry {
      weak var storage: DMDynamic<DMColor>.Storage?
    }

    private var entries: [String: Entry] = [:]
    /// How many entries there may be before the ones whose values went are taken out.
    private var pruneLimit = 64

    /// The storage of the value for `key`: the living one, or a new one. The values found alive
    /// while entries are taken out go to `alive`, for the caller to let go of after the lock: the
    /// last reference to one may be dropped meanwhile, and its deinitializer may make a value.
    mutating func storage(
      forKey key: String, in table: DMColorTable, alive: inout [DMDynamic<DMColor>.Storage]
    ) -> DMDynamic<DMColor>.Storage {
      if let storage = entries[key]?.storage { return storage }
      let storage = DMDynamic<DMColor>.Storage(.source, source: ColorTableKeyLookup(key: key, table: table))
      if let entry = entries[key] {
        entry.storage = storage
      } else {
        if entries.count >= pruneLimit { prune(keeping: &alive) }
        let entry = Entry()
        entry.storage = storage
        entries[key] = entry
      }
      return storage
    }

    /// Takes out the entries whose values went; those still alive go to `alive`.
    private mutating func prune(keeping alive: inout [DMDynamic<DMColor>.Storage]) {
      var kept: [String: Entry] = [:]
      for (key, entry) in entries {
        guard let storage = entry.storage else { continue }
        alive.append(storage)
        kept[key] = entry
      }
      entries = kept
      pruneLimit = max(64, entries.count * 2)
    }

    /// How many values the table has an entry for, living or not (for tests).
    var count: Int { entries.count }
  }
}

/// Resolves one key of one table, remembering the key's row for the table version it last saw.
///
/// One lock per resolve: the table's. The remembered row is read and written only while that
/// lock is held, so the common case (same version as last time) hashes nothing and allocates
/// nothing.
@usableFromInline
final class ColorTableKeyLookup: DynamicSource<DMColor>, @unchecked Sendable {
  /// The table version last seen, and the key's row in it (`-1` when missing); only touched inside
  /// `table.withContents`, under the table's lock.
  private var seen: (generation: UInt64, row: Int)?

  let key: String
  let table: DMColorTable

  init(key: String, table: DMColorTable) {
    self.key = key
    self.table = table
    super.init()
  }

  @usableFromInline
  override func resolved(with traits: DMTraitCollection) -> DMColor {
    var isNewlyMissing = false
    var isEmpty = false
    var lackedTheme: DMTheme?
    let color = table.withContents { contents -> DMColor in
      guard !contents.isEmpty else {
        isEmpty = true
        return .magenta
      }
      let row: Int
      if let seen, seen.generation == contents.generation {
        row = seen.row
      } else {
        row = contents.keyIndex[key] ?? -1
        seen = (contents.generation, row)
        isNewlyMissing = row < 0
      }
      guard row >= 0 else { return .magenta }
      return contents.color(row: row, column: contents.column(for: traits, lacked: &lackedTheme))
    }
    // Reports run the app's handler, which may ask the table again: after its lock.
    if isEmpty { table.reportNotLoaded(askedFor: key) }
    if isNewlyMissing { table.reportMissingKey(key) }
    if let lackedTheme { ThemeCatalog.valueLacks(lackedTheme) }
    return color
  }

  /// The cached row for a table version, or `nil` when the cache holds another version; for tests.
  func cachedRow(generation: UInt64) -> Int? {
    table.withContents { _ in seen?.generation == generation ? seen?.row : nil }
  }
}
