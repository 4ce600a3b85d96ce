import DarkModeKitText
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Android)
  import Android
#endif

/// A colour table: named themes in columns, keyed colours in rows, as in DKNightVersion's
/// `DKColorTable.txt`.
///
/// ```text
/// // comment lines start with //
/// NORMAL   NIGHT    RED
/// #ffffff  #343434  #fafafa  BG
/// #aaaaaa  #313131  #aaaaaa  SEP
/// ```
///
/// ```swift
/// let table = try DMColorTable(contentsOf: URL(filePath: "Colors.txt"))
/// print(table.color(forKey: "BG", theme: .night)!)  // #343434
/// view.dm.bind(\.backgroundColor, to: DMDynamicColor(key: "BG", in: table))
/// ```
///
/// A table is safe to use from any thread. ``reload(contentsOf:maximumFileSize:)`` replaces all of its contents
/// at once: a reader on another thread sees either the old or the new table, never a mix, and a
/// file with an error leaves the old contents in place. The format and every error message are
/// described in `Docs/ColorTableFormat.md`.
public final class DMColorTable: Sendable {
  /// One immutable version of a table's contents; a reload publishes a new one. The export and
  /// preview in `DarkModeKitTools` read it.
  package final class Contents: Sendable {
    /// Increases with each version a table publishes; `0` for the empty table.
    let generation: UInt64
    /// The columns, in header order. Their themes' names are held while these contents live (see
    /// `ThemeCatalog.lease(_:)`): a reader that keeps a theme beyond them pins it first, as the
    /// table's public properties do.
    package let variants: [DMThemeVariant]
    /// The distinct themes, in the order they first appear in the header.
    package var themes: [DMTheme] { index.themes }
    package let keys: [String]
    let keyIndex: [String: Int]
    /// The line that defines each key.
    let keyLines: [Int]
    /// Row by row: the colour of row `r` in column `c` is at `r * variants.count + c`.
    let colors: [DMColor]
    /// Which column applies to a trait collection.
    let index: VariantIndex
    /// The colour each cell was written in, where it came from a space wider than sRGB.
    package let origins: [Int: DMColorOrigin]

    init(_ parsed: ParsedColorTable, generation: UInt64) {
      self.generation = generation
      variants = ThemeCatalog.lease(parsed.columns)
      keys = parsed.keys
      keyIndex = parsed.keyIndex
      keyLines = parsed.keyLines
      colors = parsed.colors
      index = VariantIndex(variants, defaultsInOrder: true)
      origins = parsed.origins
    }

    deinit {
      ThemeCatalog.release(variants)
    }

    /// The colour the cell was written in, where it came from a space wider than sRGB.
    package func origin(row: Int, column: Int) -> DMColorOrigin? {
      origins.isEmpty ? nil : origins[row &* variants.count &+ column]
    }

    /// The column of a variant, or `nil` when the table does not have it.
    package func column(of variant: DMThemeVariant) -> Int? {
      index.position(of: variant)
    }

    /// The first column of a theme, or `nil` when the table does not have the theme.
    package func firstColumn(of theme: DMTheme) -> Int? {
      index.firstPosition(of: theme)
    }

    /// The sides the table has columns for, of one theme.
    package func sides(of theme: DMTheme) -> DMTheme.Sides {
      index.sides(of: theme)
    }

    /// The theme whose column the default theme shows on one side: `NORMAL` or the first light
    /// column's; `NIGHT`, `DARK` or the first dark column's; `nil` when the table has no column of
    /// that side.
    package func defaultTheme(for side: DMUserInterfaceStyle) -> DMTheme? {
      let slot = side == .dark ? index.defaultDarkSlot : index.defaultLightSlot
      return slot >= 0 ? index.themes[slot] : nil
    }

    /// Whether the table was never loaded (it has no header).
    var isEmpty: Bool { variants.isEmpty }

    /// The column for a trait collection, as ``VariantIndex`` picks it; a table that has no column
    /// for the style's side at all shows the default theme's other side, else its first column.
    @inline(__always)
    package func column(for traits: DMTraitCollection) -> Int {
      index.position(for: traits) ?? index.otherSidePosition(for: traits) ?? 0
    }

    /// ``column(for:)`` for a caller that holds the table's lock: a chosen theme the table lacks
    /// goes to `lacked`, to be checked with `ThemeCatalog.valueLacks(_:)` after the lock.
    @inline(__always)
    func column(for traits: DMTraitCollection, lacked: inout DMTheme?) -> Int {
      index.position(for: traits, lacked: &lacked) ?? index.otherSidePosition(for: traits) ?? 0
    }

    /// The colour of a row in a column; both must exist.
    @inline(__always)
    package func color(row: Int, column: Int) -> DMColor {
      colors[row &* variants.count &+ column]
    }
  }

