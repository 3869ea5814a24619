// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "Understudy",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
  products: [
    .library(name: "Understudy", targets: ["Understudy"]),
    .executable(name: "understudy", targets: ["UnderstudyCLI"]),
    .library(name: "UnderstudyServer", targets: ["UnderstudyServer"]),
  ],
  // The loopback server is opt-in: without the `Server` trait the package resolves no package at
  // all (SwiftPM does not even fetch a dependency only a disabled trait uses), and the
  // UnderstudyServer module compiles to nothing.
  traits: [
    .trait(
      name: "Server",
      description: "A loopback HTTP/1.1 server per StubRegistry (UnderstudyServer), on SwiftNIO."),
    // Understudy's own tests of the server with AsyncHTTPClient: a trait of its own, because that
    // client brings some twenty packages (swift-nio-ssl's BoringSSL among them) that neither a
    // user of the server nor the default build should fetch.
    .trait(
      name: "ClientTests",
      description: "Builds the Server trait and tests the loopback server with AsyncHTTPClient.",
      enabledTraits: ["Server"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
  ],
  targets: [
    .target(name: "Understudy"),
    // The module is not called `understudy`: beside `Understudy`, its build products would clash
    // on case-insensitive file systems (macOS's default).
    // `serve` and `record` exist only with the `Server` trait, which brings SwiftNIO.
    .executableTarget(
      name: "UnderstudyCLI",
      dependencies: [
        "Understudy", .target(name: "UnderstudyServer", condition: .when(traits: ["Server"])),
      ],
      path: "Sources/understudy"),
    .target(
      name: "UnderstudyServer",
      dependencies: [
        "Understudy",
        .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
        .product(
          name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["Server"])),
        .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Server"])),
        .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Server"])),
        .product(name: "NIOWebSocket", package: "swift-nio", condition: .when(traits: ["Server"])),
      ]),
    // One place for what every test target shares at run time: they all run in one process.
    .target(name: "UnderstudyTestSupport", path: "Tests/UnderstudyTestSupport"),
    .testTarget(
      name: "UnderstudyTests",
      dependencies: ["Understudy", "UnderstudyTestSupport"],
      exclude: ["Fixtures"]
    ),
    .testTarget(name: "UnderstudyXCTests", dependencies: ["Understudy", "UnderstudyTestSupport"]),
    .testTarget(
      name: "UnderstudyServerTests",
      dependencies: [
        "UnderstudyServer", "Understudy", "UnderstudyTestSupport",
        // A SwiftNIO client, the kind of client a URLProtocol never reaches.
        .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
        .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Server"])),
        .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Server"])),
        .product(name: "NIOWebSocket", package: "swift-nio", condition: .when(traits: ["Server"])),
        .product(
          name: "AsyncHTTPClient", package: "async-http-client",
          condition: .when(traits: ["ClientTests"])),
      ]),
    .testTarget(
      name: "UnderstudyCLITests",
      dependencies: ["UnderstudyCLI", "Understudy", "UnderstudyTestSupport"]),
    .testTarget(
      name: "UnderstudyExamples",
      dependencies: ["Understudy", "UnderstudyTestSupport"],
      exclude: ["Fixtures"],
      resources: [.copy("__Cassettes__")]
    ),
  ],
  swiftLanguageModes: [.v6]
)

// CI's build with the `Server` trait (.ci/server.sh) runs only the tests that need the server; the
// others run in the default build. Without them that build compiles far less: the test targets
// cost three quarters of a debug build's CPU time (110 s of 146 s on a 2-core machine).
if Context.environment["UNDERSTUDY_SERVER_TESTS_ONLY"] != nil {
  let runByTheDefaultBuild: Set = ["UnderstudyTests", "UnderstudyXCTests", "UnderstudyExamples"]
  package.targets.removeAll { runByTheDefaultBuild.contains($0.name) }
}
