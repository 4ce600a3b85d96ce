import DarkModeKit
import DarkModeKitText
import Foundation

/// The tokens of one or more design-tokens documents merged in order, as the Format module reads
/// them: each token with its path, its type (its own, its groups', or that of the token it refers
/// to), and its value still unresolved.
struct TokenTree {
  /// A class, so that the lookups that follow references and the merges of trees copy one
  /// reference instead of every field.
  final class Token: Sendable {
    /// The names from the root, `$root` included, joined by dots (no name holds one).
    let name: String
    /// The token's `$value`, or its `$ref` object.
    let value: JSONNode
    /// The token's own `$type`; see `type(_:)` for the one it has.
    let type: String?
    let place: TextPlace
    /// The key DarkModeKit's `$extensions` give it, if any.
    let key: String?
    /// The key it has in a table, found once for all the columns; `nil` when `key` is not a
    /// valid key.
    let tableKey: String?
    /// The root of the document the token came from, for `$ref` pointers.
    let document: JSONNode
    /// Tokens Studio's colour modifier (`$extensions.studio.tokens.modify`), if it has one.
    let modifier: StudioModifier?

    /// The names from the root, `$root` included; made from ``name`` when asked for (for
    /// messages), so that a token holds one string rather than an array of them.
    var path: [String] { TokenTree.path(of: name) }

    init(
      name: String, value: JSONNode, type: String?, place: TextPlace, key: String?, tableKey: String?,
      document: JSONNode, modifier: StudioModifier? = nil
    ) {
      self.name = name
      self.value = value
      self.type = type
      self.place = place
      self.key = key
      self.tableKey = tableKey
      self.document = document
      self.modifier = modifier
    }
  }

  /// A colour modifier of Tokens Studio: `alpha` of a number is applied; the others (`lighten`,
  /// `darken`, `mix`, an alpha of a reference) are not, and leave the token out, for the reason
  /// given.
  indirect enum StudioModifier {
    case alpha(Double)
    case notApplied(reason: String)
  }

  /// The types the Format module defines.
  static let types: Set<String> = [
    "color", "dimension", "fontFamily", "fontWeight", "duration", "cubicBezier", "number", "strokeStyle",
    "border", "transition", "shadow", "gradient", "typography",
  ]

  /// The tokens added to this tree, by path; `token(_:)` finds those of the tree below too.
  private var tokens: [ExactText: Token] = [:]
  /// The `$type` of each group that has one, by path (`""` for the root), the latest source's
  /// winning: groups merge, so a token added by a later source inherits the type its group got
  /// from an earlier one.
  private var groupTypes: [ExactText: String] = [:]
  /// How many names the paths of the groups with a type have (0 for the root), here and below,
  /// deepest first: a token's type is looked for only at those depths.
  private var groupTypeDepths: [Int] = []
  /// The bytes of the paths of the tokens read into this tree; see ``maximumPathBytes``.
  private(set) var pathBytes = 0
  /// The paths of the tokens added to this tree and not in the tree below, in the order they
  /// first appeared.
  private(set) var order: [String] = []
  /// What reading the tree has found so far.
  private var memo = Memo()
  /// The tree this one adds to, shared rather than copied: the columns of a resolver document
  /// each add their contexts to the tokens of the sets that come first.
  private var below: Below?

  /// A tree that trees add to without copying it.
  final class Below {
    let tree: TokenTree
    /// The names of `tree`'s tokens outside the groups last asked for, found once for all the
    /// columns that add to it.
    private var names: (excluded: Set<String>, names: [String])?

    init(_ tree: TokenTree) { self.tree = tree }

    func names(outside excluded: Set<String>) -> [String] {
      if let names, names.excluded == excluded { return names.names }
      let found = tree.names(outside: excluded)
      names = (excluded, found)
      return found
    }
  }

  /// What reading a tree found: each token's type and colour, the colour each pointer leads to. It holds while the tree stays as it is, so copies of a tree
  /// share it, and adding tokens starts a new one.
  private final class Memo {
    var types: [ExactText: String?] = [:]
    /// With how many references below the token (or the pointer) the colour was found: a
    /// colour found within the reference limit from one place may be too deep from another.
    var colors: [ExactText: (color: DMColor, depth: Int)] = [:]
    var pointers: [ExactText: (color: DMColor, depth: Int)] = [:]
    /// Why a token that references lead to is left out (`nil` for not), by its name: its text is
    /// read once however many references lead to it.
    var leftOut: [ExactText: String?] = [:]
    /// The first path of each path in lower case, made the first time a reference names nothing.
    var lowercasedNames: [String: String]?
    /// Whether any token may be left out of a table (see `whyLeftOut(_:)`), found the first time
    /// it is asked.
    var mayLeaveOut: Bool?
  }

  init() {}

  /// An empty tree over `below`: it holds the tokens of `below` as if they had been added to it.
  init(over below: Below) {
    self.below = below
    groupTypeDepths = below.tree.groupTypeDepths
  }

  /// The token at `name` (its path, joined with `.`), the latest added.
  func token(_ name: String) -> Token? {
    // A longer name cannot be a token's: a reference to one costs no hashing of it.
    guard name.utf8.count <= Self.maximumPathLength else { return nil }
    return token(ExactText(name))
  }

  private func token(_ name: ExactText) -> Token? { tokens[name] ?? below?.tree.token(name) }

  /// The longest path a token may have, in UTF-8 bytes, its names joined with `.`; a name may be
  /// at most a quarter of it. Each token holds its path: a file of long names would otherwise
  /// hold gigabytes.
  static let maximumPathLength = 4_096

  /// How many tokens the tree holds, those below included.
  var count: Int { order.count + (below?.tree.count ?? 0) }

  /// How many entries adding this tree to another merges: its own tokens and group types.
  var mergedEntries: Int { order.count + groupTypes.count }

