/// Manages a view: it inherits traits from its view's superview and passes them on to its view.
///
/// The view hierarchy holds a controller only through its view, weakly: keep the controller (as
/// a child of another, a window's root, or in a property). When it is freed, a view that lives on
/// inherits from its superview: its ``DMResponder/dmTraitCollection`` says so at once, and the
/// view is placed, and called if its collection changed, when the main actor next runs queued
/// work (or by the next pass, if that comes first), never from inside the release.
///
/// ```swift
/// final class Panel: DMView { var backgroundColor = DMColor.clear }
///
/// final class SettingsViewController: DMViewController {
///   override func loadView() {
///     let panel = Panel()
///     panel.dm.bind(\.backgroundColor, to: DMDynamicColor(key: "BG"))
///     view = panel
///   }
/// }
/// ```
@MainActor
open class DMViewController: DMResponder {
  private var loadedView: DMView?

  /// The controller this one is a child of.
  public private(set) weak var parent: DMViewController?
  /// The child controllers, in the order they were added.
  public var children: [DMViewController] { childList.elements }
  private var childList = ObjectList<ChildControllerList>()
  /// Where this controller was put in its parent's ``children``: removing it looks there first.
  fileprivate var indexInParent = 0

  /// Creates a controller; its view is made on first access.
  public override init() {}

  // A deep chain of child controllers is freed one at a time, as `DMView` frees its subviews.
  isolated deinit {
    // Its view, if it lives on, now inherits from its superview: the controller's overrides no
    // longer apply to it.
    if let loadedView { TraitPropagator.shared.controllerWasFreed(view: loadedView) }
    guard !childList.isEmpty else { return }
    releaseWithoutRecursion(takeChildren()) { $0.takeChildren() }
  }

  /// Empties ``children`` and returns what it held.
  private func takeChildren() -> [DMViewController] {
    childList.takeAll()
  }

  /// The controller's root view, made by ``loadView()`` on first access.
  ///
  /// Setting another view detaches the old one from this controller (it keeps its superview).
  public var view: DMView {
    get {
      if let loadedView { return loadedView }
      loadView()
      if loadedView == nil { self.view = DMView() }
      viewDidLoad()
      return loadedView!
    }
    set {
      guard newValue !== loadedView else { return }
      let oldView = loadedView
      let previousOwner = newValue.owningController
      previousOwner?.loadedView = nil
      oldView?.owningController = nil
      newValue.owningController = self
      loadedView = newValue
      let propagator = TraitPropagator.shared
      if let oldView { propagator.positionDidChange(oldView) }
      if let previousOwner { propagator.positionDidChange(previousOwner) }
      propagator.positionDidChange(self)
      propagator.positionDidChange(newValue)
    }
  }

  /// The root view if it was made, without making it.
  public var viewIfLoaded: DMView? { loadedView }

  /// Whether the root view was made.
  public var isViewLoaded: Bool { loadedView != nil }

  /// Makes the root view; the default sets ``view`` to a plain ``DMView``.
  ///
  /// Override it to set ``view`` to a view of your own; do not call `super`.
  open func loadView() {
    view = DMView()
  }

  /// Called once after the root view was made.
  open func viewDidLoad() {}

  /// Adds a child controller. Adding the child's view to a view of this controller is up to you.
  /// - Parameter child: The controller to add; it is first removed from any other parent.
  public func addChild(_ child: DMViewController) {
    guard child !== self else { return }
    child.removeFromParent()
    childList.insert(child, at: .max)
    child.parent = self
  }

  /// Removes this controller from its parent's ``children``.
  public func removeFromParent() {
    parent?.childList.remove(self)
    parent = nil
  }

  override var traitParent: DMResponder? { loadedView?.superview }

  override func appendTraitChildren(to stack: UnsafeWalkStack) {
    if let loadedView { stack.push(TraitPropagator.UnretainedEntry(node: loadedView, parent: self)) }
  }
}

/// How a controller keeps its children.
enum ChildControllerList: ObjectListKind {
  static let hole = DMViewController()
  static func position(of element: DMViewController) -> Int { element.indexInParent }
  static func setPosition(_ position: Int, of element: DMViewController) { element.indexInParent = position }
}
