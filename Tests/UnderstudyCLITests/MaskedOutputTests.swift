import Foundation
import Testing
import Understudy

/// The tool reads other tools' exports, which hold credentials in clear; nothing it prints may
/// repeat them.
@Suite struct MaskedOutputTests {
  private let secrets = [
    FakeSecret.password, FakeSecret.accessToken, FakeSecret.pin, FakeSecret.bearerToken,
    FakeSecret.sessionID, FakeSecret.gitHub,
  ]

  private func export(in directory: URL) throws -> String {
    try HAR(entries: [
      .exchange(
        url: "https://ada:\(FakeSecret.password)@api.example.com/callback?code=\(FakeSecret.pin)"
          + "&access_token=\(FakeSecret.accessToken)&page=2",
        requestHeaders: [
          HAR.Header(name: "Authorization", value: "Bearer \(FakeSecret.bearerToken)"),
          HAR.Header(name: "Cookie", value: "sid=\(FakeSecret.sessionID)"),
        ],
        body: #"{"note":"\#(FakeSecret.gitHub)","apiKey":"\#(FakeSecret.accessToken)"}"#)
    ]).saved(as: "export.har", in: directory)
  }

  @Test(arguments: [["inspect"], ["inspect", "--json"], ["stub"], ["validate"], ["scan"]])
  func noCommandPrintsACredentialFromItsInput(command: [String]) async throws {
    try await withTemporaryDirectory { directory in
      let path = try export(in: directory)
      let result = try await understudy(command + [path])
      #expect(!result.output.isEmpty)
      for secret in secrets {
        #expect(!result.output.contains(secret), "\(command) printed \(secret)")
      }
    }
  }

  @Test func inspectShowsWhereAValueWasMasked() async throws {
    try await withTemporaryDirectory { directory in
      let path = try export(in: directory)
      let result = try await understudy("inspect", path, "--json")
      #expect(result.status == 0)
      #expect(result.stdout.contains("https://••••("))
      #expect(result.stdout.contains("code=••••(\(FakeSecret.pin.count) chars)"))
      #expect(result.stdout.contains("&page=2"))
    }
  }
}