  /// The missing-key hook and the keys already reported.
  private struct Diagnostics {
    var handler: (@Sendable (String) -> Void)?
    var reported: Set<String> = []
    /// Whether a key was asked for while the table was empty (see `reportNotLoaded(askedFor:)`).
    var reportedEmpty = false
  }

  private let state: Locked<Contents>
  private let diagnostics = Locked(Diagnostics())
  /// The values made with ``DMDynamic/init(key:in:)`` for this table and still alive, by key.
  let keyValues = Locked(KeyValues())

  /// The app's table, used by ``DMDynamic/init(key:in:)`` when no table is given.
  ///
  /// It is empty until something loads it, with ``reload(contentsOf:maximumFileSize:)`` or through
  /// `DarkModeManager`.
  public static let shared = DMColorTable()

  /// Posted on `NotificationCenter.default`, on the main actor, after a reload replaced a table's
  /// contents and every bound property was set again; the notification's `object` is the table.
  ///
  /// An observer reads the new colours from bound properties. Values made with
  /// ``DMDynamic/init(key:in:)`` that the app resolves itself pick up the new colours the next time
  /// they are resolved; observe this notification to resolve them again. Several reloads of one
  /// table from other threads that come in before the main actor gets to them are posted once.
  public static let didReloadNotification = Notification.Name("DMColorTableDidReloadNotification")

  /// Creates an empty table, with no themes and no keys, to be loaded later with
  /// ``reload(contentsOf:maximumFileSize:)`` or ``reload(string:)``.
  public init() {
    state = Locked(Contents(ParsedColorTable(), generation: 0))
  }

  /// A table of `parsed`, whose columns declare their sides while the table has them.
  private init(_ parsed: ParsedColorTable) {
    let contents = Contents(parsed, generation: 1)
    state = Locked(contents)
    ThemeCatalog.tableColumnsDidChange(from: [], to: contents.variants)?()
  }

  deinit {
    // The pass for the sides that go runs after this deinitializer, never inside it: the app's
    // callbacks must not run while an object that held the table is being freed.
    if let listener = ThemeCatalog.tableColumnsDidChange(from: state.withLock { $0.variants }, to: []) {
      Task { @MainActor in listener() }
    }
  }

  /// Parses a table from text.
  ///
  /// ```swift
  /// let table = try DMColorTable(string: """
  ///   NORMAL  NIGHT
  ///   #ffffff #343434 BG
  ///   """)
  /// ```
  /// - Parameter string: The table in the colour-table format.
  /// - Throws: ``DMColorTableError`` with the line, column and text of the first problem.
  public convenience init(string: String) throws(DMColorTableError) {
    self.init(try ColorTableParser.parse(Array(string.utf8), validatesUTF8: false))
  }

  /// A table of the columns `columns` and the rows `keys`, the colour of the key at `k` in the
  /// column at `c` at `k * columns.count + c`: for readers of other formats (design tokens) that
  /// have checked what the text format's parser checks (the variants distinct, each key valid and
  /// named once), and rounded each colour as a table's text writes it. A key's line is its row's in
  /// the table's text (`k + 2`).
  /// `origins` are the colours cells were written in, where they came from a wider space than sRGB,
  /// by their index in `colors`.
  package convenience init(
    columns: [ThemeColumn], keys: [String], colors: [DMColor], origins: [Int: DMColorOrigin] = [:]
  ) {
    precondition(colors.count == keys.count * columns.count, "a colour for each key in each column")
    var parsed = ParsedColorTable()
    parsed.columns = columns
    parsed.keys = keys
    parsed.colors = colors
    parsed.origins = origins
    parsed.keyIndex.reserveCapacity(keys.count)
    for (index, key) in keys.enumerated() { parsed.keyIndex[key] = index }
    parsed.keyLines = Array(2..<(keys.count + 2))
    self.init(parsed)
  }

