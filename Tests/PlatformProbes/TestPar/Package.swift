// swift-tools-version:6.0
// swift-format-ignore-file
// A probe is kept as it was when it measured the platform (Tests/PlatformProbes/README.md).
import PackageDescription
let package = Package(name: "TestPar", targets: [
    .target(name: "TestParLib"),
    .testTarget(name: "STTests", dependencies: ["TestParLib"]),
    .testTarget(name: "XCTests", dependencies: ["TestParLib"]),
])
