// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "Understudy",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
  products: [
    .library(name: "Understudy", targets: ["Understudy"]),
    .executable(name: "understudy", targets: ["understudy"]),
  ],
  targets: [
    .target(name: "Understudy"),
    .executableTarget(name: "understudy", dependencies: ["Understudy"]),
    .testTarget(
      name: "UnderstudyTests",
      dependencies: ["Understudy"],
      exclude: ["Fixtures"]
    ),
    .testTarget(name: "UnderstudyXCTests", dependencies: ["Understudy"]),
    .testTarget(name: "UnderstudyCLITests", dependencies: ["understudy", "Understudy"]),
    .testTarget(
      name: "UnderstudyExamples",
      dependencies: ["Understudy"],
      exclude: ["Fixtures"],
      resources: [.copy("__Cassettes__")]
    ),
  ],
  swiftLanguageModes: [.v6]
)
