import CGtk
import DarkModeKit
import DarkModeKitTools

/// The colours DarkModeKit gives one GTK widget, which DarkModeKit's stylesheet shows; reached
/// through the properties of ``DMGTKStyled``.
///
/// The widget carries the class of its colours' rule, shared by every widget with the same
/// colours, and swapped when they change.
@MainActor
public final class DMGTKStyling {
  let widget: UnsafeMutablePointer<GtkWidget>
  /// Whether this holds a reference on the widget. A window holds none: GTK keeps its toplevels
  /// until they are destroyed, and a reference would keep a destroyed window from being torn down.
  private let holdsReference: Bool
  /// Whether the widget was let go of (or is gone, for a destroyed window): nothing touches it.
  private(set) var isClosed = false

  var background: DMColor? { didSet { if background != oldValue { setNeedsUpdate() } } }
  var foreground: DMColor? { didSet { if foreground != oldValue { setNeedsUpdate() } } }
  var border: DMColor? { didSet { if border != oldValue { setNeedsUpdate() } } }
  /// A table whose keys become classes inside the widget (see `DMGTKWindow.colorTable`), and the
  /// collection to resolve them with.
  var table: DMColorTable? { didSet { if table !== oldValue { setNeedsUpdate() } } }
  var tableTraits = DMTraitCollection() {
    didSet { if table != nil, tableTraits != oldValue { setNeedsUpdate() } }
  }

  /// The rules whose classes the widget carries now, for its own colours and for its table's.
  private var lookRule: StyleSheet.RuleID?
  private var tableRule: StyleSheet.RuleID?
  /// The colours of `lookRule`: a widget whose colours came back to them keeps its class.
  private var shownLook = StyleSheet.Look()
  /// Whether the widget carries `StyleSheet.boundBackgroundClass`.
  private var hasFeedbackClass = false
  /// Whether the widget waits in the stylesheet's next update.
  fileprivate var isPending = false

  init(widget: UnsafeMutablePointer<GtkWidget>, holdsReference: Bool = true) {
    self.widget = widget
    self.holdsReference = holdsReference
    if holdsReference { g_object_ref_sink(widget) }
  }

  /// The table's colours changed: the classes show the new ones from the next frame.
  func tableDidReload() {
    if table != nil { setNeedsUpdate() }
  }

  /// Puts the widget in the stylesheet's next update, once however many of its colours changed.
  private func setNeedsUpdate() {
    guard !isClosed, !isPending else { return }
    isPending = true
    StyleSheet.shared.setNeedsUpdate(self)
  }

  /// Gives the widget the classes of its colours now.
  fileprivate func update() {
    isPending = false
    guard !isClosed else { return }
    lookDidChange()
    // A handler of the class change may have let go of the widget.
    guard !isClosed else { return }
    tableLookDidChange()
  }

  /// The widget is being destroyed: it gives up its classes' rules, and nothing touches it again.
  func widgetWillGo() {
    guard !isClosed else { return }
    isClosed = true
    for rule in [lookRule, tableRule] {
      if let rule { StyleSheet.shared.release(rule) }
    }
    lookRule = nil
    tableRule = nil
  }

  /// Lets go of the widget: it gives up its classes, and the reference taken on it is dropped.
  func close() {
    guard !isClosed else { return }
    // Closed before GTK is called: a handler of the class change then finds it closed.
    var classes = [lookRule, tableRule].compactMap { $0.map(StyleSheet.shared.className(of:)) }
    if hasFeedbackClass { classes.append(StyleSheet.boundBackgroundClass) }
    widgetWillGo()
    for name in classes { gtk_widget_remove_css_class(widget, name) }
    if holdsReference { g_object_unref(widget) }
  }

  private func lookDidChange() {
    let look = StyleSheet.Look(background: background, foreground: foreground, border: border)
    guard look != shownLook else { return }
    shownLook = look
    let old = lookRule
    lookRule = look.isEmpty ? nil : StyleSheet.shared.use(.look(look))
    show(lookRule, replacing: old)
    // A bound background keeps a button's feedback: the class of the rules that shade it, after
    // the swap, from the colours shown last (a handler of the swap may have changed them).
    let wantsFeedback = shownLook.background != nil
    guard !isClosed, wantsFeedback != hasFeedbackClass else { return }
    hasFeedbackClass = wantsFeedback
    if wantsFeedback {
      gtk_widget_add_css_class(widget, StyleSheet.boundBackgroundClass)
    } else {
      gtk_widget_remove_css_class(widget, StyleSheet.boundBackgroundClass)
    }
  }

