/// An object whose properties can follow dynamic values.
///
/// Adopt it on any class to bind its properties; the object then follows the global collection
/// (a ``DMTraitEnvironment`` follows its own collection instead). Bindings never keep the object
/// alive: it is deinitialized as usual, and DarkModeKit holds it weakly. Its bindings are let go of
/// at the next change that sets bound values again (a new style, contrast or theme, or a table
/// reload), or when binding finds twice as many bound objects, live and freed, as there were live
/// after the last such clean-up (and at least 64).
///
/// ```swift
/// final class Layer: DMThemable {
///   var fillColor = DMColor.clear
/// }
/// let layer = Layer()
/// layer.dm.bind(\.fillColor, to: DMDynamic(light: .white, dark: .black))
/// ```
public protocol DMThemable: AnyObject {}

extension DMThemable {
  /// The object's bindings: `object.dm.bind(\.property, to: dynamicValue)`.
  @MainActor
  public var dm: DMBindings<Self> { DMBindings(self) }
}
