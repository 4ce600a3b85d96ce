import DarkModeKit
import DarkModeKitText

/// Tokens Studio's single-file form: each top-level group is a token set (`global`, `light`,
/// `dark`), and a token refers to another by its path inside the sets (`{global.grey.800}` in the
/// set `light` names `global.grey.800` of whichever set has it), not from the top of the file.
///
/// Such a file is read as the resolver document it stands for: the sets whose names say no side
/// are merged, in file order, into a set every column has; the sets whose names say a side
/// (`light`, `dark`, `ide-dark`, `darkHighContrast`) are the contexts of a theme modifier, each
/// merged over them. With one dark set and at most one light one, the contexts are the light and
/// dark sides of the default theme; with only a dark set, the light side is the other sets alone.
/// When Tokens Studio's `$themes` lists themes of one group, the themes are the contexts instead,
/// each of the sets it reads (see `themes(of:sets:)`).
enum TokenSets {
  /// Whether `document` is a file of token sets: two or more top-level groups, and Tokens Studio's
  /// own `$themes` or `$metadata`, or (with at most ``maximumSetsGuessed`` groups) references that
  /// name tokens inside sets and none from the top of the file: two or more such references, or
  /// one in a file whose sets' names say a side. A file taken for sets by its references says so
  /// in a note.
  static func isTokenSets(_ document: JSONNode) -> Bool {
    guard let members = document.members else { return false }
    let sets = members.filter { !$0.name.hasPrefix("$") }
    guard sets.count >= 2, sets.allSatisfy({ $0.value.isObject && !TokenTree.isToken($0.value) }) else {
      return false
    }
    if document["$themes"] != nil || document["$metadata"] != nil { return true }
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
    if let themes = try themes(of: document, sets: sets) { return themesDocument(themes, at: document.place) }
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

  /// One of Tokens Studio's `$themes`: its name, where it is, and the sets it reads (`enabled`,
  /// and `source` for its references), in the order of the file's sets.
  struct Theme {
    var name: String
    var place: TextPlace
    var sets: [JSONNode]
    /// The column it gives (see `themes(of:sets:)`).
    var column = ""
  }

  /// The themes of `$themes`, when it lists themes of one group (or of none), each with its name
  /// and its sets; `nil`, with a warning that says why, when it cannot be read so, and without
  /// one when it lists no theme: the sets' names then give the columns.
  static func themes(of document: JSONNode, sets: [JSONNode.Member]) throws(DMDesignTokensError) -> [Theme]? {
    guard let given = document["$themes"] else { return nil }
    func notRead(_ place: TextPlace, _ why: String) -> [Theme]? {
      TokenReading.note(
        place, ["$themes"],
        "Tokens Studio's $themes is not read (\(why)): the sets give the columns their names say (light, "
          + "dark), and the others are merged, in file order, into every column")
      return nil
    }
    guard case .array(let items) = given.value else { return notRead(given.place, "it is not an array") }
    guard !items.isEmpty else { return nil }
    // The sets by name, and in Tokens Studio's order (`$metadata.tokenSetOrder`), else the file's.
    var byName: [ExactText: JSONNode] = [:]
    for set in sets { byName[ExactText(set.name)] = set.value }
    var order = sets.map(\.name)
    if case .array(let listed) = document["$metadata"]?["tokenSetOrder"]?.value {
      var named: Set<ExactText> = []
      let names = listed.compactMap(\.string).filter {
        byName[ExactText($0)] != nil && named.insert(ExactText($0)).inserted
      }
      order = names + order.filter { !named.contains(ExactText($0)) }
    }
    var position: [ExactText: Int] = [:]
    for (index, name) in order.enumerated() { position[ExactText(name)] = index }
    var themes: [Theme] = []
    var groups: Set<String> = []
    for item in items {
      guard let name = item["name"]?.string, let selected = item["selectedTokenSets"]?.members else {
        return notRead(item.place, "a theme without a name or selectedTokenSets")
      }
      groups.insert(item["group"]?.string ?? "")
      var chosen: Set<ExactText> = []
      for member in selected {
        guard let state = member.value.string, ["enabled", "source", "disabled"].contains(state) else {
          return notRead(member.place, "a set's state is not enabled, source or disabled")
        }
        guard state != "disabled" else { continue }
        guard byName[ExactText(member.name)] != nil else {
          throw TokenTree.fail(
            member.place, ["$themes", name],
            "the theme \(ShownText.quoted(name)) reads the set \(ShownText.quoted(member.name)), which the file "
              + "does not have")
        }
        chosen.insert(ExactText(member.name))
      }
      // In the sets' order, at the cost of the theme's own sets.
      let read = chosen.sorted { (position[$0] ?? 0) < (position[$1] ?? 0) }.compactMap { byName[$0] }
      themes.append(Theme(name: name, place: item.place, sets: read))
    }
    guard groups.count == 1 else {
      return notRead(
        given.place, "its themes are in \(groups.count) groups, and one column cannot combine them")
    }
    // Each theme's column: the one its name says (`Dark` → NIGHT), NORMAL for the default theme
    // (the one whose name says NORMAL, else the first that says no side, else the first), and a
    // light-only theme of its name for the others (`Brand B` → `Brand_B`). Two themes of one
    // column (`Dark`, `dark`; `Sepia` twice) are an error at the second.
    let read = themes.map { ResolverDocument.column(readingContext: $0.name) }
    let defaultIndex = read.firstIndex(of: "NORMAL") ?? read.firstIndex(of: nil) ?? 0
    var columns: [String: String] = [:]
    var names: Set<ExactText> = []
    for index in themes.indices {
      let theme = themes[index]
      guard names.insert(ExactText(theme.name)).inserted else {
        throw TokenTree.fail(
          theme.place, ["$themes", theme.name],
          "two themes are named \(ShownText.quoted(theme.name)): rename one")
      }
      let column = index == defaultIndex ? "NORMAL" : read[index] ?? DMDesignTokens.keyName(theme.name)
      guard DMDesignTokens.isColumnName(column) else {
        throw TokenTree.fail(
          theme.place, ["$themes", theme.name],
          "the theme \(ShownText.quoted(theme.name)) gives the column \(ShownText.quoted(column)), but "
            + DMDesignTokens.notAColumnName(column))
      }
      if let other = columns.updateValue(theme.name, forKey: column) {
        throw TokenTree.fail(
          theme.place, ["$themes", theme.name],
          "the themes \(ShownText.quoted(other)) and \(ShownText.quoted(theme.name)) both give the column "
            + "\(column): rename one")
      }
      themes[index].column = column
    }
    return themes
  }

  /// The resolver document of `themes`: a theme modifier whose contexts are the themes, each with
  /// its sets and the column `themes(of:sets:)` gave it; the default context the theme of NORMAL.
  private static func themesDocument(_ themes: [Theme], at place: TextPlace) -> JSONNode {
    func object(_ members: [(String, TextPlace, JSONNode)]) -> JSONNode {
      JSONNode(value: .object(members.map { .init(name: $0.0, place: $0.1, value: $0.2) }), place: place)
    }
    func string(_ text: String) -> JSONNode { JSONNode(value: .string(text), place: place) }
    // One theme is the one column: its sets, with no modifier.
    guard themes.count > 1 else {
      return object([
        ("version", place, string(DesignTokens.version)),
        (
          "sets", place,
          object([
            (
              "tokens", place,
              object([("sources", place, JSONNode(value: .array(themes[0].sets), place: place))])
            )
          ])
        ),
        (
          "resolutionOrder", place,
          JSONNode(value: .array([object([("$ref", place, string("#/sets/tokens"))])]), place: place)
        ),
      ])
    }
    let contexts = themes.map { ($0.name, $0.place, JSONNode(value: .array($0.sets), place: $0.place)) }
    let defaultTheme = themes.first { $0.column == "NORMAL" } ?? themes[0]
    // Each theme's column said in DarkModeKit's `$extensions`, as a user would say it.
    let columns = object([
      (
        DesignTokens.vendor, place,
        object([("contexts", place, object(themes.map { ($0.name, $0.place, string($0.column)) }))])
      )
    ])
    return object([
      ("version", place, string(DesignTokens.version)),
      (
        "sets", place,
        object([("tokens", place, object([("sources", place, JSONNode(value: .array([]), place: place))]))])
      ),
      (
        "modifiers", place,
        object([
          (
            "theme", place,
            object([
              ("contexts", place, object(contexts)), ("default", place, string(defaultTheme.name)),
              ("$extensions", place, columns),
            ])
          )
        ])
      ),
      (
        "resolutionOrder", place,
        JSONNode(
          value: .array([
            object([("$ref", place, string("#/sets/tokens"))]),
            object([("$ref", place, string("#/modifiers/theme"))]),
          ]), place: place)
      ),
    ])
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
