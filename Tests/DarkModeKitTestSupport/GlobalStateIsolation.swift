import Testing

/// Runs each test it applies to alone among every test, in any test target, that touches
/// DarkModeKit's process-wide state (the global collection, the windows, the manager, the shared
/// colour table); other tests run alongside.
///
/// ```swift
/// @Suite(.globalState) @MainActor struct PortalSourceTests { … }
/// ```
///
/// On a suite it applies to every test inside. Tests wait for each other without blocking a
/// thread.
public struct GlobalStateIsolation: SuiteTrait, TestTrait, TestScoping {
  /// On a suite, the trait applies to every test inside it.
  public var isRecursive: Bool { true }

  /// Runs each test case while holding the one lock of the process-wide state.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    // A suite, or a test function as a whole, is not run alone: each of its test cases is. A test
    // case that already holds the lock (the trait applied twice) goes on holding it.
    guard testCase != nil, !Self.isHeld else { return try await function() }
    await GlobalStateLock.shared.acquire()
    do {
      try await Self.$isHeld.withValue(true) { try await function() }
    } catch {
      await GlobalStateLock.shared.release()
      throw error
    }
    await GlobalStateLock.shared.release()
  }

  /// Whether the running test case holds the lock.
  @TaskLocal private static var isHeld = false
}

extension Trait where Self == GlobalStateIsolation {
  /// Runs each test alone among the tests that touch DarkModeKit's process-wide state.
  public static var globalState: Self { GlobalStateIsolation() }
}

/// A lock that tasks wait for in turn, first come first served.
actor GlobalStateLock {
  static let shared = GlobalStateLock()

  private var isHeld = false
  private var waiting: [CheckedContinuation<Void, Never>] = []

  func acquire() async {
    guard isHeld else {
      isHeld = true
      return
    }
    await withCheckedContinuation { waiting.append($0) }
  }

  func release() {
    if waiting.isEmpty {
      isHeld = false
    } else {
      waiting.removeFirst().resume()
    }
  }
}
