import DarkModeKit

/// The demo's content: a panel with a title bar, text, a picture that changes with the theme, a
/// row of buttons and a status bar; every colour is bound to a key of the table.
@MainActor
final class DemoViewController: DMViewController {
  /// The size of the panel, in cells, when the terminal is large enough.
  static let panelSize = (width: 66, height: 15)

  let demoTable: DemoTable
  let colors: DemoColors
  /// The image names by theme: the sun for the normal theme, the moon for the night (or dark) one,
  /// and for other themes whichever the style gives.
  let picture = DMDynamicImage<TextImage>(
    names: [.normal: "sun", .night: "moon", "DARK": "moon"], loader: TextImage.load(named:))

  /// The system source that answered, for the status bar; `nil` while it is being chosen.
  var systemSourceName: String?

  private let titleBar = TerminalView()
  private let titleLabel = TerminalLabel(alignment: .center)
  private let windowButtons = TerminalLabel("● ● ●")
  private let headline = TerminalLabel("Dark mode and themes, drawn in a terminal.")
  private let body = TerminalLabel(
    "Each colour is a key of the table, bound with\ndm.bind; the picture is an image kept by name.")
  private let tableLine = TerminalLabel()
  private let imageView = TerminalImageView()
  private let separator = TerminalLabel()
  private let lightButton = TerminalButton("Light")
  private let darkButton = TerminalButton("Dark")
  private let systemButton = TerminalButton("System")
  private let themeButton = TerminalButton("Theme")
  private let statusBar = TerminalView()
  private let styleStatus = TerminalLabel()
  private let systemStatus = TerminalLabel()
  private let keysLine = TerminalLabel("l light   d dark   s system   t theme   q quit", alignment: .center)

  private var buttons: [TerminalButton] { [lightButton, darkButton, systemButton, themeButton] }

  init(table: DemoTable) {
    demoTable = table
    colors = DemoColors(table: table.table)
  }

  override func loadView() {
    let panel = TerminalView()
    view = panel
    panel.dm.bind(\.backgroundColor, to: colors.background)
    titleBar.dm.bind(\.backgroundColor, to: colors.accent)
    for label in [titleLabel, windowButtons] {
      label.dm.bind(\.textColor, to: colors.onAccent)
      titleBar.addSubview(label)
    }
    titleLabel.text = "DarkModeKit — \(demoTable.name)"
    headline.dm.bind(\.textColor, to: colors.primaryText)
    body.dm.bind(\.textColor, to: colors.secondaryText)
    tableLine.dm.bind(\.textColor, to: colors.link)
    tableLine.text = "\(demoTable.name) · \(demoTable.table.themes.map(\.rawValue).joined(separator: " "))"
    imageView.dm.bind(\.image, to: picture)
    imageView.dm.bind(\.tintColor, to: colors.picture)
    separator.dm.bind(\.textColor, to: colors.separator)
    for button in buttons {
      button.dm.bind(\.backgroundColor, to: colors.elevated)
      button.dm.bind(\.textColor, to: colors.primaryText)
      button.dm.bind(\.selectedBackgroundColor, to: colors.accent)
      button.dm.bind(\.selectedTextColor, to: colors.onAccent)
    }
    statusBar.dm.bind(\.backgroundColor, to: colors.surface)
    styleStatus.dm.bind(\.textColor, to: colors.primaryText)
    systemStatus.dm.bind(\.textColor, to: colors.secondaryText)
    statusBar.addSubview(styleStatus)
    statusBar.addSubview(systemStatus)
    keysLine.dm.bind(\.textColor, to: colors.secondaryText)
    for subview in [titleBar, headline, body, tableLine, imageView, separator] + buttons + [
      statusBar, keysLine,
    ] {
      panel.addSubview(subview)
    }
  }