  /// Reads a table from a UTF-8 file.
  /// - Parameters:
  ///   - url: A file URL of a regular file.
  ///   - maximumFileSize: The largest file to read, in bytes; ``defaultMaximumFileSize`` (64 MiB,
  ///     about 1.5 million keys in three themes) unless given.
  /// - Throws: ``DMColorTableError``: ``DMColorTableError/Kind/unreadableFile`` when the file
  ///   cannot be read, is not a regular file (a directory, a FIFO, a device) or is larger than
  ///   `maximumFileSize`, ``DMColorTableError/Kind/notUTF8`` when it is not UTF-8 text, or the
  ///   first problem in its contents; the error's ``DMColorTableError/path`` is the file's path.
  public convenience init(contentsOf url: URL, maximumFileSize: Int = defaultMaximumFileSize)
    throws(DMColorTableError)
  {
    self.init(try Self.parseFile(at: url, maximumFileSize: maximumFileSize))
  }

  /// The largest colour-table file read unless the caller says otherwise: 64 MiB.
  public static let defaultMaximumFileSize = 64 << 20

  // MARK: - Reading

  /// The themes, in the order the header first names them; empty until the table is loaded.
  ///
  /// A theme with several columns (`SOLARIZED:light SOLARIZED:dark`) is listed once. The process
  /// keeps the name of a theme once it is read here, as it keeps every ``DMTheme``'s.
  public var themes: [DMTheme] {
    // Pinned while the contents that hold the names live.
    let contents = contents
    defer { extendLifetime(contents) }
    ThemeCatalog.pin(contents.themes)
    return contents.themes
  }

  /// The columns, in the order of the header: which side, in which contrast, of which theme each
  /// one is; empty until the table is loaded. The process keeps the names of themes read here.
  public var variants: [DMThemeVariant] {
    let contents = contents
    defer { extendLifetime(contents) }
    ThemeCatalog.pin(contents.variants.lazy.map(\.theme))
    return contents.variants
  }

  /// The keys, in file order; empty until the table is loaded.
  public var keys: [String] { contents.keys }

  /// The colour of a key in a theme's first column.
  ///
  /// For a theme with one column, as in a DKNightVersion table, that is the theme's column; use
  /// ``color(forKey:variant:)`` to read one side or contrast of a theme that has several.
  /// - Parameters:
  ///   - key: The key, case-sensitive.
  ///   - theme: The theme.
  /// - Returns: The colour, or `nil` when the table has no such key or no such theme.
  public func color(forKey key: String, theme: DMTheme) -> DMColor? {
    let contents = contents
    guard let row = contents.keyIndex[key], let column = contents.firstColumn(of: theme) else {
      return nil
    }
    return contents.color(row: row, column: column)
  }

  /// The colour of a key in one column.
  /// - Parameters:
  ///   - key: The key, case-sensitive.
  ///   - variant: The column, such as `"SOLARIZED:dark"`.
  /// - Returns: The colour, or `nil` when the table has no such key or no such column.
  public func color(forKey key: String, variant: DMThemeVariant) -> DMColor? {
    let contents = contents
    guard let row = contents.keyIndex[key], let column = contents.column(of: variant) else { return nil }
    return contents.color(row: row, column: column)
  }

  /// The column a trait collection's colours come from.
  ///
  /// The collection's theme on the side of its style, in high contrast when it asks for it and the
  /// table has that column; else the same side of the default theme: `NORMAL` (without it, the
  /// first light column) for the light side, `NIGHT` (else `DARK`, else the first dark column)
  /// for the dark side. A table with no column at all for the style's side gives the other side's,
  /// which `dmkit lint` warns about. ``DMDynamic/init(variants:fallback:)`` and
  /// ``DMDynamicImage`` choose by the same rule; <doc:ThemesAndSides> has the whole story.
  /// - Parameter traitCollection: The traits that choose the column; pass a resolved collection
  ///   (an environment's, or ``DMTraitCollection/current``), whose style already agrees with its
  ///   theme.
  /// - Returns: The column, or `nil` while the table is empty.
  public func variant(for traitCollection: DMTraitCollection) -> DMThemeVariant? {
    let contents = contents
    defer { extendLifetime(contents) }
    guard !contents.isEmpty else { return nil }
    let variant = contents.variants[contents.column(for: traitCollection)]
    ThemeCatalog.pin(CollectionOfOne(variant.theme))
    return variant
  }

