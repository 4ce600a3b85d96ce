import DarkModeKit

/// The CSS that GTK 4 stylesheets of DarkModeKit colours are made of: the rules of
/// `dmkit export --format gtk` (``DMColorTableExportFormat/gtk``), and those that DarkModeKitGTK
/// loads for the widgets and windows it styles. One generator, so that a class means the same in
/// both.
///
/// A key's colour styles three classes, which hold the key as it is (`dm-fg-Text.Primary`):
/// `dm-bg-KEY` (background colour, with no background image), `dm-fg-KEY` (text colour) and
/// `dm-border-KEY` (border colour).
///
/// ```swift
/// print(DMGTKStyleRules.rules(forKey: "BG", color: DMColor(rgb: 0x343434), scope: "dm-column-night"))
/// // .dm-column-night.dm-bg-BG.dm-bg-BG, .dm-column-night .dm-bg-BG { background-color: rgba(52,52,52,1.0); … }
/// // …
/// ```
public enum DMGTKStyleRules {
  /// The three rules of one key's colour, one a line: for widgets with the class `scope` and
  /// those inside one, or for every widget when `scope` is `nil`. A widget's own `scope` wins
  /// over one of a widget it is in; of two widgets it is in, the scope written later wins.
  /// - Parameters:
  ///   - key: The colour-table key, as it is; the selector escapes it.
  ///   - color: Its colour.
  ///   - scope: A class name, without the dot, or `nil`.
  /// - Returns: Three lines of CSS, each ending with a newline.
  public static func rules(forKey key: String, color: DMColor, scope: String?) -> String {
    ruleList(forKey: key, color: color, scope: scope).map(\.text).joined()
  }

  /// One CSS rule: its selectors and its declarations.
  public struct Rule: Hashable, Sendable {
    /// The selectors, each a complete selector (`.dm-bg-BG`, `.dm-column-night .dm-bg-BG`).
    public var selectors: [String]
    /// The declarations, each after a space: ` color: rgba(…);`.
    public var declarations: String

    /// The rule on a line of its own, ending with a newline.
    public var text: String { selectors.joined(separator: ", ") + " {\(declarations) }\n" }
  }

  /// The three rules of ``rules(forKey:color:scope:)``, as rules.
  /// - Parameters:
  ///   - key: The colour-table key, as it is; the selector escapes it.
  ///   - color: Its colour.
  ///   - scope: A class name, without the dot, or `nil`.
  /// - Returns: The background, text and border rules.
  public static func ruleList(forKey key: String, color: DMColor, scope: String?) -> [Rule] {
    let name = classNameInSelector(key)
    let scope = scope.map(classNameInSelector)
    func selectors(_ prefix: String) -> [String] {
      guard let scope else { return [".\(prefix)-\(name)"] }
      // The class twice on the widget's own rule: a widget with a column's class shows that
      // column even inside a widget with another's (equal specificity would let the later win).
      return [".\(scope).\(prefix)-\(name).\(prefix)-\(name)", ".\(scope) .\(prefix)-\(name)"]
    }
    let value = self.color(color)
    return [
      Rule(
        selectors: selectors("dm-bg"), declarations: " background-color: \(value); background-image: none;"),
      Rule(selectors: selectors("dm-fg"), declarations: " color: \(value);"),
      Rule(selectors: selectors("dm-border"), declarations: " border-color: \(value);"),
    ]
  }

  /// The rules that keep a button's feedback when its background is a key's colour
  /// (`dm-bg-KEY`): the button is shaded when hovered, pressed, checked or disabled, the way
  /// libadwaita shades its own coloured buttons (`.suggested-action`), over the key's colour in
  /// whichever column it shows. One set per key serves every column.
  ///
  /// Each selector names the class three times (`button.dm-bg-BG.dm-bg-BG.dm-bg-BG:hover`), so
  /// that in one stylesheet it wins over the key's colour rules, a column's included (whose
  /// `background-image: none` would hide the shade).
  /// - Parameter key: The colour-table key, as it is; the selector escapes it.
  /// - Returns: Six rules, seven selectors in all.
  public static func feedbackRules(forKey key: String) -> [Rule] {
    let name = "dm-bg-" + classNameInSelector(key)
    return feedbackRules(matching: "button.\(name).\(name).\(name)")
  }

  /// The feedback rules for buttons that `button` selects (such as `button.dm-bound-bg`).
  package static func feedbackRules(matching button: String) -> [Rule] {
    [
      Rule(
        selectors: ["\(button):hover"], declarations: " background-image: image(alpha(currentColor, 0.1));"),
      Rule(
        selectors: ["\(button).keyboard-activating", "\(button):active"],
        declarations: " background-image: image(rgba(0, 0, 0, 0.2));"),
      Rule(selectors: ["\(button):checked"], declarations: " background-image: image(rgba(0, 0, 0, 0.15));"),
      Rule(
        selectors: ["\(button):checked:hover"], declarations: " background-image: image(rgba(0, 0, 0, 0.05));"
      ),
      Rule(
        selectors: ["\(button):checked:active"], declarations: " background-image: image(rgba(0, 0, 0, 0.3));"
      ),
      Rule(selectors: ["\(button):disabled"], declarations: " filter: opacity(0.5);"),
    ]
  }

