// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "DarkModeKit",
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
  products: [
    .library(name: "DarkModeKit", targets: ["DarkModeKit"]),
    .library(name: "DarkModeKitLinux", targets: ["DarkModeKitLinux"]),
    .library(name: "DarkModeKitDBus", targets: ["DarkModeKitDBus"]),
    .library(name: "DarkModeKitTools", targets: ["DarkModeKitTools"]),
    // GTK 4 apps; needs GTK 4.8 and libadwaita 1.2 (`apt-get install libgtk-4-dev libadwaita-1-dev`).
    // An app that does not use it builds without them: SwiftPM builds only what a product needs.
    .library(name: "DarkModeKitGTK", targets: ["DarkModeKitGTK"]),
    .executable(name: "dmkit", targets: ["dmkit"]),
    .executable(name: "dmkit-gtk-demo", targets: ["dmkit-gtk-demo"]),
  ],
  targets: [
    .target(name: "DarkModeKitText"),
    .target(name: "DarkModeKit", dependencies: ["DarkModeKitText"]),
    .target(name: "DarkModeKitDBus", dependencies: ["DarkModeKitText"]),
    .target(name: "DarkModeKitLinux", dependencies: ["DarkModeKit", "DarkModeKitDBus", "DarkModeKitText"]),
    .target(name: "DarkModeKitTools", dependencies: ["DarkModeKit", "DarkModeKitText"]),
    .executableTarget(
      name: "dmkit", dependencies: ["DarkModeKit", "DarkModeKitLinux", "DarkModeKitText", "DarkModeKitTools"]),
    .systemLibrary(name: "CGtk", pkgConfig: "libadwaita-1"),
    .target(
      name: "DarkModeKitGTK", dependencies: ["CGtk", "DarkModeKit", "DarkModeKitLinux", "DarkModeKitTools"]),
    .executableTarget(
      name: "dmkit-gtk-demo",
      dependencies: ["DarkModeKitGTK", "CGtk", "DarkModeKit", "DarkModeKitLinux", "DarkModeKitText"]),
    // The program of Docs/GTK.md, word for word.
    .executableTarget(name: "dmkit-gtk-hello", dependencies: ["DarkModeKit", "DarkModeKitGTK"]),
    .executableTarget(name: "dmgtkbench", dependencies: ["DarkModeKitGTK", "CGtk", "DarkModeKit"]),
    .executableTarget(
      name: "dmgtk-probe", dependencies: ["DarkModeKitGTK", "CGtk", "DarkModeKit", "DarkModeKitLinux"]),
    .executableTarget(
      name: "dmbench",
      dependencies: [
        "DarkModeKit", "DarkModeKitDBus", "DarkModeKitLinux", "DarkModeKitText", "DarkModeKitTools",
      ]),
    .target(
      name: "DarkModeKitTestSupport", dependencies: ["DarkModeKit", "DarkModeKitDBus"],
      path: "Tests/DarkModeKitTestSupport",
      exclude: ["Fixtures"]),
    .testTarget(name: "DarkModeKitTests", dependencies: ["DarkModeKit", "DarkModeKitTestSupport"]),
    .testTarget(
      name: "DarkModeKitLinuxTests",
      dependencies: ["DarkModeKit", "DarkModeKitDBus", "DarkModeKitLinux", "DarkModeKitTestSupport"]),
    .testTarget(name: "DarkModeKitDBusTests", dependencies: ["DarkModeKitDBus", "DarkModeKitTestSupport"]),
    // Runs the GTK programs (dmgtk-probe, the demo) as programs; skips without the GTK headers.
    .testTarget(
      name: "DarkModeKitGTKTests",
      dependencies: ["DarkModeKit", "DarkModeKitTools", "DarkModeKitTestSupport"]),
    .testTarget(
      name: "DarkModeKitToolsTests",
      dependencies: ["DarkModeKit", "DarkModeKitText", "DarkModeKitTools", "DarkModeKitTestSupport"]),
    .testTarget(
      name: "dmkitTests",
      dependencies: [
        "dmkit", "DarkModeKit", "DarkModeKitLinux", "DarkModeKitTools", "DarkModeKitTestSupport",
      ]),
  ],
  swiftLanguageModes: [.v6]
)
