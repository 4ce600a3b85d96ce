import DarkModeKitTestSupport
import Testing

/// The tests of this target that touch DarkModeKit's process-wide state live in suites nested in
/// this one; each runs alone among every such test of every target (see `GlobalStateIsolation`).
@Suite(.globalState) struct GlobalStateTests {}
