/// The application: the list of visible windows.
@MainActor
public final class DMApplication {
  /// The one application object.
  public static let shared = DMApplication()

  /// The visible windows, in the order they were shown. A visible window is held here, so it stays
  /// alive while it is shown.
  public private(set) var windows: [DMWindow] = []

  /// The window last made key with ``DMWindow/makeKeyAndVisible()``, while it is visible.
  public var keyWindow: DMWindow? {
    get { storedKeyWindow.flatMap { $0.isHidden ? nil : $0 } }
    set { storedKeyWindow = newValue }
  }

  private weak var storedKeyWindow: DMWindow?

  private init() {}

  func windowVisibilityDidChange(_ window: DMWindow) {
    windows.removeAll { $0 === window }
    if !window.isHidden { windows.append(window) }
  }
}