  private func tableLookDidChange() {
    let look = table.map { table in
      StyleSheet.TableLook(
        table: ObjectIdentifier(table),
        colors: table.keys.map {
          StyleSheet.KeyColor(key: $0, color: table.color(forKey: $0, traitCollection: tableTraits))
        })
    }
    let old = tableRule
    tableRule = look.map { StyleSheet.shared.use(.table($0)) }
    show(tableRule, replacing: old)
  }

  /// Puts the class of the rule `new` (already recorded as the widget's) on the widget in place of
  /// that of `old`, and gives up `old`.
  ///
  /// GTK tells handlers of `notify::css-classes` during the calls, and a handler may change this
  /// widget's colours and update the stylesheet at once: nothing here is held across the calls.
  private func show(_ new: StyleSheet.RuleID?, replacing old: StyleSheet.RuleID?) {
    guard new != old else {
      // The same rule again: give back the use just taken.
      if let new { StyleSheet.shared.release(new) }
      return
    }
    if let new { gtk_widget_add_css_class(widget, StyleSheet.shared.className(of: new)) }
    if let old {
      // A handler of the class change may have let go of the widget: then only the use goes.
      if !isClosed { gtk_widget_remove_css_class(widget, StyleSheet.shared.className(of: old)) }
      StyleSheet.shared.release(old)
    }
  }
}

/// One display-wide GTK stylesheet that carries every colour DarkModeKit gives widgets.
///
/// Each distinct set of colours has one rule and one class, and widgets carry the class of their
/// colours. A change swaps classes on the widgets that changed, once per widget just before the
/// next frame however many of its colours changed, and reloads the stylesheet only
/// when colours appear that no rule has yet (the first switch to a style, a table reload). GTK
/// then restyles only those widgets, as for any change of classes.
///
/// The stylesheet holds the rules in use, and rules used lately up to about as many again (see
/// `dropUnusedRules()`), capped: its size follows the distinct colours, not the widgets.
///
/// It is loaded into GTK as several style providers of at most ``selectorsPerProvider``
/// selectors each. GTK 4.8 builds a tree of each provider's selectors in a recursion that goes
/// about one level deeper for each class that no other selector shares, with frames that grow
/// with the selectors left: one provider of a table of 250 keys overflowed the main thread's
/// stack. A change reloads only the providers whose text changed.
///
/// The rules declare no transitions, but GTK runs the theme's transitions when a widget's classes
/// change: a libadwaita button fades to its new background over 200 ms; boxes, labels and
/// windows change at the next frame. Under reduced motion GTK's animations are off.
@MainActor
final class StyleSheet {
  static let shared = StyleSheet()

  /// The colours of one widget's own rule.
  struct Look: Hashable {
    var background: DMColor?
    var foreground: DMColor?
    var border: DMColor?
    var isEmpty: Bool { background == nil && foreground == nil && border == nil }
  }

  struct KeyColor: Hashable {
    var key: String
    var color: DMColor?
  }

  /// The colour of each key of a table, as one window resolves it.
  struct TableLook: Hashable {
    var table: ObjectIdentifier
    var colors: [KeyColor]
  }

  /// What one rule styles: a widget's own colours, or a table's keys inside a widget.
  enum Rule: Hashable {
    case look(Look)
    case table(TableLook)

    var isTable: Bool {
      if case .table = self { true } else { false }
    }
  }

  /// A rule's place in `entries`; it names the rule while a widget uses it.
  typealias RuleID = Int

