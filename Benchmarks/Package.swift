// swift-tools-version: 6.1
// The benchmark lives in its own package so its executable and settings never reach users of
// Understudy. Run it with: swift run -c release --package-path Benchmarks understudy-bench
// The loopback server's benchmark needs SwiftNIO and lives in Benchmarks/Server, so building
// this package never builds SwiftNIO.
import PackageDescription

let package = Package(
  name: "UnderstudyBenchmarks",
  // Mutex (Synchronization) needs macOS 15; the benchmark's memory figures are Linux-only anyway.
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "Understudy", path: ".."),
  ],
  targets: [
    .executableTarget(
      name: "understudy-bench",
      dependencies: [
        .product(name: "Understudy", package: "Understudy"),
        // Built, not linked: the command-line rows run the release-built tool as a user would.
        .product(name: "understudy", package: "Understudy"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
