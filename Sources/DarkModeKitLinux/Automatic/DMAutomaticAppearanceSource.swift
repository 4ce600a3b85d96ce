import DarkModeKit
import DarkModeKitDBus
import Foundation

/// Picks the best system appearance source available: the environment variables, then the XDG
/// Desktop Portal, then the terminal, then none.
///
/// - If `DM_COLOR_SCHEME` or `DM_CONTRAST` is set, the ``DMVariablesAppearanceSource`` answers,
///   at once.
/// - Otherwise, in the background: if the portal answers a read within its timeout, the
///   ``DMPortalAppearanceSource`` follows it from then on; else, if the terminal says what its
///   background is, the ``DMTerminalAppearanceSource`` answers (once, or, for a terminal source made
///   with `followsChanges` and a terminal that announces changes, at each change); else nothing
///   does, and the defaults apply. A source made without a terminal source (as DarkModeKitGTK makes
///   it: a window app does not ask the terminal it was started from) skips that step.
///
/// Made with a `startupWait`, the source asks the portal as soon as it is made (when no variable
/// answers), and ``start(reporting:)`` waits for that answer, for `startupWait` at most, before it
/// returns: an app that starts it before showing its first window shows the desktop's style from
/// the first frame, as libadwaita apps do (libadwaita reads the portal synchronously when it
/// starts). Made early, the source reads while the app sets up the rest. A later start waits for
/// a new read the same way.
///
/// ``answeringSource`` tells which one answered, once decided.
///
/// Each time the source starts, each reason a source was passed over (a variable with a bad value,
/// a portal that did not answer, and why) is reported once through `DMDiagnostics`, as a
/// `DMDiagnostic.Kind.systemAppearance` diagnostic that also says which source answered in the
/// end, for example `the desktop portal did not answer: cannot connect to D-Bus at
/// unix:path=/run/user/1000/bus: … (the terminal's background answered instead)`. When nothing
/// was passed over, nothing is reported.
///
/// ```swift
/// let source = DMAutomaticAppearanceSource()
/// DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: source))
/// print(await source.decision())  // .portal on a desktop, .terminal over SSH, …
/// ```
@MainActor
public final class DMAutomaticAppearanceSource: DMSystemAppearanceSource {
  /// The kinds of source, in the order they are tried.
  public enum Kind: String, Sendable, CaseIterable {
    /// The environment variables `DM_COLOR_SCHEME` / `DM_CONTRAST`.
    case variables
    /// The XDG Desktop Portal over D-Bus.
    case portal
    /// The terminal's background.
    case terminal
    /// No source answered: the defaults apply.
    case noSource = "none"

    /// The environment variables, by their earlier name; it will be removed in 0.2.0.
    @available(*, deprecated, renamed: "variables", message: "will be removed in 0.2.0")
    public static var environment: Kind { .variables }
  }

  private let variablesSource: DMVariablesAppearanceSource
  private let portal: DMPortalAppearanceSource
  private let terminal: DMTerminalAppearanceSource?
  private let startupWait: Duration
  /// The read begun when the source was made, for the first start.
  private var earlyRead: PortalRead?
  private var active: (any DMSystemAppearanceSource)?
  private var deciding: Task<Void, Never>?
  private var waiters: [CheckedContinuation<Kind, Never>] = []

  /// The source that answered; `nil` while the choice is being made or before ``start(reporting:)``.
  public private(set) var answeringSource: Kind?

  /// Creates the source from the candidates it tries.
  /// - Parameters:
  ///   - environment: The environment variables to read `DM_COLOR_SCHEME` and `DM_CONTRAST` from; the
  ///     process's by default.
  ///   - portal: The portal source to try.
  ///   - terminal: The terminal source to try, or `nil` to try none.
  ///   - startupWait: How long ``start(reporting:)`` waits for the portal's first answer before it
  ///     returns, when no variable answers; zero, the default, for no wait (the portal is asked in
  ///     the background). When it is not zero, the portal is asked from now on.
  public init(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    portal: DMPortalAppearanceSource = DMPortalAppearanceSource(),
    terminal: DMTerminalAppearanceSource? = DMTerminalAppearanceSource(),
    startupWait: Duration = .zero
  ) {
    variablesSource = DMVariablesAppearanceSource(environment: environment)
    self.portal = portal
    self.terminal = terminal
    self.startupWait = startupWait
    if startupWait > .zero, variablesSource.traitCollection == nil {
      earlyRead = PortalRead(portal)
    }
  }

