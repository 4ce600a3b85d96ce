import DarkModeKit
import DarkModeKitText

/// A resolver document (Resolver module 2025.10): sets and modifiers whose sources, merged in the
/// resolution order for one choice of each modifier's context, make one token tree. Sources are
/// read from the document itself (inline, or `#/sets/…`) and from the files it names, relative to
/// its folder (`TokenReading.file(named:at:path:isGiven:)`).
struct ResolverDocument {
  /// One entry of the resolution order: a set's sources, or a modifier's contexts.
  private enum Entry {
    case set(sources: [JSONNode])
    case modifier(name: String)

    var isSet: Bool {
      if case .set = self { true } else { false }
    }
  }

  private struct Modifier {
    var name: String
    var place: TextPlace
    /// Where it is: `modifiers.NAME`, or its entry of the resolution order.
    var path: [String]
    /// The contexts in file order, with their sources.
    var contexts: [(name: String, sources: [JSONNode])] = []
    /// The names of the contexts, told apart byte by byte.
    var contextNames: Set<ExactText> = []
    var defaultContext: String?
    /// Whether it has DarkModeKit's `$extensions`: it is DarkModeKit's own export.
    var hasOurExtensions = false
    /// DarkModeKit's `$extensions`: the table's columns, and the context of its default theme.
    var columns: [(name: String, place: TextPlace)]?
    var defaultThemeContext: String?
    /// The table's keys in its order, when the groups of tokens put them in another.
    var keys: [String]?
    /// The column each context gives, as DarkModeKit's `$extensions` say it (`"contexts":
    /// {"midnight": "NIGHT"}`), for contexts whose names do not say their side.
    var contextColumns: [ExactText: (column: String, place: TextPlace)] = [:]

    func hasContext(named name: String) -> Bool { contextNames.contains(ExactText(name)) }
  }

  private let document: JSONNode
  /// The document a token's `$ref` pointer (`#/a/b`) is read in: the resolver document, or for a
  /// file of token sets read as one, that file.
  private let pointerRoot: JSONNode
  private var order: [Entry] = []
  /// Each set's sources, its references expanded, once per set however often it is named.
  private var expandedSets: [ExactText: [JSONNode]] = [:]
  private var modifiers: [ExactText: Modifier] = [:]
  /// The sources the sets and contexts read so far come to; see ``maximumSources``.
  private var sourceCount = 0
  /// The names of the sets and modifiers written in the resolution order itself.
  private var inlineNames: Set<ExactText> = []
  /// The groups whose tokens are no keys: those of the helpers of DarkModeKit's own export
  /// (`DesignTokens.helperGroups`), known by its `$extensions` or by the group of its columns
  /// among the sets that come first; none in any other document, where groups of those names
  /// hold keys as any group does.
  private var helperGroups: Set<String> = []

  /// Whether `document` is a resolver document rather than a token file: it has a
  /// `resolutionOrder`, or a resolver `$schema`, or a string `version` beside `sets` or
  /// `modifiers` (and then what it misses is the error).
  static func isResolver(_ document: JSONNode) -> Bool {
    if document["resolutionOrder"] != nil { return true }
    if document["$schema"]?.string?.contains("resolver") == true { return true }
    return document["version"]?.string != nil && (document["sets"] != nil || document["modifiers"] != nil)
  }

  init(_ document: JSONNode, pointerRoot: JSONNode? = nil) throws(DMDesignTokensError) {
    self.document = document
    self.pointerRoot = pointerRoot ?? document
    guard let members = document.members else { throw fail(document.place, [], "expected an object") }
    for member in members
    where !["$schema", "$defs", "version", "name", "description", "sets", "modifiers", "resolutionOrder"]
      .contains(member.name)
    {
      throw fail(member.place, [member.name], "unknown property of a resolver document")
    }
    guard let version = document["version"] else {
      throw fail(
        document.place, ["version"],
        "the resolver document has no version: it needs \"version\": \"\(DesignTokens.version)\"")
    }
    guard version.string == DesignTokens.version else {
      throw fail(
        document["version"]?.place ?? document.place, ["version"],
        "version must be \(ShownText.quoted(DesignTokens.version)), found \(document["version"]?.described ?? "nothing")"
      )
    }
    guard let list = document["resolutionOrder"], case .array(let entries) = list.value, !entries.isEmpty
    else {
      throw fail(
        document["resolutionOrder"]?.place ?? document.place, ["resolutionOrder"],
        "resolutionOrder must be a non-empty array")
    }
    for (index, entry) in entries.enumerated() {
      try read(entry, path: ["resolutionOrder", String(index)])
    }
    let holdsOurColumns = order.prefix(while: \.isSet).contains {
      guard case .set(let sources) = $0 else { return false }
      return sources.contains { source in
        source[DesignTokens.columnsGroup].map { $0.isObject && !TokenTree.isToken($0) } ?? false
      }
    }
    if holdsOurColumns || modifiers.values.contains(where: \.hasOurExtensions) {
      helperGroups = DesignTokens.helperGroups
    }
    try checkWork(place: list.place)
  }

