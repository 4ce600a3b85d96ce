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
  /// own `$themes` or `$metadata`, or (with at most ``maximumSetsGuessed`` groups) a reference
  /// that names no token from the top of the file but names one inside a set.
  static func isTokenSets(_ document: JSONNode) -> Bool {
    guard let members = document.members else { return false }
    let sets = members.filter { !$0.name.hasPrefix("$") }
    guard sets.count >= 2, sets.allSatisfy({ $0.value.members != nil && !TokenTree.isToken($0.value) }) else {
      return false
    }
    if document["$themes"] != nil || document["$metadata"] != nil { return true }
    // Files of sets have a few; a file of thousands of top-level groups is a token file, and
    // looking each reference up in each of them would cost their product.
    guard sets.count <= maximumSetsGuessed else { return false }
    var checked = 0
    return containsReference(in: document, depth: 0) { parts in
      // A few hundred references tell; a file of references that all resolve is read at once.
      checked += 1
      guard checked <= maximumReferencesChecked else { return false }
      return node(at: parts, in: document) == nil && sets.contains { node(at: parts, in: $0.value) != nil }
    }
  }

  /// The most references ``isTokenSets(_:)`` looks up.
  static let maximumReferencesChecked = 500

  /// The most top-level groups of a file recognised as sets by its references alone.
  static let maximumSetsGuessed = 256

  /// The resolver document that a file of token sets stands for (see the type's comment).
  static func resolverDocument(_ document: JSONNode) -> JSONNode {
    let sets = (document.members ?? []).filter { !$0.name.hasPrefix("$") }
    let light = sets.filter { sides(of: $0.name).contains("light") }
    let dark = sets.filter { sides(of: $0.name).contains("dark") }
    let base = sets.filter { sides(of: $0.name).isEmpty }
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
    if !light.isEmpty || !dark.isEmpty {
      var contexts: [(String, JSONNode)]
      let defaultContext: String
      if dark.count == 1, light.count <= 1 {
        contexts = [("light", sources(light)), ("dark", sources(dark))]
        defaultContext = "light"
      } else {
        contexts = sets.filter { !sides(of: $0.name).isEmpty }.map { ($0.name, sources([$0])) }
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

  /// The sides a set's name says, as words of it: `light`, `dark`, both or neither
  /// (`ide-dark` → dark, `lightHighContrast` → light, `global` → none).
  static func sides(of name: String) -> Set<String> {
    var words: [String] = []
    var word = ""
    var previousIsLower = false
    for scalar in name.unicodeScalars {
      let isLetter = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
      let isUpper = ("A"..."Z").contains(scalar)
      if !isLetter || (isUpper && previousIsLower) {
        if !word.isEmpty { words.append(word.lowercased()) }
        word = ""
      }
      if isLetter { word.unicodeScalars.append(scalar) }
      previousIsLower = isLetter && !isUpper
    }
    if !word.isEmpty { words.append(word.lowercased()) }
    return Set(words).intersection(["light", "dark"])
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

  /// Whether some string value under `node` is a reference (`{a.b}`, `$a.b`) for which `test`
  /// holds.
  private static func containsReference(
    in node: JSONNode, depth: Int, where test: ([Substring]) -> Bool
  ) -> Bool {
    switch node.value {
    case .string:
      guard let target = TokenTree.referenceTarget(node) else { return false }
      return test(target.split(separator: ".", omittingEmptySubsequences: false))
    case .object(let members):
      return depth < 64 && members.contains { containsReference(in: $0.value, depth: depth + 1, where: test) }
    case .array(let items):
      return depth < 64 && items.contains { containsReference(in: $0, depth: depth + 1, where: test) }
    default: return false
    }
  }
}