  /// Why libadwaita cannot read the desktop portal itself when it starts, as far as the read
  /// begun when the source was made tells, waited for here for `startupWait` at most (and not
  /// again by ``start(reporting:)``): the portal did not answer in that time, or answers a read
  /// of one setting with another shape than a variant holding a variant. `nil` when it can, or
  /// when no read was begun (a variable answers, or no wait was asked for). libadwaita reads with
  /// no time limit, and takes the reply apart as that shape whatever it is.
  package func whyLibadwaitaCannotReadPortal() -> String? {
    earlyRead?.whyLibadwaitaCannotRead(waitingUpTo: startupWait)
  }

  /// Waits until the choice is made.
  /// - Returns: The source that answered.
  public func decision() async -> Kind {
    if let answeringSource { return answeringSource }
    return await withCheckedContinuation { waiters.append($0) }
  }

  /// Chooses a source and starts it with `reporter`.
  /// - Parameter reporter: Where the chosen source reports.
  public func start(reporting reporter: DMAppearanceReporter) {
    stop()
    if variablesSource.traitCollection != nil {
      // A bad value beside a good one is reported here, with the outcome, not by the source.
      variablesSource.reportsProblems = false
      Self.report(variablesSource.problems, answered: .variables)
      use(variablesSource, as: .variables, reporter: reporter)
      return
    }
    // The read begun when the source was made answers the first start that soon after; a later
    // start reads anew.
    let early = earlyRead.flatMap { $0.age < .seconds(5) ? $0 : nil }
    let read = early ?? (startupWait > .zero ? PortalRead(portal) : nil)
    earlyRead = nil
    if let read, let current = read.wait(upTo: startupWait) {
      Self.report(variablesSource.problems, answered: .portal)
      reporter.report(current.traitCollection, hasColorSchemeSetting: current.hasColorScheme)
      use(portal, as: .portal, reporter: reporter)
      return
    }
    deciding = Task { [portal, terminal, variablesSource] in
      var passedOver = variablesSource.problems
      do {
        // The portal source reads again and reports what was wrong, once.
        let current = try await portal.readValues(problems: PortalSettings.Problems(reports: false))
        guard !Task.isCancelled else { return }
        // The reasons first, so that they are out before anything reacts to the new appearance.
        Self.report(passedOver, answered: .portal)
        // Report what was read at once; the portal source re-reads and then follows changes.
        reporter.report(current.traitCollection, hasColorSchemeSetting: current.hasColorScheme)
        use(portal, as: .portal, reporter: reporter)
        return
      } catch {
        passedOver.append("the desktop portal did not answer: \(error)")
      }
      guard !Task.isCancelled else { return }
      let detection: DMTerminalAppearanceSource.Detection? = await withCheckedContinuation { continuation in
        guard let terminal else { return continuation.resume(returning: nil) }
        Thread { continuation.resume(returning: terminal.detect()) }.start()
      }
      guard !Task.isCancelled else { return }
      if let terminal, let detection {
        Self.report(passedOver, answered: .terminal)
        answeringSource = .terminal
        reporter.report(DMTraitCollection(userInterfaceStyle: detection.style))
        if terminal.followsChanges {
          // A terminal that announces changes is followed from here on, until `stop()`, which
          // ends the session even while the terminal is still being asked.
          active = terminal
          let session = terminal.newSession()
          if terminal.readsInput {
            let thread = Thread { [terminal] in _ = terminal.follow(session: session, reporting: reporter) }
            thread.name = "DarkModeKit terminal"
            thread.start()
          } else {
            // The program reads the input once the choice is made: ask before that.
            _ = await withCheckedContinuation { continuation in
              Thread { [terminal] in
                continuation.resume(returning: terminal.follow(session: session, reporting: reporter))
              }.start()
            }
            guard !Task.isCancelled else { return }
          }
        }
        decided(.terminal)
      } else {
        Self.report(passedOver, answered: .noSource)
        decided(.noSource)
      }
    }
  }

  /// Reports each reason a source was passed over, once, with the source that answered.
  private static func report(_ passedOver: [String], answered: Kind) {
    let outcome =
      switch answered {
      case .variables: "the environment variables answered"
      case .portal: "the desktop portal answered instead"
      case .terminal: "the terminal's background answered instead"
      case .noSource: "no other source answered, so the defaults apply"
      }
    for reason in passedOver {
      DMDiagnostics.report(DMDiagnostic(kind: .systemAppearance, message: "\(reason) (\(outcome))"))
    }
  }

