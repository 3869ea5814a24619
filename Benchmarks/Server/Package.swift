// swift-tools-version: 6.1
// The loopback server's benchmark, in a package of its own: it needs Understudy's `Server` trait
// and SwiftNIO, whose release build takes minutes, and the URLSession benchmark
// (Benchmarks/Package.swift) should never pay for them.
// Run it with: .ci/bench.sh --only server
import PackageDescription

let package = Package(
  name: "UnderstudyServerBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "Understudy", path: "../..", traits: ["Server"]),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
  ],
  targets: [
    .executableTarget(
      name: "understudy-server-bench",
      dependencies: [
        .product(name: "Understudy", package: "Understudy"),
        .product(name: "UnderstudyServer", package: "Understudy"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
