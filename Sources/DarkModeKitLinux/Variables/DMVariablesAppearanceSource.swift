import DarkModeKit
import DarkModeKitText
import Foundation

/// Reads the system appearance from environment variables: `DM_COLOR_SCHEME=light|dark` and
/// `DM_CONTRAST=normal|high`.
///
/// For debugging and tests: ``DMAutomaticAppearanceSource`` asks it first, so the variables
/// override every other source.
///
/// ```sh
/// DM_COLOR_SCHEME=dark DM_CONTRAST=high swift run dmkit watch
/// ```
///
/// Values are case-insensitive. A value that is neither is reported through `DMDiagnostics` and
/// ignored.
@MainActor
public final class DMVariablesAppearanceSource: DMSystemAppearanceSource {
  /// The variable for the style: `light` or `dark`.
  public nonisolated static let colorSchemeVariable = "DM_COLOR_SCHEME"
  /// The variable for the contrast: `normal` or `high`.
  public nonisolated static let contrastVariable = "DM_CONTRAST"

  /// The collection the variables give, or `nil` when neither is set to a valid value.
  public nonisolated let traitCollection: DMTraitCollection?

  /// Problems with the variables, as sentences naming the variable and its value.
  public nonisolated let problems: [String]

  /// Reads the variables.
  /// - Parameter environment: The variables; the process's by default.
  public nonisolated init(environment: [String: String] = ProcessInfo.processInfo.environment) {
    var problems: [String] = []
    var traits = DMTraitCollection()
    if let scheme = Self.value(Self.colorSchemeVariable, in: environment) {
      switch scheme.lowercased() {
      case "light": traits.userInterfaceStyle = .light
      case "dark": traits.userInterfaceStyle = .dark
      default:
        problems.append(
          "\(Self.colorSchemeVariable)=\(Self.shown(scheme)) is not \"light\" or \"dark\"; it is ignored")
      }
    }
    if let contrast = Self.value(Self.contrastVariable, in: environment) {
      switch contrast.lowercased() {
      case "normal": traits.accessibilityContrast = .normal
      case "high": traits.accessibilityContrast = .high
      default:
        problems.append(
          "\(Self.contrastVariable)=\(Self.shown(contrast)) is not \"normal\" or \"high\"; it is ignored")
      }
    }
    self.traitCollection = traits == DMTraitCollection() ? nil : traits
    self.problems = problems
  }

  /// Whether ``start(reporting:)`` reports the problems; the automatic source reports them itself.
  var reportsProblems = true

  /// Reports the variables' collection, if any, and each problem once.
  /// - Parameter reporter: Where the collection goes.
  public func start(reporting reporter: DMAppearanceReporter) {
    for problem in problems where reportsProblems {
      DMDiagnostics.report(DMDiagnostic(kind: .systemAppearance, message: problem))
    }
    if let traitCollection { reporter.report(traitCollection) }
  }

  /// Does nothing: the variables do not change while the process runs.
  public func stop() {}

  /// A variable's value as a report shows it: escaped, at most 64 characters.
  private nonisolated static func shown(_ value: String) -> String {
    ShownText.escaped(value, limit: 64)
  }

  private nonisolated static func value(_ name: String, in environment: [String: String]) -> String? {
    guard let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
      return nil
    }
    return value
  }
}

/// The variables source's earlier name; it will be removed in 0.2.0.
@available(*, deprecated, renamed: "DMVariablesAppearanceSource", message: "will be removed in 0.2.0")
public typealias DMEnvironmentAppearanceSource = DMVariablesAppearanceSource
