import Testing

@testable import DarkModeKit

/// The engine reads walk entries and binding lists without retaining them, under rules stated
/// where it does (`TraitPropagator.UnretainedEntry`, `UnsafeWalkOrder`). A debug build checks
/// each rule: breaking one stops the program with the rule's message instead of reading freed
/// memory. Each test breaks a rule in a child process and expects it to stop.
#if DEBUG
  /// Whether a child stopped with `message` on its standard error.
  private func stops(_ result: ExitTest.Result?, saying message: String) -> Bool {
    String(decoding: result?.standardErrorContent ?? [], as: UTF8.self).contains(message)
  }

  @Suite struct UnsafeRuleTests {
    @Test(arguments: ["node", "parent"])
    func readingAWalkEntryWhoseNodeOrParentWasFreedStopsTheProgram(freed: String) async {
      let result = await #expect(
        processExitsWith: .failure, observing: [\.standardErrorContent]
      ) { [freed] in
        await MainActor.run {
          let kept = DMView()
          var entry: TraitPropagator.UnretainedEntry?
          do {
            let dropped = DMView()
            entry =
              freed == "node"
              ? TraitPropagator.UnretainedEntry(node: dropped, parent: kept)
              : TraitPropagator.UnretainedEntry(node: kept, parent: dropped)
          }
          withExtendedLifetime(kept) {
            if freed == "node" {
              entry?.withNode { _ in }
            } else {
              _ = entry?.withParent { _ in 0 }
            }
          }
        }
      }
      #expect(stops(result, saying: "a walk entry outlived its \(freed)"))
    }

    /// A binding through a forced optional set to `nil` since stops the program at the next
    /// switch, as the assignment `view.reading!.flag = true` would, instead of writing a value
    /// into the optional's memory and bringing it back.
    @Test func aBindingThroughAForcedOptionalSetToNilStopsTheProgramLikeTheAssignment() async {
      await #expect(processExitsWith: .failure) {
        await MainActor.run {
          final class Panel: DMView {
            struct Reading {
              var level: UInt8 = 0
              var flag = false
            }
            var reading: Reading? = Reading()
          }
          let window = DMWindow()
          let panel = Panel()
          window.addSubview(panel)
          window.makeKeyAndVisible()
          panel.dm.bind(\.reading!.flag, to: DMDynamic(light: false, dark: true))
          panel.reading = nil
          DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
          // Reached only if the switch wrote the value in place.
          print(panel.reading.map { "brought back: \($0)" } ?? "stayed nil")
        }
      }
    }

    @Test func readingANodeOfAWalkOrderThatOutlivedItStopsTheProgram() async {
      let result = await #expect(
        processExitsWith: .failure, observing: [\.standardErrorContent]
      ) {
        await MainActor.run {
          let order = UnsafeWalkOrder(version: 0, capacity: 1)
          do {
            let dropped = DMView()
            _ = order.append(dropped, parent: -1)
          }
          order.withNode(at: 0) { _ in }
        }
      }
      #expect(stops(result, saying: "a walk order outlived one of its nodes"))
    }

    @Test func theSameStepsWithinTheRulesRunOn() async {
      await #expect(processExitsWith: .success) {
        await MainActor.run {
          let view = DMView()
          let parent = DMView()
          let entry = TraitPropagator.UnretainedEntry(node: view, parent: parent)
          entry.withNode { _ in }
          _ = entry.withParent { _ in 0 }
          withExtendedLifetime((view, parent)) {}
        }
      }
    }
  }
#endif
