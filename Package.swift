// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "Understudy",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
  products: [
    .library(name: "Understudy", targets: ["Understudy"]),
    .executable(name: "understudy", targets: ["UnderstudyCLI"]),
  ],
  targets: [
    .target(name: "Understudy"),
    // The module is not called `understudy`: beside `Understudy`, its build products would clash
    // on case-insensitive file systems (macOS's default).
    .executableTarget(
      name: "UnderstudyCLI", dependencies: ["Understudy"], path: "Sources/understudy"),
    .testTarget(
      name: "UnderstudyTests",
      dependencies: ["Understudy"],
      exclude: ["Fixtures"]
    ),
    .testTarget(name: "UnderstudyXCTests", dependencies: ["Understudy"]),
    .testTarget(name: "UnderstudyCLITests", dependencies: ["UnderstudyCLI", "Understudy"]),
    .testTarget(
      name: "UnderstudyExamples",
      dependencies: ["Understudy"],
      exclude: ["Fixtures"],
      resources: [.copy("__Cassettes__")]
    ),
  ],
  swiftLanguageModes: [.v6]
)