  /// The paths of the tokens outside the groups `excluded` names, in the order they first appeared.
  func names(outside excluded: Set<String>) -> [String] {
    let mine =
      excluded.isEmpty
      ? order
      : order.filter { name in
        // The first name of the path: up to the first dot, which no name holds.
        let end = name.utf8.firstIndex(of: UInt8(ascii: ".")) ?? name.utf8.endIndex
        return !excluded.contains(String(name[..<end]))
      }
    guard let below else { return mine }
    return below.names(outside: excluded) + mine
  }

  /// The path of a token that differs from `name` in the case of its letters only, for the error
  /// about a reference to `name` that names no token.
  func nameDiffering(onlyInCaseFrom name: String) -> String? {
    // Found in a table made once: a file of many references to nothing would otherwise look
    // through every token for each.
    if memo.lowercasedNames == nil {
      var names: [String: String] = [:]
      for name in order where names[name.lowercased()] == nil { names[name.lowercased()] = name }
      memo.lowercasedNames = names
    }
    return memo.lowercasedNames?[name.lowercased()] ?? below?.tree.nameDiffering(onlyInCaseFrom: name)
  }

  /// The `$type` the group at `path` (its names joined with `.`) declares, if it declares one.
  private func ownType(ofGroup path: ExactText) -> String? {
    groupTypes[path] ?? below?.tree.ownType(ofGroup: path)
  }

  /// The `$type` the token at `name` inherits: that of its nearest enclosing group with one. Only
  /// the depths at which some group has a type are looked at, so that a deep token under a type
  /// at the root costs one lookup.
  private func inheritedType(ofTokenNamed name: String) -> String? {
    var dots: [String.Index] = []
    var index = name.utf8.startIndex
    while let dot = name.utf8[index...].firstIndex(of: UInt8(ascii: ".")) {
      dots.append(dot)
      index = name.utf8.index(after: dot)
    }
    for depth in groupTypeDepths where depth <= dots.count {
      let group = depth == 0 ? "" : String(name[..<dots[depth - 1]])
      if let type = ownType(ofGroup: ExactText(group)) { return type }
    }
    return nil
  }

  /// The most bytes the paths of the tokens read into a tree may come to, all together: as much
  /// as a file may hold. Each token holds its path: a small file of deep groups with long names
  /// would otherwise hold gigabytes.
  static let maximumPathBytes = DMColorTable.defaultMaximumFileSize

  /// Adds the tokens of `sources` in order (token files, or sources of a resolver document whose
  /// root is `root`): a token at a path already taken replaces the earlier one. A source named
  /// more than once is read once; the sources are then merged again, each once, in the order each
  /// last comes, which decides which source's token wins.
  mutating func add(_ sources: [JSONNode], root: JSONNode? = nil) throws(DMDesignTokensError) {
    var read: [TextPlace: Reader] = [:]
    // In the order each source first comes: the order the tokens first appear in.
    for source in sources where read[source.place] == nil {
      // A source from a file the document names has that file's pointers.
      let reader = try Reader.read(
        source, root: TokenReading.root(ofFile: source.place.file) ?? root ?? source,
        budget: Self.maximumPathBytes - pathBytes)
      pathBytes += reader.pathBytes
      read[source.place] = reader
      merge(reader)
    }
    guard read.count < sources.count else { return }
    // Again in the order each source last comes, which decides which source's token wins.
    var last: [TextPlace: Int] = [:]
    for (index, source) in sources.enumerated() { last[source.place] = index }
    for (index, source) in sources.enumerated() where last[source.place] == index {
      merge(read[source.place]!)
    }
  }

  /// Adds the tokens of `document` (a token file, or a source of a resolver document whose root is
  /// `root`); a token at a path already taken replaces the earlier one. `parent` is the group
  /// `document` is a member of, when it is read as a document of its own: its `$type` holds
  /// for the tokens without one.
  mutating func add(_ document: JSONNode, root: JSONNode? = nil, parent: JSONNode? = nil)
    throws(DMDesignTokensError)
  {
    let reader = try Reader.read(
      document, root: root ?? document, parent: parent, budget: Self.maximumPathBytes - pathBytes)
    pathBytes += reader.pathBytes
    merge(reader)
  }

  private mutating func merge(_ reader: Reader) {
    mergeGroupTypes(reader.groupTypes)
    memo = Memo()
    tokens.reserveCapacity(tokens.count + reader.found.count)
    for found in reader.found {
      let name = ExactText(found.name)
      // One lookup of the name here: a new one is new below too unless there is a tree below.
      if tokens.updateValue(found.token, forKey: name) == nil, below?.tree.token(name) == nil {
        order.append(found.name)
      }
    }
  }

  /// Adds the tokens of `other` (a tree with none below it), as adding the sources it was made of
  /// would.
  mutating func add(_ other: TokenTree) {
    mergeGroupTypes(other.groupTypes)
    for name in other.order {
      let key = ExactText(name)
      if token(key) == nil { order.append(name) }
      tokens[key] = other.tokens[key]
    }
    memo = Memo()
  }

  private mutating func mergeGroupTypes(_ types: [ExactText: String]) {
    guard !types.isEmpty else { return }
    groupTypes.merge(types) { _, new in new }
    var depths = Set(groupTypeDepths)
    for path in types.keys {
      depths.insert(path.text.isEmpty ? 0 : path.text.utf8.count { $0 == UInt8(ascii: ".") } + 1)
    }
    groupTypeDepths = depths.sorted(by: >)
  }

  /// Whether `node`, a member of a group, is a token (in either form) rather than a group.
  static func isToken(_ node: JSONNode) -> Bool {
    if node["$value"] != nil || node["$ref"] != nil { return true }
    // In the unprefixed form, unless `value` is a group of its own tokens.
    guard let value = node["value"], !contains(node, member: "$value") else { return false }
    return value["value"] == nil
  }