  /// How many selectors ``feedbackRules(forKey:)`` gives each key.
  public static let feedbackSelectorsPerKey = 7

  /// The most selectors a stylesheet of these rules holds before ``Writer`` groups them.
  ///
  /// GTK 4.8 builds a tree of one stylesheet's selectors in a recursion that goes a level deeper
  /// for each class no other selector at that level shares, and each level keeps 16 bytes on the
  /// stack for each selector left: a stylesheet of about 600 selectors with classes of their own
  /// (200 keys) overflowed the main thread's 8 MiB stack. Up to this many, a stylesheet is written
  /// as it is.
  public static let groupingThreshold = 200

  /// The most selectors one stylesheet of these rules may hold: GTK 4.8 loads 60,000 grouped
  /// selectors with about 3 MiB of stack, and 135,000 came within 2 MiB of the main thread's 8 MiB.
  public static let selectorLimit = 60_000

  /// Writes rules as a stylesheet that GTK 4.8 loads whatever their number, up to
  /// ``selectorLimit`` selectors.
  ///
  /// Past ``groupingThreshold`` selectors, each selector gets `:not(.dm-gLEVEL-DIGIT)` parts,
  /// which no widget's classes ever match, so they select the same widgets: they put the rules in
  /// groups of 32, four groups to a group above, so that GTK's tree of them branches four ways
  /// instead of being a chain as long as the classes. Every rule gets as many as every other, so
  /// that their specificity compared with each other is the same as without them.
  public struct Writer {
    private let levels: Int
    private var index = 0
    /// The stylesheet written so far.
    public private(set) var text = ""

    /// Rules in a group at the bottom.
    static let groupSize = 32
    /// Groups in a group above.
    static let branching = 4

    /// A writer for `ruleCount` rules of `selectorCount` selectors in all.
    /// - Parameters:
    ///   - ruleCount: How many rules ``append(_:)`` will be given.
    ///   - selectorCount: How many selectors they have in all.
    public init(ruleCount: Int, selectorCount: Int) {
      var levels = 0
      if selectorCount > DMGTKStyleRules.groupingThreshold {
        var groups = (ruleCount + Self.groupSize - 1) / Self.groupSize
        while groups > 1 {
          groups = (groups + Self.branching - 1) / Self.branching
          levels += 1
        }
      }
      self.levels = levels
    }

    /// Appends text that is not a rule, such as a comment or named colours.
    /// - Parameter other: The text.
    public mutating func append(text other: String) {
      text += other
    }

    /// Appends the next rule.
    /// - Parameter rule: The rule.
    public mutating func append(_ rule: Rule) {
      defer { index += 1 }
      guard levels > 0 else { return text += rule.text }
      var group = index / Self.groupSize
      var digits = [Int](repeating: 0, count: levels)
      for level in (0..<levels).reversed() {
        digits[level] = group % Self.branching
        group /= Self.branching
      }
      let groups = digits.enumerated().map { ":not(.dm-g\($0.offset)-\($0.element))" }.joined()
      text += rule.selectors.map { $0 + groups }.joined(separator: ", ") + " {\(rule.declarations) }\n"
    }
  }

  /// The declarations of a widget's own colours, those that are not `nil`, each after a space:
  /// ` background-color: …; background-image: none;`, ` color: …;`, ` border-color: …;`.
  /// - Parameters:
  ///   - background: The background colour, or `nil` to leave it to the theme.
  ///   - foreground: The text colour, or `nil`.
  ///   - border: The border colour, or `nil`.
  /// - Returns: The declarations, empty when all three are `nil`.
  public static func declarations(background: DMColor?, foreground: DMColor?, border: DMColor?) -> String {
    var text = ""
    if let background { text += " background-color: \(color(background)); background-image: none;" }
    if let foreground { text += " color: \(color(foreground));" }
    if let border { text += " border-color: \(color(border));" }
    return text
  }

  /// A colour as GTK's CSS reads it: `rgba(R,G,B,A)`, with 0–255 components. A component that is
  /// not a finite number (a colour decoded from bad data) counts as 0.
  /// - Parameter color: The colour.
  /// - Returns: Such as `rgba(52,52,52,1.0)`.
  public static func color(_ color: DMColor) -> String {
    func unit(_ value: Double) -> Double { value.isFinite ? min(max(value, 0), 1) : 0 }
    func channel(_ value: Double) -> Int { Int((unit(value) * 255).rounded()) }
    return "rgba(\(channel(color.red)),\(channel(color.green)),\(channel(color.blue)),\(unit(color.alpha)))"
  }

  /// A class name as a selector writes it: letters, digits, `-` and `_` as they are, any other
  /// character escaped, so that no key can end the rule. An escape is a backslash and six hex
  /// digits, the form that needs no space after it.
  /// - Parameter name: A class name, such as `dm-fg-Text.Primary` or a key.
  /// - Returns: Such as `dm-fg-Text\00002ePrimary`.
  public static func classNameInSelector(_ name: String) -> String {
    var text = ""
    for scalar in name.unicodeScalars {
      switch scalar {
      case "a"..."z", "A"..."Z", "0"..."9", "-", "_": text.unicodeScalars.append(scalar)
      default:
        let digits = String(scalar.value, radix: 16)
        text += "\\" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
      }
    }
    return text
  }
}
