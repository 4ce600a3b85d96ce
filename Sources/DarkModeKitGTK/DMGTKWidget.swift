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

  /// The box or window that holds the widget, when it was put there through DarkModeKitGTK.
  weak var container: (any DMGTKContainer)?

  /// Wraps a GTK widget.
  /// - Parameter widget: The widget; a floating reference is taken over.
  public init(_ widget: UnsafeMutablePointer<GtkWidget>) {
    styling = DMGTKStyling(widget: widget)
    super.init()
  }

  isolated deinit {
    styling.close()
  }

  /// Calls `body` each time the widget emits `signal`, any signal (`clicked`, `activate`,
  /// `notify::sensitive`); see ``DMGTK/connect(_:_:_:)``. The closure is kept until the widget is destroyed: one that refers
  /// to the widget takes it `weak`.
  /// - Parameters:
  ///   - signal: The signal's name.
  ///   - body: What to run, on the main actor.
  /// - Returns: The handler's id.
  @discardableResult
  public func connect(_ signal: String, _ body: @escaping @MainActor () -> Void) -> UInt {
    DMGTK.connect(UnsafeMutableRawPointer(widget), signal, body)
  }

  /// Adds a CSS class to the widget, such as `dm-fg-Text.Primary` for a key of its window's
  /// ``DMGTKWindow/colorTable``.
  /// - Parameter name: The class, without the dot.
  public func addCSSClass(_ name: String) {
    gtk_widget_add_css_class(widget, name)
  }

  /// Removes a CSS class from the widget.
  /// - Parameter name: The class, without the dot.
  public func removeCSSClass(_ name: String) {
    gtk_widget_remove_css_class(widget, name)
  }

  /// The empty space around the widget, in pixels, on each of its four sides.
  public var margin: Int {
    get { Int(gtk_widget_get_margin_top(widget)) }
    set {
      let margin = Int32(clamping: newValue)
      gtk_widget_set_margin_top(widget, margin)
      gtk_widget_set_margin_bottom(widget, margin)
      gtk_widget_set_margin_start(widget, margin)
      gtk_widget_set_margin_end(widget, margin)
    }
  }

  /// Whether the widget takes the space its container has to spare, across and down.
  public var expands: Bool {
    get { gtk_widget_get_hexpand(widget) != 0 && gtk_widget_get_vexpand(widget) != 0 }
    set {
      gtk_widget_set_hexpand(widget, newValue ? 1 : 0)
      gtk_widget_set_vexpand(widget, newValue ? 1 : 0)
    }
  }
}

extension DMBindings where Root: DMGTKStyled {
  /// Keeps one of the widget's colours (``DMGTKStyled/backgroundColor``,
  /// ``DMGTKStyled/foregroundColor``, ``DMGTKStyled/borderColor``) set to a dynamic colour.
  ///
  /// The same binding as DarkModeKit's `bind(_:to:)`, with updates that call the colour's setter:
  /// widgets bound alike share their bindings, as DarkModeKit's objects do.
  /// Any other optional colour property is bound as DarkModeKit binds it, its key path compiled
  /// into the update where the app binds.
  /// - Parameters:
  ///   - keyPath: The colour to set.
  ///   - color: The colour to resolve for the widget's traits.
  @inlinable
  @inline(__always)
  public func bind(
    _ keyPath: @autoclosure () throws -> ReferenceWritableKeyPath<Root, DMColor?>,
    to color: DMDynamic<DMColor>
  ) rethrows {
    let path = try keyPath()
    switch StyledColorPaths.index(of: path, in: Root.self) {
    case 0: bindShared(path, to: color, set: { $0.backgroundColor = $1 })
    case 1: bindShared(path, to: color, set: { $0.foregroundColor = $1 })
    case 2: bindShared(path, to: color, set: { $0.borderColor = $1 })
    default: try bindThroughKeyPath(self, keyPath, to: color)
    }
  }
}

/// The key paths of the three colours of each styled type, made once per type: a key path written
/// in generic code is made anew each time it runs, which cost about ten times the rest of a
/// binding.
@MainActor
@usableFromInline
enum StyledColorPaths {
  /// Each styled type's three colour paths, as the objects that stand for them in bindings.
  private static var known: [ObjectIdentifier: [AnyKeyPath]] = [:]

  /// The answers for the key path objects asked about last, with their type: the app's code
  /// gives the same object for `\.backgroundColor` each time it runs, so widgets bound in a loop
  /// find the answer by identity.
  private static let recent = RecentPropertyIndices()

  /// 0, 1 or 2 for the background, text or border colour of `Root`; `nil` for another path.
  @usableFromInline
  static func index<Root: DMGTKStyled>(of keyPath: AnyKeyPath, in _: Root.Type) -> Int? {
    let type = ObjectIdentifier(Root.self)
    if let index = recent.index(of: keyPath, in: type) { return index }
    let paths: [AnyKeyPath]
    if let found = known[type] {
      paths = found
    } else {
      paths = [\Root.backgroundColor, \Root.foregroundColor, \Root.borderColor].map(BoundKeyPaths.canonical)
      known[type] = paths
    }
    // The path is bound next, so its object in `BoundKeyPaths` is made now either way; the
    // colours are then told apart by identity.
    let bound = BoundKeyPaths.canonical(keyPath)
    let index = paths.firstIndex { $0 === bound }
    // The answer let go of, and its key path, go after the access to `recent`.
    extendLifetime(recent.remember(index, of: keyPath, in: type))
    return index
  }
}

/// DarkModeKit's own binding of an optional property, which the overload above hides from code
/// that knows its root to be styled.
@MainActor
@inlinable
@inline(__always)
func bindThroughKeyPath<Root, Value>(
  _ bindings: DMBindings<Root>, _ keyPath: () throws -> ReferenceWritableKeyPath<Root, Value?>,
  to value: DMDynamic<Value>
) rethrows {
  try bindings.bind(try keyPath(), to: value)
}