  /// Places the panel in the middle of a screen and its views inside it.
  func layout(screenWidth: Int, screenHeight: Int) {
    guard let panel = view as? TerminalView else { return }
    let width = min(Self.panelSize.width, max(0, screenWidth - 4))
    let height = Self.panelSize.height
    panel.frame = CellRect(
      x: max(0, (screenWidth - width) / 2), y: max(0, (screenHeight - height) / 2), width: width,
      height: height)
    titleBar.frame = CellRect(x: 0, y: 0, width: width, height: 1)
    titleLabel.frame = titleBar.frame
    windowButtons.frame = CellRect(x: 1, y: 0, width: 5, height: 1)
    let image = TextImage.size
    imageView.frame = CellRect(x: width - 2 - image.width, y: 2, width: image.width, height: image.height)
    let textWidth = max(0, width - 6 - image.width)
    headline.frame = CellRect(x: 2, y: 2, width: textWidth, height: 1)
    body.frame = CellRect(x: 2, y: 3, width: textWidth, height: 2)
    tableLine.frame = CellRect(x: 2, y: 5, width: textWidth, height: 1)
    separator.frame = CellRect(x: 2, y: 8, width: max(0, width - 4), height: 1)
    separator.text = String(repeating: "─", count: separator.frame.width)
    var x = 2
    for button in buttons {
      button.frame.origin = (x, 10)
      x += button.frame.width + 1
    }
    statusBar.frame = CellRect(x: 0, y: 12, width: width, height: 2)
    styleStatus.frame = CellRect(x: 2, y: 0, width: max(0, width - 4), height: 1)
    systemStatus.frame = CellRect(x: 2, y: 1, width: max(0, width - 4), height: 1)
    keysLine.frame = CellRect(x: 0, y: 14, width: width, height: 1)
  }

  /// Brings the buttons and the status bar up to date with the override, the traits and the
  /// system source.
  func updateText() {
    let override = DMTraitCollection.override
    lightButton.isSelected = override.userInterfaceStyle == .light
    darkButton.isSelected = override.userInterfaceStyle == .dark
    systemButton.isSelected = override.userInterfaceStyle == .unspecified && override.theme == nil
    themeButton.isSelected = override.theme != nil
    themeButton.title = override.theme.map { "Theme: \($0.rawValue)" } ?? "Theme"
    let traits = dmTraitCollection
    let theme = shownVariant(for: traits)?.description ?? "none"
    styleStatus.text =
      "Style: \(traits.userInterfaceStyle)   Theme: \(theme)   Image: \(imageView.image?.name ?? "none")"
    systemStatus.text =
      "System: \(systemDescription)   ·   \(override == DMTraitCollection() ? "followed" : "overridden")"
  }

  /// `dark (environment)`, `no preference (none)`, or `asking…` while the source is being chosen.
  private var systemDescription: String {
    guard let systemSourceName else { return "asking…" }
    let style = DMTraitCollection.system.userInterfaceStyle
    return "\(style == .unspecified ? "no preference" : style.description) (\(systemSourceName))"
  }

  /// The table's column that a trait collection shows, as colour lookups choose it.
  func shownVariant(for traits: DMTraitCollection) -> DMThemeVariant? {
    demoTable.table.variant(for: traits)
  }

  /// Sets the override for a key, as an app's appearance menu does, through
  /// `DMTraitCollection.setOverride(style:)` and `setOverride(theme:)`: light and dark choose the
  /// style and keep the theme if it has that side; system follows the system's style again and
  /// keeps a theme with both sides; the theme key chooses the table's next theme, keeping the style
  /// if the theme has that side and letting a theme with one side show it otherwise.
  func choose(_ key: KeyReader.Key) {
    switch key {
    case .light: DMTraitCollection.setOverride(style: .light, animated: false)
    case .dark: DMTraitCollection.setOverride(style: .dark, animated: false)
    case .system: DMTraitCollection.setOverride(style: .unspecified, animated: false)
    case .nextTheme: DMTraitCollection.setOverride(theme: nextTheme(), animated: false)
    case .quit: return
    }
  }

  /// The theme after the one shown now, in the table's order, wrapping around.
  func nextTheme() -> DMTheme? {
    let themes = demoTable.table.themes
    guard !themes.isEmpty else { return nil }
    guard let shown = shownVariant(for: dmTraitCollection)?.theme, let index = themes.firstIndex(of: shown)
    else {
      return themes.first
    }
    return themes[(index + 1) % themes.count]
  }
}

extension CellRect {
  /// The top-left corner.
  var origin: (x: Int, y: Int) {
    get { (x, y) }
    set { (x, y) = (newValue.x, newValue.y) }
  }
}
