// swift-tools-version: 6.1
// The benchmark lives in its own package so its executable and settings never reach users of
// Understudy. Run it with: swift run -c release --package-path Benchmarks understudy-bench
// The loopback server's benchmark (understudy-server-bench) needs SwiftNIO, which the
// URLSession benchmark never builds: `.ci/bench.sh` builds understudy-bench alone.
import PackageDescription

let package = Package(
  name: "UnderstudyBenchmarks",
  // Mutex (Synchronization) needs macOS 15; the benchmark's memory figures are Linux-only anyway.
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "Understudy", path: "..", traits: ["Server"]),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
  ],
  targets: [
    .executableTarget(
      name: "understudy-bench",
      dependencies: [.product(name: "Understudy", package: "Understudy")]
    ),
    .executableTarget(
      name: "understudy-server-bench",
      dependencies: [
        .product(name: "Understudy", package: "Understudy"),
        .product(name: "UnderstudyServer", package: "Understudy"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