  /// Stops the chosen source, or the choosing.
  public func stop() {
    deciding?.cancel()
    deciding = nil
    active?.stop()
    active = nil
    answeringSource = nil
  }

  private func use(_ source: any DMSystemAppearanceSource, as kind: Kind, reporter: DMAppearanceReporter) {
    active = source
    source.start(reporting: reporter)
    decided(kind)
  }

  private func decided(_ kind: Kind) {
    answeringSource = kind
    let waiting = waiters
    waiters.removeAll()
    for waiter in waiting { waiter.resume(returning: kind) }
  }
}

/// One read of the portal in the background, which a thread can wait for with a limit.
final class PortalRead: Sendable {
  /// The settings, once `ReadAll` answered; `nil` before, and when the read failed.
  private let values = Locked<PortalSettings.Values?>(nil)
  /// Signalled when `ReadAll` ended, answered or not.
  private let valuesCame = DispatchSemaphore(value: 0)
  /// Why libadwaita cannot read the portal, from a read of one setting as libadwaita makes it;
  /// `nil` when it can, or could not be told.
  private let libadwaitaProblem = Locked<String?>(nil)
  /// Signalled when that read ended.
  private let checked = DispatchSemaphore(value: 0)
  private let reading: Task<Void, Never>
  private let begun = ContinuousClock.now
  /// Whether a wait for `ReadAll` ran out: the read was given up, and later waits return at once.
  private let gaveUp = Locked(false)

  /// How long ago the read began.
  var age: Duration { ContinuousClock.now - begun }

  /// Begins the read: every setting (`ReadAll`), then, on the same connection, the check of
  /// ``whyLibadwaitaCannotRead(waitingUpTo:)``.
  init(_ portal: DMPortalAppearanceSource) {
    reading = Task.detached { [values, valuesCame, libadwaitaProblem, checked] in
      var problem: String?
      var cameIsSignalled = false
      if let bus = try? await DBusConnection.connect(to: portal.address, timeout: portal.timeout) {
        // Values of the wrong type are reported by the source that follows the portal, which
        // reads them again: once.
        let found = try? await PortalSettings.readAll(
          on: bus, timeout: portal.timeout, problems: PortalSettings.Problems(reports: false))
        values.withLock { $0 = found }
        valuesCame.signal()
        cameIsSignalled = true
        problem = await PortalSettings.whyLibadwaitaCannotRead(on: bus, timeout: portal.timeout)
        bus.close()
      }
      if !cameIsSignalled { valuesCame.signal() }
      libadwaitaProblem.withLock { $0 = problem }
      checked.signal()
    }
  }

  /// Waits for the settings, for `limit` at most; `nil` when they did not come in time (then or
  /// at an earlier wait), or the read failed (the background decision then tries again, and
  /// reports why).
  func wait(upTo limit: Duration) -> PortalSettings.Values? {
    guard !gaveUp.withLock({ $0 }) else { return nil }
    guard Self.wait(for: valuesCame, until: .now() + Self.dispatchInterval(limit)) else {
      gaveUp.withLock { $0 = true }
      reading.cancel()
      return nil
    }
    return values.withLock { $0 }
  }

  /// Waits for the settings and then for the check of `Read`, for `limit` at most in all, and
  /// tells why libadwaita, which reads the portal as it starts with no time limit and takes the
  /// reply apart as a variant holding a variant, cannot read it: it did not answer in time, or
  /// answers with another shape. `nil` when it can, or the read failed at once (no bus, no portal:
  /// libadwaita's fails as soon).
  func whyLibadwaitaCannotRead(waitingUpTo limit: Duration) -> String? {
    let deadline = DispatchTime.now() + Self.dispatchInterval(limit)
    guard wait(upTo: limit) != nil || !gaveUp.withLock({ $0 }) else {
      return "it did not answer within \(limit)"
    }
    guard Self.wait(for: checked, until: deadline) else {
      return "it did not answer a read of one setting within \(limit)"
    }
    return libadwaitaProblem.withLock { $0 }
  }

  /// Waits for `semaphore` until `deadline`; signals it again when it came, so that a later wait
  /// returns at once. Whether it came in time.
  private static func wait(for semaphore: DispatchSemaphore, until deadline: DispatchTime) -> Bool {
    guard semaphore.wait(timeout: deadline) == .success else { return false }
    semaphore.signal()
    return true
  }

  private static func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
    .nanoseconds(
      Int(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000))
  }
}