  /// Refuses a document whose sets and contexts, each merged once, come to more than
  /// ``maximumMergedValues`` JSON values: a set or a place named many times costs its size each
  /// time, so a few hundred kilobytes could otherwise take hours to resolve. Counting stops at
  /// the limit, so that the check itself is bounded.
  private func checkWork(place: TextPlace) throws(DMDesignTokensError) {
    var left = Self.maximumMergedValues
    /// Takes the values of `node` from `left`; `false` once it runs out.
    func spend(_ node: JSONNode) -> Bool {
      left -= 1
      guard left >= 0 else { return false }
      return node.allChildren(spend)
    }
    var lists: [[JSONNode]] = []
    for entry in order {
      if case .set(let sources) = entry { lists.append(sources) }
    }
    for modifier in modifiers.values {
      for context in modifier.contexts { lists.append(context.sources) }
    }
    for list in lists where !list.allSatisfy(spend) {
      throw fail(
        place, ["resolutionOrder"],
        "the sets and contexts come to more than \(Self.maximumMergedValues) values once their "
          + "references are followed (a set or a place named many times)")
    }
  }

  /// The most JSON values the sets and contexts of a document may come to; see `checkWork`.
  static let maximumMergedValues = 16_000_000

  private mutating func read(_ entry: JSONNode, path: [String]) throws(DMDesignTokensError) {
    if let reference = entry["$ref"] {
      try refuseOverrides(in: entry, path: path)
      guard let text = reference.string, let (kind, name) = Self.localReference(text) else {
        throw fail(
          reference.place, path,
          "$ref must name #/sets/NAME or #/modifiers/NAME, found \(reference.described)")
      }
      let collection = kind == "sets" ? "sets" : "modifiers"
      guard let target = document[collection]?[name] else {
        throw fail(reference.place, path, "$ref \(ShownText.quoted(text)) names nothing")
      }
      if kind == "sets" {
        order.append(.set(sources: try expandedSet(name, place: reference.place, path: path)))
      } else {
        try refuseReference(in: target, path: [collection, name])
        try addModifier(target, name: name, path: [collection, name])
      }
      return
    }
    guard let type = entry["type"]?.string, let name = entry["name"]?.string else {
      throw fail(entry.place, path, "an entry of resolutionOrder is {\"$ref\": …} or has a type and a name")
    }
    guard inlineNames.insert(ExactText(name)).inserted else {
      throw fail(
        entry["name"]?.place ?? entry.place, path + ["name"],
        "the name \(ShownText.quoted(name)) comes twice among the entries of resolutionOrder")
    }
    switch type {
    case "set":
      order.append(.set(sources: try sources(entry["sources"], path: path + ["sources"], place: entry.place)))
    case "modifier": try addModifier(entry, name: name, path: path)
    default:
      throw fail(entry.place, path, "type must be \"set\" or \"modifier\", found \(ShownText.quoted(type))")
    }
  }

  /// Refuses members beside the `$ref` of a set, a modifier or a source: they would override
  /// what it names, which is not read, so that no colour silently ignores them. A description
  /// and `$extensions` change no colour, and are let be.
  private func refuseOverrides(in node: JSONNode, path: [String]) throws(DMDesignTokensError) {
    let harmless: Set<String> = ["$ref", "description", "$description", "$extensions"]
    guard let other = node.members?.first(where: { !harmless.contains($0.name) }) else { return }
    throw fail(
      other.place, path + [other.name],
      "\(ShownText.quoted(other.name)) beside $ref is not read: overriding what a $ref names is not "
        + "supported; copy it and change the copy")
  }

  /// Refuses a `$ref` in the definition of a set or a modifier: what it names, and how the
  /// members beside it override that, are not read, so that no colour silently leaves it out.
  private func refuseReference(in definition: JSONNode, path: [String]) throws(DMDesignTokensError) {
    guard let reference = definition["$ref"] else { return }
    throw fail(
      reference.place, path + ["$ref"],
      "$ref in the definition of a set or a modifier is not read; write the set or the modifier out in full")
  }

  /// The value a JSON Pointer in this document (`#/$defs/palette`) names.
  private static func node(at pointer: String, in document: JSONNode) -> JSONNode? {
    guard let parts = JSONPointer.parts(of: pointer) else { return nil }
    var node = document
    for name in parts {
      guard let child = node.child(atPointerPart: name) else { return nil }
      node = child
    }
    return node
  }

  /// `("sets", "base")` for `#/sets/base`.
  private static func localReference(_ text: String) -> (String, String)? {
    guard let parts = JSONPointer.parts(of: text), parts.count == 2, ["sets", "modifiers"].contains(parts[0])
    else { return nil }
    return (parts[0], parts[1])
  }

  /// The sources of a set or a context: inline token documents, and sets of this document named
  /// by `$ref`.
  private mutating func sources(_ node: JSONNode?, path: [String], place: TextPlace, depth: Int = 0)
    throws(DMDesignTokensError) -> [JSONNode]
  {
    guard let node, case .array(let items) = node.value else {
      throw fail(node?.place ?? place, path, "sources must be an array")
    }
    var result: [JSONNode] = []
    for (index, item) in items.enumerated() {
      let countBefore = result.count
      guard let reference = item["$ref"] else {
        result.append(item)
        continue
      }
      try refuseOverrides(in: item, path: path + [String(index)])
      guard let text = reference.string else {
        throw fail(
          reference.place, path + [String(index)], "$ref must be a string, found \(reference.described)")
      }
      result += try referencedSources(
        text, place: reference.place, path: path + [String(index)], depth: depth)
      // Sets that name each other several times each multiply, and each context that names a
      // set holds its sources: a few hundred bytes could name billions of sources.
      sourceCount += result.count - countBefore
      guard sourceCount <= Self.maximumSources else {
        throw fail(
          reference.place, path + [String(index)],
          "the sets and contexts name more than \(Self.maximumSources) sources in all, "
            + "their references to sets followed")
      }
    }
    return result
  }

