import Foundation
import Testing

@testable import DarkModeKit

/// Objects bound alike share one binding list: what one of them changes, the others do not see.
extension GlobalStateTests {
  @Suite @MainActor struct SharedBindingsTests {
    init() { DarkModeManager.reset() }

    final class Cell: DMView {
      var fill = DMColor.clear
      var stroke = DMColor.clear
      var alpha = 1.0
    }

    final class Layer: DMThemable {
      var fill = DMColor.clear
      var alpha = 1.0
    }

    static let fill = DMDynamicColor(light: DMColor(rgb: 0xFFFFFF), dark: DMColor(rgb: 0x101010))
    static let stroke = DMDynamicColor(light: DMColor(rgb: 0xC0C0C0), dark: DMColor(rgb: 0x404040))
    static let alpha = DMDynamic(light: 1.0, dark: 0.8)
    /// A colour of its own for each style and contrast.
    static let contrastFill = DMDynamicColor(
      light: DMColor(rgb: 0xFFFFFF), dark: DMColor(rgb: 0x202020),
      highContrastLight: DMColor(rgb: 0xFFFF00),
      highContrastDark: DMColor(rgb: 0x000000))
    static let red = DMDynamicColor(light: DMColor(rgb: 0xFF0000), dark: DMColor(rgb: 0x800000))

    func bound(_ count: Int) -> [Cell] {
      (0..<count).map { _ in
        let cell = Cell()
        cell.dm.bind(\.fill, to: Self.fill)
        cell.dm.bind(\.stroke, to: Self.stroke)
        cell.dm.bind(\.alpha, to: Self.alpha)
        return cell
      }
    }

