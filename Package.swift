// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "DarkModeKit",
  products: [
    .library(name: "DarkModeKit", targets: ["DarkModeKit"]),
    .library(name: "DarkModeKitLinux", targets: ["DarkModeKitLinux"]),
    .executable(name: "dmkit", targets: ["dmkit"]),
  ],
  targets: [
    .target(name: "DarkModeKit"),
    .target(name: "DarkModeKitLinux", dependencies: ["DarkModeKit"]),
    .executableTarget(name: "dmkit", dependencies: ["DarkModeKit", "DarkModeKitLinux"]),
    .testTarget(name: "DarkModeKitTests", dependencies: ["DarkModeKit", "DarkModeKitLinux"]),
    .testTarget(name: "DarkModeKitLinuxTests", dependencies: ["DarkModeKit", "DarkModeKitLinux"]),
  ],
  swiftLanguageModes: [.v6]
)
