import CGtk
import DarkModeKit
import Foundation

/// A GTK drawing area that draws with DarkModeKit's colours: it draws again after each change of
/// its traits and after each colour-table reload, with its collection current, so dynamic colours
/// resolve for it.
///
/// ```swift
/// let chart = DMGTKDrawingArea { cairo, width, height, traits in
///   let fill = accent.resolved(with: traits)
///   cairo_set_source_rgb(cairo, fill.red, fill.green, fill.blue)
///   cairo_paint(cairo)
/// }
/// window.addSubview(chart)
/// ```
@MainActor
open class DMGTKDrawingArea: DMGTKWidget {
  /// Draws the area: the cairo context, the width and height in pixels, and the area's traits.
  public typealias Draw =
    @MainActor (_ cairo: OpaquePointer, _ width: Int32, _ height: Int32, _ traits: DMTraitCollection)
    -> Void

  private var reloadObserver: (any NSObjectProtocol)?

  isolated deinit {
    if let reloadObserver { NotificationCenter.default.removeObserver(reloadObserver) }
  }

  /// How many times the area was drawn.
  public private(set) var drawCount = 0
  private let draw: Draw

  /// Creates a drawing area.
  /// - Parameter draw: Draws the area's contents.
  public init(draw: @escaping Draw) {
    self.draw = draw
    let area = gtk_drawing_area_new()!
    super.init(area)
    let thunk: GtkDrawingAreaDrawFunc = { _, cairo, width, height, data in
      let callback = Unmanaged<DrawCallback>.fromOpaque(data!).takeUnretainedValue()
      MainActor.assumeIsolated { callback.area?.drawContents(cairo!, width, height) }
    }
    let callback = DrawCallback(area: self)
    // A reload changes the colours a drawing resolves without changing its traits.
    reloadObserver = NotificationCenter.default.addObserver(
      forName: DMColorTable.didReloadNotification, object: nil, queue: nil
    ) { [weak self] _ in
      MainActor.assumeIsolated {
        guard let self, !self.styling.isClosed else { return }
        gtk_widget_queue_draw(self.widget)
      }
    }
    gtk_drawing_area_set_draw_func(
      UnsafeMutableRawPointer(area).assumingMemoryBound(to: GtkDrawingArea.self), thunk,
      Unmanaged.passRetained(callback).toOpaque(),
      { data in Unmanaged<DrawCallback>.fromOpaque(data!).release() })
  }

  open override func dmTraitCollectionDidChange(_ previousTraitCollection: DMTraitCollection?) {
    super.dmTraitCollectionDidChange(previousTraitCollection)
    gtk_widget_queue_draw(widget)
  }

  private func drawContents(_ cairo: OpaquePointer, _ width: Int32, _ height: Int32) {
    drawCount += 1
    let traits = dmTraitCollection
    traits.performAsCurrent { draw(cairo, width, height, traits) }
  }

  /// The draw function's user data: the area, weakly, as GTK may draw after the area is freed.
  private final class DrawCallback: @unchecked Sendable {
    // Safe: set once, and read only on the main thread, where GTK draws.
    weak var area: DMGTKDrawingArea?
    init(area: DMGTKDrawingArea) { self.area = area }
  }
}
