import DarkModeKit
import DarkModeKitText

extension DMColorTable {
  /// The table as text for a terminal: a header row naming the columns, a row saying which side
  /// and contrast each one is, then one row per key with each column's colour, as `dmkit preview`
  /// prints it.
  ///
  /// Without colour, each cell is the colour's hex value (upper case, `#RRGGBBAA` when the alpha
  /// is below 1), and columns are separated by two spaces and aligned:
  ///
  /// ```text
  /// KEY  NORMAL   NIGHT    RED      SOLARIZED:light  SOLARIZED:dark
  ///      light    dark     light    light            dark
  /// BG   #FFFFFF  #343434  #FAFAFA  #FDF6E3          #002B36
  /// SEP  #AAAAAA  #313131  #AAAAAA  #EEE8D5          #073642
  /// ```
  ///
  /// A high-contrast column's side reads `light high` or `dark high`.
  ///
  /// With colour, each cell starts with a swatch, two spaces on the colour as a 24-bit background
  /// (`ESC[48;2;R;G;Bm  ESC[0m`), then a space and the hex value. A terminal cannot show
  /// transparency, so the swatch shows the colour opaque; the hex value keeps the alpha. Columns
  /// are aligned by what the terminal shows, and no line ends with spaces.
  /// - Parameters:
  ///   - themes: The themes to show, each with all its columns, in this order; `nil` (the default)
  ///     shows every column in header order. Themes the table does not have are left out.
  ///   - usesColor: Whether to draw swatches with terminal escape sequences.
  /// - Returns: The lines, each ending with a newline; only the two header rows for a table with
  ///   no keys, and an empty string for a table with no themes.
  public func preview(themes: [DMTheme]? = nil, usesColor: Bool) -> String {
    let contents = contents
    let columns =
      themes.map { themes in
        themes.flatMap { theme in contents.variants.indices.filter { contents.variants[$0].theme == theme } }
      } ?? Array(contents.variants.indices)
    return preview(contents, columns: columns, usesColor: usesColor)
  }

  /// The table as ``preview(themes:usesColor:)`` shows it, with only the columns given.
  /// - Parameters:
  ///   - variants: The columns to show, in this order. Columns the table does not have are left
  ///     out.
  ///   - usesColor: Whether to draw swatches with terminal escape sequences.
  /// - Returns: The lines, each ending with a newline.
  public func preview(variants: [DMThemeVariant], usesColor: Bool) -> String {
    let contents = contents
    return preview(contents, columns: variants.compactMap { contents.column(of: $0) }, usesColor: usesColor)
  }

  private func preview(_ contents: Contents, columns: [Int], usesColor: Bool) -> String {
    guard !columns.isEmpty else { return "" }
    let keyWidth = contents.keys.reduce(3) { max($0, min($1.count, Self.maximumAlignedWidth)) }
    let swatchWidth = usesColor ? 3 : 0
    let names = Self.columnNames(contents)
    let titles = columns.map { ShownText.escaped(names[$0]) }
    let sides = columns.map { column in
      let variant = contents.variants[column]
      return "\(variant.userInterfaceStyle)" + (variant.accessibilityContrast == .high ? " high" : "")
    }
    let widths = columns.indices.map { index in
      contents.keys.indices.reduce(
        min(max(titles[index].count, sides[index].count), Self.maximumAlignedWidth)
      ) {
        width, row in
        max(width, swatchWidth + contents.color(row: row, column: columns[index]).hexString.count)
      }
    }
    func line(_ first: String, _ cells: [(text: String, width: Int)]) -> String {
      var text = first.padded(to: keyWidth)
      for (index, cell) in cells.enumerated() {
        text += "  " + cell.text
        if index < cells.count - 1 {
          text += String(repeating: " ", count: max(widths[index] - cell.width, 0))
        }
      }
      return text + "\n"
    }
    var text = line("KEY", titles.map { ($0, $0.count) })
    text += line("", sides.map { ($0, $0.count) })
    for (row, key) in contents.keys.enumerated() {
      let cells = columns.map { column -> (text: String, width: Int) in
        let color = contents.color(row: row, column: column)
        let hex = color.hexString
        return usesColor ? (color.swatch + " " + hex, swatchWidth + hex.count) : (hex, hex.count)
      }
      text += line(key, cells)
    }
    return text
  }
}

extension DMColor {
  /// Two spaces on the colour, opaque, as a 24-bit terminal background, then a reset.
  var swatch: String {
    func byte(_ component: Double) -> Int { Int((component * 255).rounded()) }
    return "\u{1B}[48;2;\(byte(red));\(byte(green));\(byte(blue))m  \u{1B}[0m"
  }
}

extension String {
  /// The string with spaces after it up to `width` characters.
  fileprivate func padded(to width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