  private struct Entry {
    var rule: Rule
    var className: String
    var users: Int
    /// Its CSS rules, a line each: one for a widget's colours, three per coloured key of a table.
    var lines: [String]
    /// How many selectors each of its lines has.
    var selectorsPerLine: Int
    /// Its place in the order of making: the stylesheet writes rules in that order, so that a new
    /// rule changes the text of the last provider alone.
    var number: UInt64
    /// How many CSS rules it writes.
    var weight: Int { lines.count }
  }

  /// The most selectors one style provider is given (see the type's comment): GTK 4.8 loads a
  /// provider of this many distinct classes with about 0.3 MB of stack.
  static let selectorsPerProvider = 200

  /// Whether `install()` ran: the stylesheet reaches GTK from then on.
  private var isInstalled = false
  /// The style providers, in order, and the text each was loaded with.
  private var providers: [(provider: UnsafeMutablePointer<GtkCssProvider>, css: String)] = []
  /// The providers of the feedback rules of the tables' keys, above the colours'.
  private var feedbackProviders: [(provider: UnsafeMutablePointer<GtkCssProvider>, css: String)] = []
  /// The providers of the tables' rules, above the widgets' own.
  private var tableProviders: [(provider: UnsafeMutablePointer<GtkCssProvider>, css: String)] = []
  /// How many times a provider was given new text.
  private(set) var providerLoads = 0

  /// The priorities of the providers: widgets' own colours, then tables' (a key's class inside a
  /// window's table wins over a widget's own colour), then the feedback of buttons, whose shades
  /// go over both. Each kind has providers of its own, so that a new widget colour reloads only
  /// the last of the widgets' providers, however many rules the tables have.
  static let lookPriority = GTK_STYLE_PROVIDER_PRIORITY_APPLICATION + 1
  static let tablePriority = GTK_STYLE_PROVIDER_PRIORITY_APPLICATION + 2
  static let feedbackPriority = GTK_STYLE_PROVIDER_PRIORITY_APPLICATION + 3
  /// The keys whose feedback rules are loaded, in the order first used.
  private var feedbackKeys: [String] = []
  /// The rules by id; `nil` for a free place, which the next new rule takes.
  private var entries: [Entry?] = []
  private var freeIDs: [RuleID] = []
  private var ids: [Rule: RuleID] = [:]
  /// The rule last asked for: widgets that change together mostly ask for the same one in a row,
  /// and comparing costs less than hashing.
  private var lastUsed: (rule: Rule, id: RuleID)?
  private var lastNumber: UInt64 = 0
  private var isScheduled = false
  private var hasNewRules = false
  /// Widgets whose classes the next update sets.
  private var pending: [DMGTKStyling] = []
  /// The stylesheet last loaded.
  private(set) var css = ""

  private init() {}

  /// The class of every widget with a bound background, which ``feedbackRules`` shade.
  static let boundBackgroundClass = "dm-bound-bg"

  /// A bound background replaces the theme's, and with it the theme's shades for a button that is
  /// hovered, pressed, checked or disabled: these rules shade it the way libadwaita shades its own
  /// coloured buttons (`.suggested-action`, `.opaque`), over the bound colour. The focus ring is
  /// the theme's, untouched.
  ///
  /// A menu button, a drop-down, a colour button and a font button show an inner button that
  /// paints over their own background: theirs is clear, and the inner button shows the bound
  /// colour (see `lines(of:className:)`) with the same shades.
  static let feedbackRules =
    (DMGTKStyleRules.feedbackRules(matching: "button.\(boundBackgroundClass)")
    + buttonWrappers.flatMap {
      DMGTKStyleRules.feedbackRules(matching: "\($0).\(boundBackgroundClass) > button")
    }).map(\.text).joined()
    + buttonWrappers.map { "\($0).\(boundBackgroundClass)" }.joined(separator: ", ")
    + " { background-color: transparent; }\n"

  /// The widgets whose visible face is an inner `button` node: a background bound on one of
  /// them is shown by that button.
  static let buttonWrappers = ["menubutton", "dropdown", "colorbutton", "fontbutton"]

