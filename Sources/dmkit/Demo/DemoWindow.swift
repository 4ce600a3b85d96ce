import DarkModeKit

/// The demo's window: the whole terminal, a scrim over the table's surface colour, and the
/// ``DemoViewController``'s panel in the middle.
@MainActor
final class DemoWindow: DMWindow {
  let controller: DemoViewController
  var backgroundColor = DMColor.black
  var scrimColor = DMColor.clear
  /// Called when the window's traits changed; the views' bound colours are already set.
  var onTraitsChange: (() -> Void)?

  init(table: DemoTable) {
    controller = DemoViewController(table: table)
    super.init()
    dm.bind(\.backgroundColor, to: controller.colors.surface)
    dm.bind(\.scrimColor, to: controller.colors.scrim)
    rootViewController = controller
  }

  override func dmTraitCollectionDidChange(_ previousTraitCollection: DMTraitCollection?) {
    onTraitsChange?()
  }

  /// Lays out and draws everything into a grid of the screen's size.
  func render(width: Int, height: Int) -> CellGrid {
    controller.layout(screenWidth: width, screenHeight: height)
    controller.updateText()
    var grid = CellGrid(width: width, height: height, background: backgroundColor)
    grid.fill(grid.clip, with: scrimColor)
    for case let view as TerminalView in subviews {
      view.draw(in: &grid, originX: 0, originY: 0)
    }
    return grid
  }
}