  /// The theme of the column a trait collection's colours come from (see ``variant(for:)``).
  /// - Parameter traitCollection: The traits that choose the column.
  /// - Returns: The column's theme, or `nil` while the table is empty.
  public func theme(for traitCollection: DMTraitCollection) -> DMTheme? {
    variant(for: traitCollection)?.theme
  }

  /// The colour of a key for a trait collection, from the column ``variant(for:)`` chooses.
  /// - Parameters:
  ///   - key: The key, case-sensitive.
  ///   - traitCollection: The traits that choose the column.
  /// - Returns: The colour, or `nil` when the table has no such key.
  public func color(forKey key: String, traitCollection: DMTraitCollection) -> DMColor? {
    let contents = contents
    guard let row = contents.keyIndex[key] else { return nil }
    return contents.color(row: row, column: contents.column(for: traitCollection))
  }

  /// The current contents; a reader keeps using the version it got, whatever reloads meanwhile.
  package var contents: Contents {
    state.withLock { $0 }
  }

  /// Runs `body` with the current contents while holding the table's lock, so that a reload waits.
  @inline(__always)
  func withContents<R>(_ body: (Contents) -> R) -> R {
    state.withLock { body($0) }
  }

  /// The 1-based line of the loaded file or text that defines a key.
  /// - Parameter key: The key, case-sensitive.
  /// - Returns: The line, or `nil` when the table does not have the key.
  public func line(ofKey key: String) -> Int? {
    let contents = contents
    return contents.keyIndex[key].map { contents.keyLines[$0] }
  }

  // MARK: - Linting

  /// Every problem in a colour-table file, not only the first: a bad row is reported and the check
  /// goes on with the next one.
  ///
  /// A problem that leaves nothing to check further (no header, a bad header, text that is not
  /// UTF-8, a file that cannot be read) ends the list. After `limit` problems the list ends with
  /// one ``DMColorTableError/Kind/moreProblems`` entry that counts the rest, so that a report
  /// stays short however broken the file is.
  /// - Parameters:
  ///   - url: A file URL of a regular file.
  ///   - limit: The most problems to list; ``defaultLintLimit`` (100) unless given.
  ///   - maximumFileSize: The largest file to read, in bytes (see ``init(contentsOf:maximumFileSize:)``).
  /// - Returns: The problems, in file order, each with the file's path; empty for a valid table.
  public static func lint(
    contentsOf url: URL, limit: Int = defaultLintLimit, maximumFileSize: Int = defaultMaximumFileSize
  ) -> [DMColorTableError] {
    var problems: [DMColorTableError] = []
    lint(contentsOf: url, limit: limit, maximumFileSize: maximumFileSize) { problems.append($0) }
    return problems
  }

  /// Reports every problem in a colour-table file as it is found, as ``lint(contentsOf:limit:maximumFileSize:)``
  /// lists them, without keeping them.
  /// - Parameters:
  ///   - url: A file URL of a regular file.
  ///   - limit: The most problems to report before the one that counts the rest.
  ///   - maximumFileSize: The largest file to read, in bytes.
  ///   - report: Called with each problem, in file order.
  /// - Returns: How many problems the file has in all; `0` for a valid table.
  @discardableResult
  public static func lint(
    contentsOf url: URL, limit: Int = defaultLintLimit, maximumFileSize: Int = defaultMaximumFileSize,
    reporting report: (DMColorTableError) -> Void
  ) -> Int {
    let bytes: [UInt8]
    let path: String
    do {
      (bytes, path) = try readFile(at: url, maximumFileSize: maximumFileSize)
    } catch {
      report(error)
      return 1
    }
    return lint(bytes, validatesUTF8: true, path: path, limit: limit, report)
  }

