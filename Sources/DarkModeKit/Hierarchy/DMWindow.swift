/// The root of an interface tree: it resolves the global collection merged with its own overrides.
///
/// A window starts hidden; ``makeKeyAndVisible()`` shows it. Only the environments in visible
/// windows are told of changes.
///
/// ```swift
/// let window = DMWindow()
/// window.rootViewController = SettingsViewController()
/// window.makeKeyAndVisible()
/// ```
@MainActor
open class DMWindow: DMView {
  /// Whether the window is hidden. Showing it brings every environment in it up to date, with one
  /// call for each whose collection differs from what it last reported.
  public var isHidden = true {
    didSet {
      guard isHidden != oldValue else { return }
      // Hidden, it is not walked: its order would only take room.
      if isHidden { walkOrder = nil }
      DMApplication.shared.windowVisibilityDidChange(self)
      TraitPropagator.shared.positionDidChange(self)
    }
  }

  /// The controller whose view fills the window; its view becomes the window's first subview.
  public var rootViewController: DMViewController? {
    didSet {
      guard rootViewController !== oldValue else { return }
      if let oldView = oldValue?.viewIfLoaded, oldView.superview === self {
        oldView.removeFromSuperview()
      }
      if let rootViewController {
        insertSubview(rootViewController.view, at: 0)
      }
    }
  }

  /// Creates a hidden window with no root view controller.
  public override init() {}

  /// Shows the window and makes it the application's key window.
  public func makeKeyAndVisible() {
    DMApplication.shared.keyWindow = self
    isHidden = false
  }

  /// Whether the window is shown.
  final var isVisible: Bool { !isHidden }

  /// The order of the last walk that visited all of the window, while it is visible; see
  /// `UnsafeWalkOrder`.
  final var walkOrder: UnsafeWalkOrder?

  /// Whether the window is in ``DMApplication/windows``, and where it was put there.
  final var isListed = false
  final var indexInWindows = 0

  /// The propagator's count of colour-table reloads when this window was last brought up to date
  /// with them; a window shown again after missing one is reported to the window handler.
  final var seenBindingSourcesVersion: UInt64 = 0

  override var traitParent: DMResponder? { nil }
}