  /// The sources a source's `$ref` to `text` names: a set's sources, or the object of tokens at
  /// another place of this document, which may itself be a `$ref` to follow.
  private mutating func referencedSources(_ text: String, place: TextPlace, path: [String], depth: Int)
    throws(DMDesignTokensError) -> [JSONNode]
  {
    var text = text
    var place = place
    var path = path
    for _ in 0..<32 {
      if let (kind, name) = Self.localReference(text), kind == "sets" {
        return try expandedSet(name, place: place, path: path, depth: depth + 1)
      }
      // A file beside the document, or a place in one (`colors.json#/color`), holds tokens.
      if !text.hasPrefix("#") {
        let parts = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let file = try TokenReading.file(named: String(parts[0]), at: place, path: path)
        let pointer = parts.count > 1 ? "#" + parts[1] : "#"
        guard let target = Self.node(at: pointer, in: file), target.isObject else {
          throw fail(place, path, "$ref \(ShownText.quoted(text)) names no object of tokens")
        }
        guard target["$ref"] == nil else {
          throw fail(
            place, path, "$ref \(ShownText.quoted(text)) names a $ref in another file, which is not followed")
        }
        return [target]
      }
      // Any other place in this document holds tokens.
      guard text.hasPrefix("#/") || text == "#" else {
        throw fail(place, path, "$ref \(ShownText.quoted(text)) names no place of this document (#/…)")
      }
      guard let target = Self.node(at: text, in: document), target.isObject else {
        throw fail(place, path, "$ref \(ShownText.quoted(text)) names no object of tokens in this document")
      }
      guard let next = target["$ref"] else { return [target] }
      // A place that is itself a reference: its members are read as the source's are.
      path = JSONPointer.parts(of: text) ?? []
      try refuseOverrides(in: target, path: path)
      guard let nextText = next.string else {
        throw fail(next.place, path, "$ref must be a string, found \(next.described)")
      }
      (text, place) = (nextText, next.place)
    }
    throw fail(place, path, "the references from a source go more than 32 deep or in a circle")
  }

  /// The sources of the set `name`, its references to other sets expanded; each set is expanded
  /// once, so sets that name each other many times cost no more than their size.
  private mutating func expandedSet(_ name: String, place: TextPlace, path: [String], depth: Int = 0)
    throws(DMDesignTokensError) -> [JSONNode]
  {
    if let known = expandedSets[ExactText(name)] { return known }
    guard depth < 32, let set = document["sets"]?[name] else {
      throw fail(
        place, path,
        "#/sets/\(ShownText.escaped(name, limit: 64)) names no set, or sets refer to each other more than 32 deep or in a circle"
      )
    }
    try refuseReference(in: set, path: ["sets", name])
    let expanded = try sources(
      set["sources"], path: ["sets", name, "sources"], place: set.place, depth: depth)
    expandedSets[ExactText(name)] = expanded
    return expanded
  }

