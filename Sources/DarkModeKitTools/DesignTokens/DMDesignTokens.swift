import DarkModeKit
import DarkModeKitText
import Foundation

/// Reads colour tables from design tokens: the W3C Design Tokens Community Group format 2025.10
/// (a token file, or a resolver document with sets and modifiers), and the older forms with hex
/// strings (`"$value": "#ffffff"`, or `value` and `type` without `$`).
///
/// ```swift
/// let table = try DMDesignTokens.table(contentsOf: URL(filePath: "Colors.resolver.json"))
/// try DMColorTable.shared.reload(string: table.exported(as: .text))  // or use it as it is
/// ```
///
/// How tokens become a table (`Docs/dmkit.md` has the details):
/// - Every colour token is a key, named by its path (`Text.Primary` for the token `Primary` in the
///   group `Text`); tokens of other types are left out. A name part with characters a key cannot
///   have gets `_` for each of them. DarkModeKit's own `$extensions` can give the key.
/// - A resolver document's modifiers choose the columns: one whose contexts are `light` and `dark`
///   is the style, one whose contexts are `normal` and `more` (or `high`) is the contrast, and one
///   other modifier is the theme, its default context the table's default theme. A document that
///   `dmkit export --format json` wrote gives back the same columns.
/// - A token file with one group per column at its top (`NORMAL`, `NIGHT`, `SOLARIZED:dark`, as
///   `dmkit` wrote before 2025.10) gives those columns; any other token file, one column `NORMAL`.
public enum DMDesignTokens {
  /// Reads a table from design tokens.
  /// - Parameter text: The JSON text.
  /// - Returns: The table.
  /// - Throws: ``DMDesignTokensError`` for text that is not JSON, tokens the format does not
  ///   allow, or tokens that make no table.
  public static func table(from text: String) throws(DMDesignTokensError) -> DMColorTable {
    try table(from: text) { _ in }
  }

  /// Reads a table from design tokens, and says what it was read with that the table does not show
  /// as the tokens say: a colour outside sRGB brought into it, tokens of a type the Format module
  /// does not define left out.
  /// - Parameters:
  ///   - text: The JSON text.
  ///   - options: How to read them. Tokens read from text cannot name files.
  ///   - warning: Called with each warning, once the tokens are read (also when they make no
  ///     table).
  /// - Returns: The table.
  /// - Throws: ``DMDesignTokensError``, as ``table(from:)``.
  public static func table(
    from text: String, options: DMDesignTokensOptions = DMDesignTokensOptions(),
    warnings warning: (DMDesignTokensWarning) -> Void
  ) throws(DMDesignTokensError) -> DMColorTable {
    try tokenTable(reading: Array(text.utf8), document: nil, options: options, warnings: warning).table
  }

  /// Reads a table from a design-tokens file.
  /// - Parameters:
  ///   - url: The file.
  ///   - maximumFileSize: The largest file to read, in bytes.
  /// - Returns: The table.
  /// - Throws: ``DMDesignTokensError``, naming the file.
  public static func table(contentsOf url: URL, maximumFileSize: Int = DMColorTable.defaultMaximumFileSize)
    throws(DMDesignTokensError) -> DMColorTable
  {
    var options = DMDesignTokensOptions()
    options.maximumFileSize = maximumFileSize
    return try table(contentsOf: url, options: options) { _ in }
  }

  /// Reads a table from a design-tokens file, and the files it names, and says what it was read
  /// with that the table does not show as the files say; see ``table(from:options:warnings:)``.
  /// A resolver document's sources may name files (`{"$ref": "base/colors.tokens.json"}`), read
  /// from the document's folder.
  /// - Parameters:
  ///   - url: The file.
  ///   - options: How to read it, and which other files its references may name.
  ///   - warning: Called with each warning, naming its file.
  /// - Returns: The table.
  /// - Throws: ``DMDesignTokensError``, naming the file at fault.
  public static func table(
    contentsOf url: URL, options: DMDesignTokensOptions = DMDesignTokensOptions(),
    warnings warning: (DMDesignTokensWarning) -> Void
  ) throws(DMDesignTokensError) -> DMColorTable {
    let bytes = try read(url, maximumFileSize: options.maximumFileSize)
    do {
      return try tokenTable(reading: bytes, document: url, options: options) { warning($0.inFile(url.path)) }
        .table
    } catch {
      throw error.inFile(url.path)
    }
  }

