import DarkModeKit
import Foundation

/// The models DarkModeKit is compared with, over the same views.
@MainActor
enum Baselines {
  static let themeDidChange = Notification.Name("BenchThemeDidChange")
  /// The traits the baselines apply.
  static var traits = DMTraitCollection(userInterfaceStyle: .light)

  /// Re-applies a view's three properties and calls its callback: what every baseline does per view.
  @inline(__always)
  static func reapply(_ view: BenchView, _ traits: DMTraitCollection) {
    view.background = Theme.background.resolved(with: traits)
    view.border = Theme.border.resolved(with: traits)
    view.opacity = Theme.opacity.resolved(with: traits)
    view.dmTraitCollectionDidChange(nil)
  }

  /// The broadcast model (DKNightVersion, SwiftTheme, NightNight): every themed object observes a
  /// notification and re-applies its properties when it is posted.
  static func observe(_ views: [BenchView]) -> [any NSObjectProtocol] {
    views.map { view in
      NotificationCenter.default.addObserver(forName: themeDidChange, object: nil, queue: nil) {
        [unowned view] _ in
        MainActor.assumeIsolated { reapply(view, traits) }
      }
    }
  }

  static func broadcast() {
    NotificationCenter.default.post(name: themeDidChange, object: nil)
  }

  static func stopObserving(_ observers: [any NSObjectProtocol]) {
    for observer in observers { NotificationCenter.default.removeObserver(observer) }
  }

  /// The naive walk (FluentDarkModeKit before iOS 13): recurse over every view, re-apply
  /// everything, call the callback, no change detection.
  static func naiveWalk(_ view: DMView, _ traits: DMTraitCollection) {
    for subview in view.subviews {
      if let view = subview as? BenchView { reapply(view, traits) }
      naiveWalk(subview, traits)
    }
  }

  /// The floor: a plain loop writing the three values a switch sets, resolved beforehand, into
  /// each object.
  static func floor<Object: ThreeProperties>(_ objects: [Object], _ traits: DMTraitCollection) {
    let background = Theme.background.resolved(with: traits)
    let border = Theme.border.resolved(with: traits)
    let opacity = Theme.opacity.resolved(with: traits)
    for object in objects {
      object.background = background
      object.border = border
      object.opacity = opacity
    }
  }

  /// An object held weakly, as a binding holds a themable object.
  struct WeakLayer {
    weak var layer: BenchLayer?
  }

  /// The floor for objects held weakly: the same loop, reaching each object through a weak
  /// reference, as anything that does not keep the objects alive must.
  static func weakFloor(_ layers: [WeakLayer], _ traits: DMTraitCollection) {
    let background = Theme.background.resolved(with: traits)
    let border = Theme.border.resolved(with: traits)
    let opacity = Theme.opacity.resolved(with: traits)
    // Read in place: copying an element would copy its weak reference too.
    layers.withUnsafeBufferPointer { entries in
      guard let first = entries.baseAddress else { return }
      let base = UnsafeMutablePointer(mutating: first)
      for index in 0..<entries.count {
        guard let layer = (base + index).pointee.layer else { continue }
        layer.background = background
        layer.border = border
        layer.opacity = opacity
      }
    }
  }

  /// The broadcast model for objects outside the hierarchy: every object observes a notification
  /// and re-applies its three properties when it is posted.
  static func observe(_ layers: [BenchLayer]) -> [any NSObjectProtocol] {
    layers.map { layer in
      NotificationCenter.default.addObserver(forName: themeDidChange, object: nil, queue: nil) {
        [unowned layer] _ in
        MainActor.assumeIsolated {
          layer.background = Theme.background.resolved(with: traits)
          layer.border = Theme.border.resolved(with: traits)
          layer.opacity = Theme.opacity.resolved(with: traits)
        }
      }
    }
  }
}
