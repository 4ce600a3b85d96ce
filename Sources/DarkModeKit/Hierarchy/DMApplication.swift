/// The application: the list of visible windows.
@MainActor
public final class DMApplication {
  /// The one application object.
  public static let shared = DMApplication()

  /// The visible windows, in the order they were shown. A visible window is held here, so it stays
  /// alive while it is shown.
  public var windows: [DMWindow] { windowList.elements }
  private var windowList = ObjectList<VisibleWindowList>()

  /// The window last made key with ``DMWindow/makeKeyAndVisible()``, while it is visible.
  public var keyWindow: DMWindow? {
    get { storedKeyWindow.flatMap { $0.isHidden ? nil : $0 } }
    set { storedKeyWindow = newValue }
  }

  private weak var storedKeyWindow: DMWindow?

  private init() {}

  func windowVisibilityDidChange(_ window: DMWindow) {
    if window.isListed {
      windowList.remove(window)
      window.isListed = false
    }
    guard !window.isHidden else { return }
    windowList.insert(window, at: .max)
    window.isListed = true
  }
}

/// How the application keeps its visible windows.
enum VisibleWindowList: ObjectListKind {
  static let hole = DMWindow()
  static func position(of element: DMWindow) -> Int { element.indexInWindows }
  static func setPosition(_ position: Int, of element: DMWindow) { element.indexInWindows = position }
}