  private mutating func addModifier(_ node: JSONNode, name: String, path: [String])
    throws(DMDesignTokensError)
  {
    guard modifiers[ExactText(name)] == nil else {
      throw fail(node.place, path, "the modifier \(ShownText.quoted(name)) comes twice")
    }
    guard let contexts = node["contexts"]?.members, contexts.count >= 2 else {
      throw fail(
        node["contexts"]?.place ?? node.place, path + ["contexts"],
        "a modifier needs contexts: an object of two or more")
    }
    var modifier = Modifier(name: name, place: node.place, path: path)
    for context in contexts {
      modifier.contexts.append(
        (
          context.name,
          try sources(context.value, path: path + ["contexts", context.name], place: context.place)
        ))
      modifier.contextNames.insert(ExactText(context.name))
    }
    if let given = node["default"] {
      guard let text = given.string, modifier.hasContext(named: text) else {
        throw fail(
          given.place, path + ["default"], "default must name one of the contexts, found \(given.described)")
      }
      modifier.defaultContext = text
    }
    if let ours = node["$extensions"]?[DesignTokens.vendor] {
      modifier.hasOurExtensions = true
      guard ours.isObject else {
        throw fail(
          ours.place, path + ["$extensions"],
          "\(DesignTokens.vendor) must be an object, found \(ours.described)")
      }
      for member in ["columns", "keys"] {
        guard let given = ours[member] else { continue }
        guard case .array = given.value else {
          throw fail(
            given.place, path + ["$extensions"], "\(member) must be an array, found \(given.described)")
        }
      }
      if let list = ours["columns"], case .array(let names) = list.value {
        var columns: [(String, TextPlace)] = []
        for item in names {
          guard let text = item.string else {
            throw fail(
              item.place, path + ["$extensions"], "a column must be a column name, found \(item.described)")
          }
          guard DMDesignTokens.isColumnName(text) else {
            throw fail(item.place, path + ["$extensions"], DMDesignTokens.notAColumnName(text))
          }
          columns.append((text, item.place))
        }
        guard !columns.isEmpty else {
          throw fail(list.place, path + ["$extensions"], "the list of columns is empty: a table needs one")
        }
        modifier.columns = columns
      }
      if let given = ours["defaultContext"] {
        guard let text = given.string, modifier.hasContext(named: text) else {
          throw fail(
            given.place, path + ["$extensions"],
            "defaultContext must name one of the contexts, found \(given.described)")
        }
        modifier.defaultThemeContext = text
      }
      if let given = ours["contexts"] {
        guard let members = given.members else {
          throw fail(
            given.place, path + ["$extensions"],
            "contexts must be an object of context names and columns, found \(given.described)")
        }
        for member in members {
          guard modifier.hasContext(named: member.name) else {
            throw fail(
              member.place, path + ["$extensions"], "\(ShownText.quoted(member.name)) names no context")
          }
          guard let text = member.value.string, DMDesignTokens.isColumnName(text) else {
            throw fail(
              member.value.place, path + ["$extensions"],
              member.value.string.map(DMDesignTokens.notAColumnName)
                ?? "a context's column must be a column name (NIGHT, SEPIA:light), found \(member.value.described)"
            )
          }
          modifier.contextColumns[ExactText(member.name)] = (text, member.value.place)
        }
      }
      if let list = ours["keys"], case .array(let names) = list.value {
        for item in names where item.string == nil {
          throw fail(item.place, path + ["$extensions"], "a key must be a string, found \(item.described)")
        }
        modifier.keys = names.compactMap(\.string)
      }
    }
    modifiers[ExactText(name)] = modifier
    order.append(.modifier(name: name))
  }

  // MARK: Resolving

  /// The tokens of one entry of the resolution order, each set and context merged once: a set's
  /// tree, or a modifier's tree for each context, each with the work it adds to a column.
  private enum Piece {
    case set(TokenTree, Work)
    case modifier(name: String, contexts: [ExactText: (tree: TokenTree, work: Work)])
  }

  /// The tokens of the sets before the first modifier, which every column reads without merging
  /// them, and the pieces each column merges over them.
  private struct Pieces {
    var first: TokenTree.Below
    var firstWork: Work
    var rest: [Piece]
  }

  /// What a tree adds to the work of each column that takes it, by the measures the columns are
  /// bounded by.
  private struct Work {
    /// Its tokens and group types: each is a merge.
    var merged = 0
    /// The bytes of their paths.
    var mergedBytes = 0
    /// Its tokens outside the helper groups: each is read one by one.
    var read = 0
    /// The bytes of their paths: each read is a lookup by path.
    var readBytes = 0

    init() {}

    /// The work of `tree`, `names` being its tokens outside the helper groups.
    init(of tree: TokenTree, reading names: [String]) {
      merged = tree.mergedEntries
      mergedBytes = tree.pathBytes
      read = names.count
      readBytes = names.reduce(0) { $0 + $1.utf8.count }
    }

    /// Each measure, with its bound on all the columns together and what it counts.
    static var bounds: [(measure: WritableKeyPath<Work, Int>, limit: Int, what: String)] {
      [
        (\.merged, maximumMergedTokens, "tokens and group types"),
        (\.read, maximumColumnTokens, "tokens"),
        (\.mergedBytes, maximumColumnPathBytes, "bytes of merged paths"),
        (\.readBytes, maximumColumnPathBytes, "bytes of token paths"),
      ]
    }
  }

  /// Each set and context's tree, and the tree of the sets before the first modifier.
  private func pieces() throws(DMDesignTokensError) -> Pieces {
    // Contexts made of the same sources (each naming one shared set) share one tree.
    var trees: [[TextPlace]: (tree: TokenTree, work: Work)] = [:]
    // What the trees hold so far: each column merges or reads at least its share of it, so past
    // the columns' bounds the document is refused before more is read.
    var total = Work()
    func tree(of sources: [JSONNode]) throws(DMDesignTokensError) -> (tree: TokenTree, work: Work) {
      let places = sources.map(\.place)
      if let known = trees[places] { return known }
      var tree = TokenTree()
      try tree.add(sources, root: pointerRoot)
      let work = Work(of: tree, reading: tree.names(outside: helperGroups))
      trees[places] = (tree, work)
      for (measure, limit, what) in Work.bounds {
        total[keyPath: measure] += work[keyPath: measure]
        guard total[keyPath: measure] > limit else { continue }
        throw fail(
          sources.first?.place ?? document.place, ["resolutionOrder"],
          "the sets and contexts come to more than \(limit) \(what) (many contexts, each with the tokens "
            + "of a large set)")
      }
      return (tree, work)
    }
    // The sources of the sets before the first modifier, in order, read as one list: a set named
    // again is read once.
    var firstSources: [JSONNode] = []
    var rest: [Piece] = []
    for entry in order {
      switch entry {
      case .set(let sources) where rest.isEmpty:
        firstSources += sources
      case .set(let sources):
        let (tree, work) = try tree(of: sources)
        rest.append(.set(tree, work))
      case .modifier(let name):
        var contexts: [ExactText: (tree: TokenTree, work: Work)] = [:]
        for context in modifiers[ExactText(name)]!.contexts {
          contexts[ExactText(context.name)] = try tree(of: context.sources)
        }
        rest.append(.modifier(name: name, contexts: contexts))
      }
    }
    var first = TokenTree()
    try first.add(firstSources, root: pointerRoot)
    let below = TokenTree.Below(first)
    // Every column reads the first tree's tokens, but merges none of them.
    var firstWork = Work(of: first, reading: below.names(outside: helperGroups))
    firstWork.merged = 0
    firstWork.mergedBytes = 0
    return Pieces(first: below, firstWork: firstWork, rest: rest)
  }