  /// The table that design tokens make, in the table's own text format, as `dmkit export --format
  /// text` writes it.
  /// - Parameter text: The JSON text.
  /// - Returns: The table's text.
  /// - Throws: ``DMDesignTokensError``.
  public static func tableText(from text: String) throws(DMDesignTokensError) -> String {
    try tokenTable(reading: Array(text.utf8), document: nil, options: DMDesignTokensOptions()) { _ in }.text
  }

  /// The table that the tokens of `text` (UTF-8), read from `document` (or from text), make; each
  /// warning goes to `warning`.
  private static func tokenTable(
    reading text: [UInt8], document: URL?, options: DMDesignTokensOptions,
    warnings warning: (DMDesignTokensWarning) -> Void
  ) throws(DMDesignTokensError) -> TokenTable {
    try reading(text, document: document, options: options, readsPastErrors: false, warnings: warning).table
      .get()
  }

  /// Reads the tokens of `text` (UTF-8) into a table; with `readsPastErrors`, a problem in one
  /// token is kept in ``TokenReading/errors`` and the token left out, and the reading goes on.
  private static func reading(
    _ text: [UInt8], document: URL?, options: DMDesignTokensOptions, readsPastErrors: Bool,
    limit: Int = TokenReading.limit, warnings warning: (DMDesignTokensWarning) -> Void
  ) -> (table: Result<TokenTable, DMDesignTokensError>, reading: TokenReading) {
    let reading = TokenReading(
      options: options, document: document, readsPastErrors: readsPastErrors, limit: limit)
    let result = TokenReading.$current.withValue(reading) {
      Result { () throws(DMDesignTokensError) -> TokenTable in try readTable(from: text, options: options) }
    }
    reading.warnings.forEach(warning)
    if reading.leftOut > 0 {
      warning(
        DMDesignTokensWarning(
          DMDesignTokensError(
            line: 0, column: 0, tokenPath: nil,
            message: "\(reading.leftOut) more warnings not shown, past the first \(reading.limit)")))
    }
    return (result, reading)
  }

  /// Every problem of a design-tokens file, as `dmkit lint` lists them: where
  /// ``table(contentsOf:options:warnings:)`` stops at the first, this reads on past each problem
  /// in one token (a bad colour, a reference to nothing, a circle of references, an unknown
  /// property, a name a token cannot have), leaving that token out, and lists them all.
  ///
  /// A problem that leaves nothing to read further (text that is not JSON, a document of the
  /// wrong shape, a file that cannot be read) ends the list. At most `DMColorTable.defaultLintLimit`
  /// problems are listed by default, then one that counts the rest.
  ///
  /// ```swift
  /// for problem in DMDesignTokens.lint(contentsOf: URL(fileURLWithPath: "colors.tokens.json")) {
  ///   print(problem.path ?? "", problem.line, problem.column, problem.explanation)
  /// }
  /// ```
  /// - Parameters:
  ///   - url: The file.
  ///   - options: How to read it, and which other files its references may name.
  ///   - limit: The most problems to list before the one that counts the rest.
  ///   - warning: Called with each warning, naming its file.
  /// - Returns: The problems, each naming its file, in the order of the files and their places;
  ///   empty when the file makes a table.
  public static func lint(
    contentsOf url: URL, options: DMDesignTokensOptions = DMDesignTokensOptions(),
    limit: Int = DMColorTable.defaultLintLimit, warnings warning: (DMDesignTokensWarning) -> Void = { _ in }
  ) -> [DMDesignTokensError] {
    let text: [UInt8]
    do {
      text = try read(url, maximumFileSize: options.maximumFileSize)
    } catch {
      return [error.inFile(url.path)]
    }
    let (result, reading) = Self.reading(
      text, document: url, options: options, readsPastErrors: true, limit: limit,
      warnings: { warning($0.inFile(url.path)) })
    var problems = reading.errors
    var more = reading.errorsLeftOut
    switch result {
    case .failure(let error): problems.append(error)
    case .success: break
    }
    problems = problems.map { $0.inFile(url.path) }
    // The document's own problems first, then each file's, each in the order of its places.
    let order = problems.enumerated().sorted { one, other in
      let (a, b) = (one.element, other.element)
      if TokenReading.precedes(a, b, document: url.path) { return true }
      return !TokenReading.precedes(b, a, document: url.path) && one.offset < other.offset
    }.map(\.element)
    if order.count > limit {
      more += order.count - limit
    }
    var listed = Array(order.prefix(limit))
    if more > 0 {
      listed.append(
        DMDesignTokensError(
          line: 0, column: 0, tokenPath: nil,
          message:
            "\(more) more \(more == 1 ? "problem" : "problems") not shown, past the first \(listed.count)",
          path: url.path))
    }
    return listed
  }

