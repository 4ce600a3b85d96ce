import DarkModeKit
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

  /// Whether libadwaita can read the desktop portal itself when it starts, as far as the read
  /// begun when the source was made tells, waited for here for `startupWait` at most (and not
  /// again by ``start(reporting:)``): not when the portal did not answer in that time, or answers
  /// a read of one setting with something else than a variant. `nil` when no read was begun (a
  /// variable answers, or no wait was asked for). libadwaita reads with no time limit, and takes
  /// the reply apart as a variant whatever it is.
  package func libadwaitaMayReadPortal() -> Bool? {
    earlyRead?.letsLibadwaitaRead(waitingUpTo: startupWait)
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
  /// What the read found: the settings and whether `Read` is answered as libadwaita expects; or
  /// `nil` when it failed.
  private let answer = Locked<(values: PortalSettings.Values, readReplyIsWellFormed: Bool)?>(nil)
  private let done = DispatchSemaphore(value: 0)
  private let reading: Task<Void, Never>
  private let begun = ContinuousClock.now
  /// Whether a wait ran out: the read was given up, and later waits return at once.
  private let gaveUp = Locked(false)

  /// How long ago the read began.
  var age: Duration { ContinuousClock.now - begun }

  /// Begins the read.
  init(_ portal: DMPortalAppearanceSource) {
    reading = Task.detached { [answer, done] in
      // Values of the wrong type are reported by the source that follows the portal, which reads
      // them again: once.
      let found = try? await portal.readValues(
        problems: PortalSettings.Problems(reports: false), checkingRead: true)
      answer.withLock { $0 = found }
      done.signal()
    }
  }

  /// Waits for the answer, for `limit` at most; `nil` when it did not come in time (then or at an
  /// earlier wait), or the read failed (the background decision then tries again, and reports
  /// why).
  func wait(upTo limit: Duration) -> PortalSettings.Values? {
    waitForAnswer(upTo: limit)?.values
  }

  /// Waits as ``wait(upTo:)`` does, and tells whether libadwaita, which reads the portal when it
  /// starts with no time limit, can read it too: not when the read did not end in time, or the
  /// portal answers `Read` with something else than a variant (which crashes libadwaita). A read
  /// that failed at once (no bus, no portal) is no reason: libadwaita's fails as soon.
  func letsLibadwaitaRead(waitingUpTo limit: Duration) -> Bool {
    guard !hasGivenUp(waitingUpTo: limit) else { return false }
    return answer.withLock { $0?.readReplyIsWellFormed ?? true }
  }

  private func waitForAnswer(upTo limit: Duration) -> (
    values: PortalSettings.Values, readReplyIsWellFormed: Bool
  )? {
    guard !hasGivenUp(waitingUpTo: limit) else { return nil }
    return answer.withLock { $0 }
  }

  /// Waits for the read to end, for `limit` at most, unless an earlier wait ran out; whether it
  /// did not end in time.
  private func hasGivenUp(waitingUpTo limit: Duration) -> Bool {
    guard !gaveUp.withLock({ $0 }) else { return true }
    let nanoseconds = limit.components.seconds * 1_000_000_000 + limit.components.attoseconds / 1_000_000_000
    guard done.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success else {
      gaveUp.withLock { $0 = true }
      reading.cancel()
      return true
    }
    done.signal()  // a second wait returns at once
    return false
  }
}