  /// Every problem in a colour table given as text; see ``lint(contentsOf:limit:maximumFileSize:)``.
  /// - Parameters:
  ///   - string: The table in the colour-table format.
  ///   - limit: The most problems to list before the one that counts the rest.
  /// - Returns: The problems, in order; empty for a valid table.
  public static func lint(string: String, limit: Int = defaultLintLimit) -> [DMColorTableError] {
    var problems: [DMColorTableError] = []
    lint(Array(string.utf8), validatesUTF8: false, path: nil, limit: limit) { problems.append($0) }
    return problems
  }

  /// The most problems a lint lists unless the caller says otherwise: 100.
  public static let defaultLintLimit = 100

  @discardableResult
  private static func lint(
    _ bytes: [UInt8], validatesUTF8: Bool, path: String?, limit: Int, _ report: (DMColorTableError) -> Void
  ) -> Int {
    var count = 0
    withoutActuallyEscaping(report) { report in
      ColorTableParser.lint(bytes, validatesUTF8: validatesUTF8) { problem in
        count += 1
        if count <= limit { report(problem.withPath(path)) }
      }
    }
    if count > limit {
      let more = count - limit
      report(
        DMColorTableError(
          kind: .moreProblems, line: 0, column: 0, token: "",
          message: "\(more) more \(more == 1 ? "problem" : "problems") not shown; \(count) in all", path: path
        ))
    }
    return count
  }

  // MARK: - Reloading

  /// Replaces the table's contents with a file's, all at once.
  ///
  /// The file is read and parsed before anything changes; on success the new contents replace the
  /// old in one step, so readers on other threads see either version but never a mix. Then every
  /// bound property in visible windows and of themable objects is set again, the window handler
  /// (``DMConfiguration/windowThemeChangeHandler``) is called for each visible window,
  /// and ``didReloadNotification`` is posted:
  ///
  /// - on the main actor, before this method returns (or, when called from a trait-change
  ///   callback, binding or handler, right after the running pass);
  /// - from another thread, on the main actor as soon as it runs.
  /// - Parameters:
  ///   - url: A file URL of a regular file.
  ///   - maximumFileSize: The largest file to read, in bytes (see ``init(contentsOf:maximumFileSize:)``).
  /// - Throws: ``DMColorTableError`` as ``init(contentsOf:maximumFileSize:)`` does; the old contents stay.
  public func reload(contentsOf url: URL, maximumFileSize: Int = defaultMaximumFileSize)
    throws(DMColorTableError)
  {
    publish(try Self.parseFile(at: url, maximumFileSize: maximumFileSize))
  }

  /// Replaces the table's contents with a table parsed from text, all at once.
  ///
  /// Works as ``reload(contentsOf:maximumFileSize:)`` does.
  /// - Parameter string: The table in the colour-table format.
  /// - Throws: ``DMColorTableError`` for the first problem; the old contents stay.
  public func reload(string: String) throws(DMColorTableError) {
    publish(try ColorTableParser.parse(Array(string.utf8), validatesUTF8: false))
  }

  private func publish(_ parsed: ParsedColorTable) {
    let (old, listener) = state.withLock { contents in
      let old = contents
      contents = Contents(parsed, generation: old.generation + 1)
      // Counted under the lock, so that reloads on several threads count in the order they
      // replace the contents.
      return (old, ThemeCatalog.tableColumnsDidChange(from: old.variants, to: contents.variants))
    }
    // After the new contents are in place, so that a change of sides resolves with them.
    listener?()
    ColorTableReloads.tableDidReload(self)
    // The old contents may go here, outside the table's lock.
    extendLifetime(old)
  }

  /// Puts back contents saved from ``contents`` earlier, as a new version; for tests that borrow
  /// ``shared``.
  func restoreForTesting(_ saved: Contents) {
    var parsed = ParsedColorTable()
    parsed.columns = saved.variants.map(ThemeColumn.init)
    parsed.keys = saved.keys
    parsed.keyIndex = saved.keyIndex
    parsed.colors = saved.colors
    parsed.keyLines = saved.keyLines
    publish(parsed)
  }

  // MARK: - Missing keys