  private static func readTable(from text: [UInt8], options: DMDesignTokensOptions)
    throws(DMDesignTokensError) -> TokenTable
  {
    let document: JSONNode
    do {
      document = try JSONReader.read(bytes: text)
    } catch {
      throw DMDesignTokensError(
        line: error.place.line, column: error.place.column, tokenPath: nil, message: error.message)
    }
    // The files whose tokens references may name, read as a document's files are.
    var included: [JSONNode] = []
    for file in options.tokenFiles {
      included.append(
        try TokenReading.file(named: file.path, at: document.place, path: [], isGiven: true))
    }
    let columns: [Column]
    if ResolverDocument.isResolver(document) {
      guard included.isEmpty else {
        throw DMDesignTokensError(
          line: 0, column: 0, tokenPath: nil,
          message:
            "a resolver document names its own files in its sets; token files are given only with a token file"
        )
      }
      columns = try ResolverDocument(document).columns()
    } else if included.isEmpty, TokenSets.isTokenSets(document) {
      columns = try ResolverDocument(TokenSets.resolverDocument(document), pointerRoot: document).columns()
    } else {
      columns = try tokenFileColumns(document, including: included)
    }
    return try TokenTable(columns)
  }

  /// Whether `text` looks like design tokens rather than a colour table: its first character that
  /// is not white space is `{`.
  public static func looksLikeTokens(_ text: String) -> Bool {
    text.unicodeScalars.first { !" \t\r\n\u{FEFF}".unicodeScalars.contains($0) } == "{"
  }

  /// Reads a file of UTF-8 text, up to `maximumFileSize` bytes, as colour tables are read: its
  /// bytes, checked.
  static func read(_ url: URL, maximumFileSize: Int) throws(DMDesignTokensError) -> [UInt8] {
    func failure(_ message: String) -> DMDesignTokensError {
      DMDesignTokensError(line: 0, column: 0, tokenPath: nil, message: message, path: url.path)
    }
    let bytes: [UInt8]
    do {
      bytes = try BoundedFile.contents(ofPath: url.path, limit: maximumFileSize)
    } catch {
      throw failure("cannot read the file: \(error.reason)")
    }
    guard String(validating: bytes, as: UTF8.self) != nil else {
      let (line, column, shown) = firstInvalidUTF8(in: bytes)
      throw DMDesignTokensError(
        line: line, column: column, tokenPath: nil,
        message: "the file is not UTF-8 text: the byte sequence \(shown) is not valid UTF-8", path: url.path)
    }
    return bytes
  }

  /// Where the first byte sequence of `bytes` that is not UTF-8 is (lines end at LF, CR or CRLF,
  /// as JSON's do; columns count characters), and its bytes as `\xE9`.
  static func firstInvalidUTF8(in bytes: [UInt8]) -> (line: Int, column: Int, shown: String) {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    var line = 1
    var column = 1
    var afterCR = false
    while case .valid(let encoded) = parser.parseScalar(from: &iterator) {
      offset += encoded.count
      switch Unicode.UTF8.decode(encoded) {
      case "\n" where afterCR: afterCR = false
      case "\n", "\r":
        afterCR = Unicode.UTF8.decode(encoded) == "\r"
        line += 1
        column = 1
      default:
        afterCR = false
        column += 1
      }
    }
    // The bad byte and the continuation bytes after it, at most four.
    var end = min(offset + 1, bytes.count)
    while end < min(offset + 4, bytes.count), bytes[end] & 0xC0 == 0x80 { end += 1 }
    let digits = Array("0123456789ABCDEF")
    let shown = bytes[offset..<end].map { "\\x\(digits[Int($0 >> 4)])\(digits[Int($0 & 0xF)])" }
      .joined()
    return (line, column, shown)
  }

