import Testing

@testable import Understudy

/// Fixture files whose `{{…}}` placeholders are filled in from the request.
@Suite struct TemplatedFixtureTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/Templates")

  private func order(_ session: URLSession, id: String, page: String, name: String) async throws
    -> (json: [String: Any], response: HTTPURLResponse)
  {
    var request = URLRequest(url: URL(string: "https://api.test/orders/\(id)?page=\(page)")!)
    request.httpMethod = "POST"
    request.setValue("trace-1", forHTTPHeaderField: "X-Trace")
    request.httpBody = try JSONSerialization.data(withJSONObject: [
      "customer": ["name": name], "items": [["sku": "A-1"]],
    ])
    let (data, response) = try await session.data(for: request)
    let json = try #require(
      try JSONSerialization.jsonObject(with: data) as? [String: Any],
      "\(String(decoding: data, as: UTF8.self))")
    return (json, try #require(response as? HTTPURLResponse))
  }

  @Test func placeholdersAreFilledInFromTheRequestAsValidJSON() async throws {
    let registry = StubRegistry()
    registry.stub(
      .post("/orders/{id}"), .fixture("../Fixtures/Templates/order.json", templated: true))
    let session = registry.makeSession()
    // A name with every character JSON must escape stays one string value.
    let name = "Ann \"The Hammer\" O'Neil \\ {x}\n\t\u{1}"
    let first = try await order(session, id: "7", page: "abc", name: name)
    #expect(first.json["id"] as? Int == 7)
    // Not a JSON number: written as a string, so the document stays valid.
    #expect(first.json["page"] as? String == "abc")
    #expect(first.json["customer"] as? String == name)
    #expect(first.json["firstItem"] as? [String: String] == ["sku": "A-1"])
    #expect(
      (first.json["note"] as? String)?.hasPrefix(#"customer {"name":"Ann \"The Hammer\""#) == true)
    #expect((first.json["note"] as? String)?.hasSuffix(" by POST") == true)
    #expect(first.json["trace"] as? String == "trace-1")
    #expect(first.json["call"] as? Int == 1)
    let at = try #require(first.json["at"] as? String)
    #expect(at.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil, "\(at)")
    #expect(first.response.value(forHTTPHeaderField: "Content-Type") == "application/json")

    let second = try await order(session, id: "12345678901234567890", page: "2", name: "Bo")
    #expect(second.json["call"] as? Int == 2)
    #expect(second.json["page"] as? Int == 2)
    #expect("\(second.json["id"] ?? "")" == "12345678901234567890")
  }

  @Test func aTextFixtureTakesValuesAsTheyAre() async throws {
    let registry = StubRegistry()
    registry.stub(
      .get("/greet/{who}"), .fixture("../Fixtures/Templates/greeting.txt", templated: true))
    let (data, _) = try await registry.makeSession().data(
      from: URL(string: "https://api.test/greet/x?name=%22Ann%22")!)
    #expect(
      String(decoding: data, as: UTF8.self)
        == "Hello \"Ann\", this is answer 1 to /greet/x.\n")
  }

  @Test func withoutTemplatedTheFileIsServedAsItIs() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/raw"), .fixture("../Fixtures/Templates/greeting.txt"))
    let (data, _) = try await registry.makeSession().data(
      from: URL(string: "https://api.test/raw")!)
    #expect(String(decoding: data, as: UTF8.self).hasPrefix("Hello {{request.query.name}}"))
  }

  @Test func anUnknownPlaceholderIsReportedAtTheStubNamingFileLineAndColumn() async throws {
    let registry = StubRegistry()
    let file = Self.folder.appendingPathComponent("unknown-placeholder.json").path
    let line = #line + 2
    withKnownIssue {
      registry.stub(
        .get("/users/{id}"),
        .fixture("../Fixtures/Templates/unknown-placeholder.json", templated: true))
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.map(\.rawValue).joined().contains(
          "\(file):3:12: unknown placeholder {{request.body.name}}")
    }
    let error = try await #require(throws: URLError.self) {
      try await registry.makeSession().data(from: URL(string: "https://api.test/users/1")!)
    }
    #expect(error.localizedDescription.contains("\(file):3:12: unknown placeholder"))
    // Served without templated: true, the same file is fine.
    #expect(
      StubResponse.fixture("../Fixtures/Templates/unknown-placeholder.json").problem == nil)
  }

  @Test func aPlaceholderTheRequestHasNoValueForFailsTheRequestNamingFileAndLine() async throws {
    let registry = StubRegistry()
    registry.beginScope(verifying: .default)
    let line = #line + 1
    registry.stub(
      .get("/greet/{who}"), .fixture("../Fixtures/Templates/greeting.txt", templated: true))
    let file = Self.folder.appendingPathComponent("greeting.txt").path
    let error = try await #require(throws: URLError.self) {
      try await registry.makeSession().data(from: URL(string: "https://api.test/greet/x")!)
    }
    let says =
      "\(file):1:7: {{request.query.name}} has no value for GET https://api.test/greet/x: "
      + "the URL has no query item name"
    #expect(error.localizedDescription.contains(says), "\(error.localizedDescription)")
    let failures = registry.endScope(testName: "t()", location: SourceLocation())
    #expect(failures.map(\.location.line) == [line])
    #expect(failures.first?.message.contains(says) == true, "\(failures)")
  }

  @Test func aResponderMayReturnATemplatedFixture() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/greet/{who}")) { _ in
      .fixture("../Fixtures/Templates/greeting.txt", templated: true)
    }
    let (data, _) = try await registry.makeSession().data(
      from: URL(string: "https://api.test/greet/y?name=Bo")!)
    #expect(String(decoding: data, as: UTF8.self) == "Hello Bo, this is answer 1 to /greet/y.\n")
  }

  @Test(arguments: [
    ("{{request.query}}", "1:1: unknown placeholder {{request.query}}"),
    ("a\n  {{now", "2:3: \"{{\" is not closed by \"}}\" on its line"),
    ("{{request.json.a..b}}", "1:1: unknown placeholder {{request.json.a..b}}"),
    ("é{{nope}}", "1:2: unknown placeholder {{nope}}"),
  ])
  func templateSyntaxErrorsNameLineAndColumn(text: String, says: String) {
    let url = URL(fileURLWithPath: "/t/x.json")
    #expect(throws: FixtureTemplateError.self) {
      try FixtureTemplate(bytes: Array(text.utf8), url: url, isJSON: true)
    }
    do {
      _ = try FixtureTemplate(bytes: Array(text.utf8), url: url, isJSON: true)
    } catch {
      #expect(error.description.hasPrefix("/t/x.json:" + says), "\(error)")
    }
  }

  @Test func jsonValuesLandEscapedInsideStringsAndAsJSONOutside() throws {
    let template = try FixtureTemplate(
      bytes: Array(
        #"{"a": "<{{request.query.q}}>", "b": {{request.query.q}}, "c": {{request.json}}}"#.utf8),
      url: URL(fileURLWithPath: "/t/x.json"), isJSON: true)
    let request = InterceptedRequest(
      method: "POST", url: URL(string: "https://a.test/?q=%22%5C")!, body: Data(#"[1,"x"]"#.utf8))
    let rendered = try template.render(for: request, call: 1)
    #expect(
      String(decoding: rendered, as: UTF8.self) == #"{"a": "<\"\\>", "b": "\"\\", "c": [1,"x"]}"#)
  }
}
