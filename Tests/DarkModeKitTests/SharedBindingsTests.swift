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
