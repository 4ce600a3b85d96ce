import Foundation
import Testing

@testable import DarkModeKit

extension GlobalStateTests {
  /// Many tasks read while the main actor changes everything they read. Run under
  /// `swift test --sanitize=thread` (CI does) to check that it is race-free.
  @Suite @MainActor struct StressTests {
    init() { DarkModeManager.reset() }

    @Test func readersOnManyTasksWhileTheMainActorFlipsReloadsAndReceivesSystemChanges() async throws {
      let versions = (0..<4).map { version in
        let hex = String(format: "#%02x%02x%02x", version, version, version)
        return "NORMAL NIGHT\n\(hex) \(hex) A\n\(hex) \(hex) B\n"
      }
      let table = try DMColorTable(string: versions[0])
      let colors = [DMDynamicColor(key: "A", in: table), DMDynamicColor(key: "B", in: table)]
      let pair = DMDynamicColor(light: .white, dark: .black)
      let source = DMManualAppearanceSource()
      DarkModeManager.setup(with: DMConfiguration(systemAppearanceSource: source))
      let window = DMWindow()
      let views = (0..<50).map { _ in SwatchView() }
      for view in views {
        window.addSubview(view)
        view.dm.bind(\.backgroundColor, to: colors[0])
      }
      window.makeKeyAndVisible()

      let iterations = 5_000
      let readers = Task.detached {
        await withTaskGroup(of: Int.self) { group in
          for reader in 0..<4 {
            group.addTask {
              var problems = 0
              for index in 0..<iterations {
                let current = DMTraitCollection.current
                if current.userInterfaceStyle == .unspecified { problems += 1 }
                // A table version has every colour equal to its version mark: a mix would show.
                let a = colors[0].resolved(with: current)
                let b = table.color(forKey: "B", theme: .normal)
                if let b, a.red > 3.0 / 255 + 1e-9 || b.red > 3.0 / 255 + 1e-9 { problems += 1 }
                let scoped = DMTraitCollection(theme: DMTheme(rawValue: "R\(reader)")).performAsCurrent {
                  (DMTraitCollection.current.theme, pair.resolved(with: .current))
                }
                if scoped.0 != DMTheme(rawValue: "R\(reader)") { problems += 1 }
                if index.isMultiple(of: 500) { await Task.yield() }
              }
              return problems
            }
          }
          return await group.reduce(0, +)
        }
      }
      for step in 0..<1_000 {
        switch step % 3 {
        case 0: DMTraitCollection.setOverride(step.isMultiple(of: 2) ? .dark : .light, animated: false)
        case 1: try table.reload(string: versions[step % versions.count])
        default:
          source.traitCollection = DMTraitCollection(
            accessibilityContrast: step.isMultiple(of: 4) ? .high : .normal)
        }
        if step.isMultiple(of: 40) { await Task.yield() }
      }
      #expect(await readers.value == 0)
      // After the storm (and the refresh that follows the last reload), every bound view shows the
      // current table's colour for its traits.
      let settled = {
        views.allSatisfy { $0.backgroundColor == colors[0].resolved(with: $0.dmTraitCollection) }
      }
      for _ in 0..<5_000 where !settled() { try await Task.sleep(for: .milliseconds(2)) }
      for view in views {
        #expect(view.backgroundColor == colors[0].resolved(with: view.dmTraitCollection))
      }
    }
  }
}
