import Testing

@testable import DarkModeKit

/// An image with identity, so tests can tell when one is freed.
final class TestImage: Sendable {
  let name: String
  init(name: String) { self.name = name }
}

/// Counts the loads of each name.
final class ImageLoader: Sendable {
  private let counts = Locked<[String: Int]>([:])

  func load(_ name: String) -> TestImage? {
    counts.withLock { $0[name, default: 0] += 1 }
    return name == "missing" ? nil : TestImage(name: name)
  }

  func loads(of name: String) -> Int { counts.withLock { $0[name, default: 0] } }
}

@Suite struct DynamicImageTests {
  private let dark = DMTraitCollection(userInterfaceStyle: .dark)
  private let light = DMTraitCollection(userInterfaceStyle: .light)

  @Test func pairPicksByStyle() {
    let image = DMDynamicImage(light: TestImage(name: "sun"), dark: TestImage(name: "moon"))
    #expect(image.resolved(with: dark)?.name == "moon")
    #expect(image.resolved(with: light)?.name == "sun")
    #expect(image.resolved(with: DMTraitCollection())?.name == "sun")
  }

  @Test func namesAreChosenLikeAThemeMap() {
    let loader = ImageLoader()
    let image = DMDynamicImage(names: [.normal: "logo", .night: "logo-night", "RED": "logo-red"]) {
      loader.load($0)
    }
    #expect(image.resolved(with: light)?.name == "logo")
    #expect(image.resolved(with: dark)?.name == "logo-night")
    var red = light
    red.theme = "RED"
    #expect(image.resolved(with: red)?.name == "logo-red")
    red = dark
    red.theme = "RED"  // RED has no dark side: the default theme's is shown
    #expect(image.resolved(with: red)?.name == "logo-night")
    red.theme = "BLUE"
    #expect(image.name(for: red) == "logo-night")
    let noNormal = DMDynamicImage(names: ["RED": "logo-red"]) { loader.load($0) }
    #expect(noNormal.resolved(with: light) == nil)
  }

  @Test func loadsLazilyAndNotAgainForTheSameName() {
    let loader = ImageLoader()
    let image = DMDynamicImage(names: [.normal: "logo", .night: "logo-night"]) { loader.load($0) }
    #expect(loader.loads(of: "logo") == 0)
    for _ in 0..<5 { _ = image.resolved(with: light) }
    #expect(loader.loads(of: "logo") == 1)
    #expect(loader.loads(of: "logo-night") == 0)
    _ = image.resolved(with: dark)
    #expect(loader.loads(of: "logo-night") == 1)
  }

  @Test func aLoaderThatFailsResolvesToNil() {
    let loader = ImageLoader()
    let image = DMDynamicImage(names: [.normal: "missing"]) { loader.load($0) }
    #expect(image.resolved(with: light) == nil)
  }

  @Test func theImageOfAnotherThemeIsNotKeptAlive() {
    let loader = ImageLoader()
    let image = DMDynamicImage(names: [.normal: "logo", .night: "logo-night"]) { loader.load($0) }
    weak let lightImage = image.resolved(with: light)
    #expect(lightImage != nil)  // held by the cache as the last image resolved
    let nightImage = image.resolved(with: dark)
    #expect(lightImage == nil)
    #expect(nightImage?.name == "logo-night")
  }
}

@MainActor
final class ImageView: DMView {
  var image: TestImage?
}

extension GlobalStateTests {
  @Suite @MainActor struct ImageBindingTests {
    init() { DarkModeManager.reset() }

    @Test func boundImagesSwapAndTheOldOneIsFreed() {
      let loader = ImageLoader()
      let logo = DMDynamicImage(names: [.normal: "logo", .night: "logo-night"]) { loader.load($0) }
      let window = DMWindow()
      let view = ImageView()
      window.addSubview(view)
      window.makeKeyAndVisible()
      view.dm.bind(\.image, to: logo)
      weak let lightImage = view.image
      #expect(lightImage?.name == "logo")
      DMTraitCollection.setOverride(.dark, animated: false)
      #expect(view.image?.name == "logo-night")
      #expect(lightImage == nil)
      DMTraitCollection.setOverride(.light, animated: false)
      #expect(view.image?.name == "logo")
      #expect(loader.loads(of: "logo") == 2)
    }
  }
}
