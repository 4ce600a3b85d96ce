// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "DarkModeKit",
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
  products: [
    .library(name: "DarkModeKit", targets: ["DarkModeKit"]),
    .library(name: "DarkModeKitLinux", targets: ["DarkModeKitLinux"]),
    .executable(name: "dmkit", targets: ["dmkit"]),
  ],
  targets: [
    .target(name: "DarkModeKit"),
    .target(name: "DarkModeKitLinux", dependencies: ["DarkModeKit"]),
    .executableTarget(name: "dmkit", dependencies: ["DarkModeKit", "DarkModeKitLinux"]),
    .executableTarget(name: "dmbench", dependencies: ["DarkModeKit"]),
    .testTarget(
      name: "DarkModeKitTests", dependencies: ["DarkModeKit", "DarkModeKitLinux", "dmkit"],
      exclude: ["Linux/Fixtures"]),
    .testTarget(name: "DarkModeKitLinuxTests", dependencies: ["DarkModeKit", "DarkModeKitLinux"]),
  ],
  swiftLanguageModes: [.v6]
)