  /// Whether any object in `node` has a member `member`: a file whose tokens say `value` rather
  /// than `$value` is read in the unprefixed form of older drafts and of Tokens Studio.
  private static func contains(_ node: JSONNode, member: String, depth: Int = 0) -> Bool {
    switch node.value {
    case .object(let members):
      members.contains { $0.name == member || contains($0.value, member: member, depth: depth + 1) }
    case .array(let elements): elements.contains { contains($0, member: member, depth: depth + 1) }
    default: false
    }
  }

  /// The tokens and group types of one document, as read.
  private struct Reader {
    let unprefixed: Bool
    let root: JSONNode
    /// Each token with its path joined with `.`.
    var found: [(name: String, token: Token)] = []
    var groupTypes: [ExactText: String] = [:]
    /// The bytes of the found tokens' paths, and how many they may come to.
    var pathBytes = 0
    let budget: Int

    private init(unprefixed: Bool, root: JSONNode, budget: Int) {
      self.unprefixed = unprefixed
      self.root = root
      self.budget = budget
    }

    /// The tokens of `document`; see ``TokenTree/add(_:root:parent:)``.
    static func read(_ document: JSONNode, root: JSONNode, parent: JSONNode? = nil, budget: Int)
      throws(DMDesignTokensError) -> Reader
    {
      let unprefixed =
        !TokenTree.contains(document, member: "$value") && TokenTree.contains(document, member: "value")
      var reader = Reader(unprefixed: unprefixed, root: root, budget: budget)
      if let inherited = parent?[reader.reserved("$type")] {
        reader.groupTypes[ExactText("")] = try reader.checkedType(inherited, [], isGroup: true)
      }
      try reader.group(document, path: [], isRoot: true)
      return reader
    }

    /// The name a reserved member has in this file: `$value`, or `value` in the unprefixed form.
    func reserved(_ name: String) -> String {
      guard unprefixed, name == "$value" || name == "$type" || name == "$description" else { return name }
      return String(name.dropFirst())
    }

    private func isToken(_ node: JSONNode) -> Bool {
      node[reserved("$value")] != nil || node["$ref"] != nil
    }

    mutating func group(_ node: JSONNode, path: [String], isRoot: Bool) throws(DMDesignTokensError) {
      guard let members = node.members else {
        throw fail(node.place, path, "expected a group or a token (an object), found \(node.described)")
      }
      if let declared = node[reserved("$type")] {
        let name = path.joined(separator: ".")
        try count(name, node.place, path)
        groupTypes[ExactText(name)] = try checkedType(declared, path, isGroup: true)
      }
      for member in members {
        // A problem in one member leaves the rest to read, for a reading that lists them all.
        do throws(DMDesignTokensError) {
          try self.member(member, of: path, isRoot: isRoot)
        } catch {
          try TokenReading.readOn(past: error)
        }
      }
    }

    private mutating func member(_ member: JSONNode.Member, of path: [String], isRoot: Bool)
      throws(DMDesignTokensError)
    {
      let name = member.name
      let childPath = path + [name]
      switch name {
      case reserved("$type"): return
      case reserved("$description"), "$deprecated", "$extensions": return
      case "$schema" where isRoot, "$themes" where isRoot, "$metadata" where isRoot: return
      case "$root":
        guard isToken(member.value) else {
          throw fail(member.place, childPath, "$root must be a token (an object with a $value)")
        }
        try token(member.value, path: childPath)
      case "$extends":
        throw fail(
          member.place, path,
          "$extends (a group that extends another) is not supported; write the tokens out")
      default:
        if name.hasPrefix("$") {
          throw fail(member.place, childPath, "unknown property \(ShownText.quoted(name)) in a group")
        }
        try checkName(name, member.place, childPath)
        if isToken(member.value) {
          try token(member.value, path: childPath)
        } else {
          try group(member.value, path: childPath, isRoot: false)
        }
      }
    }

    /// Tokens Studio's `modify` object: its `type`, and for `alpha` its `value`, from 0 to 1.
    private static func studioModifier(_ modify: JSONNode, _ path: [String]) throws(DMDesignTokensError)
      -> StudioModifier
    {
      guard let type = modify["type"]?.string else {
        throw fail(modify.place, path, "Tokens Studio's modify needs a \"type\" string")
      }
      guard type == "alpha" else {
        return .notApplied(
          reason:
            "Tokens Studio's colour modifier \(ShownText.quoted(type)) is not applied (only \"alpha\" is)")
      }
      let given = modify["value"]
      let text = given?.string?.trimmingCharacters(in: .whitespaces)
      let alpha =
        given?.number
        ?? text.flatMap { $0.hasSuffix("%") ? Double($0.dropLast()).map { $0 / 100 } : Double($0) }
      // A reference or an expression (`{opacity}`, `{opacity} * 2`) is worked out by Tokens
      // Studio; here the colour is not known.
      guard let alpha else {
        return .notApplied(
          reason: "Tokens Studio's alpha modifier of \(given.map(\.described) ?? "nothing") is not applied "
            + "(only a number from 0 to 1 or a percentage is)")
      }
      guard alpha.isFinite, (0...1).contains(alpha) else {
        throw fail(
          (given ?? modify).place, path,
          "the alpha of Tokens Studio's modify must be from 0 to 1, found \(given?.described ?? "nothing")")
      }
      return .alpha(alpha)
    }