  // MARK: Columns

  /// One column of the table to make: its header name and a colour per key.
  struct Column {
    var name: String
    var colors: [String: DMColor]
    /// Keys in the order their tokens came.
    var keys: [String]
    /// Where each key's token is, and its name (its path joined by dots), in the order the tokens
    /// came, for errors about a key: a list, as only an error looks a key up in it, which holds a
    /// third of what a dictionary by key took.
    var places: [(key: String, place: TextPlace, name: String)] = []
    /// Where the column comes from (a group, a modifier's context), for errors about the column.
    var place = TextPlace(line: 0, column: 0)
    var path: [String] = []
    /// The colour each key's token was written in, where it came from a space wider than sRGB.
    var origins: [String: DMColorOrigin] = [:]
    /// The position of each key in `places`, made at the first look-up, so that a file that
    /// gives many keys twice costs one look-up each.
    private var placeIndex: [String: Int]?

    init(name: String, place: TextPlace, path: [String], capacity: Int = 0) {
      self.name = name
      self.place = place
      self.path = path
      colors = .init(minimumCapacity: capacity)
      keys = []
      keys.reserveCapacity(capacity)
      places.reserveCapacity(capacity)
    }

    /// Adds `key`'s colour, from the token `name` at `place`.
    mutating func add(_ color: DMColor, forKey key: String, place: TextPlace, name: String) {
      colors[key] = color
      placeIndex?[key] = places.count
      places.append((key, place, name))
      keys.append(key)
    }

    /// Where the token of `key` is, and its name; `nil` when the column has no such key.
    mutating func place(ofKey key: String) -> (place: TextPlace, name: String)? {
      let index = placeIndex ?? Dictionary(uniqueKeysWithValues: places.indices.map { (places[$0].key, $0) })
      placeIndex = index
      return index[key].map { (places[$0].place, places[$0].name) }
    }
  }

  /// The column `name` made of the colour tokens of a tree, by key, in order; the tokens under
  /// `excluded` groups are left out. `place` and `path` say where the column comes from.
  static func column(
    _ name: String, of tree: TokenTree, excluding excluded: Set<String> = [], names given: [String]? = nil,
    place: TextPlace, path: [String]
  ) throws(DMDesignTokensError) -> Column {
    let names = given ?? tree.names(outside: excluded)
    var column = Column(name: name, place: place, path: path, capacity: names.count)
    for name in names {
      let token = tree.token(name)!
      // A token without a type is typed by its value, as the drafts before 2023-02 had it: a
      // colour value (or a reference that leads to one) is a colour, any other value is not.
      guard (tree.type(of: token, named: name) ?? tree.typeOfValue(name)) == "color" else { continue }
      // Tokens Studio's colour tokens may hold gradients (or refer to one), which a table cannot.
      // A problem in one token leaves the rest to read, for a reading that lists them all.
      do throws(DMDesignTokensError) {
        if let reason = tree.whyLeftOut(token) {
          try TokenReading.leaveOut(token.place, token.path, reason)
          continue
        }
        guard let key = token.tableKey else {
          throw TokenTree.fail(
            token.place, token.path,
            "the key \(ShownText.quoted(token.key ?? "")) in $extensions is not a valid key")
        }
        if column.colors[key] != nil, let first = column.place(ofKey: key) {
          throw TokenTree.fail(
            token.place, token.path,
            "gives the key \(ShownText.quoted(key)), as the token \(ShownText.quoted(first.name)) does")
        }
        column.add(try tree.color(of: token, named: name), forKey: key, place: token.place, name: token.name)
        if let origin = TokenReading.origin(at: { tree.source(of: token) }) {
          column.origins[key] = origin
        }
      } catch {
        try TokenReading.readOn(past: error)
      }
    }
    return column
  }