  /// The tokens for one choice of context per modifier: the pieces merged in order over the first.
  private func resolve(_ input: [ExactText: String], from pieces: Pieces) -> TokenTree {
    var tree = TokenTree(over: pieces.first)
    for piece in pieces.rest {
      switch piece {
      case .set(let set, _): tree.add(set)
      case .modifier(let name, let contexts):
        let modifier = modifiers[ExactText(name)]!
        let context = input[ExactText(name)] ?? modifier.defaultContext ?? modifier.contexts[0].name
        if let chosen = contexts[ExactText(context)] {
          tree.add(chosen.tree)
        }
      }
    }
    return tree
  }

  /// Refuses to resolve `count` columns from `pieces` when the work of each (the first tree's
  /// tokens read, and the largest context of each modifier and each later set merged) could come
  /// to more than a bound of ``Work`` all together: a modifier with many contexts before large
  /// sets would otherwise make a small document take minutes.
  private func checkWork(columns count: Int, of pieces: Pieces) throws(DMDesignTokensError) {
    for (measure, limit, what) in Work.bounds {
      let each = pieces.rest.reduce(pieces.firstWork[keyPath: measure]) { total, piece in
        switch piece {
        case .set(_, let work): total + work[keyPath: measure]
        case .modifier(_, let contexts):
          total + (contexts.values.map { $0.work[keyPath: measure] }.max() ?? 0)
        }
      }
      let (product, overflow) = count.multipliedReportingOverflow(by: each)
      guard overflow || product > limit else { continue }
      throw fail(
        document["resolutionOrder"]!.place, ["resolutionOrder"],
        "\(count) columns of up to \(each) \(what) each come to more than \(limit) \(what) "
          + "(many contexts, each with the tokens of every set)")
    }
  }

  /// The most columns a document may make: a table's header of that many themes is already some
  /// megabytes.
  static let maximumColumns = 100_000

  /// The most sources the sets and contexts of a document may come to, all together, their
  /// references to sets expanded.
  static let maximumSources = 1_000_000

  /// The most tokens and group types that the columns of a document may merge, all together, as `checkWork`
  /// estimates them.
  static let maximumMergedTokens = 4_000_000

  /// The most tokens outside the helper groups that the columns of a document may read, all
  /// together: a table of a million colours is already some eight megabytes of text.
  static let maximumColumnTokens = 1_000_000

  /// The most bytes of token paths that the columns of a document may read, all together: four
  /// times what a file may hold.
  static let maximumColumnPathBytes = 4 * DMColorTable.defaultMaximumFileSize

