import DarkModeKit
import DarkModeKitLinux
import Foundation

/// `dmkit watch`: prints the system appearance, then one line per change, until SIGINT, SIGTERM,
/// SIGHUP or SIGQUIT.
@MainActor
enum WatchCommand {
  static let spec = CommandSpec(
    name: "watch", summary: "Print the system appearance, and each change, until interrupted.",
    usage: """
      USAGE: dmkit watch

      Prints the system appearance as the automatic source sees it (the DM_COLOR_SCHEME and
      DM_CONTRAST variables, then the desktop portal, then the terminal, followed live when it
      announces changes of its colour scheme), then one line for each change, until Ctrl-C or
      SIGTERM, status 0, or SIGHUP or Ctrl-\\, status 129 or 131 (a signal that the program was
      started with ignored, such as SIGINT in a script's background job, stays ignored):

        2026-11-30T09:15:02Z source=portal style=dark contrast=normal motion=normal accent=none

      """)

  static func run(_ arguments: ParsedArguments, console: Console) -> Int32 {
    endOnSignals()
    // A terminal that announces changes of its colour scheme is followed; watch reads no input.
    let source = DMAutomaticAppearanceSource(terminal: DMTerminalAppearanceSource(followsChanges: true))
    var printed: DMTraitCollection?
    func printIfChanged() {
      guard let kind = source.answeringSource else { return }
      let system = DMTraitCollection.system
      guard system != printed else { return }
      printed = system
      console.out(line(for: system, source: kind))
    }
    // Every change the system reports, also one that leaves the resolved collection as it was
    // (no preference → light).
    DarkModeManager.setup(
      with: DMConfiguration(
        systemAppearanceSource: source, systemAppearanceChangeHandler: { _ in printIfChanged() }))
    Task {
      _ = await source.decision()
      printIfChanged()
    }
    MainLoop.run(keeping: source)
  }

  /// Ends the process at once on SIGINT or SIGTERM (status 0), and on SIGHUP or SIGQUIT (`Ctrl-\`;
  /// status 128 + the signal's number, as a shell reports a program they end), with a handler
  /// that the kernel runs as the signal arrives: a dispatch source starts listening only some time
  /// after it is resumed, and a signal sent meanwhile would be lost. Every line is already written
  /// out; the system closes the bus connection.
  ///
  /// A signal the program was started with ignored stays ignored, as for any program: a background
  /// job of a script ignores SIGINT, and catching it would end the job on some runs (a signal sent
  /// after this call) and not on others (one sent before it).
  ///
  /// The handler only writes a byte to a pipe, which is all a signal handler can safely do, and a
  /// thread of its own ends the process.
  private static func endOnSignals() {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return }
    let readEnd = ends[0]
    signalPipe = ends[1]
    Thread {
      var byte: UInt8 = 0
      while read(readEnd, &byte, 1) < 0 && errno == EINTR {}
      // A followed terminal gets its modes back; `_exit` runs no exit handlers.
      DMTerminalAppearanceSource.restoreTerminal()
      _exit(Int32(byte) == SIGINT || Int32(byte) == SIGTERM ? 0 : 128 + Int32(byte))
    }.start()
    for number in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
      var current = sigaction()
      sigaction(number, nil, &current)
      let ignored =
        unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
        == unsafeBitCast(SIG_IGN, to: Int.self)
      if !ignored {
        signal(number) { number in
          var byte = UInt8(truncatingIfNeeded: number)
          _ = write(signalPipe, &byte, 1)  // async-signal-safe
        }
      }
    }
  }

  /// `2026-11-30T09:15:02Z source=portal style=dark contrast=normal`
  static func line(for traits: DMTraitCollection, source: DMAutomaticAppearanceSource.Kind) -> String {
    let time = ISO8601DateFormatter().string(from: Date())
    let style =
      traits.userInterfaceStyle == .unspecified ? "no-preference" : traits.userInterfaceStyle.description
    let contrast =
      traits.accessibilityContrast == .unspecified
      ? "no-preference" : traits.accessibilityContrast.description
    let motion =
      traits.accessibilityMotion == .unspecified ? "no-preference" : traits.accessibilityMotion.description
    let accent = traits.accentColor.map { $0.hexString } ?? "none"
    return
      "\(time) source=\(source.rawValue) style=\(style) contrast=\(contrast) motion=\(motion) accent=\(accent)\n"
  }
}

/// The write end of the pipe that `watch`'s signal handler writes to; set once, before the
/// handlers are installed, and only read afterwards (a C signal handler can capture nothing).
nonisolated(unsafe) private var signalPipe: Int32 = -1
