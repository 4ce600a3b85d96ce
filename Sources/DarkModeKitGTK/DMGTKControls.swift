import CGtk
import DarkModeKit

/// A GTK label in DarkModeKit's tree.
///
/// ```swift
/// let title = DMGTKLabel("Notes")
/// title.dm.bind(\.foregroundColor, to: DMDynamicColor(key: "Text.Primary"))
/// ```
@MainActor
open class DMGTKLabel: DMGTKWidget {
  /// Creates a label.
  /// - Parameter text: The text it shows.
  public init(_ text: String) {
    super.init(gtk_label_new(text)!)
  }

  /// The text it shows.
  public var text: String {
    get { String(cString: gtk_label_get_text(OpaquePointer(widget))) }
    set { gtk_label_set_text(OpaquePointer(widget), newValue) }
  }
}

/// A GTK button with a text, which runs a closure when clicked.
///
/// ```swift
/// let dark = DMGTKButton("Dark") {
///   DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: true)
/// }
/// ```
///
/// The closure is kept until the button is destroyed: a closure that refers to the button, or to
/// what holds the button, takes it `weak`, or neither is ever freed.
@MainActor
open class DMGTKButton: DMGTKWidget {
  /// Creates a button.
  /// - Parameters:
  ///   - label: The text it shows.
  ///   - action: What a click runs, on the main actor.
  public init(_ label: String, action: @escaping @MainActor () -> Void = {}) {
    super.init(gtk_button_new_with_label(label)!)
    onClick(action)
  }

  /// The text it shows.
  public var label: String {
    get { gtk_button_get_label(gtkObject(widget, as: GtkButton.self)).map { String(cString: $0) } ?? "" }
    set { gtk_button_set_label(gtkObject(widget, as: GtkButton.self), newValue) }
  }

  /// Runs `action` at each click, besides what ran before.
  /// - Parameter action: What a click runs, on the main actor.
  public func onClick(_ action: @escaping @MainActor () -> Void) {
    connect("clicked", action)
  }
}

/// A GTK box: widgets in a row or a column, which take the box's traits.
///
/// ```swift
/// let column = DMGTKBox(.vertical, spacing: 12)
/// column.append(DMGTKLabel("Hello"))
/// column.append(DMGTKButton("Dark"))
/// window.child = column
/// ```
@MainActor
open class DMGTKBox: DMGTKWidget, DMGTKContainer {
  /// The direction a box lays its widgets out in.
  public enum Orientation: Sendable {
    /// Side by side, left to right.
    case horizontal
    /// One under the other.
    case vertical
  }

  /// Creates a box.
  /// - Parameters:
  ///   - orientation: The direction of its widgets; vertical by default.
  ///   - spacing: The space between two widgets, in pixels.
  public init(_ orientation: Orientation = .vertical, spacing: Int = 0) {
    let direction = orientation == .vertical ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL
    super.init(gtk_box_new(direction, Int32(clamping: spacing))!)
  }

  /// Puts a widget at the end of the box, on screen and in DarkModeKit's tree.
  /// - Parameter child: The widget; one already in another container is moved.
  public func append(_ child: DMGTKWidget) {
    child.leaveContainer()
    gtk_box_append(gtkObject(widget, as: GtkBox.self), child.widget)
    addSubview(child)
    child.container = self
  }

  /// Takes a widget out of the box, on screen and in DarkModeKit's tree; does nothing for a
  /// widget the box does not hold.
  /// - Parameter child: The widget.
  public func remove(_ child: DMGTKWidget) {
    guard child.container === self else { return }
    child.leaveContainer()
  }

  func remove(fromLayout child: DMGTKWidget) {
    gtk_box_remove(gtkObject(widget, as: GtkBox.self), child.widget)
  }
}

/// What holds widgets on screen and in DarkModeKit's tree at once: a box, a window.
@MainActor
protocol DMGTKContainer: AnyObject {
  /// Takes the widget out of the GTK layout.
  func remove(fromLayout child: DMGTKWidget)
}

extension DMGTKWidget {
  /// Takes the widget out of the container it was put in with ``DMGTKBox/append(_:)`` or
  /// ``DMGTKWindow/child``, on screen and in DarkModeKit's tree.
  func leaveContainer() {
    guard let container else { return }
    self.container = nil
    container.remove(fromLayout: self)
    removeFromSuperview()
  }
}

/// A GTK object of the type `T`, from a pointer to a widget of that type: GTK's C API takes each
/// widget type's own pointer where C code would cast.
func gtkObject<T>(_ widget: UnsafeMutablePointer<GtkWidget>, as _: T.Type) -> UnsafeMutablePointer<T> {
  UnsafeMutableRawPointer(widget).assumingMemoryBound(to: T.self)
}