  /// The key a token at `path` gives: `given`, DarkModeKit's `$extensions` key, or its path
  /// without `$root`, each character a key cannot have turned into `_`; `nil` for a `given` key
  /// that is not a valid key.
  /// `joined` is the path joined with `.`, when the caller has it.
  static func key(path: [String], given: String?, joined: String? = nil) -> String? {
    // A key given in `$extensions` is any key a table may have (`所有背景`, `1BG`).
    if let given { return KeyRule.isKey(given) ? given : nil }
    if let joined, !path.contains("$root") { return keyName(joined) }
    return keyName(path.filter { $0 != "$root" }.joined(separator: "."))
  }

  /// `text` made a key or a theme name: ASCII letters, digits, `_`, `.` and `-`, starting with a
  /// letter or `_`, each other character `_`, so that names Unicode takes for the same text stay
  /// apart. (A table's key may hold more; `$extensions` can give a token such a key.)
  static func keyName(_ text: String) -> String {
    // Most names are keys already: kept as they are, without a copy.
    if let first = text.utf8.first, isKeyStart(first), text.utf8.allSatisfy(isKeyByte) { return text }
    // Byte by byte: `_` for each scalar that is not one of the characters a key may have, at the
    // first byte of its UTF-8.
    var name: [UInt8] = []
    name.reserveCapacity(text.utf8.count + 1)
    for byte in text.utf8 where byte & 0xC0 != 0x80 {
      name.append(isKeyByte(byte) ? byte : UInt8(ascii: "_"))
    }
    if let first = name.first, !isKeyStart(first) {
      name.insert(UInt8(ascii: "_"), at: 0)
    }
    return name.isEmpty ? "_" : String(decoding: name, as: UTF8.self)
  }

  /// Whether a key made by `keyName` may start with `byte`: an ASCII letter or `_`.
  private static func isKeyStart(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
      || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || byte == UInt8(ascii: "_")
  }