    @Test func objectsBoundAlikeShareOneListAndAChangeToOneLeavesTheOthers() {
      let window = DMWindow()
      let cells = bound(4)
      for cell in cells { window.addSubview(cell) }
      window.makeKeyAndVisible()
      #expect(Set(cells.map(\.bindings.storageIdentity)).count == 1)

      cells[1].dm.bind(\.fill, to: Self.red)
      cells[2].dm.unbind(\.stroke)
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
      #expect(cells.map(\.fill) == [0x101010, 0x800000, 0x101010, 0x101010].map { DMColor(rgb: $0) })
      // The unbound property keeps the value it had; the others follow.
      #expect(cells.map(\.stroke) == [0x404040, 0x404040, 0xC0C0C0, 0x404040].map { DMColor(rgb: $0) })
      #expect(cells.map(\.alpha) == [0.8, 0.8, 0.8, 0.8])
      #expect(cells[0].bindings.storageIdentity == cells[3].bindings.storageIdentity)
      #expect(cells[0].bindings.storageIdentity != cells[1].bindings.storageIdentity)
      #expect(cells[1].dm.isBound(\.fill) && !cells[2].dm.isBound(\.stroke) && cells[0].dm.isBound(\.stroke))

      // Bound back in its place, a cell shares the others' list again; bound again after the
      // others, it has the same bindings in another order, and a list of its own.
      cells[1].dm.bind(\.fill, to: Self.fill)
      #expect(cells[1].bindings.storageIdentity == cells[0].bindings.storageIdentity)
      cells[2].dm.bind(\.stroke, to: Self.stroke)
      #expect(cells[2].bindings.storageIdentity != cells[0].bindings.storageIdentity)
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .light), animated: false)
      #expect(cells.map(\.stroke) == Array(repeating: DMColor(rgb: 0xC0C0C0), count: 4))
    }

    /// A view of another class, bound to other values.
    final class Badge: DMView {
      var count = 0.0
      var tint = DMColor.clear
    }

    class Card: DMView {
      var tint = DMColor.clear
    }
    final class PromoCard: Card {}

    /// As documented: key paths of two root types are two bindings of one property, the later
    /// applied last, and each is asked about and unbound on its own.
    @Test func aPropertyBoundThroughKeyPathsOfTwoRootTypesHasTwoBindings() {
      let window = DMWindow()
      let card = PromoCard()
      window.addSubview(card)
      window.makeKeyAndVisible()
      func brand(_ card: Card) { card.dm.bind(\.tint, to: Self.fill) }
      brand(card)
      card.dm.bind(\.tint, to: Self.red)
      #expect(card.dm.isBound(\PromoCard.tint))
      #expect((card as Card).dm.isBound(\Card.tint))
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(card.tint == DMColor(rgb: 0x800000))
      card.dm.unbind(\.tint)
      #expect(!card.dm.isBound(\PromoCard.tint))
      #expect((card as Card).dm.isBound(\Card.tint))
      DMTraitCollection.setOverride(.light, animated: false)
      #expect(card.tint == DMColor(rgb: 0xFFFFFF))
      window.isHidden = true
    }

    @Test func aSharedListGoesWithItsLastObjectAndKeepsNoValueAlive() {
      let before = BindingShapes.count
      weak var value: DMDynamicColor.Storage?
      do {
        let color = DMDynamicColor(light: .white, dark: .black)
        value = color.storage
        let cells = (0..<3).map { _ in Cell() }
        for cell in cells { cell.dm.bind(\.fill, to: color) }
        let layer = Layer()
        layer.dm.bind(\.fill, to: color)
        #expect(BindingShapes.count > before)
        #expect(value != nil)
      }
      // The registry forgets freed themable objects when it next looks at them.
      #expect(ThemableRegistry.shared.liveCount == 0)
      #expect(value == nil, "the shared list kept the dynamic value alive")
      #expect(BindingShapes.count == before)
    }

    @Test func objectsBoundToValuesOfTheirOwnEachHaveAListAndNothingIsLeftBehind() {
      let before = BindingShapes.count
      do {
        let cells = (0..<100).map { index in
          let cell = Cell()
          cell.dm.bind(\.fill, to: DMDynamicColor(light: DMColor(rgb: UInt32(index)), dark: .black))
          cell.dm.bind(\.alpha, to: Self.alpha)
          return cell
        }
        #expect(Set(cells.map(\.bindings.storageIdentity)).count == 100)
        DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
        let window = DMWindow()
        for cell in cells { window.addSubview(cell) }
        window.makeKeyAndVisible()
        #expect(cells.allSatisfy { $0.fill == .black && $0.alpha == 0.8 })
        window.isHidden = true
      }
      #expect(BindingShapes.count == before)
    }

    /// Values of every plain size, optional and not, and a value that is not plain bytes.
    final class Mixed: DMView {
      var flag = false
      var level: Float = 0
      var tint: DMColor? = nil
      var fill = DMColor.clear
      var label = ""
    }

    /// A view whose bound colour goes through a setter of its own: its list is not planned.
    final class SetterView: DMView {
      var stored = DMColor.clear
      var fill: DMColor {
        get { stored }
        set { stored = newValue }
      }
    }

    /// Views bound alike under two parents whose collections differ, with a view whose list is not
    /// planned between them, switched through their window's order: each view gets the values of
    /// its own collection, not those set last into another view.
    @Test func viewsBoundAlikeAfterAnUnplannedListGetTheirOwnCollectionsValues() {
      TraitPropagator.shared.minimumOrderCount = 1
      defer { TraitPropagator.shared.minimumOrderCount = TraitPropagator.defaultMinimumOrderCount }
      let fill = Self.contrastFill
      let window = DMWindow()
      let high = DMView()
      high.traitOverrides.accessibilityContrast = .high
      let normal = DMView()
      window.addSubview(high)
      window.addSubview(normal)
      var cells: [Mixed] = []
      func cell(in parent: DMView) {
        let cell = Mixed()
        cell.dm.bind(\.fill, to: fill)
        parent.addSubview(cell)
        cells.append(cell)
      }
      for _ in 0..<3 { cell(in: high) }
      let relay = SetterView()
      relay.dm.bind(\.fill, to: fill)
      normal.addSubview(relay)
      for _ in 0..<3 { cell(in: normal) }
      window.makeKeyAndVisible()
      let walksBefore = TraitPropagator.shared.orderedWalkCount
      for style in [DMUserInterfaceStyle.dark, .light, .dark, .light] {
        DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: style), animated: false)
        let wrong = cells.filter { $0.fill != fill.resolved(with: $0.dmTraitCollection) }.count
        #expect(wrong == 0, "views showing another collection's colour after switching to \(style)")
        #expect(relay.stored == fill.resolved(with: relay.dmTraitCollection))
      }
      #expect(TraitPropagator.shared.orderedWalkCount > walksBefore, "the switches went through the order")
    }

    /// Views bound alike that a switch reaches one after the other, the first under a parent with
    /// high contrast and the next under one without: each shows its own parent's colour.
    @Test func viewsBoundAlikeLeavingAHighContrastSubtreeGetTheirOwnParentsValues() {
      let window = DMWindow()
      let root = DMView()
      window.addSubview(root)
      TraitPropagator.shared.minimumOrderCount = 1
      defer { TraitPropagator.shared.minimumOrderCount = TraitPropagator.defaultMinimumOrderCount }
      let high = DMView()
      high.traitOverrides.accessibilityContrast = .high
      root.addSubview(high)
      var cells: [(Mixed, DMColor)] = []
      func cell(in parent: DMView, dark: DMColor) {
        let cell = Mixed()
        cell.dm.bind(\.fill, to: Self.contrastFill)
        parent.addSubview(cell)
        cells.append((cell, dark))
      }
      for _ in 0..<3 { cell(in: high, dark: DMColor(rgb: 0x000000)) }
      for _ in 0..<3 { cell(in: root, dark: DMColor(rgb: 0x202020)) }
      window.makeKeyAndVisible()
      let walksBefore = TraitPropagator.shared.orderedWalkCount
      for _ in 0..<2 {
        DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
        #expect(cells.map(\.0.fill) == cells.map(\.1), "each view shows its parent's dark colour")
        DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .light), animated: false)
        #expect(cells.map(\.0.fill).filter { $0 == DMColor(rgb: 0xFFFFFF) }.count == 3)
      }
      #expect(TraitPropagator.shared.orderedWalkCount > walksBefore, "the switches went through the order")
    }

    /// A pair of numbers and a flag: 17 bytes, the smallest list a switch copies in 16-byte pieces.
    final class Gauge: DMView {
      var range = SIMD2<Double>()
      var on = false
    }

    /// Three colours: 96 bytes, more than a switch copies in pieces.
    final class Swatch: DMView {
      var first = DMColor.clear
      var second = DMColor.clear
      var third = DMColor.clear
    }

    /// Views of one class bound alike, many to a parent, hold every bound value after each switch,
    /// whatever the size of their values: the switch copies them from one view's list to the next.
    @Test func siblingsBoundAlikeHoldEveryValueWhateverItsSize() {
      let window = DMWindow()
      let range = DMDynamic(light: SIMD2(0.25, 0.75), dark: SIMD2(0.5, 1.0))
      let on = DMDynamic(light: false, dark: true)
      var cells: [Cell] = []
      var gauges: [Gauge] = []
      var swatches: [Swatch] = []
      for _ in 0..<3 {
        let row = DMView()
        window.addSubview(row)
        for cell in bound(4) {
          row.addSubview(cell)
          cells.append(cell)
        }
        for _ in 0..<4 {
          let gauge = Gauge()
          gauge.dm.bind(\.range, to: range)
          gauge.dm.bind(\.on, to: on)
          row.addSubview(gauge)
          gauges.append(gauge)
        }
        for _ in 0..<4 {
          let swatch = Swatch()
          swatch.dm.bind(\.first, to: Self.fill)
          swatch.dm.bind(\.second, to: Self.stroke)
          swatch.dm.bind(\.third, to: Self.red)
          row.addSubview(swatch)
          swatches.append(swatch)
        }
      }
      window.makeKeyAndVisible()
      let walksBefore = TraitPropagator.shared.orderedWalkCount
      for style in [DMUserInterfaceStyle.dark, .light, .dark, .light] {
        let traits = DMTraitCollection(userInterfaceStyle: style)
        DMTraitCollection.setOverride(traits, animated: false)
        for cell in cells {
          #expect(
            cell.fill == Self.fill.resolved(with: traits) && cell.stroke == Self.stroke.resolved(with: traits)
          )
          #expect(cell.alpha == Self.alpha.resolved(with: traits))
        }
        for gauge in gauges {
          #expect(gauge.range == range.resolved(with: traits))
          #expect(gauge.on == (style == .dark))
        }
        for swatch in swatches {
          #expect(
            swatch.first == Self.fill.resolved(with: traits)
              && swatch.second == Self.stroke.resolved(with: traits))
          #expect(swatch.third == Self.red.resolved(with: traits))
        }
      }
      #expect(TraitPropagator.shared.orderedWalkCount > walksBefore, "the switches went through the order")
    }

    /// A cell that runs `onChange` in its callback.
    final class CallingCell: DMView {
      var fill = DMColor.clear
      var stroke = DMColor.clear
      var alpha = 1.0
      var onChange: (() -> Void)?

      override func dmTraitCollectionDidChange(_ previousTraitCollection: DMTraitCollection?) {
        onChange?()
      }
    }

    /// The first of siblings bound alike rebinds them all in its callback, alike but to another
    /// colour: each sibling holds its new binding's value, not the one the switch set in the first.
    @Test func siblingsRebindByTheFirstsCallbackHoldTheirNewValues() {
      TraitPropagator.shared.minimumOrderCount = 1
      defer { TraitPropagator.shared.minimumOrderCount = TraitPropagator.defaultMinimumOrderCount }
      let window = DMWindow()
      let row = DMView()
      window.addSubview(row)
      let cells = (0..<4).map { _ in CallingCell() }
      func bind(_ cell: CallingCell, fill: DMDynamicColor) {
        cell.dm.bind(\.fill, to: fill)
        cell.dm.bind(\.stroke, to: Self.stroke)
        cell.dm.bind(\.alpha, to: Self.alpha)
      }
      for cell in cells {
        bind(cell, fill: Self.fill)
        row.addSubview(cell)
      }
      window.makeKeyAndVisible()
      cells[0].onChange = {
        cells[0].onChange = nil
        for cell in cells {
          cell.dm.unbind(\.fill)
          cell.dm.unbind(\.stroke)
          cell.dm.unbind(\.alpha)
        }
        for cell in cells.dropFirst() { bind(cell, fill: Self.red) }
      }
      let walksBefore = TraitPropagator.shared.orderedWalkCount
      let dark = DMTraitCollection(userInterfaceStyle: .dark)
      DMTraitCollection.setOverride(dark, animated: false)
      #expect(TraitPropagator.shared.orderedWalkCount > walksBefore, "the switch went through the order")
      #expect(cells.dropFirst().allSatisfy { $0.fill == Self.red.resolved(with: dark) })
      #expect(cells.dropFirst().allSatisfy { $0.stroke == Self.stroke.resolved(with: dark) })
      #expect(
        cells[0].fill == Self.fill.resolved(with: dark), "the first keeps the value set before its call")
      let light = DMTraitCollection(userInterfaceStyle: .light)
      DMTraitCollection.setOverride(light, animated: false)
      #expect(cells.dropFirst().allSatisfy { $0.fill == Self.red.resolved(with: light) })
    }

    /// Three plain values and a string, which no plan copies.
    final class Titled: DMView {
      var fill = DMColor.clear
      var stroke = DMColor.clear
      var alpha = 1.0
      var label = ""
    }

    /// Three plain values outside the tree.
    final class Trio: DMThemable {
      var fill = DMColor.clear
      var stroke = DMColor.clear
      var alpha = 1.0
    }

    /// Two views share a list that is not planned (a string is bound), made after a planned list
    /// that a switch set last was freed: the next switch sets each view from its own list.
    ///
    /// The C library usually hands the freed list's memory to the next list of its size, but need
    /// not; where it does, a switch that took the planned list set last for the one at that
    /// address set the second view from the freed list's values (a debug build's check of the
    /// kept values stopped it).
    @Test func viewsSharingAnUnplannedListWhereAFreedPlannedOneWasGetTheirOwnValues() {
      TraitPropagator.shared.minimumOrderCount = 1
      defer { TraitPropagator.shared.minimumOrderCount = TraitPropagator.defaultMinimumOrderCount }
      let label = DMDynamic(light: "light", dark: "dark")
      let window = DMWindow()
      let row = DMView()
      window.addSubview(row)
      let first = Titled()
      let second = Titled()
      row.addSubview(first)
      row.addSubview(second)
      window.makeKeyAndVisible()
      var holder: Trio? = Trio()
      holder?.dm.bind(\.fill, to: Self.red)
      holder?.dm.bind(\.stroke, to: Self.red)
      holder?.dm.bind(\.alpha, to: Self.alpha)
      // Sets the holder's planned list, the last one set; nothing bound in the window.
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
      func bind(_ cell: Titled) {
        cell.dm.bind(\.fill, to: Self.fill)
        cell.dm.bind(\.stroke, to: Self.stroke)
        cell.dm.bind(\.label, to: label)
      }
      // The descriptions of the properties made now, not between the free and the new lists.
      bind(Titled())
      holder = nil
      // Drops the freed object's entry, and its list with it.
      _ = ThemableRegistry.shared.liveCount
      bind(first)
      bind(second)
      let walksBefore = TraitPropagator.shared.orderedWalkCount
      let light = DMTraitCollection(userInterfaceStyle: .light)
      DMTraitCollection.setOverride(light, animated: false)
      #expect(TraitPropagator.shared.orderedWalkCount > walksBefore, "the switch went through the order")
      for cell in [first, second] {
        #expect(
          cell.fill == Self.fill.resolved(with: light) && cell.stroke == Self.stroke.resolved(with: light))
        #expect(cell.label == "light")
        #expect(cell.alpha == 1.0, "an unbound property keeps its value")
      }
    }

    @Test func aPassCopiesEachEnvironmentsOwnValuesIntoObjectsBoundAlike() {
      let table = try! DMColorTable(string: "NORMAL NIGHT SEPIA\n#ffffff #000000 #f4ecd8 BG\n")
      let flag = DMDynamic(light: false, dark: true)
      let level = DMDynamic<Float>(light: 0.25, dark: 0.75)
      let tint = DMDynamicColor(light: DMColor(rgb: 0x0000FF), dark: DMColor(rgb: 0x00FF00))
      let fill = DMDynamicColor(key: "BG", in: table)
      let label = DMDynamic(light: "day", dark: "night")
      let window = DMWindow()
      let plain = DMView()
      let overridden = DMView()
      let themed = DMView()
      overridden.overrideUserInterfaceStyle = .dark
      themed.traitOverrides.theme = "SEPIA"
      var cells: [(Mixed, DMView)] = []
      for (index, parent) in [plain, overridden, themed].enumerated() {
        window.addSubview(parent)
        for _ in 0..<(5 + index) {
          let cell = Mixed()
          cell.dm.bind(\.flag, to: flag)
          cell.dm.bind(\.level, to: level)
          cell.dm.bind(\.tint, to: tint)
          cell.dm.bind(\.fill, to: fill)
          cell.dm.bind(\.label, to: label)
          parent.addSubview(cell)
          cells.append((cell, parent))
        }
      }
      window.makeKeyAndVisible()
      for style in [DMUserInterfaceStyle.dark, .light, .dark] {
        DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: style), animated: false)
        for (cell, parent) in cells {
          // Each bound property holds its value resolved for the cell's own traits.
          let traits = cell.dmTraitCollection
          if parent !== themed {
            #expect(traits.userInterfaceStyle == (parent === overridden ? .dark : style))
          }
          #expect(cell.flag == flag.resolved(with: traits) && cell.level == level.resolved(with: traits))
          #expect(cell.tint == tint.resolved(with: traits))
          #expect(cell.fill == fill.resolved(with: traits))
          #expect(cell.label == label.resolved(with: traits))
        }
        #expect(cells.map { $0.0.flag }.contains(true))
      }
      #expect(cells.map { $0.0.fill }.contains(DMColor(rgb: 0xF4ECD8)))
    }

    /// A themable object whose computed property's setter runs the app's code during a switch.
    @MainActor final class Relay: DMThemable {
      var fill = DMColor.clear
      var stored = DMColor.clear
      var onTint: (@MainActor () -> Void)?
      var tint: DMColor {
        get { stored }
        set {
          stored = newValue
          onTint?()
        }
      }
    }

    @Test func aThemableObjectRebindOrUnboundByASetterDuringASwitchKeepsWhatTheSetterDid() {
      let blue = DMDynamicColor(light: DMColor(rgb: 0x0000FF), dark: DMColor(rgb: 0x000080))
      let (first, second, third) = (Relay(), Relay(), Relay())
      first.dm.bind(\.tint, to: Self.red)
      second.dm.bind(\.fill, to: blue)
      third.dm.bind(\.fill, to: blue)
      first.onTint = {
        second.dm.bind(\.fill, to: Self.red)
        third.dm.unbind(\.fill)
        third.fill = DMColor(rgb: 0x123456)
      }
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
      #expect(second.fill == DMColor(rgb: 0x800000))
      #expect(third.fill == DMColor(rgb: 0x123456))
      #expect(!third.dm.isBound(\.fill))
    }

    /// Two dynamic values of different types bound into the same optional property of two objects
    /// of one class: each keeps its own way of reading its value.
    @Test func anOptionalPropertyBoundToAnOptionalAndToAPlainDynamicValueGetsEach() {
      let plain = DMDynamicColor(light: DMColor(rgb: 0x111111), dark: DMColor(rgb: 0x222222))
      let optional = DMDynamic<DMColor?>(light: DMColor(rgb: 0x333333), dark: nil)
      let window = DMWindow()
      let (first, second) = (Mixed(), Mixed())
      first.dm.bind(\.tint, to: plain)
      second.dm.bind(\.tint, to: optional)
      window.addSubview(first)
      window.addSubview(second)
      window.makeKeyAndVisible()
      for (style, expected) in [(DMUserInterfaceStyle.dark, (0x222222, nil)), (.light, (0x111111, 0x333333))]
      {
        DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: style), animated: false)
        #expect(first.tint == DMColor(rgb: UInt32(expected.0)))
        #expect(second.tint == expected.1.map { DMColor(rgb: UInt32($0)) })
      }
    }

    /// One key path object bound in turn on objects of a class and of its subclass, and to values
    /// of two types: each binding keeps its own class's and value's way of setting the property,
    /// however often the same object comes back.
    @Test func oneKeyPathObjectBoundInTurnForTwoClassesAndTwoTypesOfValueGetsEach() {
      class Swatch: DMView {
        var tint: DMColor?
      }
      final class CountingSwatch: Swatch {
        var sets = 0
        override var tint: DMColor? { didSet { sets += 1 } }
      }
      let plain = DMDynamicColor(light: DMColor(rgb: 0x111111), dark: DMColor(rgb: 0x222222))
      let optional = DMDynamic<DMColor?>(light: DMColor(rgb: 0x333333), dark: nil)
      let path: ReferenceWritableKeyPath<Swatch, DMColor?> = \.tint
      let window = DMWindow()
      var swatches: [Swatch] = []
      for index in 0..<40 {
        let swatch = index.isMultiple(of: 2) ? Swatch() : CountingSwatch()
        if index % 4 < 2 {
          swatch.dm.bind(path, to: plain)
        } else {
          swatch.dm.bind(path, to: optional)
        }
        window.addSubview(swatch)
        swatches.append(swatch)
      }
      window.makeKeyAndVisible()
      let counted = swatches.compactMap { $0 as? CountingSwatch }
      let setsBefore = counted.map(\.sets)
      for (style, expected) in [(DMUserInterfaceStyle.dark, (0x222222, nil)), (.light, (0x111111, 0x333333))]
      {
        DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: style), animated: false)
        for (index, swatch) in swatches.enumerated() {
          let color = index % 4 < 2 ? expected.0 : expected.1
          #expect(swatch.tint == color.map { DMColor(rgb: UInt32($0)) }, "swatch \(index), \(style)")
        }
      }
      // The subclass's observer saw each switch once.
      #expect(counted.count == 20 && counted.map(\.sets) == setsBefore.map { $0 + 2 })
    }

    /// The answers kept by identity: an object's answer under its key, none under another key or
    /// for another object, and the oldest let go of when more come than are kept.
    @Test func recentAnswersFindEachObjectsAnswerUnderItsKeyAndLetTheOldestGo() {
      final class Question {}
      var answers = RecentAnswers<Int, String>(limit: 3)
      let questions = (0..<5).map { _ in Question() }
      #expect(answers.answer(for: questions[0], key: 1) == nil)
      for index in 0..<3 { #expect(answers.remember("q\(index)", for: questions[index], key: 1) == nil) }
      #expect(answers.answer(for: questions[1], key: 1) == "q1")
      #expect(answers.answer(for: questions[1], key: 2) == nil)
      #expect(answers.answer(for: questions[3], key: 1) == nil)
      let dropped = answers.remember("q3", for: questions[3], key: 1)
      #expect(dropped.map { $0.0 === questions[0] && $0.1 == 1 && $0.2 == "q0" } == true)
      #expect(answers.answer(for: questions[0], key: 1) == nil)
      #expect((1...3).map { answers.answer(for: questions[$0], key: 1) } == ["q1", "q2", "q3"])
      // One object may have an answer under each key.
      #expect(answers.remember("q1 again", for: questions[1], key: 2)?.2 == "q1")
      #expect(answers.answer(for: questions[1], key: 2) == "q1 again")
    }

    /// A cell whose own value's code rebinds another of its properties during a pass: the new
    /// binding's value is what shows, not the one resolved before the rebinding.
    @Test func aValueWhoseCodeRebindsAPropertyDuringAPassLeavesTheNewBindingsValue() {
      final class Target: @unchecked Sendable {
        weak var cell: Cell?
        var hasRebound = false
      }
      let target = Target()
      let stroke = DMDynamicColor(dynamicProvider: { traits in
        MainActor.assumeIsolated {
          if traits.userInterfaceStyle == .dark, !target.hasRebound, let cell = target.cell {
            target.hasRebound = true
            cell.dm.bind(\.fill, to: Self.red)
          }
        }
        return DMColor(rgb: 0x777777)
      })
      let window = DMWindow()
      let cell = Cell()
      target.cell = cell
      cell.dm.bind(\.fill, to: Self.fill)
      cell.dm.bind(\.stroke, to: stroke)
      window.addSubview(cell)
      window.makeKeyAndVisible()
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
      #expect(target.hasRebound)
      #expect(cell.fill == DMColor(rgb: 0x800000), "the value of the binding made during the pass")
      #expect(cell.stroke == DMColor(rgb: 0x777777))
    }

    /// The same for themable objects: a value's code rebinds a property of the object being set,
    /// while the values of the list it shares are resolved.
    @Test func aValueWhoseCodeRebindsAThemableObjectsPropertyDuringASwitchLeavesTheNewBindingsValue() {
      final class Target: @unchecked Sendable {
        weak var layer: Layer?
        var hasRebound = false
      }
      let target = Target()
      let alpha = DMDynamic<Double>(dynamicProvider: { traits in
        MainActor.assumeIsolated {
          if traits.userInterfaceStyle == .dark, !target.hasRebound, let layer = target.layer {
            target.hasRebound = true
            layer.dm.bind(\.fill, to: Self.red)
          }
        }
        return 0.5
      })
      let layers = (0..<2).map { _ in
        let layer = Layer()
        layer.dm.bind(\.fill, to: Self.fill)
        layer.dm.bind(\.alpha, to: alpha)
        return layer
      }
      target.layer = layers[0]
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
      #expect(target.hasRebound)
      #expect(layers[0].fill == DMColor(rgb: 0x800000), "the value of the binding made during the switch")
      #expect(layers[1].fill == DMColor(rgb: 0x101010))
      #expect(layers.map(\.alpha) == [0.5, 0.5])
    }

    /// Runs of themable objects bound alike, between objects bound to many other lists, each list
    /// with colours of its own: every object gets its own list's
    /// values, switch after switch.
    @Test func runsOfThemableObjectsBoundAlikeBetweenManyOtherListsEachGetTheirOwnValues() {
      let shades: [DMDynamicColor] = (1...19).map { (shade: Int) in
        let number = UInt32(shade)
        return DMDynamicColor(light: DMColor(rgb: 0x10_00_00 &* number), dark: DMColor(rgb: number))
      }
      var layers: [(layer: Layer, shade: Int)] = []
      for round in 0..<3 {
        for shade in shades.indices {
          // Three alike in a row, then one of the next shade's list.
          for _ in 0..<(shade.isMultiple(of: 2) ? 3 : 1) {
            let layer = Layer()
            layer.dm.bind(\.fill, to: shades[(shade + round) % shades.count])
            layer.dm.bind(\.alpha, to: Self.alpha)
            layers.append((layer, (shade + round) % shades.count))
          }
        }
      }
      for style in [DMUserInterfaceStyle.dark, .light, .dark] {
        DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: style), animated: false)
        let traits = DMTraitCollection(userInterfaceStyle: style)
        let wrong = layers.filter { $0.layer.fill != shades[$0.shade].resolved(with: traits) }.count
        #expect(wrong == 0, "objects that show another list's colour, of \(layers.count)")
        #expect(layers.allSatisfy { $0.layer.alpha == Self.alpha.resolved(with: traits) })
      }
    }

    @Test func valuesMadeForOneKeyOfATableAreOneValueAndObjectsBoundThroughThemShareOneList() throws {
      let table = try DMColorTable(string: "NORMAL NIGHT\n#ffffff #101010 BG\n#c0c0c0 #404040 LINE\n")
      let other = try DMColorTable(string: "NORMAL NIGHT\n#ffffff #101010 BG\n")
      // As a guide writes it: a value made where each object binds.
      let cells = (0..<5_000).map { _ in
        let cell = Cell()
        cell.dm.bind(\.fill, to: DMDynamicColor(key: "BG", in: table))
        cell.dm.bind(\.stroke, to: DMDynamicColor(key: "LINE", in: table))
        return cell
      }
      #expect(Set(cells.map(\.bindings.storageIdentity)).count == 1)
      #expect(DMDynamicColor(key: "BG", in: table).storage === DMDynamicColor(key: "BG", in: table).storage)
      #expect(DMDynamicColor(key: "BG", in: other).storage !== DMDynamicColor(key: "BG", in: table).storage)
      #expect(DMDynamicColor(key: "LINE", in: table).storage !== DMDynamicColor(key: "BG", in: table).storage)

      let window = DMWindow()
      for cell in cells { window.addSubview(cell) }
      window.makeKeyAndVisible()
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
      #expect(cells.allSatisfy { $0.fill == DMColor(rgb: 0x101010) && $0.stroke == DMColor(rgb: 0x404040) })
      try table.reload(string: "NORMAL NIGHT\n#eeeeee #202020 BG\n#c0c0c0 #505050 LINE\n")
      #expect(cells.allSatisfy { $0.fill == DMColor(rgb: 0x202020) && $0.stroke == DMColor(rgb: 0x505050) })
      window.isHidden = true
    }

    @Test func aTableKeepsNoValueOfItsKeysAliveAndForgetsTheValuesThatWent() throws {
      let table = try DMColorTable(string: "NORMAL\n#ffffff BG\n")
      weak var value: DMDynamicColor.Storage?
      do {
        let color = DMDynamicColor(key: "BG", in: table)
        value = color.storage
        #expect(value != nil)
      }
      #expect(value == nil, "the table kept the value of its key alive")
      let fresh = DMDynamicColor(key: "BG", in: table)
      #expect(fresh.resolved(with: DMTraitCollection(userInterfaceStyle: .light)) == DMColor(rgb: 0xFFFFFF))

      for index in 0..<20_000 { _ = DMDynamicColor(key: "GONE\(index)", in: table) }
      #expect(table.keyValues.withLock(\.count) <= 64, "values that went are still counted")
      let kept = (0..<1_000).map { DMDynamicColor(key: "KEPT\($0)", in: table) }
      for index in 0..<20_000 { _ = DMDynamicColor(key: "GONE\(index)", in: table) }
      #expect(table.keyValues.withLock(\.count) <= 2 * (kept.count + 1) + 64)
      #expect(kept.allSatisfy { $0.storage === DMDynamicColor(key: "KEPT0", in: table).storage } == false)
      #expect(kept[7].storage === DMDynamicColor(key: "KEPT7", in: table).storage)
    }

    @Test func listsBoundStepByStepFindEachSharedStepAgainAndAnotherStepIsTheirOwn() {
      let before = BindingShapes.count
      do {
        let first = Cell()
        first.dm.bind(\.fill, to: Self.fill)
        first.dm.bind(\.stroke, to: Self.stroke)
        first.dm.bind(\.alpha, to: Self.alpha)
        // The steps of the first list stay while it has them all: three shared lists.
        #expect(BindingShapes.count == before + 3)
        let other = Cell()
        other.dm.bind(\.fill, to: Self.fill)
        other.dm.bind(\.stroke, to: Self.red)
        let same = Cell()
        same.dm.bind(\.fill, to: Self.fill)
        same.dm.bind(\.stroke, to: Self.stroke)
        #expect(same.bindings.storageIdentity != other.bindings.storageIdentity)
        same.dm.bind(\.alpha, to: Self.alpha)
        #expect(same.bindings.storageIdentity == first.bindings.storageIdentity)
        #expect(BindingShapes.count == before + 4)
        let light = DMTraitCollection(userInterfaceStyle: .light)
        #expect(other.stroke == Self.red.resolved(with: light))
        #expect(same.stroke == Self.stroke.resolved(with: light) && same.alpha == 1.0)
        let window = DMWindow()
        for cell in [first, other, same] { window.addSubview(cell) }
        window.makeKeyAndVisible()
        DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
        #expect(other.stroke == DMColor(rgb: 0x800000) && other.fill == DMColor(rgb: 0x101010))
        #expect(same.stroke == DMColor(rgb: 0x404040) && same.alpha == 0.8 && first.alpha == 0.8)
        window.isHidden = true
      }
      #expect(BindingShapes.count == before, "a list's steps outlived it")
    }

    @Test func objectsBoundAlikeAfterTheFirstMakeNoStorageOfTheirOwn() {
      let first = bound(1)
      let made = UnsafeBindingStorage.madeCount
      let cells = bound(1_000)
      #expect(UnsafeBindingStorage.madeCount == made, "storages made for objects bound alike")
      #expect(Set((first + cells).map(\.bindings.storageIdentity)).count == 1)
    }

    @Test func aToolkitsSharedSetterIsOneBindingForEveryObjectOfItsClass() {
      final class Swatch: DMView {
        var tint: DMColor?
        var sets = 0
      }
      let swatches = (0..<1_000).map { _ in
        let swatch = Swatch()
        swatch.dm.bindShared(\.tint, to: Self.fill) { swatch, color in
          swatch.tint = color
          swatch.sets += 1
        }
        return swatch
      }
      #expect(Set(swatches.map(\.bindings.storageIdentity)).count == 1)
      #expect(swatches.allSatisfy { $0.tint == DMColor(rgb: 0xFFFFFF) && $0.sets == 1 })
      let window = DMWindow()
      for swatch in swatches { window.addSubview(swatch) }
      window.makeKeyAndVisible()
      let setsBefore = swatches.map(\.sets)
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
      #expect(swatches.allSatisfy { $0.tint == DMColor(rgb: 0x101010) })
      #expect(swatches.map(\.sets) == setsBefore.map { $0 + 1 }, "each swatch is set once per switch")
      window.isHidden = true
    }

    @Test func themableObjectsBoundAlikeFollowAndOneUnboundStops() {
      let layers = (0..<3).map { _ in
        let layer = Layer()
        layer.dm.bind(\.fill, to: Self.fill)
        layer.dm.bind(\.alpha, to: Self.alpha)
        return layer
      }
      layers[0].dm.unbind(\.alpha)
      DMTraitCollection.setOverride(DMTraitCollection(userInterfaceStyle: .dark), animated: false)
      #expect(layers.map(\.fill) == Array(repeating: DMColor(rgb: 0x101010), count: 3))
      #expect(layers.map(\.alpha) == [1.0, 0.8, 0.8])
    }
  }
}

