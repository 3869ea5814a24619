import Foundation
import Testing

/// Every string a HAR file holds passes the one redaction pipeline, not only bodies, header
/// values and URLs: a secret in an exporter's name, a media type, a method, a header's name or
/// a status text is redacted by `redact` and `convert`, reported by `scan`, and printed by no
/// command. A generated corpus: each field × each kind of secret × each command.
// Serialized: a thousand runs of the tool at once exhaust what a test process may spawn.
@Suite(.serialized) struct HARFieldSecretCLITests {
  /// A kind of secret: the text put in a field, and what must appear in no artifact.
  struct Secret: CustomStringConvertible, Sendable {
    var description: String
    var text: String
    var secret: String
    /// Whether the default rules (by name, or as a known value) replace it; a vendor token is
    /// a shape no rule names, which `redact` and `convert` report and stop on instead.
    var isRedacted: Bool
  }

  static let knownValue = "knownField_4Tz8Qm2Rv"
  static let environment = ["HAR_FIELD_CLI_SECRET": knownValue]

  static let secrets = [
    Secret(
      description: "a credential pair", text: "x access_token=pairSecret7Kq2Zx9Lp4",
      secret: "pairSecret7Kq2Zx9Lp4", isRedacted: true),
    Secret(
      description: "a credential assignment", text: "X-Token: colonSecret3Hn8Wd5Jy",
      secret: "colonSecret3Hn8Wd5Jy", isRedacted: true),
    Secret(
      description: "a query in a URL", text: "GET /?api_key=querySecret6Bv1Mx4",
      secret: "querySecret6Bv1Mx4", isRedacted: true),
    Secret(
      description: "a GitHub token", text: "x ghp_R8kQ2mZ7vN4pL1xW9tY6cB3hJ5sD0fG2aE7u",
      secret: "R8kQ2mZ7vN4pL1xW9tY6cB3hJ5sD0fG2aE7u", isRedacted: false),
    Secret(
      description: "an AWS access key", text: "x AKIAQ7ZK3M9WBX2TRN5P",
      secret: "Q7ZK3M9WBX2TRN5P", isRedacted: false),
    Secret(
      description: "a known value", text: "x \(knownValue)", secret: knownValue, isRedacted: true),
  ]

  /// The fields no field rule reads, each with its value in a clean file.
  static let fields: [(name: String, clean: String)] = [
    ("creator.name", "Exporter"), ("creator.version", "1.0"), ("creator.comment", "c"),
    ("browser.name", "Chrome"), ("browser.version", "120"), ("log.comment", "c"),
    ("page.title", "Home"), ("page.comment", "c"), ("entry.comment", "c"),
    ("request.method", "GET"), ("request.httpVersion", "HTTP/1.1"),
    ("request.headerName", "Accept"), ("request.queryName", "page"),
    ("request.cookieName", "theme"), ("request.comment", "c"), ("response.statusText", "OK"),
    ("response.httpVersion", "HTTP/1.1"), ("response.headerName", "X-Served-By"),
    ("response.cookieName", "seen"), ("response.mimeType", "application/json"),
    ("response.comment", "c"), ("response.redirectURL", ""), ("serverIPAddress", "10.0.0.1"),
    ("connection", "443"), ("timings.comment", "c"), ("cache.comment", "c"),
    ("postData.mimeType", "text/plain"), ("param.name", "q"),
  ]

  /// The fields `convert` leaves out of the cassette.
  static let droppedByConvert: Set = [
    "creator.name", "creator.version", "creator.comment", "browser.name", "browser.version",
    "log.comment", "page.title", "page.comment", "serverIPAddress", "connection",
    "timings.comment", "cache.comment",
  ]

  static let template = """
    {"log": {"version": "1.2", "comment": @log.comment@,
      "creator": {"name": @creator.name@, "version": @creator.version@, "comment": @creator.comment@},
      "browser": {"name": @browser.name@, "version": @browser.version@},
      "pages": [{"startedDateTime": "2024-01-01T00:00:00.000Z", "id": "page_1",
        "title": @page.title@, "comment": @page.comment@, "pageTimings": {}}],
      "entries": [{"pageref": "page_1", "startedDateTime": "2024-01-01T00:00:00.000Z",
        "time": 10, "comment": @entry.comment@,
        "request": {"method": @request.method@, "url": "https://api.example.com/items?page=2",
          "httpVersion": @request.httpVersion@, "comment": @request.comment@,
          "headers": [{"name": @request.headerName@, "value": "*/*"}],
          "queryString": [{"name": @request.queryName@, "value": "2"}],
          "cookies": [{"name": @request.cookieName@, "value": "dark"}],
          "postData": {"mimeType": @postData.mimeType@, "text": "hello",
            "params": [{"name": @param.name@, "value": "1"}]},
          "headersSize": -1, "bodySize": 5},
        "response": {"status": 200, "statusText": @response.statusText@,
          "httpVersion": @response.httpVersion@, "comment": @response.comment@,
          "headers": [{"name": @response.headerName@, "value": "edge"},
            {"name": "Content-Type", "value": "application/json"}],
          "cookies": [{"name": @response.cookieName@, "value": "1"}],
          "content": {"size": 2, "mimeType": @response.mimeType@, "text": "{}"},
          "redirectURL": @response.redirectURL@, "headersSize": -1, "bodySize": 2},
        "cache": {"comment": @cache.comment@},
        "timings": {"send": 0, "wait": 10, "receive": 0, "comment": @timings.comment@},
        "serverIPAddress": @serverIPAddress@, "connection": @connection@}]}}
    """

