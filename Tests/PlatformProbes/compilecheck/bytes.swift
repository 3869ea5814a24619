// swift-format-ignore-file
// A probe is kept as it was when it measured the platform (Tests/PlatformProbes/README.md).
import Foundation
import FoundationNetworking
func f() async throws {
    let (bytes, _) = try await URLSession.shared.bytes(for: URLRequest(url: URL(string: "http://x")!))
    _ = bytes
}
