import Foundation
import Testing
import Understudy

@Suite struct ScanCommandTests {
  @Test func cleanFilesExitZero() async throws {
    try await withTemporaryDirectory { directory in
      let clean = try HAR(entries: [
        .exchange(
          url: "https://api.example.com/items?page=2",
          requestHeaders: [HAR.Header(name: "Accept", value: "application/json")],
          body: #"{"items": [], "note": "Basic plan; ask for a token"}"#)
      ]).saved(as: "clean.har", in: directory)
      let result = try await understudy("scan", clean, Fixtures.path("stub-edge-cases.har"))
      #expect(result.status == 0)
      #expect(result.stdout == "No credentials found in 2 files.\n")
    }
  }

  /// A browser export whose authorization, cookie and api_key values have no credential shape
  /// is not clean: they are what `redact` removes, and `scan` lists them, masked.
  @Test func thirdPartyExportsListWhatRedactWouldRemove() async throws {
    let export = Fixtures.path("firefox-export.har")
    let result = try await understudy("scan", export)
    #expect(result.status == 1)
    let prefix = "\(export): log.entries[0].request."
    #expect(
      result.stdout.components(separatedBy: "\n").prefix(7) == [
        prefix + "cookies[0].value: value redaction replaces (<redacted:cookie> for 15 characters)",
        prefix + "cookies[1].value: value redaction replaces (<redacted:cookie> for 5 characters)",
        prefix
          + "headers[2].value: value redaction replaces (<redacted:authorization> for 21 characters)",
        prefix + "headers[3].value: value redaction replaces (<redacted:cookie> for 36 characters)",
        prefix
          + "queryString[1].value: value redaction replaces (<redacted:api_key> for 11 characters)",
        prefix + "url: value redaction replaces (%3Credacted:api_key%3E for 11 characters)",
        "Found 6 credentials in 1 of 1 file.",
      ])
    for secret in ["ff-key-4711", "firefox-s3cr3t", "ff-session-0815", "light"] {
      #expect(!result.output.contains(secret))
    }
    try await withTemporaryDirectory { directory in
      let redacted = directory.appendingPathComponent("redacted.har").path
      #expect(try await understudy("redact", export, "-o", redacted).status == 0)
      let after = try await understudy("scan", redacted)
      #expect(after.status == 0)
      #expect(after.stdout == "No credentials found in 1 file.\n")
    }
  }

  /// `scan` takes `redact`'s options, so a name only the options add is a finding too.
  @Test func redactOptionsAddNamesToTheScan() async throws {
    try await withTemporaryDirectory { directory in
      let path = try HAR(entries: [
        .exchange(
          url: "https://api.example.com/me?ticket=T-77",
          requestHeaders: [HAR.Header(name: "X-Shop-Ref", value: "opaque-77")],
          body: #"{"user": {"ssn": "078-05-1120"}}"#)
      ]).saved(as: "custom.har", in: directory)
      #expect(try await understudy("scan", path).status == 0)
      let result = try await understudy(
        "scan", path, "--header", "X-Shop-Ref", "--query", "ticket", "--json-path", "$.user.ssn")
      #expect(result.status == 1)
      #expect(result.stdout.contains("<redacted:x-shop-ref> for 9 characters"))
      #expect(result.stdout.contains("%3Credacted:ticket%3E for 4 characters"))
      #expect(result.stdout.contains("<redacted:user.ssn> for 11 characters"))
      #expect(result.stdout.contains("Found 3 credentials in 1 of 1 file."))
      #expect(!result.output.contains("opaque-77"))
      #expect(!result.output.contains("078-05-1120"))
    }
  }

  @Test func findingsArePrintedMaskedWithTheirPathAndExitOne() async throws {
    try await withTemporaryDirectory { directory in
      let path = try HAR(entries: [
        .exchange(
          url: "https://api.example.com/keys",
          requestHeaders: [HAR.Header(name: "X-Trace", value: FakeSecret.gitHub)],
          body: #"{"aws": "\#(FakeSecret.aws)"}"#)
      ]).saved(as: "leaky.har", in: directory)
      let result = try await understudy("scan", path, Fixtures.path("stub-edge-cases.har"))
      #expect(result.status == 1)
      let lines = result.stdout.split(separator: "\n").map(String.init)
      #expect(lines.count == 4)
      #expect(
        lines[0].hasPrefix("\(path): log.entries[0].request.headers[0].value: GitHub token (ghp_"))
      #expect(lines[0].hasSuffix("… (36 characters))"))
      #expect(
        lines[1].hasPrefix("\(path): log.entries[0].response.content.text: AWS access key (AKIA"))
      #expect(lines[2].hasPrefix("Found 2 credentials in 1 of 2 files."))
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
      #expect(before.stdout.contains("value redaction replaces (<redacted:authorization> for "))
      #expect(!before.output.contains(FakeSecret.bearerToken))
      let output = directory.appendingPathComponent("out.har").path
      #expect(try await understudy("redact", input, "-o", output).status == 0)
      #expect(try await understudy("scan", output).status == 0)
    }
  }

