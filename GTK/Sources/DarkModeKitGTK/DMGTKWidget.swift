import CGtk
import DarkModeKit

/// A GTK widget whose colours DarkModeKit keeps: ``DMGTKWidget`` and ``DMGTKWindow``.
///
/// Bind the colour properties like any property, to a pair, a provider or a colour-table key; the
/// widget shows the colour from the next frame on.
///
/// ```swift
/// let card = DMGTKWidget(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
/// window.addSubview(card)
/// card.dm.bind(\.backgroundColor, to: DMDynamicColor(key: "BG", in: table))
/// ```
@MainActor
public protocol DMGTKStyled: DMView {
  /// The GTK widget.
  var widget: UnsafeMutablePointer<GtkWidget> { get }
  /// The widget's colours; see ``backgroundColor``.
  var styling: DMGTKStyling { get }
}

extension DMGTKStyled {
  /// The GTK widget whose colours ``styling`` keeps.
  public var widget: UnsafeMutablePointer<GtkWidget> { styling.widget }

  /// The widget's background colour (CSS `background-color`, with no background image), or `nil`
  /// for the theme's.
  public var backgroundColor: DMColor? {
    get { styling.background }
    set { styling.background = newValue }
  }

  /// The widget's text colour (CSS `color`), or `nil` for the theme's.
  public var foregroundColor: DMColor? {
    get { styling.foreground }
    set { styling.foreground = newValue }
  }

  /// The widget's border colour (CSS `border-color`), or `nil` for the theme's.
  public var borderColor: DMColor? {
    get { styling.border }
    set { styling.border = newValue }
  }
}

/// A GTK widget in DarkModeKit's tree: it inherits its superview's traits, and its colours can be
/// bound to dynamic colours.
///
/// The GTK layout and the DarkModeKit tree are separate: add the widget to a GTK container as usual,
/// and add the `DMGTKWidget` as a subview of the window's (or of another widget's) to give it that
/// environment's traits. It keeps a reference to the GTK widget until it is freed.
///
/// Override `dmTraitCollectionDidChange(_:)` in a subclass to redraw custom drawing; see
/// ``DMGTKDrawingArea``.
@MainActor
open class DMGTKWidget: DMView, DMGTKStyled {
  /// The widget's colours.
  public let styling: DMGTKStyling

  /// Wraps a GTK widget.
  /// - Parameter widget: The widget; a floating reference is taken over.
  public init(_ widget: UnsafeMutablePointer<GtkWidget>) {
    styling = DMGTKStyling(widget: widget)
    super.init()
  }

  isolated deinit {
    styling.close()
  }
}