  /// The table's columns: each resolved for its theme, side and contrast.
  func columns() throws(DMDesignTokensError) -> [DMDesignTokens.Column] {
    let all = Array(modifiers.values).sorted {
      $0.place.line < $1.place.line || ($0.place.line == $1.place.line && $0.place.column < $1.place.column)
    }
    /// The names of a modifier's contexts in lower case; none for a modifier of more than two.
    func contextNames(_ modifier: Modifier) -> Set<String> {
      modifier.contexts.count == 2 ? Set(modifier.contexts.map { $0.name.lowercased() }) : []
    }
    let schemes = all.filter { contextNames($0) == ["light", "dark"] }
    let contrasts = all.filter {
      contextNames($0) == ["normal", "more"] || contextNames($0) == ["normal", "high"]
    }
    for (found, what) in [(schemes, "the style (light, dark)"), (contrasts, "the contrast (normal, more)")]
    where found.count > 1 {
      throw fail(
        found[1].place, found[1].path,
        "the modifiers \(ShownText.quoted(found[0].name)) and \(ShownText.quoted(found[1].name)) both choose "
          + "\(what): a table has one")
    }
    let scheme = schemes.first
    let contrast = contrasts.first
    let themes = all.filter {
      ExactText($0.name) != scheme.map { ExactText($0.name) }
        && ExactText($0.name) != contrast.map { ExactText($0.name) }
    }
    guard themes.count <= 1 else {
      throw fail(
        themes[1].place, themes[1].path,
        "more than one modifier chooses the theme (\(themes.map { ShownText.quoted($0.name) }.joined(separator: ", "))): "
          + "a table has one theme at a time, a style (light, dark) and a contrast (normal, more)")
    }
    let theme = themes.first
    func context(_ modifier: Modifier?, _ wanted: String) -> String? {
      modifier?.contexts.first { $0.name.lowercased() == wanted }?.name
    }
    func input(theme themeContext: String?, side: DMUserInterfaceStyle, high: Bool) -> [ExactText: String] {
      var input: [ExactText: String] = [:]
      if let theme, let themeContext { input[ExactText(theme.name)] = themeContext }
      if let scheme { input[ExactText(scheme.name)] = context(scheme, side == .dark ? "dark" : "light") }
      if let contrast {
        input[ExactText(contrast.name)] =
          high ? context(contrast, "more") ?? context(contrast, "high") : context(contrast, "normal")
      }
      return input
    }
    // Refused before any set or context is merged: each column costs its own walk of the tokens.
    let columnCount =
      theme?.columns?.count
      ?? (theme?.contexts.count ?? 1) * (scheme == nil ? 1 : 2) * (contrast == nil ? 1 : 2)
    guard columnCount <= Self.maximumColumns else {
      throw fail(
        theme?.place ?? document.place, theme?.path ?? ["resolutionOrder"],
        "the modifiers make \(columnCount) columns, more than \(Self.maximumColumns)")
    }
    let pieces = try pieces()
    /// The context's path, for errors about its columns.
    func contextPath(_ themeContext: String?) -> [String] {
      guard let theme else { return [] }
      return theme.path + (themeContext.map { ["contexts", $0] } ?? [])
    }
    let keyOrder = theme?.keys.map { (list: $0, set: Set($0.map(ExactText.init))) }
    /// `columns`, unless they are DarkModeKit's export with no key while its helper groups hold
    /// tokens: a modifier that names the keys was left out of the resolution order.
    func withKeys(_ columns: [DMDesignTokens.Column]) throws(DMDesignTokensError) -> [DMDesignTokens.Column] {
      guard !helperGroups.isEmpty, columns.allSatisfy({ $0.keys.isEmpty }),
        !resolve([:], from: pieces).names(outside: []).isEmpty
      else { return columns }
      throw fail(
        document["resolutionOrder"]!.place, ["resolutionOrder"],
        "the tokens are all in DarkModeKit's helper groups (\(helperGroups.sorted().joined(separator: ", "))), "
          + "which hold no keys: the modifier that names the keys is missing from resolutionOrder")
    }
    func column(_ name: String, _ input: [ExactText: String], listedAt listed: TextPlace? = nil)
      throws(DMDesignTokensError) -> DMDesignTokens.Column
    {
      let themeContext = theme.flatMap { input[ExactText($0.name)] }
      var column = try DMDesignTokens.column(
        name, of: resolve(input, from: pieces), excluding: helperGroups,
        place: listed ?? theme?.place ?? document.place,
        path: listed != nil ? (theme?.path ?? []) + ["$extensions"] : contextPath(themeContext))
      // The table's order of keys, which groups of tokens do not keep.
      if let keyOrder, keyOrder.list.count == column.keys.count,
        keyOrder.set == Set(column.keys.map(ExactText.init))
      {
        column.keys = keyOrder.list
      }
      return column
    }

    // The columns DarkModeKit's own export lists.
    if let theme, let listed = theme.columns {
      try checkWork(columns: listed.count, of: pieces)
      var columns: [DMDesignTokens.Column] = []
      for (name, place) in listed {
        // Checked when the list was read.
        let variant = ThemeColumn(name)!
        guard theme.hasContext(named: variant.themeName) else {
          throw fail(
            place, theme.path + ["$extensions"],
            "the column \(ShownText.quoted(name)) has no context")
        }
        columns.append(
          try column(
            name,
            input(
              theme: variant.themeName, side: variant.userInterfaceStyle,
              high: variant.accessibilityContrast == .high), listedAt: place))
      }
      return try withKeys(columns)
    }

    // A theme modifier whose contexts say their side in their names (`light`, `dark-dimmed`,
    // `lightHighContrast`), or in DarkModeKit's `$extensions`: a column for each context.
    if let theme, let read = try Self.contextColumns(of: theme) {
      try checkWork(columns: read.count * (contrast == nil ? 1 : 2), of: pieces)
      var columns: [DMDesignTokens.Column] = []
      var given: [ExactText: String] = [:]
      for (themeContext, name) in read {
        if let other = given.updateValue(themeContext, forKey: ExactText(name)) {
          throw fail(
            theme.place, contextPath(themeContext),
            "the contexts \(ShownText.quoted(other)) and \(ShownText.quoted(themeContext)) both give the column "
              + "\(ShownText.quoted(name)); name one in \(DesignTokens.vendor)'s $extensions (\"contexts\")")
        }
        guard let variant = ThemeColumn(name) else {
          throw fail(
            theme.place, contextPath(themeContext),
            "the context \(ShownText.quoted(themeContext)) gives the column \(ShownText.quoted(name)), but "
              + DMDesignTokens.notAColumnName(name)
              + "; name its column in \(DesignTokens.vendor)'s $extensions "
              + "(\"contexts\")")
        }
        TokenReading.note(
          theme.place, contextPath(themeContext),
          "the context \(ShownText.quoted(themeContext)) is read as the column \(name)", kind: .note)
        let isHigh = variant.accessibilityContrast == .high
        let normal = try column(
          name, input(theme: themeContext, side: variant.userInterfaceStyle, high: isHigh))
        columns.append(normal)
        // A contrast modifier beside it gives each context's high contrast, unless a context of
        // its own does; kept when it differs.
        if contrast != nil, !isHigh, !read.contains(where: { $0.column == name + ":high" }) {
          let high = try column(
            name + ":high", input(theme: themeContext, side: variant.userInterfaceStyle, high: true))
          if high.colors != normal.colors { columns.append(high) }
        }
      }
      // The default theme's columns first, as a table's header has them.
      let isDefault = { (column: DMDesignTokens.Column) in
        ThemeColumn(column.name).map { ThemeColumn.isDefaultSide($0.themeName) } ?? false
      }
      return try withKeys(columns.filter(isDefault) + columns.filter { !isDefault($0) })
    }

    // Any other document: the default theme, then each other context of the theme modifier.
    var columns: [DMDesignTokens.Column] = []
    var defaults: [DMDesignTokens.Column] = []
    /// Refuses a context named as a side of the default theme (`NIGHT`) whose other side has
    /// colours of its own, neither its own side's (`own`: its column, then its high-contrast one
    /// when that differs) nor the default context's: only its own side is a column, so they
    /// would be lost.
    func checkOtherSide(
      of name: String, _ side: DMUserInterfaceStyle, _ themeContext: String, own: [DMDesignTokens.Column]
    ) throws(DMDesignTokensError) {
      guard scheme != nil else { return }
      let other: DMUserInterfaceStyle = side == .dark ? .light : .dark
      for high in contrast == nil ? [false] : [false, true] {
        let given = try column(name, input(theme: themeContext, side: other, high: high))
        let ownSide = high ? own[own.count - 1] : own[0]
        func fromDefault(_ contrast: DMAccessibilityContrast) -> DMDesignTokens.Column? {
          defaults.first {
            let variant = ThemeColumn($0.name)
            return variant?.userInterfaceStyle == other && variant?.accessibilityContrast == contrast
          }
        }
        let defaultColumn = high ? fromDefault(.high) ?? fromDefault(.normal) : fromDefault(.normal)
        guard given.colors != ownSide.colors, given.colors != defaultColumn?.colors else { continue }
        throw fail(
          theme?.place ?? document.place, contextPath(themeContext),
          "the context \(ShownText.quoted(themeContext)) gives its \(other)\(high ? " high-contrast" : "") side "
            + "colours of its own: a context named as a side of the default theme (NORMAL, NIGHT, DARK) "
            + "gives only that side; give the theme another name to keep both")
      }
    }
    let defaultContext = theme.map { $0.defaultThemeContext ?? $0.defaultContext ?? $0.contexts[0].name }
    let themeContexts: [(column: String?, context: String?)] =
      [(nil, defaultContext)]
      + (theme?.contexts.filter { ExactText($0.name) != defaultContext.map(ExactText.init) }.map {
        (DMDesignTokens.keyName($0.name), $0.name)
      } ?? [])
    for case (let name?, let themeContext?) in themeContexts
    where name.utf8.count > DMThemeVariant.maximumThemeNameLength {
      throw fail(
        theme?.place ?? document.place, contextPath(themeContext),
        "the context \(ShownText.quoted(themeContext)) gives the theme name \(ShownText.quoted(name))"
          + (name == themeContext ? "" : " (a theme name has \"_\" for each character it cannot have)")
          + ", \(name.utf8.count) bytes long, more than \(DMThemeVariant.maximumThemeNameLength)")
    }
    try checkWork(
      columns: themeContexts.count * (scheme == nil ? 1 : 2) * (contrast == nil ? 1 : 2), of: pieces)
    for (name, themeContext) in themeContexts {
      // A context named as a side of the default theme (`NORMAL`, `NIGHT`, `DARK`: DarkModeKit's
      // own export has a context for each theme of the header) gives that side: its column, and
      // its high-contrast one, unless the default context gave the same colours for that side.
      if let name, let themeContext, ThemeColumn.isDefaultSide(name), let own = ThemeColumn(name) {
        var sideColumns = [
          try column(name, input(theme: themeContext, side: own.userInterfaceStyle, high: false))
        ]
        if contrast != nil {
          let high = try column(
            name + ":high", input(theme: themeContext, side: own.userInterfaceStyle, high: true))
          if high.colors != sideColumns[0].colors { sideColumns.append(high) }
        }
        try checkOtherSide(of: name, own.userInterfaceStyle, themeContext, own: sideColumns)
        for candidate in sideColumns {
          let variant = ThemeColumn(candidate.name)
          if let known = defaults.first(where: { ThemeColumn($0.name) == variant }),
            known.colors != candidate.colors
          {
            throw fail(
              theme?.place ?? document.place, contextPath(themeContext),
              "the context \(ShownText.quoted(themeContext)) gives the column \(ShownText.quoted(candidate.name)) "
                + "other colours than the default context does")
          }
          // `DARK` beside `NIGHT` is a theme of its own, kept even with `NIGHT`'s colours.
          let given = defaults.contains { known in
            let knownVariant = ThemeColumn(known.name)
            return knownVariant?.themeName == variant?.themeName
              && knownVariant?.userInterfaceStyle == variant?.userInterfaceStyle
              && knownVariant?.accessibilityContrast == variant?.accessibilityContrast
              && known.colors == candidate.colors
          }
          if !given { columns.append(candidate) }
        }
        continue
      }
      let light = try column(name ?? "NORMAL", input(theme: themeContext, side: .light, high: false))
      var sides = [light]
      // The high-contrast columns of each side, when comparing the sides needed them.
      var highSides: (light: DMDesignTokens.Column, dark: DMDesignTokens.Column)?
      if scheme != nil {
        let dark = try column(
          name.map { $0 + ":dark" } ?? "NIGHT", input(theme: themeContext, side: .dark, high: false))
        var sidesDiffer = name == nil || dark.colors != light.colors
        // Sides the same in normal contrast may differ in high contrast: both are kept then.
        if !sidesDiffer, contrast != nil, let name {
          let found = (
            light: try column(name + ":high", input(theme: themeContext, side: .light, high: true)),
            dark: try column(name + ":dark:high", input(theme: themeContext, side: .dark, high: true))
          )
          sidesDiffer = found.light.colors != found.dark.colors
          highSides = found
        }
        if sidesDiffer {
          if let name { sides[0].name = name + ":light" }
          sides.append(dark)
        }
      }
      var all = sides
      if contrast != nil {
        for normal in sides {
          let side: DMUserInterfaceStyle =
            normal.name.hasSuffix(":dark") || normal.name == "NIGHT" ? .dark : .light
          var highColumn: DMDesignTokens.Column
          if let highSides {
            highColumn = side == .dark ? highSides.dark : highSides.light
            highColumn.name = normal.name + ":high"
          } else {
            highColumn = try column(normal.name + ":high", input(theme: themeContext, side: side, high: true))
          }
          if highColumn.colors != normal.colors { all.append(highColumn) }
        }
      }
      if name == nil { defaults = all }
      columns += all
    }
    return try withKeys(columns)
  }

