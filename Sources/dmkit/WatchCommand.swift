import DarkModeKit
import DarkModeKitLinux
import Foundation

/// `dmkit watch`: prints the system appearance, then one line per change, until SIGINT or SIGTERM.
@MainActor
enum WatchCommand {
  static let spec = CommandSpec(
    name: "watch", summary: "Print the system appearance, and each change, until interrupted.",
    usage: """
      USAGE: dmkit watch

      Prints the system appearance as the automatic source sees it (the DM_COLOR_SCHEME and
      DM_CONTRAST variables, then the desktop portal, then the terminal), then one line for each
      change, until Ctrl-C or SIGTERM:

        2026-11-30T09:15:02Z source=portal style=dark contrast=normal

      """)

  static func run(_ arguments: ParsedArguments, console: Console) -> Int32 {
    let source = DMAutomaticAppearanceSource()
    var printed: DMTraitCollection?
    func printIfChanged() {
      guard let kind = source.answeringSource else { return }
      let system = DMTraitCollection.system
      guard system != printed else { return }
      printed = system
      console.out(line(for: system, source: kind))
    }
    DarkModeManager.setup(
      with: DMEnvironmentConfiguration(
        themeChangeHandler: { printIfChanged() },
        systemAppearanceSource: source))
    Task {
      _ = await source.decision()
      printIfChanged()
    }
    let stopSignals = [SIGINT, SIGTERM].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
      // Exit at once: the system closes the bus connection. Stopping the source first would only
      // start its teardown on other threads, for `exit` to cut short.
      source.setEventHandler { exit(0) }
      source.resume()
      return source
    }
    MainLoop.run(keeping: stopSignals)
  }

  /// `2026-11-30T09:15:02Z source=portal style=dark contrast=normal`
  static func line(for traits: DMTraitCollection, source: DMAutomaticAppearanceSource.Kind) -> String {
    let time = ISO8601DateFormatter().string(from: Date())
    let style =
      traits.userInterfaceStyle == .unspecified ? "no-preference" : traits.userInterfaceStyle.description
    let contrast =
      traits.accessibilityContrast == .unspecified
      ? "no-preference" : traits.accessibilityContrast.description
    return "\(time) source=\(source.rawValue) style=\(style) contrast=\(contrast)\n"
  }
}