/// Values made for a table's keys from many threads at once: each thread finds the one value of a
/// key that lives, however the others make and drop values of other keys meanwhile (which takes
/// entries out of the table's list of values), and each value shows its key's colour.
@Suite struct KeyValuesContentionTests {
  @Test func threadsMakingValuesForKeysAtOnceFindTheLivingValueOfEachKey() throws {
    let keys = (0..<16).map { "K\($0)" }
    let table = try DMColorTable(
      string: "NORMAL\n"
        + keys.indices.map { "#0000\(String(format: "%02x", $0)) \(keys[$0])" }.joined(separator: "\n"))
    let kept = keys.map { DMDynamicColor(key: $0, in: table) }
    let light = DMTraitCollection(userInterfaceStyle: .light)
    let wrong = Locked(0)
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      var misses = 0
      for round in 0..<2_000 {
        let index = (round + thread) % keys.count
        let value = DMDynamicColor(key: keys[index], in: table)
        if value.storage !== kept[index].storage { misses += 1 }
        if value.resolved(with: light) != DMColor(rgb: UInt32(index)) { misses += 1 }
        // A value that goes at once: enough of them make the table take out its dead entries.
        _ = DMDynamicColor(key: "GONE\(thread)-\(round)", in: table)
      }
      wrong.withLock { $0 += misses }
    }
    #expect(
      wrong.withLock { $0 } == 0,
      "values that were not the living value of their key, or showed another colour")
  }
}