  /// The column each context of the theme modifier gives, in order, when the contexts say their
  /// side: every context's name (`dark-dimmed` is the dark side of `DIMMED`), or DarkModeKit's
  /// `$extensions` for it; `nil` for a modifier whose contexts are themes.
  private static func contextColumns(of modifier: Modifier) throws(DMDesignTokensError)
    -> [(context: String, column: String)]?
  {
    var columns: [(context: String, column: String)] = []
    for (name, _) in modifier.contexts {
      if let given = modifier.contextColumns[ExactText(name)] {
        columns.append((name, given.column))
      } else if let read = column(readingContext: name) {
        columns.append((name, read))
      } else if modifier.contextColumns.isEmpty {
        return nil
      } else {
        throw TokenTree.fail(
          modifier.place, modifier.path + ["contexts", name],
          "the context \(ShownText.quoted(name)) says no side (light or dark) in its name: give its column in "
            + "\(DesignTokens.vendor)'s $extensions (\"contexts\") as for the others")
      }
    }
    return columns
  }

  /// The words of a context's name, in lower case: split at any character that is not a letter
  /// or a digit, and where a capital follows a small letter (`lightHighContrast`); digits stay in
  /// their word (`light2`).
  static func words(ofContext name: String) -> [String] {
    var words: [String] = []
    var word = ""
    var previousIsLower = false
    for character in name {
      guard character.isLetter || character.isNumber else {
        if !word.isEmpty { words.append(word.lowercased()) }
        word = ""
        previousIsLower = false
        continue
      }
      if character.isUppercase, previousIsLower {
        words.append(word.lowercased())
        word = ""
      }
      word.append(character)
      previousIsLower = character.isLowercase
    }
    if !word.isEmpty { words.append(word.lowercased()) }
    return words
  }

