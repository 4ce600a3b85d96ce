import Foundation
import Testing

/// Checks design-tokens JSON against the rules of the Design Tokens Format, Color and Resolver
/// modules 2025.10, written from the specifications, and resolves a resolver document for one
/// input the way the Resolver module says. It reads the JSON with Foundation, not with the code
/// under test.
struct DesignTokensValidator {
  /// Every rule broken, as `PATH: what is wrong`.
  private(set) var problems: [String] = []

  static let types: Set<String> = [
    "color", "dimension", "fontFamily", "fontWeight", "duration", "cubicBezier", "number", "strokeStyle",
    "border", "transition", "shadow", "gradient", "typography",
  ]
  static let colorSpaces: Set<String> = [
    "srgb", "srgb-linear", "hsl", "hwb", "lab", "lch", "oklab", "oklch", "display-p3", "a98-rgb",
    "prophoto-rgb", "rec2020", "xyz-d65", "xyz-d50",
  ]

  private mutating func problem(_ path: String, _ message: String) {
    problems.append("\(path.isEmpty ? "(root)" : path): \(message)")
  }

  // MARK: Resolver module

  /// Checks a resolver document: its root, its sets and modifiers, its resolution order, and
  /// every inline source as a token document.
  mutating func checkResolver(_ text: String) throws -> [String: Any] {
    let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let allowed: Set<String> = [
      "version", "name", "description", "$schema", "$defs", "sets", "modifiers", "resolutionOrder",
    ]
    for key in root.keys where !allowed.contains(key) {
      problem(key, "not a property of a resolver document")
    }
    if root["version"] as? String != "2025.10" { problem("version", "must be \"2025.10\"") }
    for key in ["name", "description"] where root[key] != nil && !(root[key] is String) {
      problem(key, "must be a string")
    }
    let sets = root["sets"] as? [String: Any] ?? [:]
    let modifiers = root["modifiers"] as? [String: Any] ?? [:]
    for (name, value) in sets {
      guard let set = value as? [String: Any], let sources = set["sources"] as? [Any] else {
        problem("sets.\(name)", "a set needs sources")
        continue
      }
      for key in set.keys where !["sources", "description", "$extensions"].contains(key) {
        problem("sets.\(name).\(key)", "not a property of a set")
      }
      checkSources(sources, path: "sets.\(name)")
    }
    for (name, value) in modifiers {
      guard let modifier = value as? [String: Any], let contexts = modifier["contexts"] as? [String: Any]
      else {
        problem("modifiers.\(name)", "a modifier needs contexts")
        continue
      }
      for key in modifier.keys where !["contexts", "default", "description", "$extensions"].contains(key) {
        problem("modifiers.\(name).\(key)", "not a property of a modifier")
      }
      if contexts.count < 2 { problem("modifiers.\(name).contexts", "needs two contexts or more") }
      if let given = modifier["default"] {
        if !(given is String) || contexts[given as? String ?? ""] == nil {
          problem("modifiers.\(name).default", "must name one of the contexts")
        }
      }
      if let extensions = modifier["$extensions"], !(extensions is [String: Any]) {
        problem("modifiers.\(name).$extensions", "must be an object")
      }
      for (context, sources) in contexts {
        guard let sources = sources as? [Any] else {
          problem("modifiers.\(name).contexts.\(context)", "must be an array of sources")
          continue
        }
        checkSources(sources, path: "modifiers.\(name).contexts.\(context)")
      }
    }
    guard let order = root["resolutionOrder"] as? [Any], !order.isEmpty else {
      problem("resolutionOrder", "must be a non-empty array")
      return root
    }
    for (index, entry) in order.enumerated() {
      guard let entry = entry as? [String: Any], let reference = entry["$ref"] as? String else {
        problem("resolutionOrder.\(index)", "expected a reference")
        continue
      }
      let parts = reference.split(separator: "/").map(String.init)
      let target =
        parts.count == 3 && parts[0] == "#"
        ? (parts[1] == "sets" ? sets : parts[1] == "modifiers" ? modifiers : [:])[parts[2]] : nil
      if target == nil { problem("resolutionOrder.\(index)", "\(reference) names nothing") }
    }
    return root
  }

  private mutating func checkSources(_ sources: [Any], path: String) {
    for (index, source) in sources.enumerated() {
      guard let document = source as? [String: Any] else {
        problem("\(path).\(index)", "a source is an object")
        continue
      }
      if document["$ref"] != nil { continue }
      checkGroup(document, path: "", inherited: nil, where: "\(path).\(index)")
    }
  }

  // MARK: Format module

  /// Checks a token file.
  mutating func checkTokens(_ text: String) throws {
    let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    checkGroup(root, path: "", inherited: nil, where: "")
  }

  /// A name may not start with `$` and may not hold `{`, `}` or `.`.
  static func isValidName(_ name: String) -> Bool {
    guard let first = name.first, first != "$" else { return false }
    return !name.contains { "{}.".contains($0) }
  }

  /// The `$type` an object declares, which must be one of the format's types, or the one it
  /// inherits.
  private mutating func declaredType(_ object: [String: Any], inherited: String?, at path: String) -> String?
  {
    guard let declared = object["$type"] else { return inherited }
    guard let text = declared as? String, Self.types.contains(text) else {
      problem(path, "bad $type")
      return inherited
    }
    return text
  }

