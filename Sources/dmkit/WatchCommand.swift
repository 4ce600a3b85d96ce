import DarkModeKit
import DarkModeKitLinux
import Foundation

/// `dmkit watch`: prints the system appearance, then one line per change, until SIGINT or SIGTERM.
@MainActor
enum WatchCommand {
  static let usage = """
    USAGE: dmkit watch

    Prints the system appearance as the automatic source sees it (environment variables, then the
    desktop portal, then the terminal), then one line for each change, until interrupted:

      2026-11-30T09:15:02Z source=portal style=dark contrast=normal

    """

  static func run(arguments: [String]) -> Never {
    if let first = arguments.first {
      if first == "-h" || first == "--help" {
        Output.standard(usage)
        exit(0)
      }
      Output.error("error: unknown option '\(first)' for 'watch'\n\n" + usage)
      exit(2)
    }
    let source = DMAutomaticAppearanceSource()
    var printed: DMTraitCollection?
    var kind = DMAutomaticAppearanceSource.Kind.none
    func printIfChanged() {
      let system = DMTraitCollection.system
      guard system != printed else { return }
      printed = system
      Output.standard(line(for: system, source: kind))
    }
    DarkModeManager.setup(
      with: DMEnvironmentConfiguration(
        themeChangeHandler: { if source.answeringSource != nil { printIfChanged() } },
        systemAppearanceSource: source))
    Task {
      kind = await source.decision()
      printIfChanged()
    }
    let stopSignals = [SIGINT, SIGTERM].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
      source.setEventHandler {
        MainActor.assumeIsolated { DarkModeManager.setup(with: DMEnvironmentConfiguration()) }
        exit(0)
      }
      source.resume()
      return source
    }
    withExtendedLifetime(stopSignals) { dispatchMain() }
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
