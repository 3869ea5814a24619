import Foundation
import Testing
import Understudy

@Suite struct RedactCommandTests {
  /// An exchange carrying a secret in every place a rule covers.
  static func secretLadenArchive() -> HAR {
    HAR(entries: [
      .exchange(
        method: "POST", url: "https://api.example.com/login?access_token=\(FakeSecret.accessToken)",
        requestHeaders: [
          HAR.Header(name: "Authorization", value: "Bearer \(FakeSecret.bearerToken)"),
          HAR.Header(name: "X-Session", value: FakeSecret.sessionID),
        ],
        postData: HAR.PostData(
          body: Data(#"{"user": {"name": "ada", "password": "\#(FakeSecret.password)"}}"#.utf8),
          mimeType: "application/json"),
        body: #"{"ok": true, "note": "\#(FakeSecret.pin)"}"#),
      .exchange(url: "https://api.example.com/health", body: "fine", mimeType: "text/plain"),
    ])
  }

  static let allSecrets = [
    FakeSecret.accessToken, FakeSecret.bearerToken, FakeSecret.sessionID, FakeSecret.password,
    FakeSecret.pin,
  ]

  @Test func defaultAndAddedRulesLeaveNoSecretAndAreCounted() async throws {
    try await withTemporaryDirectory { directory in
      let input = try Self.secretLadenArchive().saved(as: "in.har", in: directory)
      let output = directory.appendingPathComponent("out.har").path
      let result = try await understudy(
        "redact", input, "-o", output, "--header", "x-session", "--body-regex", "pin-[A-Za-z0-9]+")
      #expect(result.status == 0, "\(result.output)")
      #expect(result.stderr.isEmpty)
      #expect(
        result.stdout == """
          Redacted 5 values in 1 of 2 entries:
            access_token   1
            authorization  1
            body           1
            password       1
            x-session      1
          Wrote \(output).

          """)
      let written = try String(contentsOfFile: output, encoding: .utf8)
      for secret in Self.allSecrets {
        #expect(!written.contains(secret))
        #expect(!result.output.contains(secret))
      }
      #expect(written.contains("<redacted:authorization>"))
      #expect(written.contains("access_token=%3Credacted:access_token%3E"))
      _ = try HAR.load(contentsOf: URL(fileURLWithPath: output))
      let original = try String(contentsOfFile: input, encoding: .utf8)
      #expect(original.contains(FakeSecret.bearerToken), "the input is left as it was")
    }
  }

  @Test func theSummaryCountsOnlyThePlaceholdersThisRunAdded() async throws {
    // Placeholders already in the input (two of them side by side) are not counted again; the
    // three new ones in one body are, each once.
    let body =
      #"{"password": "<redacted:password>", "a": {"password": "p1"}, "#
      + #""b": [{"password": "p2"}, {"password": "p3"}], "#
      + #""note": "<redacted:password><redacted:password>"}"#
    try await withTemporaryDirectory { directory in
      let input = try HAR(entries: [.exchange(url: "https://api.example.com/me", body: body)])
        .saved(as: "in.har", in: directory)
      let output = directory.appendingPathComponent("out.har").path
      let result = try await understudy("redact", input, "-o", output)
      #expect(result.status == 0, "\(result.output)")
      #expect(
        result.stdout == """
          Redacted 3 values in 1 of 1 entry:
            password  3
          Wrote \(output).

          """)
    }
  }

  @Test func jsonPathRuleRedactsThatMember() async throws {
    try await withTemporaryDirectory { directory in
      let input = try HAR(entries: [
        .exchange(url: "https://api.example.com/me", body: #"{"user": {"name": "ada"}}"#)
      ]).saved(as: "in.har", in: directory)
      let output = directory.appendingPathComponent("out.har").path
      let result = try await understudy(
        "redact", input, "--output=\(output)", "--json-path", "$.user.name")
      #expect(result.status == 0)
      #expect(result.stdout.contains("  user.name  1\n"))
      let har = try HAR.load(contentsOf: URL(fileURLWithPath: output))
      #expect(
        har.log.entries[0].response.content.text == #"{"user": {"name": "<redacted:user.name>"}}"#)
    }
  }

  @Test func refusesToOverwriteTheInputWithoutInPlace() async throws {
    try await withTemporaryDirectory { directory in
      let input = try Self.secretLadenArchive().saved(as: "in.har", in: directory)
      let before = try Data(contentsOf: URL(fileURLWithPath: input))
      let result = try await understudy("redact", input, "-o", directory.path + "/./in.har")
      #expect(result.status == 2)
      #expect(
        result.stderr.hasPrefix("Refusing to overwrite the input \(input) without --in-place"))
      #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
    }
  }