    private mutating func token(_ node: JSONNode, path: [String]) throws(DMDesignTokensError) {
      var type: String?
      var value: JSONNode?
      var key: String?
      var modifier: StudioModifier?
      for member in node.members ?? [] {
        switch member.name {
        case reserved("$value"), "$ref":
          guard value == nil else {
            throw fail(member.place, path, "a token has either $value or $ref, not both")
          }
          value = member.name == "$ref" ? node : member.value
          if member.name == "$ref", let pointer = member.value.string,
            pointer.utf8.count > TokenTree.maximumPointerLength
          {
            throw fail(
              member.value.place, path,
              "$ref is longer than \(TokenTree.maximumPointerLength) bytes: it can name no token")
          }
        case reserved("$type"): type = try checkedType(member.value, path, isGroup: false)
        case reserved("$description"):
          guard member.value.string != nil else {
            throw fail(
              member.value.place, path, "$description must be a string, found \(member.value.described)")
          }
        case "$deprecated":
          switch member.value.value {
          case .bool, .string: break
          default:
            throw fail(
              member.value.place, path,
              "$deprecated must be true, false or a string, found \(member.value.described)")
          }
        case "$extensions":
          guard let vendors = member.value.members else {
            throw fail(
              member.value.place, path, "$extensions must be an object, found \(member.value.described)")
          }
          if let studio = vendors.first(where: { $0.name == "studio.tokens" })?.value,
            let modify = studio["modify"]
          {
            modifier = try Self.studioModifier(modify, path)
          }
          if let ours = vendors.first(where: { $0.name == DesignTokens.vendor })?.value,
            let given = ours["key"]
          {
            guard let text = given.string else {
              throw fail(
                given.place, path, "the key in $extensions must be a string, found \(given.described)")
            }
            key = text
          }
        // The unprefixed form of Style Dictionary lets a token carry data of its own
        // (`attributes`, `comment`, …), which no colour depends on.
        case let name where unprefixed && !name.hasPrefix("$"): continue
        default:
          throw fail(
            member.place, path,
            "unknown property \(ShownText.quoted(member.name)) in a token (a token has $value, $type, "
              + "$description, $deprecated and $extensions)")
        }
      }
      guard let value else { throw fail(node.place, path, "the token has no $value") }
      guard path.reduce(path.count - 1, { $0 + $1.utf8.count }) <= TokenTree.maximumPathLength else {
        throw fail(
          node.place, Array(path.prefix(2)) + ["…"],
          "the token's path is longer than \(TokenTree.maximumPathLength) bytes")
      }
      let name = path.joined(separator: ".")
      try count(name, node.place, path)
      found.append(
        (
          name,
          Token(
            name: name, value: value, type: type, place: node.place, key: key,
            tableKey: DMDesignTokens.key(path: path, given: key, joined: name), document: root,
            modifier: modifier)
        ))
    }

    /// Counts the path `name` of a token or a typed group, each of which holds it, toward the
    /// budget.
    private mutating func count(_ name: String, _ place: TextPlace, _ path: [String])
      throws(DMDesignTokensError)
    {
      pathBytes += name.utf8.count
      guard pathBytes <= budget else {
        throw fail(
          place, Array(path.prefix(2)) + (path.count > 2 ? ["…"] : []),
          "the tokens' paths come to more than \(TokenTree.maximumPathBytes >> 20) MiB all together "
            + "(each token and typed group holds its path: deep groups with long names)")
      }
    }

    /// The `$type` in `node`, of a group or of a token.
    func checkedType(_ node: JSONNode, _ path: [String], isGroup: Bool) throws(DMDesignTokensError) -> String
    {
      guard let type = node.string else {
        throw fail(node.place, path, "$type must be a string, found \(node.described)")
      }
      // The unprefixed form of Tokens Studio has types of its own; only colours matter here.
      // Tokens of a type the Format module does not define are left out, said in a warning (an
      // error when the reading is strict).
      if !unprefixed, !TokenTree.types.contains(type) {
        try TokenReading.leaveOut(
          node.place, path,
          "unknown $type \(ShownText.quoted(type)): "
            + (isGroup
              ? "the group's tokens without a type of their own are left out" : "the token is left out"))
      }
      return type
    }

    private func checkName(_ name: String, _ place: TextPlace, _ path: [String]) throws(DMDesignTokensError) {
      if name.isEmpty { throw fail(place, path, "a token or group needs a name") }
      guard name.utf8.count <= TokenTree.maximumPathLength / 4 else {
        throw fail(
          place, Array(path.dropLast()) + [String(name.prefix(32)) + "…"],
          "a name may be at most \(TokenTree.maximumPathLength / 4) bytes long")
      }
      // By byte, which is by scalar for these ASCII ones: a combining mark after a dot makes one
      // character that is not a dot.
      if let bad = name.utf8.first(where: {
        $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") || $0 == UInt8(ascii: ".")
      }) {
        throw fail(
          place, path,
          "the name \(ShownText.quoted(name)) holds \(ShownText.quoted(String(UnicodeScalar(bad)))), which names may not"
        )
      }
    }
  }

