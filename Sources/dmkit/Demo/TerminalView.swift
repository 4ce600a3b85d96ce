import DarkModeKit

/// A ``DMView`` that draws itself into a ``CellGrid``: a rectangle of cells with an optional
/// background, then its own content, then its subviews, clipped to its frame.
///
/// Colours are plain properties, set by bindings (`view.dm.bind(\.backgroundColor, to: …)`), so a
/// view never resolves a colour itself: whatever the traits are, drawing uses what the bindings
/// last set.
@MainActor
class TerminalView: DMView {
  /// The view's rectangle in its superview's cells.
  var frame: CellRect
  /// The colour the whole frame is painted with first; clear by default, which leaves what is
  /// behind.
  var backgroundColor = DMColor.clear

  init(frame: CellRect = .zero) {
    self.frame = frame
  }

  /// Draws the view and its subviews, with the view's frame placed at an origin of the grid.
  func draw(in grid: inout CellGrid, originX: Int, originY: Int) {
    let rect = frame.offsetBy(x: originX, y: originY)
    let outerClip = grid.clip
    grid.clip = outerClip.intersection(rect)
    defer { grid.clip = outerClip }
    guard grid.clip.width > 0, grid.clip.height > 0 else { return }
    if backgroundColor.alpha > 0 { grid.fill(rect, with: backgroundColor) }
    drawContent(in: &grid, rect: rect)
    for case let subview as TerminalView in subviews {
      subview.draw(in: &grid, originX: rect.x, originY: rect.y)
    }
  }

  /// Draws what is particular to the view, inside `rect` (its frame on the grid); nothing by
  /// default.
  func drawContent(in grid: inout CellGrid, rect: CellRect) {}
}

/// Text in one colour, one line per row, cut at the frame's edge.
@MainActor
final class TerminalLabel: TerminalView {
  enum Alignment {
    case leading
    case center
  }

  var text: String
  var textColor = DMColor.black
  var alignment: Alignment

  init(_ text: String = "", frame: CellRect = .zero, alignment: Alignment = .leading) {
    self.text = text
    self.alignment = alignment
    super.init(frame: frame)
  }

  override func drawContent(in grid: inout CellGrid, rect: CellRect) {
    for (row, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let indent = alignment == .center ? max(0, (rect.width - line.count) / 2) : 0
      grid.draw(line, x: rect.x + indent, y: rect.y + row, color: textColor)
    }
  }
}

/// A button drawn as `[ Title ]`: in the selected colours when it is the choice in force.
@MainActor
final class TerminalButton: TerminalView {
  var title: String {
    didSet { frame.width = title.count + 4 }
  }
  var isSelected = false
  var textColor = DMColor.black
  var selectedTextColor = DMColor.white
  var selectedBackgroundColor = DMColor.blue

  init(_ title: String, x: Int = 0, y: Int = 0) {
    self.title = title
    super.init(frame: CellRect(x: x, y: y, width: title.count + 4, height: 1))
  }

  override func drawContent(in grid: inout CellGrid, rect: CellRect) {
    if isSelected { grid.fill(rect, with: selectedBackgroundColor) }
    grid.draw("[ \(title) ]", x: rect.x, y: rect.y, color: isSelected ? selectedTextColor : textColor)
  }
}

/// A picture made of characters, in one colour; ``image`` is set by a ``DMDynamicImage`` binding.
@MainActor
final class TerminalImageView: TerminalView {
  var image: TextImage?
  var tintColor = DMColor.black

  override func drawContent(in grid: inout CellGrid, rect: CellRect) {
    guard let image else { return }
    for (row, line) in image.lines.enumerated() {
      // Spaces are transparent, so the art's outline shows on any background.
      for (column, character) in line.enumerated() where character != " " {
        grid.draw(String(character), x: rect.x + column, y: rect.y + row, color: tintColor)
      }
    }
  }
}
