import DarkModeKit

/// Tokens Studio's single-file form: each top-level group is a token set (`global`, `light`,
/// `dark`), and a token refers to another by its path inside the sets (`{global.grey.800}` in the
/// set `light` names `global.grey.800` of whichever set has it), not from the top of the file.
///
/// Such a file is read as the resolver document it stands for: the sets whose names say no side
/// are merged, in file order, into a set every column has; the sets whose names say a side
/// (`light`, `dark`, `ide-dark`, `darkHighContrast`) are the contexts of a theme modifier, each
/// merged over them. With one dark set and at most one light one, the contexts are the light and
/// dark sides of the default theme; with only a dark set, the light side is the other sets alone.
enum TokenSets {
  /// Whether `document` is a file of token sets: two or more top-level groups, and Tokens Studio's
  /// own `$themes` or `$metadata`, or (with at most ``maximumSetsGuessed`` groups) references that
  /// name tokens inside sets and none from the top of the file: two or more such references, or
  /// one in a file whose sets' names say a side. A file taken for sets by its references says so
  /// in a note.
  static func isTokenSets(_ document: JSONNode) -> Bool {
    guard let members = document.members else { return false }
    let sets = members.filter { !$0.name.hasPrefix("$") }
    guard sets.count >= 2, sets.allSatisfy({ $0.value.members != nil && !TokenTree.isToken($0.value) }) else {
      return false
    }
    if document["$themes"] != nil || document["$metadata"] != nil {
      if case .array(let themes) = document["$themes"]?.value, let first = themes.first {
        TokenReading.note(
          first.place, ["$themes"],
          "Tokens Studio's $themes is not read: the sets give the columns their names say (light, dark), "
            + "and the others are merged, in file order, into every column")
      }
      return true
    }
    // Files of sets have a few; a file of thousands of top-level groups is a token file, and
    // looking each reference up in each of them would cost their product.
    guard sets.count <= maximumSetsGuessed else { return false }
    var checked = 0
    var insideSets: [String] = []
    var fromTheTop = false
    _ = containsReference(in: document, depth: 0) { parts in
      // A few hundred references tell; a file of references that all resolve is read at once.
      checked += 1
      guard checked <= maximumReferencesChecked else { return true }
      if node(at: parts, in: document) != nil {
        fromTheTop = true
        return true
      }
      if sets.contains(where: { node(at: parts, in: $0.value) != nil }) {
        insideSets.append(parts.joined(separator: "."))
      }
      return false
    }
    let sided = sets.contains { !sides(of: $0.name).isEmpty }
    guard !fromTheTop, let first = insideSets.first, insideSets.count >= 2 || sided else { return false }
    TokenReading.note(
      document.place, [],
      "read as Tokens Studio's token sets (\(sets.prefix(8).map { ShownText.quoted($0.name) }.joined(separator: ", "))"
        + (sets.count > 8 ? ", …" : "") + "): references such as {\(ShownText.escaped(first, limit: 64))} "
        + "name tokens inside the sets, not from the top of the file",
      kind: .note)
    return true
  }

  /// The most references ``isTokenSets(_:)`` looks up.
  static let maximumReferencesChecked = 500

  /// The most top-level groups of a file recognised as sets by its references alone.
  static let maximumSetsGuessed = 256

  /// The resolver document that a file of token sets stands for (see the type's comment).
  /// Two sets that would give the same column are an error at the second.
  static func resolverDocument(_ document: JSONNode) throws(DMDesignTokensError) -> JSONNode {
    let sets = (document.members ?? []).filter { !$0.name.hasPrefix("$") }
    let light = sets.filter { sides(of: $0.name).contains("light") }
    let dark = sets.filter { sides(of: $0.name).contains("dark") }
    // A lone light set is the light side of the one column: it is merged over the others,
    // wherever it is in the file.
    let isLoneLight = dark.isEmpty && light.count == 1
    let base = sets.filter { sides(of: $0.name).isEmpty } + (isLoneLight ? light : [])
    let place = document.place
    func object(_ members: [(String, JSONNode)]) -> JSONNode {
      JSONNode(value: .object(members.map { .init(name: $0.0, place: place, value: $0.1) }), place: place)
    }
    func string(_ text: String) -> JSONNode { JSONNode(value: .string(text), place: place) }
    func sources(_ sets: [JSONNode.Member]) -> JSONNode {
      JSONNode(value: .array(sets.map(\.value)), place: place)
    }
    var order = [object([("$ref", string("#/sets/tokens"))])]
    var members: [(String, JSONNode)] = [
      ("version", string(DesignTokens.version)),
      ("sets", object([("tokens", object([("sources", sources(base))]))])),
    ]
    if !dark.isEmpty || light.count > 1 {
      var contexts: [(String, JSONNode)]
      let defaultContext: String
      if dark.count == 1, light.count <= 1 {
        contexts = [("light", sources(light)), ("dark", sources(dark))]
        defaultContext = "light"
      } else {
        let sided = sets.filter { !sides(of: $0.name).isEmpty }
        var columns: [String: String] = [:]
        for set in sided {
          guard let column = ResolverDocument.column(readingContext: set.name) else { continue }
          if let other = columns.updateValue(set.name, forKey: column) {
            throw TokenTree.fail(
              set.place, [set.name],
              "the sets \(ShownText.quoted(other)) and \(ShownText.quoted(set.name)) both give the column "
                + "\(column): rename one")
          }
        }
        contexts = sided.map { ($0.name, sources([$0])) }
        if light.isEmpty { contexts.insert(("light", sources([])), at: 0) }
        defaultContext = light.first?.name ?? "light"
      }
      members.append(
        (
          "modifiers",
          object([("theme", object([("contexts", object(contexts)), ("default", string(defaultContext))]))])
        )
      )
      order.append(object([("$ref", string("#/modifiers/theme"))]))
    }
    members.append(("resolutionOrder", JSONNode(value: .array(order), place: place)))
    return object(members)
  }

  /// The sides a set's name says, as words of it (split as a resolver's context names are):
  /// `light`, `dark`, both or neither (`ide-dark` → dark, `lightHighContrast` → light, `global`
  /// and `light2` → none).
  static func sides(of name: String) -> Set<String> {
    Set(ResolverDocument.words(ofContext: name)).intersection(["light", "dark"])
  }

  /// The node at a path of member names, if there is one.
  private static func node(at parts: [Substring], in root: JSONNode) -> JSONNode? {
    var node = root
    for part in parts {
      guard let next = node[String(part)] else { return nil }
      node = next
    }
    return node
  }

  /// Calls `visit` with each reference (`{a.b}`, `$a.b`, `rgba({a.b}, 50%)`) in the string values under `node`, in
  /// order, until it returns `true`; whether it did.
  private static func containsReference(
    in node: JSONNode, depth: Int, where test: ([Substring]) -> Bool
  ) -> Bool {
    switch node.value {
    case .string:
      guard let target = TokenTree.target(of: node) else { return false }
      return test(target.split(separator: ".", omittingEmptySubsequences: false))
    case .object(let members):
      return depth < 64 && members.contains { containsReference(in: $0.value, depth: depth + 1, where: test) }
    case .array(let items):
      return depth < 64 && items.contains { containsReference(in: $0, depth: depth + 1, where: test) }
    default: return false
    }
  }
}