  /// The names of the path `name`, which joins them with dots (no name holds one).
  static func path(of name: String) -> [String] {
    // By byte, as names are checked: a combining mark after a dot makes no other character.
    name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self)
    }
  }

  /// An error at `place` in the token or group at `path`.
  static func fail(_ place: TextPlace, _ path: [String], _ message: String) -> DMDesignTokensError {
    DMDesignTokensError(
      line: place.line, column: place.column, tokenPath: path.isEmpty ? nil : path.joined(separator: "."),
      message: message, path: TokenReading.path(ofFile: place.file))
  }

  // MARK: Colours

  /// The colour of the token at `name`, following references.
  func color(_ name: String) throws(DMDesignTokensError) -> DMColor {
    try resolved(name, hops: 0, start: name).color
  }

  /// The colour of `token`, the token at `name`, following references. Only the tokens that
  /// references lead to are remembered: most are read once.
  func color(of token: Token, named name: String) throws(DMDesignTokensError) -> DMColor {
    try resolved(name, token: token, hops: 0, start: name).color
  }

  /// The type of `token`, the token at `name`: its own, without a lookup, else as `type(_:)`
  /// finds it.
  func type(of token: Token, named name: String) -> String? { token.type ?? type(name) }

  /// The type of a token: its own, else that of the token it refers to, else its nearest group's.
  /// Each token's type is found once and remembered, so that reading colours through long chains
  /// of references costs one lookup a token rather than a walk along the chain each time.
  func type(_ name: String) -> String? {
    var cut = false
    return type(name, hops: 0, cut: &cut)
  }

  /// The type of `name`, `hops` references from where the search started. Each result is kept
  /// unless the reference limit cut the search short below it (`cut`): that result holds only for
  /// a search that started where this one did.
  private func type(_ name: String, hops: Int, cut: inout Bool) -> String? {
    let key = ExactText(name)
    if let known = memo.types[key] { return known }
    guard let token = token(name) else { return nil }
    guard hops < Self.maximumReferenceDepth else {
      cut = true
      return nil
    }
    var result = token.type
    var cutBelow = false
    // A reference that leads to no type (nothing, a group, a circle) leaves the groups' type, so
    // that reading the colour tells what is wrong with the reference.
    if result == nil, let target = Self.target(of: token.value) {
      result = type(target, hops: hops + 1, cut: &cutBelow)
    }
    if result == nil {
      result = inheritedType(ofTokenNamed: name)
    }
    if cutBelow {
      cut = true
    } else {
      memo.types[key] = result
    }
    return result
  }

  /// The type the value of a token without one gives it: `color` for a colour (a `#` string, a
  /// colour function such as `rgb(…)` or `oklch(…)`, or a colour object), `nil` for any other value.
  /// A reference is followed to the value it leads to; one that leads nowhere, round in a circle or
  /// too deep is a colour, so that reading it says what is wrong with it.
  func typeOfValue(_ name: String) -> String? {
    guard let value = finalValue(name) else { return "color" }
    if value["colorSpace"] != nil { return "color" }
    guard let text = value.string else { return nil }
    if text.hasPrefix("#") { return "color" }
    // A function of CSS Color 4 that reads as a colour; a word (`red`) may be a font's name.
    guard text.utf8.count <= 256, text.contains("("), case .success = CSSColorText.read(text) else {
      return nil
    }
    return "color"
  }

  /// Why the colour token `token` is left out of a table, if it is: it is a gradient, or refers
  /// to one (Tokens Studio's colour tokens may hold them: `linear-gradient(…)`,
  /// `repeating-radial-gradient(…)`), which a table cannot show; or a Tokens Studio modifier that is
  /// not applied (`darken`) is on the way from it to its colour.
  /// A circle of references is no reason here: reading the colour says what is wrong with it.
  func whyLeftOut(_ token: Token) -> String? {
    // Most trees have neither gradients nor modifiers left unapplied: one look at every token
    // saves following each token's references here.
    guard mayLeaveOut else { return nil }
    var token = token
    var reason: String?
    var seen: [String] = []
    for _ in 0..<Self.maximumReferenceDepth {
      if reason == nil, case .notApplied(let why) = token.modifier {
        reason = why + ": the token is left out"
      }
      if let target = Self.target(of: token.value) {
        guard let next = self.token(target), !seen.contains(target) else { return nil }
        seen.append(target)
        token = next
        continue
      }
      if let reason { return reason }
      let final = ExactText(token.name)
      if !seen.isEmpty, let known = memo.leftOut[final] { return known }
      var verdict: String?
      if token.value["$ref"] == nil, let text = token.value.string,
        let open = text.utf8.firstIndex(of: UInt8(ascii: "(")),
        text[..<open].lowercased().hasSuffix("gradient")
      {
        verdict = "a gradient, not a colour: the token is left out"
      }
      if !seen.isEmpty { memo.leftOut[final] = verdict }
      return verdict
    }
    return nil
  }

  /// Whether a token of the tree (or below it) has a modifier that is not applied, or a value with
  /// a `(` (which a gradient has): without one, no token is left out.
  private var mayLeaveOut: Bool {
    if let known = memo.mayLeaveOut { return known }
    let found =
      tokens.values.contains { token in
        if case .notApplied = token.modifier { return true }
        return token.value.string?.utf8.contains(UInt8(ascii: "(")) ?? false
      } || below?.tree.mayLeaveOut == true
    memo.mayLeaveOut = found
    return found
  }

  /// Where the value that gives `token` its colour is written: that of the last token its
  /// references lead to.
  func source(of token: Token) -> TextPlace {
    var token = token
    for _ in 0..<Self.maximumReferenceDepth {
      guard let target = Self.target(of: token.value), let next = self.token(target) else { break }
      token = next
    }
    return token.value.place
  }

  /// The value the token at `name` has once its references (by name, or by pointer to a token)
  /// are followed; `nil` for one that leads nowhere, round in a circle, too deep, or to a place
  /// that is not a token.
  private func finalValue(_ name: String) -> JSONNode? {
    var current = name
    for _ in 0..<Self.maximumReferenceDepth {
      guard let token = token(current) else { return nil }
      if let target = Self.target(of: token.value), self.token(target) != nil {
        current = target
        continue
      }
      if Self.target(of: token.value) != nil || token.value["$ref"] != nil { return nil }
      return token.value
    }
    return nil
  }

  /// The token a value refers to, by name (`"{a.b}"`), by pointer (`#/a/b/$value`) or with an
  /// alpha (`rgba({a.b}, 50%)`), if it refers to one.
  static func target(of value: JSONNode) -> String? {
    referenceTarget(value) ?? pointerTarget(value) ?? alphaModifierParts(value)?.target
  }

  /// `a.b` for a token `{"$ref": "#/a/b/$value"}` (or `#/a/b`), the token a pointer names; `nil`
  /// for a pointer with a part that holds a dot, which names no token (`#/a.b` is the member
  /// `a.b`, not the token `b` in the group `a`).
  static func pointerTarget(_ value: JSONNode) -> String? {
    guard let pointer = value["$ref"]?.string, pointer.hasPrefix("#/"),
      var parts = JSONPointer.parts(of: pointer),
      !parts.contains(where: { $0.utf8.contains(UInt8(ascii: ".")) })
    else { return nil }
    if parts.last == "$value" { parts.removeLast() }
    return parts.isEmpty ? nil : parts.joined(separator: ".")
  }

  /// `a.b` for a value `"{a.b}"`, or `"$a.b"` as Tokens Studio wrote references before it used
  /// braces.
  static func referenceTarget(_ value: JSONNode) -> String? {
    // Most values are colours: told by their first byte, before any character is looked at.
    guard let text = value.string, let first = text.utf8.first,
      first == UInt8(ascii: "{") || first == UInt8(ascii: "$")
    else { return nil }
    if text.utf8.count > 2, text.hasPrefix("{"), text.hasSuffix("}") {
      return String(text.dropFirst().dropLast())
    }
    // `$core.grey.100`: a name, no spaces or braces, after the `$`.
    guard text.utf8.count > 1, text.hasPrefix("$"),
      !text.unicodeScalars.dropFirst().contains(where: { " {}$".unicodeScalars.contains($0) })
    else { return nil }
    return String(text.dropFirst())
  }

  /// The colour of the token `name`, `hops` references from the token `start`, and how many
  /// references below `name` it was found: each colour found through references, and each that a
  /// reference names, is found once, and used again where the references above it leave room for
  /// those below (a colour's text may be long: reading it again for each reference would grow
  /// with their number times its length). A colour written in a token that is read for itself
  /// alone is not remembered: remembering every token's colour took more memory than the file.
  /// `token` is the token at `name`, when the caller has looked it up.
  private func resolved(_ name: String, token found: Token? = nil, hops: Int, start: String)
    throws(DMDesignTokensError) -> (color: DMColor, depth: Int)
  {
    let key = ExactText(name)
    if let known = memo.colors[key], hops + known.depth < Self.maximumReferenceDepth { return known }
    guard let token = found ?? token(name) else {
      throw DMDesignTokensError(line: 0, column: 0, tokenPath: name, message: "no such token")
    }
    let found = try resolved(token, hops: hops, start: start)
    if found.depth > 0 || hops > 0 { memo.colors[key] = found }
    return found
  }

  /// The colour of `token`'s value, with its Tokens Studio alpha if it has one.
  private func resolved(_ token: Token, hops: Int, start: String) throws(DMDesignTokensError)
    -> (color: DMColor, depth: Int)
  {
    var found = try resolved(token.value, of: token, hops: hops, start: start)
    if case .alpha(let alpha) = token.modifier {
      let color = found.color
      found.color = DMColor(red: color.red, green: color.green, blue: color.blue, alpha: alpha)
    }
    return found
  }

  /// The colour `value` of `token` gives, as `resolved(_:hops:start:)` finds a token's.
  private func resolved(_ value: JSONNode, of token: Token, hops: Int, start: String)
    throws(DMDesignTokensError) -> (color: DMColor, depth: Int)
  {
    guard hops < Self.maximumReferenceDepth else {
      throw Self.fail(
        token.place, token.path, "the references from \(ShownText.quoted(start)) \(referenceTrouble(start))")
    }
    // Members of a value beside its `$ref` (`alpha`) would change what it names, which is not
    // read: an error rather than a colour that silently leaves them out. A token's own members
    // (`$type`, `$description`, or `type` and `description` unprefixed) are no part of its value.
    if value["$ref"] != nil,
      let other = value.members?.first(where: {
        !$0.name.hasPrefix("$") && $0.name != "type" && $0.name != "description"
      })
    {
      throw Self.fail(
        other.place, token.path,
        "\(ShownText.quoted(other.name)) beside $ref is not read: changing what a $ref names is not "
          + "supported; write the colour out in full")
    }
    // A reference by name, or a pointer to a token (`#/a/b/$value`): the token of the tokens as
    // merged, which in a resolver document may come from a later source than the pointer.
    let pointed = Self.pointerTarget(value).flatMap { self.token($0) != nil ? $0 : nil }
    if let target = Self.referenceTarget(value) ?? pointed {
      return try referenced(target, from: value, of: token, hops: hops, start: start)
    }
    // Tokens Studio's `rgba({colors.blue}, 50%)`: another token's colour with this alpha.
    if let (target, alpha) = try Self.alphaModifier(value, path: token.path) {
      let below = try referenced(target, from: value, of: token, hops: hops, start: start)
      let color = below.color
      return (DMColor(red: color.red, green: color.green, blue: color.blue, alpha: alpha), below.depth)
    }
    if let pointer = value["$ref"]?.string {
      guard pointer.utf8.count <= Self.maximumPointerLength else {
        throw Self.fail(
          value.place, token.path,
          "$ref is longer than \(Self.maximumPointerLength) bytes: it can name no token")
      }
      // Every token of a tree comes from one document, so a pointer leads to one place.
      let key = ExactText(pointer)
      if let known = memo.pointers[key], hops + known.depth < Self.maximumReferenceDepth { return known }
      let target = try resolve(pointer: pointer, in: token.document, place: value.place, path: token.path)
      let inner = target[unprefixedValueName(target)] ?? target
      let below = try resolved(inner, of: token, hops: hops + 1, start: start)
      memo.pointers[key] = (below.color, below.depth + 1)
      return (below.color, below.depth + 1)
    }
    return (try Self.parseColor(value, path: token.path), 0)
  }

  /// The colour of the token `target` that `value` of `token` refers to, one reference further.
  private func referenced(_ target: String, from value: JSONNode, of token: Token, hops: Int, start: String)
    throws(DMDesignTokensError) -> (color: DMColor, depth: Int)
  {
    guard let targetToken = self.token(target) else {
      let hint =
        nameDiffering(onlyInCaseFrom: target).map { " (did you mean \(ShownText.quoted($0))?)" } ?? ""
      throw Self.fail(
        value.place, token.path, "refers to \(ShownText.quoted(target)), which is not a token\(hint)")
    }
    // A token's own type without a lookup, else as `type(_:)` finds it.
    if let type = targetToken.type ?? type(target), type != "color" {
      throw Self.fail(
        value.place, token.path,
        "refers to \(ShownText.quoted(target)), a \(ShownText.quoted(type)) token, not a colour")
    }
    let below = try resolved(target, token: targetToken, hops: hops + 1, start: start)
    return (below.color, below.depth + 1)
  }

  /// The token and the alpha of a value `rgba({a.b}, 50%)` (or `rgba($a.b, 0.5)`), Tokens
  /// Studio's way to give a token's colour another alpha; `nil` for any other value.
  static func alphaModifier(_ value: JSONNode, path: @autoclosure () -> [String]) throws(DMDesignTokensError)
    -> (target: String, alpha: Double)?
  {
    guard let (target, alphaText, text) = alphaModifierParts(value) else { return nil }
    let alpha =
      alphaText.hasSuffix("%") ? Double(alphaText.dropLast()).map { $0 / 100 } : Double(alphaText)
    guard let alpha, alpha.isFinite, (0...1).contains(alpha) else {
      throw fail(
        value.place, path(),
        "the alpha \(ShownText.quoted(alphaText)) of \(ShownText.quoted(text)) must be a number from 0 to 1 "
          + "or a percentage")
    }
    return (target, alpha)
  }

  /// The token that `rgba({a.b}, 50%)` names, the alpha as written, and the whole text without the
  /// spaces around it; `nil` for a value of another form.
  private static func alphaModifierParts(_ value: JSONNode) -> (
    target: String, alpha: Substring, text: Substring
  )? {
    // Most values are not of this form: told by their first bytes, before any text is copied.
    guard let string = value.string, string.utf8.count >= 8, string.utf8.contains(UInt8(ascii: "(")) else {
      return nil
    }
    let text = trimmedSpaces(string[...])
    // `rgba` in any case, then `(` itself: folded to lower case, a control character (U+0008)
    // would read as `(`.
    let head = Array(text.utf8.prefix(5))
    guard head.count == 5, head[..<4].map({ $0 | 0x20 }) == Array("rgba".utf8), head[4] == UInt8(ascii: "("),
      text.hasSuffix(")"),
      let comma = text.lastIndex(of: ",")
    else { return nil }
    let reference = trimmedSpaces(text[text.index(text.startIndex, offsetBy: 5)..<comma])
    guard let target = referenceTarget(JSONNode(value: .string(String(reference)), place: value.place)) else {
      return nil
    }
    return (target, trimmedSpaces(text[text.index(after: comma)..<text.index(before: text.endIndex)]), text)
  }

  /// `text` without the spaces and tabs (and other space separators) at its ends.
  private static func trimmedSpaces(_ text: Substring) -> Substring {
    func isSpace(_ scalar: Unicode.Scalar) -> Bool {
      scalar == " " || scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
    }
    let scalars = text.unicodeScalars
    guard let first = scalars.firstIndex(where: { !isSpace($0) }),
      let last = scalars.lastIndex(where: { !isSpace($0) })
    else { return text[text.endIndex...] }
    return Substring(scalars[first...last])
  }

  /// The longest `$ref` a token may have, in UTF-8 bytes: a pointer to a token of the longest
  /// path, with room for `#/`, `$value` and `~1` escapes. A longer one would be read again in every
  /// column.
  static let maximumPointerLength = 2 * maximumPathLength + 16

  /// How many tokens a colour may go through, itself included: 63 references one after another.
  static let maximumReferenceDepth = 64

  /// Why the references from `start` went too deep: a circle, when following them by name comes
  /// back to a token already seen, else a chain longer than the limit.
  private func referenceTrouble(_ start: String) -> String {
    var seen: Set<ExactText> = []
    var name: String? = start
    while let current = name {
      guard seen.insert(ExactText(current)).inserted else { return "go round in a circle" }
      name = token(current).flatMap { Self.target(of: $0.value) }
    }
    return "go through more than \(Self.maximumReferenceDepth - 1) references"
  }

  private func unprefixedValueName(_ node: JSONNode) -> String {
    node["$value"] != nil ? "$value" : "value"
  }

  /// The node a JSON Pointer (`#/a/b`) names in `document`.
  private func resolve(
    pointer: String, in document: JSONNode, place: TextPlace, path: @autoclosure () -> [String]
  )
    throws(DMDesignTokensError) -> JSONNode
  {
    guard pointer.hasPrefix("#/") || pointer == "#" else {
      throw Self.fail(
        place, path(), "$ref \(ShownText.quoted(pointer)) points outside the file; only #/… is read")
    }
    guard let parts = JSONPointer.parts(of: pointer) else {
      throw Self.fail(
        place, path(),
        "$ref \(ShownText.quoted(pointer)) names nothing: it has an escape other than ~0 and ~1, or more "
          + "parts than a document nests levels")
    }
    var node = document
    for part in parts {
      guard let next = node.child(atPointerPart: part) else {
        let missing =
          switch node.value {
          case .object: ": no \(ShownText.quoted(part))"
          case .array: ": no element \(ShownText.quoted(part))"
          default: ""
          }
        throw Self.fail(place, path(), "$ref \(ShownText.quoted(pointer)) names nothing\(missing)")
      }
      node = next
    }
    return node
  }

  /// `color` with 8 bits per channel, as a table holds it: read back from the table's text, it is
  /// the same colour.
  private static func snapped(_ color: DMColor) -> DMColor {
    func channel(_ value: Double) -> Double { (value * 255).rounded() / 255 }
    return DMColor(
      red: channel(color.red), green: channel(color.green), blue: channel(color.blue),
      alpha: channel(color.alpha))
  }

  /// A colour value: a 2025.10 colour object, or a hex string as older drafts wrote it, or a CSS
  /// colour function as Tokens Studio writes it (`rgb(0, 0, 0)`, `oklch(0.7 0.1 250)`).
  static func parseColor(_ value: JSONNode, path: @autoclosure () -> [String]) throws(DMDesignTokensError)
    -> DMColor
  {
    if let text = value.string {
      if text.hasPrefix("#") {
        do {
          return try DMColor(hex: text)
        } catch {
          throw fail(
            value.place, path(),
            "bad colour \(ShownText.quoted(text)): \((error as? DMColorError)?.reason ?? "\(error)")")
        }
      }
      switch CSSColorText.read(text) {
      case .success(let css):
        return try color(
          css.space, css.components, alpha: css.alpha, fallback: nil,
          places: Array(repeating: value.place, count: 3),
          place: value.place, path: path())
      case .failure(let problem):
        throw fail(value.place, path(), "bad colour \(ShownText.quoted(text)): \(problem.reason)")
      }
    }
    guard let members = value.members else {
      throw fail(
        value.place, path(),
        "expected a colour (an object with colorSpace and components), found \(value.described)")
    }
    for member in members where !["colorSpace", "components", "alpha", "hex"].contains(member.name) {
      throw fail(member.place, path(), "unknown property \(ShownText.quoted(member.name)) in a colour")
    }
    guard let space = value["colorSpace"]?.string else {
      throw fail(value.place, path(), "a colour needs a colorSpace (a string such as \"srgb\")")
    }
    var alpha = 1.0
    if let node = value["alpha"] {
      guard let number = node.number, (0...1).contains(number) else {
        throw fail(node.place, path(), "alpha must be a number from 0 to 1, found \(node.described)")
      }
      alpha = number
    }
    var fallback: DMColor?
    if let node = value["hex"] {
      guard let text = node.string, text.count == 7, text.hasPrefix("#"), let color = try? DMColor(hex: text)
      else {
        throw fail(
          node.place, path(), "hex must be \"#\" and six hexadecimal digits, found \(node.described)")
      }
      fallback = color
    }
    guard let node = value["components"], case .array(let elements) = node.value, elements.count == 3 else {
      throw fail(
        value["components"]?.place ?? value.place, path(),
        "a colour needs components: an array of three numbers")
    }
    var components: [Double] = []
    for element in elements {
      if element.string == "none" {
        components.append(0)
      } else if let number = element.number {
        components.append(number)
      } else {
        throw fail(
          element.place, path(), "a component must be a number or \"none\", found \(element.described)")
      }
    }
    guard let colorSpace = TokenColorSpace(rawValue: space) else {
      throw fail(value["colorSpace"]!.place, path(), "unknown colorSpace \(ShownText.quoted(space))")
    }
    return try color(
      colorSpace, components, alpha: alpha, fallback: fallback, places: elements.map(\.place),
      place: value.place,
      path: path())
  }

  /// The colour of `components` in `colorSpace`, in sRGB as a table holds it; a colour outside
  /// sRGB is brought into it (or shows its `fallback`), with a warning. `places` are the
  /// components', `place` the colour's.
  private static func color(
    _ colorSpace: TokenColorSpace, _ components: [Double], alpha: Double, fallback: DMColor?,
    places: [TextPlace],
    place: TextPlace, path: @autoclosure () -> [String]
  ) throws(DMDesignTokensError) -> DMColor {
    let space = colorSpace.rawValue
    for (index, range) in colorSpace.ranges.enumerated() {
      if let range, !range.contains(components[index]) {
        let bounds =
          range.upperBound == .greatestFiniteMagnitude
          ? "at least \(range.lowerBound.formatted)"
          : "from \(range.lowerBound.formatted) to \(range.upperBound.formatted)"
        throw fail(
          places[index], path(),
          "component \(index + 1) of a colour in \(space) must be \(bounds), found \(components[index].formatted)"
        )
      }
    }
    guard let (rgb, wasMapped) = colorSpace.srgb(SIMD3(components[0], components[1], components[2])) else {
      throw fail(place, path(), "the colour's components are too large to convert to sRGB")
    }
    if wasMapped {
      let numbers =
        components.map(\.formatted).joined(separator: " ") + (alpha < 1 ? " / \(alpha.formatted)" : "")
      let shown = colorSpace.isFunction ? "\(space)(\(numbers))" : "color(\(space) \(numbers))"
      TokenReading.record(DMColorOrigin(space: space, components: components, text: shown), at: place)
      if let fallback {
        TokenReading.note(
          place, path(),
          "the colour \(shown) is outside sRGB; its hex fallback \(fallback.hexString) is used")
        return snapped(DMColor(red: fallback.red, green: fallback.green, blue: fallback.blue, alpha: alpha))
      }
      let color = snapped(DMColor(red: rgb.x, green: rgb.y, blue: rgb.z, alpha: alpha))
      TokenReading.note(
        place, path(),
        "the colour \(shown) is outside sRGB; it is shown as \(color.hexString), the nearest colour of the "
          + "same hue and lightness (CSS Color 4's gamut mapping)")
      return color
    }
    return snapped(DMColor(red: rgb.x, green: rgb.y, blue: rgb.z, alpha: alpha))
  }
}
