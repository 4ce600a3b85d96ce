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
  public var subviews: [DMView] { subviewList.elements }
  /// The subviews, with holes where views were removed (see ``ObjectList``).
  ///
  /// Read for every environment a walk from a stack visits, on the main actor only, and never held
  /// across a call that could reach it again: its dynamic exclusivity checks, which would cost a
  /// local override 8%, are turned off (one of the four fields listed in Docs/Architecture.md).
  @exclusivity(unchecked) final var subviewList = ObjectList<SubviewList>()
  /// The controller whose root view this is; it sits between this view and its superview.
  ///
  /// Kept out of line (see `DMResponder.Extras`): few views are a controller's root view.
  var owningController: DMViewController? {
    get { isRootViewOfController ? extras?.owningController : nil }
    set {
      if newValue != nil || extras != nil { extrasBox.owningController = newValue }
      isRootViewOfController = newValue != nil
    }
  }
  /// Where this view was put in its superview's ``subviews``: removing it looks there first.
  final var indexInSuperview: Int32 = 0

  /// Creates a view with no superview and no subviews.
  public override init() {}

  // Freeing a view frees the subviews nothing else holds, and theirs, without nesting a
  // deinitializer per level (see `releaseWithoutRecursion`). Isolated, as the subviews are
  // main-actor state; a view freed elsewhere is finished on the main actor.
  isolated deinit {
    guard !subviewList.isEmpty else { return }
    releaseWithoutRecursion(takeSubviews()) { $0.takeSubviews() }
  }

  /// Empties ``subviews`` and returns what it held.
  private func takeSubviews() -> [DMView] {
    let taken = subviewList.takeAll()
    if !taken.isEmpty { TraitPropagator.shared.parentsWereFreed() }
    return taken
  }

  /// The window at the root of this view's superview chain, or `nil` when the root is not a window.
  ///
  /// A walk up a long chain leaves checkpoints on its way (see `DMResponder.Extras`), so that
  /// asking every view of a deep tree costs a bounded walk each.
  public var window: DMWindow? {
    let version = TraitPropagator.shared.structureVersion
    var view: DMView = self
    var steps = 0
    var root: DMView?
    while root == nil {
      if let extras = view.extras, extras.rootVersion == version, let known = extras.root {
        root = known
      } else if let parent = view.superview {
        view = parent
        steps += 1
      } else {
        root = view
      }
    }
    if steps > TraitPropagator.checkpointSpacing {
      var cursor: DMView? = self
      for index in 0..<steps {
        guard let current = cursor else { break }
        if index > 0, (steps - index).isMultiple(of: TraitPropagator.checkpointSpacing) {
          current.extrasBox.root = root
          current.extrasBox.rootVersion = version
        }
        cursor = current.superview
      }
    }
    return root as? DMWindow
  }

  /// Adds a view at the end of ``subviews`` (in front of the others).
  ///
  /// A view that has another superview is first removed from it. Adding a view to itself or to
  /// one of its own subviews would make a cycle and does nothing; so does adding a window, the
  /// root of its own tree.
  /// - Parameter view: The view to add.
  public func addSubview(_ view: DMView) {
    insertSubview(view, at: Int.max)
  }

  /// Inserts a view into ``subviews`` at an index, clamped to the valid range.
  ///
  /// A view that has another superview is first removed from it. Inserting a view into itself or
  /// into one of its own subviews would make a cycle and does nothing. A window is the root of its
  /// tree, under the global collection: inserting one does nothing either.
  /// - Parameters:
  ///   - view: The view to insert.
  ///   - index: The position in ``subviews``; `0` is the back.
  public func insertSubview(_ view: DMView, at index: Int) {
    guard !(view is DMWindow), !isSelfOrAncestor(view) else { return }
    if let superview = view.superview {
      // Kept for the running pass before its old superview lets go of it (the event pins it too,
      // too late): the view may be the one whose callback moves it, which the pass calls without
      // holding it. Outside a pass this costs nothing.
      TraitPropagator.shared.pin(view)
      superview.subviewList.remove(view)
    }
    subviewList.insert(view, at: index)
    view.superview = self
    TraitPropagator.shared.positionDidChange(view.traitNode)
  }

  /// Removes this view from its superview; it then resolves its traits from the global collection
  /// and gets no calls until it is in a visible window again.
  public func removeFromSuperview() {
    guard let superview else { return }
    // Kept for the running pass before its superview lets go of it (the event pins it too, too
    // late): its own callback may be what removes it, which the pass calls without holding it.
    // Outside a pass this costs nothing.
    TraitPropagator.shared.pin(self)
    superview.subviewList.remove(self)
    self.superview = nil
    TraitPropagator.shared.positionDidChange(traitNode)
  }

  /// Whether `view` is this view or one of its ancestors, where adding it would make a cycle.
  ///
  /// Walks up from this view and through `view`'s subtree in turn, a node at a time each, and
  /// stops when either ends: the check costs the smaller of the two, so attaching small subtrees
  /// at the bottom of a deep tree stays cheap, and so does attaching a large one near the top.
  private func isSelfOrAncestor(_ view: DMView) -> Bool {
    if view === self { return true }
    // Only a view with subviews can be an ancestor.
    if view.subviewList.isEmpty { return false }
    var ancestor = superview
    // The subtree's views still to go through, each with the next of its subviews to visit.
    var pending: [(view: DMView, next: Int)] = [(view, 0)]
    while let current = ancestor {
      if current === view { return true }
      ancestor = current.superview
      guard var top = pending.popLast() else { return false }
      if top.next < top.view.subviews.count {
        let child = top.view.subviews[top.next]
        top.next += 1
        pending.append(top)
        if child === self { return true }
        if !child.subviewList.isEmpty { pending.append((child, 0)) }
      }
    }
    return false
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

  override func appendTraitChildren(to stack: UnsafeWalkStack) {
    stack.pushSubviews(of: self)
  }

}

/// How a view keeps its subviews.
enum SubviewList: ObjectListKind {
  static let hole = DMView()
  static func position(of element: DMView) -> Int { Int(element.indexInSuperview) }
  static func setPosition(_ position: Int, of element: DMView) {
    element.indexInSuperview = Int32(truncatingIfNeeded: position)
  }
}