  /// Adds the stylesheet to the default display, above the app's own stylesheets.
  func install() {
    guard !isInstalled, let display = gdk_display_get_default() else { return }
    isInstalled = true
    // Above the colours' own providers: GTK takes each property from the provider of highest
    // priority that sets it, whatever the specificity of the rules of others.
    let feedback = gtk_css_provider_new()!
    gtk_css_provider_load_from_data(feedback, Self.feedbackRules, -1)
    gtk_style_context_add_provider_for_display(
      display, OpaquePointer(feedback), guint(Self.feedbackPriority))
    // Widgets made before: their rules reach the screen with the next frame.
    if !ids.isEmpty {
      hasNewRules = true
      scheduleUpdate()
    }
  }

  /// Takes one use of the rule for `rule`, made if there is none yet (loaded with the next update).
  func use(_ rule: Rule) -> RuleID {
    let id: RuleID
    if let lastUsed, lastUsed.rule == rule {
      id = lastUsed.id
    } else if let known = ids[rule] {
      id = known
    } else {
      id = add(rule)
    }
    lastUsed = (rule, id)
    entries[id]!.users += 1
    return id
  }

  /// The class of a rule in use.
  func className(of id: RuleID) -> String { entries[id]!.className }

  /// Gives up one use of a rule; unused rules are dropped when they grow many (see
  /// `dropUnusedRules()`).
  func release(_ id: RuleID) {
    entries[id]!.users -= 1
  }

  /// Puts a widget whose colours changed in the next update.
  func setNeedsUpdate(_ styling: DMGTKStyling) {
    pending.append(styling)
    scheduleUpdate()
  }

  private func add(_ rule: Rule) -> RuleID {
    lastNumber &+= 1
    let prefix =
      switch rule {
      case .look: "dm-look"
      case .table: "dm-table"
      }
    let className = "\(prefix)-\(lastNumber)"
    let entry = Entry(
      rule: rule, className: className, users: 0, lines: Self.lines(of: rule, className: className),
      selectorsPerLine: Self.selectorsPerLine(of: rule), number: lastNumber)
    let id: RuleID
    if let free = freeIDs.popLast() {
      id = free
      entries[id] = entry
    } else {
      id = entries.count
      entries.append(entry)
    }
    ids[rule] = id
    hasNewRules = true
    scheduleUpdate()
    return id
  }

  private func scheduleUpdate() {
    guard !isScheduled else { return }
    isScheduled = true
    runBeforeNextFrame { StyleSheet.shared.flush() }
  }

  /// Gives the widgets that changed the classes of their colours, then loads the stylesheet if
  /// that added rules.
  func flush() {
    isScheduled = false
    // A batch at a time: a widget's update may queue widgets (a handler of GTK's class change that
    // sets colours), which the next batch reaches, or update the stylesheet itself, which takes
    // what was queued meanwhile.
    while !pending.isEmpty {
      let batch = pending
      pending = []
      for styling in batch { styling.update() }
    }
    guard hasNewRules, isInstalled else { return }
    hasNewRules = false
    dropUnusedRules()
    // Widgets' rules and tables' in providers of their own (see `lookPriority`), each in the order
    // they were made, so that a new rule changes the text of the last provider of its kind alone.
    let sorted = entries.compactMap { $0 }.sorted { $0.number < $1.number }
    let looks = Self.split(
      sorted.filter { !$0.rule.isTable }.flatMap { entry in entry.lines.map { ($0, entry.selectorsPerLine) } }
    )
    let tables = Self.split(
      sorted.filter(\.rule.isTable).flatMap { entry in entry.lines.map { ($0, entry.selectorsPerLine) } })
    load(looks, into: &providers, priority: Self.lookPriority)
    load(tables, into: &tableProviders, priority: Self.tablePriority)
    css = (looks + tables).joined()
    loadFeedback(forKeysOf: sorted)
  }

  /// Loads the feedback rules of every key of the tables in `entries` (a button with a class
  /// `dm-bg-KEY` keeps its feedback), when their keys changed; above the colours' providers, so
  /// that their shades show over a key's colour, which sets no background image.
  private func loadFeedback(forKeysOf entries: [Entry]) {
    var keys: [String] = []
    var seen: Set<String> = []
    for entry in entries {
      guard case .table(let look) = entry.rule else { continue }
      for color in look.colors where seen.insert(color.key).inserted { keys.append(color.key) }
    }
    guard keys != feedbackKeys else { return }
    feedbackKeys = keys
    let lines = keys.flatMap { key in
      DMGTKStyleRules.feedbackRules(forKey: key).map { ($0.text, $0.selectors.count) }
    }
    load(Self.split(lines), into: &feedbackProviders, priority: Self.feedbackPriority)
  }

