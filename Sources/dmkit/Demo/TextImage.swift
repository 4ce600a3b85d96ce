/// A small picture made of characters, kept by name: what the demo's by-name ``DMDynamicImage``
/// loads.
struct TextImage: Equatable, Sendable {
  let name: String
  let lines: [String]

  /// The pictures the demo knows, by name.
  static let library: [String: [String]] = [
    "sun": [
      #"  \  |  /  "#,
      #"   .---.   "#,
      #"--(     )--"#,
      #"   '---'   "#,
      #"  /  |  \  "#,
    ],
    "moon": [
      #"    .--.   "#,
      #"   / .-'   "#,
      #"  | (    * "#,
      #"   \ '-.   "#,
      #" *  '--'   "#,
    ],
  ]

  /// The width and height of the largest picture, in cells.
  static let size = (
    width: library.values.flatMap { $0 }.map(\.count).max() ?? 0,
    height: library.values.map(\.count).max() ?? 0
  )

  /// Loads a picture by name, as an image loader would read a file; `nil` for an unknown name.
  static func load(named name: String) -> TextImage? {
    library[name].map { TextImage(name: name, lines: $0) }
  }
}
