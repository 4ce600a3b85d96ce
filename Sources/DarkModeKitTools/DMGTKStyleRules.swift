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
/// DMGTKStyleRules.rules(forKey: "BG", color: DMColor(rgb: 0x343434), scope: "dm-column-night")
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
    let name = classNameInSelector(key)
    let scope = scope.map(classNameInSelector)
    func selector(_ prefix: String) -> String {
      guard let scope else { return ".\(prefix)-\(name)" }
      // The class twice on the widget's own rule: a widget with a column's class shows that
      // column even inside a widget with another's (equal specificity would let the later win).
      return ".\(scope).\(prefix)-\(name).\(prefix)-\(name), .\(scope) .\(prefix)-\(name)"
    }
    let value = self.color(color)
    return "\(selector("dm-bg")) { background-color: \(value); background-image: none; }\n"
      + "\(selector("dm-fg")) { color: \(value); }\n"
      + "\(selector("dm-border")) { border-color: \(value); }\n"
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