  /// The export with `text` in `field` and every other field clean.
  static func export(_ field: String, _ text: String) -> String {
    var json = template
    for (name, clean) in fields {
      let value = name == field ? text : clean
      // No text here holds a quote or a backslash, so quoting is all JSON needs.
      json = json.replacingOccurrences(of: "@\(name)@", with: "\"\(value)\"")
    }
    return json
  }

  /// Every artifact a run left: both streams and every file in `directory`.
  static func artifacts(_ result: CLIResult, in directory: URL) throws -> [String: String] {
    var found = ["stdout": result.stdout, "stderr": result.stderr]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
      found[name] = try String(
        contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }
    return found
  }

  static let commands = ["scan", "stub", "inspect", "inspect --json", "redact", "convert"]

  /// The fields one test case runs the tool on: every one, except under a sanitizer (CI's
  /// thread-sanitizer run sets `UNDERSTUDY_TEST_TIME_SCALE`), where each run of the
  /// instrumented tool costs about a second and the 1,008 runs took most of the run's time
  /// limit: there a quarter of the fields, a different quarter for each command and secret, so
  /// the cross is still covered once over the four. `swift test` runs them all.
  static func fields(for command: String, _ secret: Secret) -> [(name: String, clean: String)] {
    let scale = ProcessInfo.processInfo.environment["UNDERSTUDY_TEST_TIME_SCALE"].flatMap(
      Double.init)
    guard let scale, scale > 1 else { return fields }
    let turn =
      (commands.firstIndex(of: command) ?? 0) + (secrets.firstIndex { $0.text == secret.text } ?? 0)
    return fields.enumerated().filter { ($0.offset + turn) % 4 == 0 }.map(\.element)
  }

  /// Three runs of the tool at a time (the suite is serialized, so never more): one after
  /// another, the 1,008 runs were the default suite's longest test, 211 s of its 216 beside
  /// CI's busy loops.
  @Test(arguments: commands, secrets)
  func noFieldLeaksASecret(command: String, secret: Secret) async throws {
    let fields = Self.fields(for: command, secret).map(\.name)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (index, field) in fields.enumerated() {
        if index >= 3 { try await group.next() }
        group.addTask { try await Self.check(command, secret, in: field) }
      }
      try await group.waitForAll()
    }
  }

  /// Runs `command` on an export holding `secret` in `field`, and checks its status and every
  /// artifact it left.
  static func check(_ command: String, _ secret: Secret, in field: String) async throws {
    try await withTemporaryDirectory { directory in
      let input = directory.appendingPathComponent("export.har")
      try Data(Self.export(field, secret.text).utf8).write(to: input)
      let output = directory.appendingPathComponent("out.har").path
      var arguments = command.split(separator: " ").map(String.init) + [input.path]
      if ["redact", "convert"].contains(arguments[0]) { arguments += ["-o", output] }
      // The variable is set by `env`: Foundation's `Process` given an environment crashed
      // now and then under a thousand runs.
      let result = try await understudy(
        Self.environment.map { "\($0.key)=\($0.value)" } + [CLIBinary.url.path] + arguments,
        executable: URL(fileURLWithPath: "/usr/bin/env"))
      let context = "\(command) with \(secret) in \(field)"
      switch arguments[0] {
      case "scan":
        #expect(result.status == 1, "\(context): \(result.output)")
      case "redact", "convert":
        // What the rules replace is written without it; a shape no rule names stops them,
        // unless `convert` drops the field. A method that is no HTTP token (each text here has
        // a space) is refused by both, and nothing is written.
        let written = !(arguments[0] == "convert" && Self.droppedByConvert.contains(field))
        let refused = field == "request.method"
        #expect(
          result.status == (refused ? 1 : secret.isRedacted || !written ? 0 : 1),
          "\(context): \(result.output)")
        if refused {
          #expect(!FileManager.default.fileExists(atPath: output), "\(context): written")
        }
      default:
        #expect(result.status == 0, "\(context): \(result.output)")
      }
      for (artifact, text) in try Self.artifacts(result, in: directory)
      where artifact != "export.har" {
        // `redact` writes the file it reports on; `convert` writes nothing then.
        if artifact == "out.har", !secret.isRedacted, arguments[0] == "redact" { continue }
        #expect(!text.contains(secret.secret), "\(context): \(artifact) holds the secret")
      }
    }
  }
}
