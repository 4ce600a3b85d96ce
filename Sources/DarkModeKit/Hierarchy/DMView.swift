/// A node of the interface tree: it inherits traits from its superview and passes them on to its
/// subviews.
///
/// DarkModeKit draws nothing: a view declares the properties it draws with, and redraws itself
/// when its traits change.
///
/// ```swift
/// final class Label: DMView {
///   var textColor = DMColor.black
///   override func dmTraitCollectionDidChange(_ previous: DMTraitCollection?) {
///     draw()
///   }
///   func draw() { /* the app's drawing code, with textColor */ }
/// }
/// let label = Label()
/// label.dm.bind(\.textColor, to: DMDynamic(light: .black, dark: .white))
/// let window = DMWindow()
/// window.addSubview(label)
/// ```
@MainActor
open class DMView: DMResponder {
  /// The view this one is a subview of.
  public private(set) weak var superview: DMView?
  /// The views this one contains, back to front.
  @exclusivity(unchecked) public private(set) var subviews: [DMView] = []
  /// The controller whose root view this is; it sits between this view and its superview.
  weak var owningController: DMViewController? {
    didSet { isRootViewOfController = owningController != nil }
  }
  /// Whether ``owningController`` is set, read on the propagation path instead of the weak
  /// reference, which costs more to load.
  @exclusivity(unchecked) private final var isRootViewOfController = false

  /// Creates a view with no superview and no subviews.
  public override init() {}

  // Freeing a view frees the subviews nothing else holds, and theirs, without nesting a
  // deinitializer per level (see `releaseWithoutRecursion`). Isolated, as the subviews are
  // main-actor state; a view freed elsewhere is finished on the main actor.
  isolated deinit {
    guard !subviews.isEmpty else { return }
    releaseWithoutRecursion(takeSubviews()) { $0.takeSubviews() }
  }

  /// Empties ``subviews`` and returns what it held.
  private func takeSubviews() -> [DMView] {
    defer { subviews = [] }
    return subviews
  }

  /// The window at the root of this view's superview chain, or `nil` when the root is not a window.
  public var window: DMWindow? {
    var view: DMView = self
    while let parent = view.superview { view = parent }
    return view as? DMWindow
  }

  /// Adds a view at the end of ``subviews`` (in front of the others).
  ///
  /// A view that has another superview is first removed from it. Adding a view to itself or to
  /// one of its own subviews would make a cycle and does nothing.
  /// - Parameter view: The view to add.
  public func addSubview(_ view: DMView) {
    insertSubview(view, at: Int.max)
  }

  /// Inserts a view into ``subviews`` at an index, clamped to the valid range.
  ///
  /// A view that has another superview is first removed from it. Inserting a view into itself or
  /// into one of its own subviews would make a cycle and does nothing.
  /// - Parameters:
  ///   - view: The view to insert.
  ///   - index: The position in ``subviews``; `0` is the back.
  public func insertSubview(_ view: DMView, at index: Int) {
    guard view !== self, view.subviews.isEmpty || !isDescendant(of: view) else { return }
    view.superview?.subviews.removeAll { $0 === view }
    subviews.insert(view, at: min(max(index, 0), subviews.count))
    view.superview = self
    TraitPropagator.shared.positionDidChange(view.traitNode)
  }

  /// Removes this view from its superview; it then resolves its traits from the global collection
  /// and gets no calls until it is in a visible window again.
  public func removeFromSuperview() {
    guard let superview else { return }
    superview.subviews.removeAll { $0 === self }
    self.superview = nil
    TraitPropagator.shared.positionDidChange(traitNode)
  }

  /// Whether `view` is this view or one of its ancestors.
  /// - Parameter view: The possible ancestor.
  /// - Returns: `true` when `view` is in this view's superview chain, itself included.
  public func isDescendant(of view: DMView) -> Bool {
    var cursor: DMView? = self
    while let current = cursor {
      if current === view { return true }
      cursor = current.superview
    }
    return false
  }

  /// The node that inherits from this view's superview: this view, or the controller it belongs to.
  final var traitNode: DMResponder {
    isRootViewOfController ? owningController ?? self : self
  }

  override var traitParent: DMResponder? {
    isRootViewOfController ? owningController ?? superview : superview
  }

  override func appendTraitChildren(to stack: inout [TraitPropagator.Entry]) {
    // Neither the views nor this one are retained for the entries (see `TraitPropagator.Entry`);
    // a controller, which the tree holds only weakly, is pinned for the pass.
    let parent = Unmanaged<DMResponder>.passUnretained(self)
    var index = subviews.count
    while index > 0 {
      index -= 1
      unowned(unsafe) let view = subviews[index]
      if view.isRootViewOfController, let controller = view.owningController {
        TraitPropagator.shared.pin(controller)
        stack.append(TraitPropagator.Entry(node: controller, parent: self))
      } else {
        stack.append(TraitPropagator.Entry(node: Unmanaged.passUnretained(view), parent: parent))
      }
    }
  }
}
