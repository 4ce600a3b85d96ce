import DarkModeKit

extension DMColorTable {
  /// The table as text for a terminal: a header row of theme names, then one row per key with
  /// each theme's colour, as `dmkit preview` prints it.
  ///
  /// Without colour, each cell is the colour's hex value (lower case, `#rrggbbaa` when the alpha
  /// is below 1), and columns are separated by two spaces and aligned:
  ///
  /// ```
  /// KEY  NORMAL   NIGHT    RED
  /// BG   #ffffff  #343434  #fafafa
  /// SEP  #aaaaaa  #313131  #aaaaaa
  /// ```
  ///
  /// With colour, each cell starts with a swatch, two spaces on the colour as a 24-bit background
  /// (`ESC[48;2;R;G;Bm  ESC[0m`), then a space and the hex value. A terminal cannot show
  /// transparency, so the swatch shows the colour opaque; the hex value keeps the alpha. Columns
  /// are aligned by what the terminal shows, and no line ends with spaces.
  /// - Parameters:
  ///   - themes: The columns to show, in this order; `nil` (the default) shows every theme in
  ///     header order. Themes the table does not have are left out.
  ///   - usesColor: Whether to draw swatches with terminal escape sequences.
  /// - Returns: The lines, each ending with a newline; only the header row for a table with no
  ///   keys, and an empty string for a table with no themes.
  public func preview(themes: [DMTheme]? = nil, usesColor: Bool) -> String {
    let contents = contents
    let columns = (themes ?? contents.themes).compactMap { contents.column(of: $0) }
    guard !columns.isEmpty else { return "" }
    let keyWidth = contents.keys.reduce(3) { max($0, $1.count) }
    let swatchWidth = usesColor ? 3 : 0
    let widths = columns.map { column in
      contents.keys.indices.reduce(contents.themes[column].rawValue.count) { width, row in
        max(width, swatchWidth + contents.color(row: row, column: column).cssHex.count)
      }
    }
    func line(_ first: String, _ cells: [(text: String, width: Int)]) -> String {
      var text = first.padded(to: keyWidth)
      for (index, cell) in cells.enumerated() {
        text += "  " + cell.text
        if index < cells.count - 1 { text += String(repeating: " ", count: widths[index] - cell.width) }
      }
      return text + "\n"
    }
    var text = line(
      "KEY", columns.map { (contents.themes[$0].rawValue, contents.themes[$0].rawValue.count) })
    for (row, key) in contents.keys.enumerated() {
      let cells = columns.map { column -> (text: String, width: Int) in
        let color = contents.color(row: row, column: column)
        let hex = color.cssHex
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