  /// The column a context's name says, when it says its side: `light` and `dark` the sides of the
  /// default theme (`NORMAL`, `NIGHT`), `high-contrast` (or `HighContrast`, `hc`) its high
  /// contrast, and the other words of the name the theme (`dark-dimmed` is `DIMMED:dark`); `nil`
  /// for a name without a side, or with two.
  static func column(readingContext name: String) -> String? {
    let words = words(ofContext: name)
    var side: DMUserInterfaceStyle?
    var isHigh = false
    var rest: [String] = []
    var index = 0
    while index < words.count {
      switch words[index] {
      case "light", "dark":
        guard side == nil else { return nil }
        side = words[index] == "dark" ? .dark : .light
      case "high" where index + 1 < words.count && words[index + 1] == "contrast":
        isHigh = true
        index += 1
      case "highcontrast", "hc": isHigh = true
      default: rest.append(words[index])
      }
      index += 1
    }
    guard let side else { return nil }
    var column: String
    if rest.isEmpty {
      column = side == .dark ? "NIGHT" : "NORMAL"
    } else {
      column =
        DMDesignTokens.keyName(rest.joined(separator: "_").uppercased())
        + (side == .dark ? ":dark" : ":light")
    }
    if isHigh { column += ":high" }
    return column
  }

  private func fail(_ place: TextPlace, _ path: [String], _ message: String) -> DMDesignTokensError {
    TokenTree.fail(place, path, message)
  }
}