  /// A second `headers` member holding the credential: JSONDecoder kept the first (empty) one,
  /// and the scan called the file clean. Every command now refuses the file, naming the member.
  @Test func aMemberNamedTwiceIsAnErrorInEveryCommand() async throws {
    try await withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("dup.har").path
      let json =
        #"{"log":{"version":"1.2","creator":{"name":"x","version":"1"},"entries":[{"#
        + #""startedDateTime":"2024-01-01T00:00:00.000Z","time":1,"request":{"method":"GET","#
        + #""url":"https://a.example/1","httpVersion":"HTTP/1.1","cookies":[],"headers":[],"#
        + "\n\"headers\":[{\"name\":\"X-Token\",\"value\":\"\(FakeSecret.gitHub)\"}],"
        + #""queryString":[],"headersSize":-1,"bodySize":0},"response":{"status":200,"#
        + #""statusText":"OK","httpVersion":"HTTP/1.1","cookies":[],"headers":[],"content":{"#
        + #""size":0,"mimeType":"text/plain"},"redirectURL":"","headersSize":-1,"bodySize":-1},"#
        + #""cache":{},"timings":{"send":0,"wait":0,"receive":0}}]}}"#
      try Data(json.utf8).write(to: URL(fileURLWithPath: path))
      let expected =
        "\(path):2:1: error: log.entries[0].request: the object has the member \"headers\" twice."
      for command in ["scan", "validate", "inspect", "stub"] {
        let result = try await understudy(command, path)
        #expect(result.status == 1, "\(command)")
        #expect(result.output.contains(expected), "\(command): \(result.output)")
        #expect(!result.output.contains(FakeSecret.gitHub), "\(command)")
      }
      let redacted = directory.appendingPathComponent("out.har").path
      let redact = try await understudy("redact", path, "-o", redacted)
      #expect(redact.status == 1)
      #expect(redact.stderr.contains(expected))
      #expect(!FileManager.default.fileExists(atPath: redacted))
    }
  }

  /// A member the model does not keep (Chrome's `_webSocketMessages`) is read as written: the
  /// token in a WebSocket frame was not reported, and `redact` would not touch it either.
  @Test func membersTheModelDoesNotKeepAreScannedToo() async throws {
    try await withTemporaryDirectory { directory in
      let path = try HAR(entries: [.exchange(url: "https://a.example/socket", body: "hello")])
        .saved(as: "ws.har", in: directory)
      let frame = try JSONSerialization.data(
        withJSONObject: [["type": "send", "data": #"{"token":"\#(FakeSecret.gitHub)"}"#]])
      let text = try String(contentsOfFile: path, encoding: .utf8)
      let patched = text.replacingOccurrences(
        of: #""timings" : {"#,
        with: #""_webSocketMessages" : \#(String(decoding: frame, as: UTF8.self)), "timings" : {"#)
      #expect(patched != text)
      try patched.write(toFile: path, atomically: true, encoding: .utf8)
      let result = try await understudy("scan", path)
      #expect(result.status == 1)
      #expect(
        result.stdout.contains(
          "\(path): log.entries[0]._webSocketMessages[0].data: GitHub token (ghp_"))
      #expect(!result.output.contains(FakeSecret.gitHub))
    }
  }

  /// A frame in a member the model does not keep is judged as a body is, by names too: a
  /// STOMP `passcode` or a JSON `token` whose value no shape describes is a finding, not a
  /// clean file (a blind attack of 2026-12-07).
  @Test func framesTheModelDoesNotKeepAreReadByNamesToo() async throws {
    try await withTemporaryDirectory { directory in
      let passcode = "Sunflower1990!"
      let token = "Tangerine2007.x"
      let path = try HAR(entries: [.exchange(url: "https://a.example/socket", body: "hello")])
        .saved(as: "ws.har", in: directory)
      let frames = try JSONSerialization.data(
        withJSONObject: [
          ["type": "send", "data": "CONNECT\nlogin:ada\npasscode:\(passcode)\n\n\u{0}"],
          ["type": "send", "data": #"42["auth",{"token":"\#(token)"}]"#],
          ["type": "receive", "data": #"{"ok":true,"user":"ada"}"#],
        ])
      let text = try String(contentsOfFile: path, encoding: .utf8)
      let patched = text.replacingOccurrences(
        of: #""timings" : {"#,
        with: #""_webSocketMessages" : \#(String(decoding: frames, as: UTF8.self)), "timings" : {"#)
      #expect(patched != text)
      try patched.write(toFile: path, atomically: true, encoding: .utf8)
      let result = try await understudy("scan", path)
      #expect(result.status == 1)
      #expect(
        result.stdout.contains(
          "log.entries[0]._webSocketMessages[0].data: value redaction replaces"))
      #expect(
        result.stdout.contains(
          "log.entries[0]._webSocketMessages[1].data: value redaction replaces"))
      #expect(!result.stdout.contains("_webSocketMessages[2]"))
      #expect(!result.output.contains(passcode))
      #expect(!result.output.contains(token))
    }
  }

  /// A finding's location names the members above it; a member named by a session id (an
  /// exporter's own object keyed by secrets) is not printed by name.
  @Test func aMemberNamedBySecretIsNotPrintedInALocation() async throws {
    try await withTemporaryDirectory { directory in
      let sessionID = "q7Zr2Kx9Wm4Tb8Nc3Vd6"
      let path = try HAR(entries: [.exchange(url: "https://a.example/s", body: "hello")])
        .saved(as: "keyed.har", in: directory)
      let text = try String(contentsOfFile: path, encoding: .utf8)
      let patched = text.replacingOccurrences(
        of: #""timings" : {"#,
        with: #""_sessions" : {"\#(sessionID)" : "\#(FakeSecret.gitHub)"}, "timings" : {"#)
      #expect(patched != text)
      try patched.write(toFile: path, atomically: true, encoding: .utf8)
      let result = try await understudy("scan", path)
      #expect(result.status == 1)
      #expect(result.stdout.contains(#"log.entries[0]._sessions["<redacted>"]: GitHub token"#))
      #expect(!result.output.contains(sessionID))
      #expect(!result.output.contains(FakeSecret.gitHub))
    }
  }

  /// A vendor token that is base64 of a few fields around a random value (Grafana Cloud's
  /// `glc_`, AWS Bedrock's `ABSK`, a Cloudflare tunnel's, Intercom's) is judged by its own run
  /// as the guides draw the line, though every value inside is under it: `scan` reports each,
  /// `redact` says it is left, neither prints it. Base64 of words (a page cursor, an SVG, a
  /// JWT's header alone) is clean.
  @Test func aTokenThatIsBase64OfTextIsJudgedByItsOwnRun() async throws {
    func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func randomBytes(_ count: Int) -> Data {
      Data(
        (0..<count).map { _ in
          state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
          return UInt8(truncatingIfNeeded: state >> 33)
        })
    }
    let tokens = [
      "glc_"
        + base64(
          #"{"o":"123456","n":"stack-1-token","k":"q7Rz2LwX9mKpT4vN8bYc3HdJ","m":{"r":"us"}}"#),
      "ABSK"
        + base64("BedrockAPIKey-abcd-at-123456789012:" + randomBytes(40).base64EncodedString()),
      base64(
        #"{"a":"5f0c9e2b7a4d1836e9c07b5a2f4d8e13","t":"3f9c2a7e-8b41-4d6a-9e05-c71b2f48a3d6","s":""#
          + randomBytes(32).base64EncodedString() + #""}"#),
      base64("tok:8d2e4f6a-1b3c-4e5d-9f7a-0c2b4d6e8f1a:1:0"),
    ]
    let decoys = [
      "eyJwYWdlIjoyfQ==", base64(#"{"offset":100,"limit":50,"sort":"createdAt"}"#),
      "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9",
      "data:image/svg+xml;base64,"
        + base64(
          #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M12 2L2 7z"/></svg>"#
        ),
    ]
    func file(_ runs: [String], _ name: String, in directory: URL) throws -> String {
      try HAR(
        entries: runs.map { run in
          .exchange(
            url: "https://api.example.com/refs",
            responseHeaders: [HAR.Header(name: "X-Ref", value: run)],
            body: #"{"refs":[""# + run + #""],"n":2}"#)
        }
      ).saved(as: name, in: directory)
    }
    try await withTemporaryDirectory { directory in
      let leaky = try file(tokens, "leaky.har", in: directory)
      let result = try await understudy("scan", leaky)
      #expect(result.status == 1)
      for index in tokens.indices {
        for place in ["response.headers[0].value", "response.content.text"] {
          #expect(
            result.stdout.contains("log.entries[\(index)].\(place): vendor token"),
            "\(index) \(place): \(result.stdout)")
        }
      }
      #expect(result.stdout.contains("Found 8 credentials in 1 of 1 file."), "\(result.stdout)")
      let output = directory.appendingPathComponent("out.har").path
      let redacted = try await understudy("redact", leaky, "-o", output)
      #expect(redacted.status == 1)
      #expect(redacted.stderr.contains("the credential scanner still finds 8 values"))
      for token in tokens {
        let run = Array(token.dropFirst(4))
        for start in stride(from: 0, to: run.count - 12, by: 4) {
          let piece = String(run[start..<start + 12])
          #expect(!result.output.contains(piece), "scan printed \(piece)")
          #expect(!redacted.output.contains(piece), "redact printed \(piece)")
        }
      }
      let clean = try file(decoys, "clean.har", in: directory)
      let cleanResult = try await understudy("scan", clean)
      #expect(cleanResult.status == 0, "\(cleanResult.stdout)")
    }
  }

  /// A Kubernetes env list in YAML's flow style names its values as the block style does:
  /// `scan` lists them, `redact` replaces them, and neither prints them.
  @Test func aValueAFlowMappingsNameKeyNamesIsFoundAndRedacted() async throws {
    let secrets = ["hunter2-xyz", "plain-pass", "quoted pass"]
    let bodies = [
      "env: [{name: DB_PASSWORD, value: \(secrets[0])}, {name: PORT, value: \"80\"}]\n",
      "env:\n- {name: X_SECRET, value: \(secrets[1])}\n- {name: LOG_LEVEL, value: info}\n",
      "- {value: '\(secrets[2])', name: 'API_TOKEN'}\n",
    ]
    try await withTemporaryDirectory { directory in
      let path = try HAR(
        entries: bodies.map { body in
          .exchange(url: "https://api.example.com/env", body: body, mimeType: "application/yaml")
        }
      ).saved(as: "env.har", in: directory)
      let result = try await understudy("scan", path)
      #expect(result.status == 1)
      for index in bodies.indices {
        #expect(
          result.stdout.contains(
            "log.entries[\(index)].response.content.text: value redaction replaces"),
          "\(index): \(result.stdout)")
      }
      let output = directory.appendingPathComponent("out.har").path
      let redacted = try await understudy("redact", path, "-o", output)
      #expect(redacted.status == 0, "\(redacted.output)")
      let written = try String(contentsOfFile: output, encoding: .utf8)
      #expect(written.contains("value: \\\"80\\\"") && written.contains("value: info"))
      for secret in secrets {
        #expect(!written.contains(secret), "\(written)")
        #expect(!result.output.contains(secret))
        #expect(!redacted.output.contains(secret))
      }
      #expect(try await understudy("scan", output).status == 0)
    }
  }

  /// A body still gzip- or deflate-compressed can hide anything: `scan` reports it, and
  /// `redact` and `convert` refuse to write a file that may hold a secret.
  @Test func compressedBodiesAreReportedAndNotWritten() async throws {
    try await withTemporaryDirectory { directory in
      // gzip and zlib streams of a JSON body with a token, as a proxy export keeps them.
      let gzip = Data([0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xAB, 0x56])
      let zlib = Data([0x78, 0x9C, 0x4B, 0xCE, 0xCF, 0x2D, 0x28])
      func compressed(_ path: String, _ coding: HAR.Header, _ body: Data, _ mimeType: String)
        -> HAR.Entry
      {
        HAR.Entry(
          startedDateTime: Date(timeIntervalSince1970: 1_700_000_000), time: 1,
          request: HAR.Request(method: "GET", url: "https://api.example.com" + path),
          response: HAR.Response(
            status: 200, headers: [coding], content: HAR.Content(body: body, mimeType: mimeType)))
      }
      let path = try HAR(entries: [
        .exchange(url: "https://api.example.com/plain", body: #"{"ok": true}"#),
        compressed(
          "/gz", HAR.Header(name: "Content-Encoding", value: "gzip"), gzip, "application/json"),
        compressed(
          "/z", HAR.Header(name: "content-encoding", value: "deflate"), zlib,
          "application/x-www-form-urlencoded"),
      ]).saved(as: "compressed.har", in: directory)
      let scan = try await understudy("scan", path)
      #expect(scan.status == 1)
      let gzipLine =
        "log.entries[1].response.content.text: unreadable body (the body is compressed "
        + "(Content-Encoding: gzip), so it cannot be scanned or redacted; decompress it (or re-export without "
        + "compression) first)"
      #expect(scan.stdout.contains("\(path): \(gzipLine)"))
      #expect(
        scan.stdout.contains(
          "log.entries[2].response.content.text: unreadable body "
            + "(the body is compressed (Content-Encoding: deflate)"))
      // The advice fits what was found: redact refuses such a file, so it is not offered.
      #expect(scan.stdout.contains("Found 2 unreadable bodies in 1 of 1 file."))
      #expect(scan.stdout.contains("Decompress the bodies (or export again without compression)"))
      #expect(!scan.stdout.contains("Redact them with"))
      for command in ["redact", "convert"] {
        let output = directory.appendingPathComponent("\(command).har").path
        let result = try await understudy(command, path, "-o", output)
        #expect(result.status == 1, "\(command)")
        #expect(result.stderr.contains("Refusing to write \(output)"), "\(command)")
        #expect(
          result.stderr.contains(
            "log.entries[1].response.content.text: the body is compressed (Content-Encoding: gzip)")
        )
        #expect(!FileManager.default.fileExists(atPath: output), "\(command)")
      }
    }
  }
}
