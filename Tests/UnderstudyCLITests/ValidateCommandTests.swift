import Foundation
import Testing
import Understudy

@Suite struct ValidateCommandTests {
  @Test func fixturesAreValidWithLocatedWarnings() async throws {
    let chrome = Fixtures.path("chrome-export.har")
    let result = try await understudy(
      "validate", chrome, Fixtures.path("mitmproxy-export.har"))
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    #expect(
      result.stdout.hasPrefix(
        "\(chrome):88:21: warning: log.entries[0].response.content.size: size is 58 but the "
          + "text holds 57 bytes. Set size to 57, the length of the body in bytes.\n"))
    #expect(result.stdout.contains("\(chrome): valid (3 entries, 0 errors, 3 warnings).\n"))
    #expect(
      result.stdout.contains(
        "mitmproxy-export.har:35:23: warning: log.entries[0].request.bodySize: bodySize is 27 "
          + "but postData holds 29 bytes."))
    #expect(result.stdout.hasSuffix("2 files: 2 valid, 0 invalid or unreadable.\n"))
  }

  /// Response headers no server could send: replay refuses the entry, and validate says so.
  @Test func responseHeadersNoServerCouldSendAreErrors() async throws {
    let json = """
      {"log": {"version": "1.2", "entries": [
        {"startedDateTime": "2024-05-01T12:00:00Z", "time": 1,
         "request": {"method": "GET", "url": "https://a.test/x"},
         "response": {"status": 200, "content": {"size": 0, "mimeType": ""}, "headers": [
           {"name": "Bad Name:", "value": "v"},
           {"name": "X-A", "value": "a\\r\\nSet-Cookie: evil=1"},
           {"name": "X-B", "value": "a\\u0000b"}]}}
      ]}}
      """
    try await withTemporaryDirectory { directory in
      let file = directory.appendingPathComponent("headers.har")
      try Data(json.utf8).write(to: file)
      let result = try await understudy("validate", file.path)
      #expect(result.status == 1)
      for (index, problem) in [
        "the header name \"Bad Name:\" is not a valid HTTP field name",
        "the value of header X-A holds a line break or a NUL",
        "the value of header X-B holds a line break or a NUL",
      ].enumerated() {
        #expect(
          result.stdout.contains(
            "error: log.entries[0].response.headers[\(index)]: \(problem)"), "\(result.stdout)")
      }
      #expect(result.stdout.hasSuffix("\(file.path): invalid (1 entry, 3 errors, 0 warnings).\n"))
    }
  }

  /// A cassette the loader accepts but a replay cannot use: each problem is reported at its
  /// line and column with the JSON path, and errors make the file invalid.
  @Test func consistencyProblemsAreReportedWhereTheyAre() async throws {
    let json = """
      {"log": {"version": "1.2", "entries": [
        {"startedDateTime": "2024-05-01T12:00:00Z", "time": 1,
         "request": {"method": "GET", "url": "/relative/only"},
         "response": {"status": -1, "content": {"size": 2, "text": "hi"}}},
        {"startedDateTime": "2024-05-01T12:00:00Z", "time": 1, "pageref": "page_9",
         "request": {"method": "GE T", "url": "https://a.test/x", "bodySize": 5},
         "response": {"status": 302, "bodySize": 9, "headers": [{"name": "", "value": "v"}],
                      "content": {"mimeType": "text/plain", "text": "hello"}},
         "timings": {"send": 0, "wait": -3, "receive": 0}},
        {"startedDateTime": "2024-05-01T12:00:00Z", "time": 1,
         "request": {"method": "GET", "url": "https://a.test/same"},
         "response": {"status": 200, "content": {"mimeType": "text/plain", "text": "ok"}}},
        {"startedDateTime": "2024-05-01T12:00:01Z", "time": 2,
         "request": {"method": "GET", "url": "https://a.test/same"},
         "response": {"status": 200, "content": {"mimeType": "text/plain", "text": "ok"}}}
      ]}}
      """
    try await withTemporaryDirectory { directory in
      let file = directory.appendingPathComponent("bad.har")
      try Data(json.utf8).write(to: file)
      let result = try await understudy("validate", file.path)
      #expect(result.status == 1)
      let lines = result.stdout.split(separator: "\n").map(String.init)
      func expectLine(_ location: String, _ rest: String) {
        #expect(
          lines.contains { $0.hasPrefix("\(file.path):\(location): \(rest)") },
          "\(location): \(rest)\n\(result.stdout)")
      }
      expectLine("3:40", "error: log.entries[0].request.url: \"/relative/only\" has no scheme")
      expectLine("4:27", "error: log.entries[0].response.status: -1 is not an HTTP status.")
      expectLine(
        "4:42", "warning: log.entries[0].response.content: the response has a body but no mimeType."
      )
      expectLine(
        "5:69", "warning: log.entries[1].pageref: the page \"page_9\" is not in log.pages.")
      expectLine(
        "6:26",
        "error: log.entries[1].request.method: the method, a value of 4 characters, is not an "
          + "HTTP token.")
      expectLine(
        "6:73",
        "warning: log.entries[1].request.bodySize: bodySize says the request sent 5 bytes but "
          + "there is no postData.")
      expectLine(
        "7:16", "warning: log.entries[1].response: the redirect (302) has no Location header")
      expectLine(
        "7:44",
        "warning: log.entries[1].response.bodySize: bodySize is 9 but the content holds 5 bytes")
      expectLine("7:68", "error: log.entries[1].response.headers[0].name: the header has no name.")
      expectLine("9:35", "warning: log.entries[1].timings.wait: wait is -3.0.")
      expectLine(
        "10:3",
        "info: log.entries[2]: GET https://a.test/same and its response are repeated identically "
          + "in entries 3.")
      #expect(result.stdout.hasSuffix("\(file.path): invalid (4 entries, 4 errors, 6 warnings).\n"))
    }
  }

  /// Every value a warning quotes is shown plainly only when it reads as words: a password
  /// shape in `log.version`, a `pageref` or the command's name was quoted whole.
  @Test func aWarningDescribesAPasswordShapedValueByItsLength() async throws {
    let password = "GAg4YT!Yq9zW"
    let json = """
      {"log": {"version": "\(password)1", "entries": [
        {"startedDateTime": "2024-05-01T12:00:00Z", "time": 1, "pageref": "\(password)2",
         "request": {"method": "GET", "url": "https://a.test/x"},
         "response": {"status": 200, "content": {"mimeType": "text/plain", "text": "ok"}}}
      ]}}
      """
    try await withTemporaryDirectory { directory in
      let file = directory.appendingPathComponent("shapes.har")
      try Data(json.utf8).write(to: file)
      let result = try await understudy("validate", file.path)
      #expect(result.stdout.contains("the version is a value of 13 characters"), "\(result.stdout)")
      #expect(result.stdout.contains("the page a value of 13 characters"), "\(result.stdout)")
      #expect(!result.output.contains(password), "\(result.output)")
      let command = try await understudy(password)
      #expect(command.status == 2)
      #expect(!command.output.contains(password), "\(command.output)")
    }
  }

  /// A 204's body never reaches a client, and replay leaves it out; a 304's is a browser's
  /// cached copy, which replay keeps, so it is not flagged.
  @Test func aBodyOnA204IsAWarning() async throws {
    try await withTemporaryDirectory { directory in
      let path = try HAR(
        entries: [204, 304].map { status in
          HAR.Entry.exchange(
            url: "https://a.test/\(status)", status: status, body: "hello", mimeType: "text/plain")
        }
      ).saved(as: "no-content.har", in: directory)
      let result = try await understudy("validate", path)
      #expect(result.status == 0)
      #expect(
        result.stdout.contains(
          "warning: log.entries[0].response.content: a 204 response holds 5 bytes of body, which "
            + "no client reads after a 204's head, so replay leaves them out. Remove "
            + "content.text, or write the status the server sent."), "\(result.stdout)")
      #expect(!result.stdout.contains("log.entries[1].response.content"), "\(result.stdout)")
    }
  }

  @Test func anArchiveWithoutEntriesIsValidWithANote() async throws {
    try await withTemporaryDirectory { directory in
      let path = try HAR(entries: []).saved(as: "empty.har", in: directory)
      let result = try await understudy("validate", path)
      #expect(result.status == 0)
      #expect(result.stdout.contains("info: log.entries: the archive has no entries."))
    }
  }

  @Test func oneBadFileAmongGoodOnesMakesTheRunInvalid() async throws {
    let bad = Fixtures.path("malformed/wrong-type-status.har")
    let result = try await understudy("validate", Fixtures.path("chrome-export.har"), bad)
    #expect(result.status == 1)
    #expect(
      result.stdout.contains(
        "\(bad):33:21: error: log.entries[1].response.status: expected a whole number but found "
          + "the string \"200\". Write the number without quotes, for example \"status\": 200.\n"
          + "\(bad): invalid.\n"))
    #expect(result.stdout.hasSuffix("2 files: 1 valid, 1 invalid or unreadable.\n"))
  }

  @Test func anUnreadableFileOutranksAnInvalidOne() async throws {
    let result = try await understudy(
      "validate", Fixtures.path("malformed/empty.har"), "/nonexistent-understudy/x.har")
    #expect(result.status == 3)
    #expect(result.stdout.contains("/nonexistent-understudy/x.har: unreadable."))
  }
}
