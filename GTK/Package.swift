// swift-tools-version: 6.0
import PackageDescription

// DarkModeKit for GTK 4 apps. A package of its own, so that the root package builds on machines
// without the GTK headers (`apt-get install libgtk-4-dev libadwaita-1-dev` on Debian 12).
let package = Package(
  name: "DarkModeKitGTK",
  products: [
    .library(name: "DarkModeKitGTK", targets: ["DarkModeKitGTK"]),
    .executable(name: "dmkit-gtk-demo", targets: ["dmkit-gtk-demo"]),
  ],
  dependencies: [.package(name: "DarkModeKit", path: "..")],
  targets: [
    .systemLibrary(name: "CGtk", pkgConfig: "libadwaita-1"),
    .target(
      name: "DarkModeKitGTK",
      dependencies: [
        "CGtk", .product(name: "DarkModeKit", package: "DarkModeKit"),
        .product(name: "DarkModeKitTools", package: "DarkModeKit"),
      ]),
    .executableTarget(
      name: "dmkit-gtk-demo",
      dependencies: [
        "DarkModeKitGTK", "CGtk", .product(name: "DarkModeKit", package: "DarkModeKit"),
        .product(name: "DarkModeKitLinux", package: "DarkModeKit"),
      ]),
    .executableTarget(
      name: "dmgtkbench",
      dependencies: ["DarkModeKitGTK", "CGtk", .product(name: "DarkModeKit", package: "DarkModeKit")]),
    .executableTarget(
      name: "dmgtk-probe",
      dependencies: [
        "DarkModeKitGTK", "CGtk", .product(name: "DarkModeKit", package: "DarkModeKit"),
        .product(name: "DarkModeKitLinux", package: "DarkModeKit"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
