import Foundation
import Testing
import Understudy

@Suite struct ConvertCommandTests {
  @Test func chromeExportBecomesACassetteWithoutPagesNoiseOrStaticFiles() async throws {
    let export = Fixtures.path("chrome-export.har")
    try await withTemporaryDirectory { directory in
      let output = directory.appendingPathComponent("Cassettes/cart.har").path
      let result = try await understudy("convert", export, "-o", output, "--drop-static")
      #expect(result.status == 0, "\(result.output)")
      #expect(result.stderr.isEmpty)
      #expect(
        result.stdout == """
          Read 3 entries from \(export) (WebInspector 537.36).
          Kept 2 entries; dropped 1 static (image/png).
          Dropped 1 page and every pageref.
          Redacted 1 value in 1 of 2 entries:
            cookie  1
          Wrote \(output).

          """)
      let text = try String(contentsOfFile: output, encoding: .utf8)
      #expect(!text.contains("\"_"), "custom members are gone")
      #expect(!text.contains("pageref"))
      #expect(!text.contains(":authority") && !text.contains("serverIPAddress"))
      #expect(!text.contains("\"connection\""))
      let cassette = try HAR.load(contentsOf: URL(fileURLWithPath: output))
      #expect(cassette.log.creator == .understudy)
      #expect(cassette.log.pages.isEmpty)
      #expect(cassette.log.entries.map(\.request.method) == ["GET", "POST"])
      #expect(cassette.log.entries[1].timings == HAR.Timings(wait: 88.25))
      #expect(
        cassette.log.entries[1].response.content.text == #"{"cartId":"c-77","items":["TEA-042"]}"#)
      let headers = cassette.log.entries[0].request.headers.map(\.name)
      #expect(headers == ["accept", "user-agent"])
      let validation = try await understudy("validate", output)
      #expect(validation.stdout.contains("valid (2 entries, 0 errors"))
    }
  }

  @Test func keepHostKeepsOnlyThoseHosts() async throws {
    try await withTemporaryDirectory { directory in
      let output = directory.appendingPathComponent("api.har").path
      let result = try await understudy(
        "convert", Fixtures.path("chrome-export.har"), "-o", output, "--keep-host",
        "API.shop.example.com")
      #expect(result.status == 0)
      #expect(
        result.stdout.contains(
          "Kept 1 entry; dropped 2 on other hosts (cdn.example.com, shop.example.com)."))
      let cassette = try HAR.load(contentsOf: URL(fileURLWithPath: output))
      #expect(
        cassette.log.entries.map(\.request.url) == ["https://api.shop.example.com/v1/cart/items"])
    }
  }

  @Test func credentialsAreRedactedByDefault() async throws {
    try await withTemporaryDirectory { directory in
      let input = try HAR(entries: [
        .exchange(
          url: "https://api.example.com/me?token=\(FakeSecret.accessToken)",
          requestHeaders: [
            HAR.Header(name: "Authorization", value: "Bearer \(FakeSecret.bearerToken)")
          ])
      ]).saved(as: "export.har", in: directory)
      let output = directory.appendingPathComponent("cassette.har").path
      let result = try await understudy("convert", input, "-o", output)
      #expect(result.status == 0)
      #expect(
        result.stdout.contains(
          "Redacted 2 values in 1 of 1 entry:\n  authorization  1\n  token          1\n"))
      let text = try String(contentsOfFile: output, encoding: .utf8)
      #expect(!text.contains(FakeSecret.bearerToken) && !text.contains(FakeSecret.accessToken))
    }
  }

  @Test func refusesToWriteWhenTheScannerStillFindsCredentials() async throws {
    try await withTemporaryDirectory { directory in
      let input = try HAR(entries: [
        .exchange(url: "https://cdn.example.com/logo.png", body: "png", mimeType: "image/png"),
        .exchange(url: "https://api.example.com/keys", body: #"{"key": "\#(FakeSecret.gitHub)"}"#),
      ]).saved(as: "export.har", in: directory)
      let output = directory.appendingPathComponent("cassette.har").path
      let refused = try await understudy("convert", input, "-o", output, "--drop-static")
      #expect(refused.status == 1)
      #expect(refused.stdout.isEmpty)
      #expect(
        refused.stderr.hasPrefix(
          "Refusing to write \(output): after redaction the credential scanner still finds 1 "
            + "value in \(input):\n  \(input): log.entries[1].response.content.text: GitHub token"),
        "the path counts entries as the export does")
      #expect(!refused.stderr.contains(FakeSecret.gitHub))
      #expect(!FileManager.default.fileExists(atPath: output))

      let fixed = try await understudy(
        "convert", input, "-o", output, "--body-regex", "ghp_[A-Za-z0-9]+")
      #expect(fixed.status == 0)
      #expect(fixed.stdout.contains("  body  1\n"))

      let otherValue = try await understudy(
        "convert", input, "-o", output, "--allow", "ghp_not-this-one")
      #expect(otherValue.status == 1, "an allowance covers its own value only")
      let thisValue = try await understudy(
        "convert", input, "-o", output, "--allow", FakeSecret.gitHub)
      #expect(thisValue.status == 0)
      #expect(try String(contentsOfFile: output, encoding: .utf8).contains(FakeSecret.gitHub))
      try FileManager.default.removeItem(atPath: output)

      let allowed = try await understudy(
        "convert", input, "-o", output, "--allow-credentials")
      #expect(allowed.status == 0)
      #expect(allowed.stdout.contains("Kept 1 credential-shaped value (--allow-credentials)."))
      #expect(try String(contentsOfFile: output, encoding: .utf8).contains(FakeSecret.gitHub))
    }
  }

  @Test func needsAnOutputThatIsNotTheExport() async throws {
    let export = Fixtures.path("chrome-export.har")
    let missing = try await understudy("convert", export)
    #expect(missing.status == 2)
    #expect(missing.stderr.hasPrefix("Name the cassette to write with -o <cassette.har>."))
    let same = try await understudy("convert", export, "-o", export)
    #expect(same.status == 2)
    #expect(same.stderr.hasPrefix("Refusing to overwrite the export \(export)"))
  }
}
