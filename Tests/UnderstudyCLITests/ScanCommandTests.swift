import Foundation
import Testing
import Understudy

@Suite struct ScanCommandTests {
  @Test func cleanFilesExitZero() async throws {
    let result = try await understudy(
      "scan", Fixtures.path("chrome-export.har"), Fixtures.path("mitmproxy-export.har"))
    #expect(result.status == 0)
    #expect(result.stdout == "No credentials found in 2 files.\n")
  }

  @Test func findingsArePrintedMaskedWithTheirPathAndExitOne() async throws {
    try await withTemporaryDirectory { directory in
      let path = try HAR(entries: [
        .exchange(
          url: "https://api.example.com/keys",
          requestHeaders: [HAR.Header(name: "X-Token", value: FakeSecret.gitHub)],
          body: #"{"aws": "\#(FakeSecret.aws)"}"#)
      ]).saved(as: "leaky.har", in: directory)
      let result = try await understudy("scan", path, Fixtures.path("chrome-export.har"))
      #expect(result.status == 1)
      let lines = result.stdout.split(separator: "\n").map(String.init)
      #expect(lines.count == 4)
      #expect(
        lines[0].hasPrefix("\(path): log.entries[0].request.headers[0].value: GitHub token (ghp_"))
      #expect(lines[0].hasSuffix("… (36 characters))"))
      #expect(
        lines[1].hasPrefix("\(path): log.entries[0].response.content.text: AWS access key (AKIA"))
      #expect(lines[2].hasPrefix("Found 2 credential-shaped values in 1 of 2 files."))
      #expect(lines[3].hasPrefix("Redact them with `understudy redact <file.har> --in-place`"))
      #expect(!result.output.contains(FakeSecret.gitHub))
      #expect(!result.output.contains(FakeSecret.aws))
    }
  }

  @Test func allowedValuesAreNotReported() async throws {
    try await withTemporaryDirectory { directory in
      let path = try HAR(entries: [
        .exchange(url: "https://api.example.com/keys", body: #"{"key": "\#(FakeSecret.gitHub)"}"#)
      ]).saved(as: "fixture.har", in: directory)
      let result = try await understudy("scan", path, "--allow", FakeSecret.gitHub)
      #expect(result.status == 0)
      #expect(result.stdout == "No credentials found in 1 file.\n")
    }
  }

  @Test func redactedPlaceholdersAreNotFindings() async throws {
    try await withTemporaryDirectory { directory in
      let input = try HAR(entries: [
        .exchange(
          url: "https://api.example.com/me",
          requestHeaders: [
            HAR.Header(name: "Authorization", value: "Bearer \(FakeSecret.bearerToken)")
          ])
      ]).saved(as: "in.har", in: directory)
      let before = try await understudy("scan", input)
      #expect(before.status == 1)
      #expect(before.stdout.contains("bearer token (Bearer "))
      let output = directory.appendingPathComponent("out.har").path
      #expect(try await understudy("redact", input, "-o", output).status == 0)
      #expect(try await understudy("scan", output).status == 0)
    }
  }
}
