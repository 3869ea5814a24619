// swift-tools-version: 6.1
// libFuzzer targets for Understudy's parsers. They live in their own package so nothing here
// reaches users of the library. Build and run them with `bash .ci/fuzz.sh [seconds]` from the
// repository root; see Tests/Fuzz/README.md.
import PackageDescription

let package = Package(
  name: "UnderstudyFuzz",
  platforms: [.macOS(.v13)],
  dependencies: [.package(name: "Understudy", path: "../..")],
  targets: [
    .executableTarget(
      name: "FuzzCassette",
      dependencies: [.product(name: "Understudy", package: "Understudy")]
    ),
    .executableTarget(
      name: "FuzzPatterns",
      dependencies: [.product(name: "Understudy", package: "Understudy")]
    ),
  ],
  swiftLanguageModes: [.v6]
)
