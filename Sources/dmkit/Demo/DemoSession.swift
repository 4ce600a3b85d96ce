import DarkModeKit
import DarkModeKitLinux
import DarkModeKitText
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A running demo: the terminal taken over, the window shown, keys and signals handled, until it
/// ends, always with the terminal put back.
@MainActor
final class DemoSession {
  let window: DemoWindow
  let console: Console
  private let screen = TerminalScreen()
  /// Follows a terminal that announces changes of its colour scheme; the keys read go through it.
  private let terminalSource = DMTerminalAppearanceSource(followsChanges: true, readsInput: false)
  private lazy var source = DMAutomaticAppearanceSource(terminal: terminalSource)
  private var keyReader = KeyReader()
  private var dispatchSources: [any DispatchSourceProtocol] = []
  private var isRedrawScheduled = false
  /// What the library reported while the screen was taken over; printed once it is given back.
  private let diagnostics = Locked<[String]>([])

  init(table: DemoTable, console: Console) {
    window = DemoWindow(table: table)
    self.console = console
  }

  /// Takes over the terminal and runs until a key, a signal or an error ends the process.
  func start() -> Never {
    for number in [SIGINT, SIGTERM, SIGHUP] {
      handleSignal(number) { [unowned self] in finish(0) }
    }
    handleSignal(SIGWINCH) { [unowned self] in scheduleRedraw() }
    guard screen.enter() else { finish(1, message: "dmkit: error: cannot put the terminal in raw mode") }
    DMDiagnostics.setHandler { [diagnostics] in
      let message = $0.message
      diagnostics.withLock { $0.append(message) }
    }
    window.onTraitsChange = { [unowned self] in scheduleRedraw() }
    DarkModeManager.setup(
      with: DMConfiguration(
        themeChangeHandler: { [unowned self] in scheduleRedraw() },
        windowThemeChangeHandler: { [unowned self] _ in scheduleRedraw() },
        systemAppearanceSource: source))
    window.makeKeyAndVisible()
    redraw()
    // The terminal source may read the terminal's reply on standard input: read keys only once
    // the source is chosen.
    Task {
      let kind = await source.decision()
      window.controller.systemSourceName = kind.rawValue
      scheduleRedraw()
      readKeys()
    }
    MainLoop.run(keeping: self)
  }

  private func handleSignal(_ number: Int32, _ handler: @escaping @MainActor () -> Void) {
    signal(number, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
    source.setEventHandler { MainActor.assumeIsolated { handler() } }
    source.resume()
    dispatchSources.append(source)
  }

  private func readKeys() {
    let reader = DispatchSource.makeReadSource(fileDescriptor: screen.input, queue: .main)
    reader.setEventHandler { [unowned self] in
      MainActor.assumeIsolated {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(screen.input, &buffer, buffer.count)
        if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) {
          finish(1, message: "dmkit: error: the terminal closed standard input")
        }
        let typed = terminalSource.takeInput(Array(buffer.prefix(max(0, count))))
        for key in keyReader.keys(in: typed) { handle(key) }
      }
    }
    reader.resume()
    dispatchSources.append(reader)
  }

  /// Applies a key: the controller chooses for the style and theme keys.
  func handle(_ key: KeyReader.Key) {
    switch key {
    case .light, .dark, .system, .nextTheme: window.controller.choose(key)
    case .quit: finish(0)
    }
    // The buttons show the override, which may change without changing the resolved traits.
    scheduleRedraw()
  }

  /// Redraws once the current change is over, however many changes asked for it.
  private func scheduleRedraw() {
    guard !isRedrawScheduled else { return }
    isRedrawScheduled = true
    DispatchQueue.main.async {
      MainActor.assumeIsolated {
        self.isRedrawScheduled = false
        self.redraw()
      }
    }
  }

  private func redraw() {
    let size = screen.size
    let frame = window.render(width: size.width, height: size.height)
    guard screen.write(frame.ansi) else { finish(1, message: "dmkit: error: cannot write to the terminal") }
  }

  /// Gives the terminal back, says what went wrong if anything, and exits.
  private func finish(_ status: Int32, message: String? = nil) -> Never {
    for source in dispatchSources { source.cancel() }
    DarkModeManager.setup(with: DMConfiguration())
    screen.restore()
    DMDiagnostics.setHandler(nil)
    for diagnostic in diagnostics.withLock({ $0 }) {
      console.error("darkmodekit: warning: \(ShownText.escaped(diagnostic.description))\n")
    }
    if let message { console.error(message + "\n") }
    exit(status)
  }
}