  private mutating func checkGroup(
    _ group: [String: Any], path: String, inherited: String?, where place: String
  ) {
    let type = declaredType(group, inherited: inherited, at: place + path)
    for (name, value) in group {
      let child = path.isEmpty ? name : path + "." + name
      switch name {
      case "$type", "$description", "$extensions", "$deprecated", "$schema": continue
      case "$root":
        guard let token = value as? [String: Any], token["$value"] != nil else {
          problem(place + child, "$root must be a token")
          continue
        }
        checkToken(token, path: child, inherited: type, where: place)
      default:
        if !Self.isValidName(name) { problem(place + child, "not a valid name") }
        guard let object = value as? [String: Any] else {
          problem(place + child, "a member of a group is a token or a group")
          continue
        }
        if object["$value"] != nil {
          checkToken(object, path: child, inherited: type, where: place)
        } else {
          checkGroup(object, path: child, inherited: type, where: place)
        }
      }
    }
  }

  private mutating func checkToken(
    _ token: [String: Any], path: String, inherited: String?, where place: String
  ) {
    for key in token.keys
    where !["$value", "$type", "$description", "$extensions", "$deprecated"].contains(key) {
      problem(place + path, "\(key) is not a property of a token")
    }
    let type = declaredType(token, inherited: inherited, at: place + path)
    let value = token["$value"]
    if let text = value as? String, text.hasPrefix("{") {
      // A reference: one or more names joined by dots, in braces.
      let inner = text.dropFirst().dropLast()
      if !text.hasSuffix("}")
        || inner.split(separator: ".", omittingEmptySubsequences: false)
          .contains(where: { !Self.isValidName(String($0)) && $0 != "$root" })
      {
        problem(place + path, "bad reference \(text)")
      }
      return
    }
    guard type == "color" else {
      problem(place + path, "a token that is not a reference needs a type; here it is \(type ?? "none")")
      return
    }
    checkColor(value, path: place + path)
  }

  private mutating func checkColor(_ value: Any?, path: String) {
    guard let color = value as? [String: Any] else { return problem(path, "a colour value is an object") }
    for key in color.keys where !["colorSpace", "components", "alpha", "hex"].contains(key) {
      problem(path, "\(key) is not a property of a colour")
    }
    guard let space = color["colorSpace"] as? String, Self.colorSpaces.contains(space) else {
      return problem(path, "bad colorSpace")
    }
    guard let components = color["components"] as? [Any], components.count == 3 else {
      return problem(path, "components must be three")
    }
    for component in components {
      if component as? String == "none" { continue }
      guard let number = component as? Double else { return problem(path, "a component is a number or none") }
      if ["srgb", "srgb-linear", "display-p3", "a98-rgb", "prophoto-rgb", "rec2020"].contains(space),
        !(0...1).contains(number)
      {
        problem(path, "an RGB component is from 0 to 1")
      }
    }
    if let alpha = color["alpha"] {
      guard let number = alpha as? Double, (0...1).contains(number) else {
        return problem(path, "alpha is 0 to 1")
      }
    }
    if let hex = color["hex"] {
      let text = hex as? String ?? ""
      if text.count != 7 || !text.hasPrefix("#") || !text.dropFirst().allSatisfy(\.isHexDigit) {
        problem(path, "hex is # and six hexadecimal digits")
      }
    }
  }

  // MARK: Resolving

  /// The colour tokens of a resolver document for one input, resolved as the Resolver module
  /// says (merge in order, later wins, then references), as `#rrggbbaa` by token path.
  static func resolve(_ root: [String: Any], input: [String: String]) throws -> [String: String] {
    var merged: [String: (value: Any, type: String?)] = [:]
    func collect(_ group: [String: Any], path: String, type: String?) {
      let type = group["$type"] as? String ?? type
      for (name, value) in group where name == "$root" || !name.hasPrefix("$") {
        guard let object = value as? [String: Any] else { continue }
        let child = path.isEmpty ? name : path + "." + name
        if let tokenValue = object["$value"] {
          merged[child] = (tokenValue, object["$type"] as? String ?? type)
        } else {
          collect(object, path: child, type: type)
        }
      }
    }
    let sets = root["sets"] as? [String: Any] ?? [:]
    let modifiers = root["modifiers"] as? [String: Any] ?? [:]
    for entry in root["resolutionOrder"] as? [[String: Any]] ?? [] {
      let parts = (entry["$ref"] as? String ?? "").split(separator: "/").map(String.init)
      var sources: [Any] = []
      if parts[1] == "sets" {
        sources = (sets[parts[2]] as? [String: Any])?["sources"] as? [Any] ?? []
      } else {
        let modifier = try #require(modifiers[parts[2]] as? [String: Any])
        let contexts = try #require(modifier["contexts"] as? [String: Any])
        let chosen = try #require(input[parts[2]] ?? modifier["default"] as? String)
        sources = try #require(contexts[chosen] as? [Any], "no context \(chosen) of \(parts[2])")
      }
      for source in sources { collect(try #require(source as? [String: Any]), path: "", type: nil) }
    }
    func color(_ path: String, seen: Set<String>) throws -> String {
      let token = try #require(merged[path], "no token \(path)")
      if let text = token.value as? String, text.hasPrefix("{") {
        let target = String(text.dropFirst().dropLast())
        try #require(!seen.contains(target), "a circle of references at \(path)")
        return try color(target, seen: seen.union([path]))
      }
      let object = try #require(token.value as? [String: Any])
      try #require(token.type == "color", "\(path) is not a colour")
      let components = try #require(object["components"] as? [Double])
      let alpha = object["alpha"] as? Double ?? 1
      return "#" + (components + [alpha]).map { String(format: "%02x", Int(($0 * 255).rounded())) }.joined()
    }
    var colors: [String: String] = [:]
    for path in merged.keys { colors[path] = try color(path, seen: []) }
    return colors
  }
}
