// swift-tools-version:6.0
// swift-format-ignore-file
// A probe is kept as it was when it measured the platform (Tests/PlatformProbes/README.md).
import PackageDescription

let probeNames = ["P01DataTasks", "P02UploadBody", "P04Download", "P05Redirect", "P06Errors", "P07Cancel", "P07bCancelRace", "P08Timeout", "P09HeadersCookies", "P10Cache", "P11Lifecycle", "P12Property", "P13Throughput", "P14BigBody", "P15WebSocket", "P17Context", "P18TaskLocal", "P19RegisterClass", "P20Auth401"]
let package = Package(name: "Probes", targets: [
  .target(name: "ProbeSupport", swiftSettings: [.swiftLanguageMode(.v5)]),
] + probeNames.map { .executableTarget(name: $0, dependencies: ["ProbeSupport"], swiftSettings: [.swiftLanguageMode(.v5)]) })