  /// Whether a key made by `keyName` may hold `byte`: an ASCII letter, digit, `_`, `.` or `-`.
  private static func isKeyByte(_ byte: UInt8) -> Bool {
    isKeyStart(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
      || byte == UInt8(ascii: "-")
  }

  /// Whether `text` is a key by the rules for tokens' names: what `keyName` leaves as it is.
  static func isKey(_ text: String) -> Bool { !text.isEmpty && keyName(text) == text }

  /// The columns of a token file: one per top-level group when they are named as columns (the form
  /// `dmkit` wrote before 2025.10), else one, `NORMAL`.
  static func tokenFileColumns(_ document: JSONNode, including included: [JSONNode] = [])
    throws(DMDesignTokensError) -> [Column]
  {
    guard let members = document.members else {
      throw TokenTree.fail(document.place, [], "expected an object of tokens, found \(document.described)")
    }
    let groups = members.filter { !$0.name.hasPrefix("$") }
    // Tokens named as columns (`"NORMAL": {"$value": …}`) are tokens, not columns; a group with
    // a lower-case name and no side (`dark`, `button`) is a group of tokens.
    let namedAsColumns =
      !groups.isEmpty
      && groups.allSatisfy {
        $0.value.isObject && !TokenTree.isToken($0.value) && isColumnShaped($0.name)
          && ($0.name.contains(":") || !$0.name.unicodeScalars.contains { ("a"..."z").contains($0) })
      }
      && (groups.contains { ["NORMAL", "NIGHT", "DARK"].contains($0.name) || $0.name.contains(":") }
        || isOldExport(groups))
    guard namedAsColumns else {
      var tree = TokenTree()
      try tree.add(document)
      guard !included.isEmpty else {
        return [try column("NORMAL", of: tree, place: document.place, path: [])]
      }
      // The tokens of the files given with it are there for references to name; the document's own
      // tokens, which win over theirs, are the keys.
      var all = TokenTree()
      for file in included { try all.add(file) }
      try all.add(document)
      return [try column("NORMAL", of: all, names: tree.names(outside: []), place: document.place, path: [])]
    }
    var columns: [Column] = []
    for group in groups {
      // The tokens are read from the group, so that their paths are keys: errors put the group
      // back in front of the path.
      do throws(DMDesignTokensError) {
        var tree = TokenTree()
        try tree.add(group.value, root: document, parent: document)
        var found = try column(group.name, of: tree, place: group.place, path: [group.name])
        found.places = found.places.map { ($0.key, $0.place, group.name + "." + $0.name) }
        columns.append(found)
      } catch {
        throw DMDesignTokensError(
          line: error.line, column: error.column,
          tokenPath: [group.name, error.tokenPath].compactMap { $0 }.joined(separator: "."),
          message: error.message,
          path: error.path)
      }
    }
    return columns
  }

  /// Whether top-level groups with other names than the usual columns' are the columns of an
  /// export written before 2025.10: two or more groups named as a table's header names its
  /// columns (upper-case: `LIGHT`, `BLUE`), each of colour tokens only (`"$type": "color"`, a hex
  /// colour as `$value`) named as keys, all with the same tokens. Colour ramps (`blue.100`),
  /// groups of components (`button.bg`, `card.bg`), `light` and `dark` groups and groups of
  /// references stay a token file's groups.
  private static func isOldExport(_ groups: [JSONNode.Member]) -> Bool {
    func tokenNames(_ group: JSONNode) -> [String]? {
      guard let members = group.members else { return nil }
      var names: [String] = []
      for member in members {
        // Named as the keys were (dashes where a key has `_` in older versions), never a ramp's
        // step (`100`).
        guard let first = member.name.unicodeScalars.first, !("0"..."9").contains(first),
          isKey(member.name.replacingOccurrences(of: "-", with: "_")),
          member.value["$type"]?.string == "color",
          member.value["$value"]?.string?.hasPrefix("#") == true
        else { return nil }
        names.append(member.name)
      }
      return names
    }
    let upperCase = groups.allSatisfy { group in
      group.name.unicodeScalars.contains { ("A"..."Z").contains($0) }
        && !group.name.unicodeScalars.contains { ("a"..."z").contains($0) }
    }
    guard groups.count >= 2, upperCase, let first = tokenNames(groups[0].value), !first.isEmpty else {
      return false
    }
    return groups.dropFirst().allSatisfy { tokenNames($0.value) == first }
  }

  /// Whether `name` is a column of a table's header: `NAME`, with `:light` or `:dark`, and
  /// `:high`.
  static func isColumnName(_ name: String) -> Bool { ThemeColumn(name) != nil }

  /// Whether `name` is a column name, or would be one but for the length of its theme name: a
  /// group so named is a column, and the length is its error.
  static func isColumnShaped(_ name: String) -> Bool {
    let theme = name.utf8.prefix { $0 != UInt8(ascii: ":") }
    guard theme.count > DMThemeVariant.maximumThemeNameLength else { return isColumnName(name) }
    return isKey(String(decoding: theme, as: UTF8.self))
      && isColumnName("A" + String(decoding: name.utf8.dropFirst(theme.count), as: UTF8.self))
  }

  /// Why `name` is not a column of a table's header, for an error.
  static func notAColumnName(_ name: String) -> String {
    "\(ShownText.quoted(name)) is not a column name: \(DMThemeVariant.problem(in: name) ?? "")"
  }

  /// The table's text: the columns' names, then one row per key, in the order keys first came;
  /// a key missing from a column is an error.
  /// The table that columns make: their keys in the order they first came, a colour for each key
  /// in each column, rounded to 8 bits a channel as a table's text writes it.
  struct TokenTable {
    var names: [String]
    var variants: [ThemeColumn]
    var keys: [String]
    /// The colour of the key at `k` in the column at `c` is at `k * names.count + c`.
    var colors: [DMColor]
    /// The colour each cell was written in, by its index in `colors`, where it came from a space
    /// wider than sRGB.
    var origins: [Int: DMColorOrigin] = [:]

    init(_ columns: [Column]) throws(DMDesignTokensError) {
      guard !columns.isEmpty else {
        throw DMDesignTokensError(line: 0, column: 0, tokenPath: nil, message: "the tokens make no column")
      }
      // Columns of one document have the same keys in the same order, most often.
      if columns.allSatisfy({ $0.keys == columns[0].keys }) {
        keys = columns[0].keys
      } else {
        keys = []
        var seen: Set<String> = []
        for column in columns {
          for key in column.keys where seen.insert(key).inserted { keys.append(key) }
        }
      }
      // Two spellings of one column (`NORMAL`, `NORMAL:light`) are the same column.
      var spellings: [ThemeColumn: String] = [:]
      variants = []
      for column in columns {
        guard let variant = ThemeColumn(column.name) else {
          throw TokenTree.fail(column.place, column.path, notAColumnName(column.name))
        }
        if let other = spellings.updateValue(column.name, forKey: variant) {
          throw TokenTree.fail(
            column.place, column.path,
            "the columns \(ShownText.quoted(other)) and \(ShownText.quoted(column.name)) are the same column")
        }
        variants.append(variant)
      }
      names = columns.map(\.name)
      colors = []
      colors.reserveCapacity(keys.count * columns.count)
      for key in keys {
        for column in columns {
          guard let color = column.colors[key] else {
            // The token that gave the key, in a column that has it.
            let token = columns.lazy.compactMap { column in
              var column = column
              return column.place(ofKey: key)
            }.first
            throw TokenTree.fail(
              token?.place ?? column.place, token.map { TokenTree.path(of: $0.name) } ?? [key],
              "has no colour in the column \(ShownText.quoted(column.name))")
          }
          if let origin = column.origins[key] { origins[colors.count] = origin }
          colors.append(Self.rounded(color))
        }
      }
    }

    /// The colour as a table's text keeps it: each channel, and an alpha below 1, rounded to 8 bits.
    static func rounded(_ color: DMColor) -> DMColor {
      func byte(_ value: Double) -> Double { (value * 255).rounded() / 255 }
      return DMColor(
        red: byte(color.red), green: byte(color.green), blue: byte(color.blue),
        alpha: color.alpha < 1 ? byte(color.alpha) : 1)
    }

    /// The table.
    var table: DMColorTable { DMColorTable(columns: variants, keys: keys, colors: colors, origins: origins) }

    /// The table in its text format.
    var text: String {
      var text = names.joined(separator: " ") + "\n"
      for (row, key) in keys.enumerated() {
        for color in colors[(row * names.count)..<((row + 1) * names.count)] { text += color.hexString + " " }
        text += key + "\n"
      }
      return text
    }
  }

}

/// How ``DMDesignTokens`` reads design tokens.
///
/// ```swift
/// var options = DMDesignTokensOptions()
/// options.tokenFiles = [URL(filePath: "global.tokens.json")]  // what light.tokens.json refers to
/// let table = try DMDesignTokens.table(contentsOf: URL(filePath: "light.tokens.json"), options: options) {
///   print($0)
/// }
/// ```
public struct DMDesignTokensOptions: Sendable {
  /// Whether tokens that would be left out with a warning (of a type the format does not define, a
  /// gradient in a colour token) are an error instead. `false` by default.
  public var isStrict = false
  /// The largest file to read, in bytes, the document and each file it names:
  /// `DMColorTable.defaultMaximumFileSize` by default.
  public var maximumFileSize = DMColorTable.defaultMaximumFileSize
  /// The most bytes the files a document names may come to all together: 256 MiB by default.
  public var maximumTotalSize = 256 << 20
  /// Whether a resolver document may name files outside its own folder (`../shared/colors.json`, an
  /// absolute path). `false` by default: a document from elsewhere reads nothing else of the disk.
  public var readsFilesOutsideFolder = false
  /// Token files whose tokens the references of a token file may name (a file of primitives that a
  /// file of semantic colours refers to). Their tokens are no keys of the table; the token file's
  /// own tokens win over theirs. They are read wherever they are, each within
  /// ``maximumFileSize`` and all together within ``maximumTotalSize``.
  public var tokenFiles: [URL] = []

  /// The defaults.
  public init() {}
}