  /// The stylesheets of the providers: the lines in order, cut where a provider would pass
  /// `selectorsPerProvider` selectors.
  private static func split(_ lines: [(text: String, selectors: Int)]) -> [String] {
    var texts: [String] = []
    var text = ""
    var selectors = 0
    for line in lines {
      if selectors + line.selectors > selectorsPerProvider, !text.isEmpty {
        texts.append(text)
        text = ""
        selectors = 0
      }
      text += line.text
      selectors += line.selectors
    }
    if !text.isEmpty { texts.append(text) }
    return texts
  }

  /// Loads each text into a provider of its own at `priority`: a provider whose text is the same
  /// is left alone, providers are added as needed, and those left over are taken away.
  private func load(
    _ texts: [String], into providers: inout [(provider: UnsafeMutablePointer<GtkCssProvider>, css: String)],
    priority: Int32
  ) {
    guard let display = gdk_display_get_default() else { return }
    for (index, text) in texts.enumerated() {
      if index == providers.count {
        let provider = gtk_css_provider_new()!
        gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), guint(priority))
        providers.append((provider, ""))
      }
      guard providers[index].css != text else { continue }
      providers[index].css = text
      providerLoads += 1
      gtk_css_provider_load_from_data(providers[index].provider, text, -1)
    }
    while providers.count > texts.count {
      let provider = providers.removeLast().provider
      gtk_style_context_remove_provider_for_display(display, OpaquePointer(provider))
      g_object_unref(provider)
    }
  }

  /// Drops every rule nobody uses once they write more CSS rules than those in use, up to
  /// `keptWeightLimit`, plus `unusedWeightAllowance`. A widget whose colours come back to those
  /// of a kept rule gets its class and loads nothing: a window switched back and forth between
  /// two styles loads the stylesheet only for the first switch to each, while tables reloaded
  /// with new colours, or colours that keep changing, leave at most about as much again as is in
  /// use.
  private func dropUnusedRules() {
    var used = 0
    var unused = 0
    for entry in entries {
      guard let entry else { continue }
      if entry.users > 0 { used += entry.weight } else { unused += entry.weight }
    }
    guard unused > min(used, Self.keptWeightLimit) + Self.unusedWeightAllowance else { return }
    for (id, entry) in entries.enumerated() {
      guard let entry, entry.users <= 0 else { continue }
      entries[id] = nil
      ids[entry.rule] = nil
      freeIDs.append(id)
    }
    lastUsed = nil
  }

  /// The most CSS rules of unused rules kept beyond `unusedWeightAllowance`, however many are in
  /// use.
  static let keptWeightLimit = 1_024

  /// How many CSS rules of unused rules are kept beyond those in use.
  static let unusedWeightAllowance = 64

  /// The CSS rules of one rule whose class is `className`, a line each.
  private static func lines(of rule: Rule, className: String) -> [String] {
    switch rule {
    case .look(let look):
      let declarations = DMGTKStyleRules.declarations(
        background: look.background, foreground: look.foreground, border: look.border)
      let selectors = [".\(className)"] + buttonWrappers.map { "\($0).\(className) > button" }
      return ["\(selectors.joined(separator: ", ")) {\(declarations) }\n"]
    case .table(let look):
      return look.colors.flatMap { entry in
        entry.color.map {
          DMGTKStyleRules.rules(forKey: entry.key, color: $0, scope: className)
            .split(separator: "\n").map { $0 + "\n" }
        } ?? []
      }
    }
  }

  /// How many selectors each line of a rule has: for a widget's colours, the widget's own and its
  /// inner button's if it wraps one; two for a table's (the scope's own widget, and widgets inside
  /// it).
  private static func selectorsPerLine(of rule: Rule) -> Int {
    switch rule {
    case .look: 1 + buttonWrappers.count
    case .table: 2
    }
  }
}