  /// An empty rule names nothing, so the run would redact less than its command line says.
  @Test(arguments: ["--header", "--query", "--json-path", "--body-regex"])
  func anEmptyRuleIsAUsageError(option: String) async throws {
    try await withTemporaryDirectory { directory in
      let input = try Self.secretLadenArchive().saved(as: "in.har", in: directory)
      let output = directory.path + "/out.har"
      let result = try await understudy("redact", input, "-o", output, option, "")
      #expect(result.status == 2)
      #expect(result.stderr.hasPrefix("\(option) needs a value; an empty one matches nothing."))
      #expect(!FileManager.default.fileExists(atPath: output))
    }
  }

  @Test func inPlaceReplacesTheInput() async throws {
    try await withTemporaryDirectory { directory in
      let input = try Self.secretLadenArchive().saved(as: "in.har", in: directory)
      let result = try await understudy("redact", input, "--in-place")
      #expect(result.status == 0)
      #expect(result.stdout.hasSuffix("Wrote \(input).\n"))
      let written = try String(contentsOfFile: input, encoding: .utf8)
      #expect(!written.contains(FakeSecret.bearerToken))
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      #expect(leftovers == ["in.har"], "no temporary file is left behind")
    }
  }

  @Test func needsToBeToldWhereToWrite() async throws {
    let input = Fixtures.path("chrome-export.har")
    let neither = try await understudy("redact", input)
    #expect(neither.status == 2)
    #expect(neither.stderr.hasPrefix("Say where to write: -o <out.har> for a new file"))
    let both = try await understudy("redact", input, "-o", "/tmp/x.har", "--in-place")
    #expect(both.status == 2)
    #expect(both.stderr.hasPrefix("Give either -o or --in-place, not both."))
  }

  @Test func invalidRulesAreUsageErrors() async throws {
    let input = Fixtures.path("chrome-export.har")
    let path = try await understudy("redact", input, "-o", "/tmp/never.har", "--json-path", "user")
    #expect(path.status == 2)
    #expect(path.stderr.hasPrefix("--json-path user: JSON paths start with $, as in $.user.token."))
    let regex = try await understudy("redact", input, "-o", "/tmp/never.har", "--body-regex", "([")
    #expect(regex.status == 2)
    #expect(regex.stderr.hasPrefix("--body-regex ([: It is not a valid regular expression"))
  }

  @Test func aCredentialNoRuleCoversIsReportedWithExitOne() async throws {
    try await withTemporaryDirectory { directory in
      let input = try HAR(entries: [
        .exchange(url: "https://api.example.com/keys", body: #"{"key": "\#(FakeSecret.gitHub)"}"#)
      ]).saved(as: "in.har", in: directory)
      let output = directory.appendingPathComponent("out.har").path
      let result = try await understudy("redact", input, "-o", output)
      #expect(result.status == 1)
      #expect(result.stdout.hasPrefix("Nothing matched the redaction rules.\nWrote \(output).\n"))
      #expect(
        result.stderr.contains(
          "\(output): the credential scanner still finds 1 value no rule covered:\n"
            + "  log.entries[0].response.content.text: GitHub token (ghp_"))
      #expect(!result.output.contains(FakeSecret.gitHub), "the report masks the secret")
    }
  }

  @Test func anUnwritableDestinationIsAnIOError() async throws {
    try await withTemporaryDirectory { directory in
      let input = try Self.secretLadenArchive().saved(as: "in.har", in: directory)
      // A regular file where the destination's directory should be.
      let output = input + "/out.har"
      let result = try await understudy("redact", input, "-o", output)
      #expect(result.status == 3)
      #expect(result.stderr.hasPrefix("\(output): error: could not create the directory"))
      #expect(result.stdout.isEmpty)
    }
  }

  /// A form field named by a rule inside a JSON-looking form body gets a percent-encoded
  /// placeholder whose name holds `%7B`: it was replaced, so the summary must not say that
  /// nothing matched.
  @Test func theSummaryCountsPercentEncodedPlaceholders() async throws {
    try await withTemporaryDirectory { directory in
      let input = try HAR(entries: [
        .exchange(
          method: "POST", url: "https://api.example.com/form",
          postData: HAR.PostData(
            mimeType: "application/x-www-form-urlencoded", text: #"{"x":"token=abcdef"}"#))
      ]).saved(as: "form.har", in: directory)
      let output = directory.appendingPathComponent("out.har").path
      let result = try await understudy("redact", input, "-o", output)
      #expect(result.status == 0)
      let written = try String(contentsOfFile: output, encoding: .utf8)
      #expect(!written.contains("abcdef"))
      #expect(!result.stdout.contains("Nothing matched"))
      #expect(result.stdout.hasPrefix("Redacted 1 value in 1 of 1 entry:\n"))
    }
  }
}
