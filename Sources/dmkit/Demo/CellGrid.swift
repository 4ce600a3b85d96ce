import DarkModeKit

/// A rectangle of terminal cells; `x` and `y` count from the top left, from 0.
struct CellRect: Equatable, Sendable {
  var x: Int
  var y: Int
  var width: Int
  var height: Int

  static let zero = CellRect(x: 0, y: 0, width: 0, height: 0)

  var maxX: Int { x + width }
  var maxY: Int { y + height }

  /// The same rectangle moved by an offset.
  func offsetBy(x dx: Int, y dy: Int) -> CellRect {
    CellRect(x: x + dx, y: y + dy, width: width, height: height)
  }

  /// The cells both rectangles cover; empty (zero width or height) when they do not meet.
  func intersection(_ other: CellRect) -> CellRect {
    let left = max(x, other.x)
    let top = max(y, other.y)
    return CellRect(
      x: left, y: top, width: max(0, min(maxX, other.maxX) - left),
      height: max(0, min(maxY, other.maxY) - top))
  }

  func contains(x column: Int, y row: Int) -> Bool {
    column >= x && column < maxX && row >= y && row < maxY
  }
}

/// One character cell: a character and its two colours, always opaque.
struct Cell: Equatable, Sendable {
  var character: Character
  var foreground: DMColor
  var background: DMColor
}

/// A frame of the terminal: views draw into it, and it becomes text with 24-bit ANSI colours.
///
/// Every character is taken to be one column wide; the demo draws only such characters.
/// Colours with alpha are blended over what is already in the cell, so a scrim darkens what is
/// behind it.
struct CellGrid: Equatable, Sendable {
  let width: Int
  let height: Int
  private(set) var cells: [Cell]
  /// Drawing outside this rectangle is dropped; views set it to their own bounds.
  var clip: CellRect

  /// A grid of spaces on one background colour.
  init(width: Int, height: Int, background: DMColor = .black) {
    self.width = max(0, width)
    self.height = max(0, height)
    let blank = Cell(character: " ", foreground: .white, background: background.opaque(over: .black))
    cells = Array(repeating: blank, count: self.width * self.height)
    clip = CellRect(x: 0, y: 0, width: self.width, height: self.height)
  }

  /// The cell at a column and row, both inside the grid.
  subscript(x: Int, y: Int) -> Cell {
    cells[y * width + x]
  }

  /// Paints the background of every cell of a rectangle (inside the clip), keeping the characters
  /// and text colours; a translucent colour is blended over the old background.
  mutating func fill(_ rect: CellRect, with color: DMColor) {
    let area = rect.intersection(clip)
    guard area.width > 0, area.height > 0 else { return }
    for y in area.y..<area.maxY {
      for x in area.x..<area.maxX {
        let index = y * width + x
        cells[index].background = color.opaque(over: cells[index].background)
        if color.alpha >= 1 { cells[index].character = " " }
      }
    }
  }

  /// Writes text from a column of a row, one character per cell, clipped; the cells keep their
  /// background, and a translucent text colour is blended over it.
  mutating func draw(_ text: some StringProtocol, x: Int, y: Int, color: DMColor) {
    guard y >= clip.y, y < clip.maxY else { return }
    var column = x
    for character in text {
      defer { column += 1 }
      guard column >= clip.x else { continue }
      guard column < clip.maxX else { break }
      let index = y * width + column
      cells[index].character = character
      cells[index].foreground = color.opaque(over: cells[index].background)
    }
  }

  /// The characters of each row, without colours.
  var lines: [String] {
    (0..<height).map { y in String(cells[(y * width)..<((y + 1) * width)].map(\.character)) }
  }

  /// The characters without colours, one line per row, trailing spaces removed.
  var text: String {
    lines.map { line in String(line.reversed().drop(while: { $0 == " " }).reversed()) }.joined(
      separator: "\n")
  }

  /// The whole frame as terminal output: each row placed with a cursor move, a colour change
  /// (`ESC[38;2;R;G;Bm`, `ESC[48;2;R;G;Bm`) only where the colour changes, and the colours reset at
  /// the end.
  var ansi: String {
    var output = ""
    output.reserveCapacity(width * height * 4)
    for y in 0..<height {
      output += "\u{1B}[\(y + 1);1H"
      var foreground: DMColor?
      var background: DMColor?
      for x in 0..<width {
        let cell = self[x, y]
        var parameters: [String] = []
        if cell.foreground != foreground {
          parameters.append("38;2;\(cell.foreground.ansiComponents)")
          foreground = cell.foreground
        }
        if cell.background != background {
          parameters.append("48;2;\(cell.background.ansiComponents)")
          background = cell.background
        }
        if !parameters.isEmpty { output += "\u{1B}[\(parameters.joined(separator: ";"))m" }
        output.append(cell.character)
      }
      output += "\u{1B}[0m"
    }
    return output
  }
}

extension DMColor {
  /// This colour blended over an opaque one by its alpha; the result is opaque.
  func opaque(over base: DMColor) -> DMColor {
    guard alpha < 1 else { return self }
    func mix(_ top: Double, _ bottom: Double) -> Double { top * alpha + bottom * (1 - alpha) }
    return DMColor(red: mix(red, base.red), green: mix(green, base.green), blue: mix(blue, base.blue))
  }

  /// `R;G;B` from 0 to 255, as ANSI 24-bit colour sequences take them.
  var ansiComponents: String {
    func byte(_ component: Double) -> Int { Int((component * 255).rounded()) }
    return "\(byte(red));\(byte(green));\(byte(blue))"
  }
}