  /// Called once per key when a value made with ``DMDynamic/init(key:in:)`` asks this table for a
  /// key it does not have; the value shows as ``DMColor/magenta``.
  ///
  /// When it is `nil`, the default, the key is reported through ``DMDiagnostics`` as a
  /// ``DMDiagnostic/Kind/missingColorKey`` diagnostic with the message
  /// `no colour for key "KEY" in the colour table; it is shown in magenta`, which the default
  /// diagnostics handler writes to standard error as one line.
  ///
  /// Each key is reported at most once in the table's lifetime, also across reloads. While the
  /// table is empty (not loaded yet) no key is reported here: the first key asked for then is
  /// reported once through ``DMDiagnostics`` as a ``DMDiagnostic/Kind/colorTable`` diagnostic
  /// that says how to load a table, and a key is reported here when a loaded version lacks it.
  /// The hook may be called on any thread, outside the table's locks.
  ///
  /// ```swift
  /// DMColorTable.shared.missingKeyHandler = { key in logger.warning("no colour for \(key)") }
  /// ```
  public var missingKeyHandler: (@Sendable (_ key: String) -> Void)? {
    get { diagnostics.withLock { $0.handler } }
    set {
      // The old hook goes after the lock: what it captured may resolve a missing key as it goes.
      let old = diagnostics.withLock { diagnostics in
        defer { diagnostics.handler = newValue }
        return diagnostics.handler
      }
      extendLifetime(old)
    }
  }

  /// Reports, once in the table's life, that `key` was asked for before anything was loaded, through
  /// ``DMDiagnostics``: every key shows in magenta until a table is loaded.
  func reportNotLoaded(askedFor key: String) {
    let isFirst = diagnostics.withLock { diagnostics in
      defer { diagnostics.reportedEmpty = true }
      return !diagnostics.reportedEmpty
    }
    guard isFirst else { return }
    let name = self === DMColorTable.shared ? "DMColorTable.shared" : "a colour table"
    DMDiagnostics.report(
      DMDiagnostic(
        kind: .colorTable,
        message: "the key \(ShownText.quoted(key)) was asked of \(name) before a table was loaded into it, "
          + "so every key shows in magenta; load one first with reload(contentsOf:) or reload(string:)"))
  }

  /// Reports a missing key, unless it was reported before, through ``missingKeyHandler`` or
  /// ``DMDiagnostics``.
  func reportMissingKey(_ key: String) {
    let (isNew, handler) = diagnostics.withLock { diagnostics in
      (diagnostics.reported.insert(key).inserted, diagnostics.handler)
    }
    guard isNew else { return }
    if let handler {
      handler(key)
    } else {
      DMDiagnostics.report(
        DMDiagnostic(
          kind: .missingColorKey,
          message:
            "no colour for key \(ShownText.quoted(key, limit: nil)) in the colour table; it is shown in magenta"
        ))
    }
  }

  // MARK: - Files

  private static func parseFile(at url: URL, maximumFileSize: Int) throws(DMColorTableError)
    -> ParsedColorTable
  {
    let (bytes, path) = try readFile(at: url, maximumFileSize: maximumFileSize)
    do {
      return try ColorTableParser.parse(bytes, validatesUTF8: true)
    } catch {
      throw error.withPath(path)
    }
  }

  /// The bytes of a file, at most `maximumFileSize` of them, with an error that names the cause.
  private static func readFile(
    at url: URL, maximumFileSize: Int
  ) throws(DMColorTableError) -> (bytes: [UInt8], path: String) {
    guard url.isFileURL else {
      throw unreadable(url.absoluteString, "it is not a file URL")
    }
    let path = url.withUnsafeFileSystemRepresentation { $0.map { String(cString: $0) } } ?? url.path
    do {
      return (try BoundedFile.contents(ofPath: path, limit: maximumFileSize), path)
    } catch {
      throw unreadable(path, error.reason)
    }
  }

  private static func unreadable(_ path: String, _ reason: String) -> DMColorTableError {
    DMColorTableError(
      kind: .unreadableFile, line: 0, column: 0, token: ShownText.escaped(path),
      message: "cannot read the colour table \(ShownText.quoted(path, limit: nil)): \(reason)", path: path)
  }
}
