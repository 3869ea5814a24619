import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Responses no server could send (a status that is not one, a header that is not a header, or
/// that would split the response) made where the declaration check cannot see them: in a
/// cassette, or by a responder for each request. Each fails the request and is reported; none
/// reaches the client.
@Suite struct UnsendableResponseTests {
  /// A fault in a recorded response and what the refusal says about it.
  struct EntryCase: Sendable, CustomTestStringConvertible {
    var name: String
    var status = 200
    var header: HTTPHeaders.Field?
    var says: [String]

    var testDescription: String { name }
  }

  static let entries: [EntryCase] = [
    EntryCase(
      name: "status 1000", status: 1000,
      says: ["log.entries[1].response.status is 1000, and an HTTP status code has three digits"]),
    EntryCase(
      name: "status -5", status: -5, says: ["log.entries[1].response.status is -5"]),
    EntryCase(
      name: "status Int.max", status: Int.max,
      says: ["log.entries[1].response.status is \(Int.max)"]),
    EntryCase(
      name: "header name", header: .init(name: "Bad Name:", value: "v"),
      says: [
        "log.entries[1].response.headers[1]: the header name \"Bad Name:\" is not a valid HTTP "
          + "field name"
      ]),
    EntryCase(
      name: "CR LF in a value", header: .init(name: "X-A", value: "a\r\nSet-Cookie: evil=1"),
      says: ["log.entries[1].response.headers[1]: the value of header X-A holds a line break"]),
    EntryCase(
      name: "NUL in a value", header: .init(name: "X-A", value: "a\u{0}b"),
      says: ["log.entries[1].response.headers[1]: the value of header X-A holds a line break"]),
  ]

  /// The `URLError` sending `request` with `api` fails with, or `nil` after recording an issue
  /// when the request was answered.
  static func failure(
    of request: URLRequest, _ api: API, _ registry: StubRegistry,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) async -> URLError? {
    do {
      let (data, response, _) = try await withWatchdog {
        try await api.send(request, to: registry)
      }
      let body = String(decoding: data, as: UTF8.self)
      Issue.record(
        "\(api): served \(response.statusCode) \(response.allHeaderFields) \(body)",
        sourceLocation: sourceLocation)
    } catch {
      let error = (error as? DelegateFailure)?.error ?? error
      if let urlError = error as? URLError { return urlError }
      Issue.record("\(api): \(error)", sourceLocation: sourceLocation)
    }
    return nil
  }

  static let scopeEnd = Understudy.SourceLocation(
    fileID: "F", filePath: "F", line: 1, column: 1)

  static func cassette(with fault: EntryCase) throws -> URL {
    var headers: HTTPHeaders = ["Content-Type": "text/plain"]
    if let field = fault.header { headers = HTTPHeaders(headers.fields + [field]) }
    let file = RecordReplayTests.temporaryCassette()
    try HAR(entries: [
      UnreplayableEntryTests.entry(
        "/ok", HAR.Response(status: 200, headers: [:], body: Data("ok".utf8))),
      UnreplayableEntryTests.entry(
        "/bad", HAR.Response(status: fault.status, headers: headers, body: Data("hello".utf8))),
    ]).write(to: file)
    return file
  }

  @Test(arguments: entries)
  func aRecordedResponseNoServerCouldSendIsRefused(fault: EntryCase) async throws {
    let file = try Self.cassette(with: fault)
    defer { try? FileManager.default.removeItem(at: file) }
    for api in API.allCases {
      let registry = StubRegistry()
      let cassette = Cassette(at: file, mode: .never)
      registry.use(cassette)
      #expect(cassette.problem == nil, "the other entries still replay")
      let request = URLRequest(url: URL(string: "https://api.example.test/bad")!)
      let message = await Self.failure(of: request, api, registry)?.localizedDescription ?? ""
      #expect(message.contains("matched entry 1 of \(file.path), which has a "), "\(api)")
      for text in fault.says { #expect(message.contains(text), "\(api): \(message)") }
      #expect(message.contains("or record the exchange again"), "\(api)")
      // The scope that owns the registry fails the test with the same text.
      let failures = registry.endScope(testName: "t", location: Self.scopeEnd)
      #expect(failures.count == 1, "\(api)")
      for text in fault.says {
        #expect(failures.first?.message.contains(text) == true, "\(api)")
      }
      let good = StubRegistry()
      good.use(Cassette(at: file, mode: .never))
      let (data, _, _) = try await api.send(
        URLRequest(url: URL(string: "https://api.example.test/ok")!), to: good)
      #expect(String(decoding: data, as: UTF8.self) == "ok", "\(api)")
    }
  }

  @Test func aStatusAServerCanSendOutsideTheCommonRangeStillReplays() async throws {
    let file = try Self.cassette(with: EntryCase(name: "999", status: 999, says: []))
    defer { try? FileManager.default.removeItem(at: file) }
    let registry = StubRegistry()
    registry.use(Cassette(at: file, mode: .never))
    let (_, response, _) = try await API.async.send(
      URLRequest(url: URL(string: "https://api.example.test/bad")!), to: registry)
    #expect(response.statusCode == 999)
  }

  /// A client stops reading at the head of a 204, so the bytes a hand-edited cassette keeps
  /// after one never reach the code under test; a 304 keeps its body, which browsers export as
  /// the cached copy.
  @Test(arguments: [(204, ""), (304, "hello")])
  func aRecordedBodyNoClientReadsIsLeftOutOfTheReplay(status: Int, served: String) async throws {
    let file = try Self.cassette(with: EntryCase(name: "\(status)", status: status, says: []))
    defer { try? FileManager.default.removeItem(at: file) }
    for api in API.allCases {
      let registry = StubRegistry()
      registry.use(Cassette(at: file, mode: .never))
      let (data, response, _) = try await withWatchdog {
        try await api.send(
          URLRequest(url: URL(string: "https://api.example.test/bad")!), to: registry)
      }
      #expect(response.statusCode == status, "\(api)")
      #expect(String(decoding: data, as: UTF8.self) == served, "\(api)")
      #expect(registry.endScope(testName: "t", location: Self.scopeEnd).isEmpty, "\(api)")
    }
  }

  @Test(arguments: entries)
  func theStubCommandAndValidateSeeTheSameProblem(fault: EntryCase) throws {
    let file = try Self.cassette(with: fault)
    defer { try? FileManager.default.removeItem(at: file) }
    let har = try HAR.load(contentsOf: file)
    #expect(har.log.entries[0].replayProblem == nil)
    let problem = try #require(har.log.entries[1].replayProblem)
    let relative = fault.says.map { $0.replacingOccurrences(of: "log.entries[1].", with: "") }
    for text in relative { #expect(problem.contains(text), "\(problem)") }
  }

  @Test func aBeforeReplayHookThatBreaksTheResponseIsReportedAtTheHook() async throws {
    let file = try Self.cassette(with: EntryCase(name: "fine", says: []))
    defer { try? FileManager.default.removeItem(at: file) }
    let line = #line + 1
    let options = CassetteOptions(allowsRepeats: true).beforeReplay { entry in
      var entry = entry
      entry.response.headers.append(HAR.Header(name: "X-A", value: "a\r\nSet-Cookie: evil=1"))
      return entry
    }
    let registry = StubRegistry()
    registry.use(Cassette(at: file, mode: .never, options: options))
    registry.beginScope(verifying: .default)
    for api in API.allCases {
      let request = URLRequest(url: URL(string: "https://api.example.test/bad")!)
      let message = await Self.failure(of: request, api, registry)?.localizedDescription ?? ""
      #expect(message.contains("returned an entry for GET "), "\(api): \(message)")
      #expect(message.contains("the value of header X-A holds a line break"), "\(api)")
    }
    let failures = registry.endScope(testName: "t", location: Self.scopeEnd)
    #expect(failures.count == API.allCases.count, "\(failures)")
    #expect(failures.allSatisfy { $0.location.line == line })
    #expect(
      failures.allSatisfy {
        $0.message.contains("response.headers[1]: the value of header X-A holds a line break")
      })
  }

  // MARK: Responders

  /// A response a responder returns and the problem it has, as a declared one would be told.
  static let answers: [(String, @Sendable () -> StubResponse, String)] = [
    ("status 2000", { .status(2000) }, "the status 2000 is not an HTTP status code (100 to 599)"),
    ("status -1", { .text("x", status: -1) }, "the status -1 is not an HTTP status code"),
    (
      "header name", { .text("x").header("Bad Name", "v") },
      "the header name \"Bad Name\" is not a valid HTTP field name"
    ),
    (
      "CR LF in a value", { .text("x").header("X-A", "a\r\nSet-Cookie: evil=1") },
      "the value of header X-A holds a line break or a NUL"
    ),
    (
      "body on a 204", { .text("x", status: 204) },
      "a 204 response has no body, but this one has 1 bytes"
    ),
    (
      "throttle of 0", { .text("x").throttled(bytesPerSecond: 0) },
      "bytesPerSecond is 0, which sends nothing"
    ),
    (
      "negative drop", { .text("x").droppingConnection(afterBytes: -1) },
      "dropAfterBytes is -1; give the bytes of body sent before the drop"
    ),
  ]

  @Test(arguments: 0..<answers.count, [false, true])
  func aResponderAnswerNoServerCouldSendIsReportedAtTheStub(answer: Int, isAsync: Bool)
    async throws
  {
    let (name, make, problem) = Self.answers[answer]
    #expect(make().problem == problem || make().problem?.hasPrefix(problem) == true)
    for api in API.allCases {
      let registry = StubRegistry()
      registry.beginScope(verifying: .default)
      let line = #line + 3
      let url = URL(string: "https://api.example.test/\(answer)")!
      if isAsync {
        registry.stub(.get(url.absoluteString)) { _ async in make() }
      } else {
        registry.stub(.get(url.absoluteString)) { _ in make() }
      }
      let error = await Self.failure(of: URLRequest(url: url), api, registry)
      #expect(error?.code == .badServerResponse, "\(name) \(api)")
      let message = error?.localizedDescription ?? ""
      #expect(
        message.contains("the responder of stub method == GET && "), "\(name) \(api)")
      #expect(
        message.contains("with a response no server could send: \(problem)"),
        "\(name) \(api): \(message)")
      let failures = registry.endScope(testName: "t", location: Self.scopeEnd)
      #expect(failures.count == 1, "\(name) \(api): \(failures)")
      #expect(failures.first?.location.line == (isAsync ? line : line + 2), "\(name) \(api)")
      #expect(
        failures.first?.message.contains(
          "answered GET \(url.absoluteString) with a response no server could send: \(problem)")
          == true, "\(name) \(api): \(failures)")
    }
  }

  @Test func aResponderAnswerAServerCouldSendIsServed() async throws {
    let registry = StubRegistry()
    registry.stub(.get("https://api.example.test/x")) { _ in
      .text("fine", status: 201).header("X-A", "a, b")
    }
    let (data, response, _) = try await API.async.send(
      URLRequest(url: URL(string: "https://api.example.test/x")!), to: registry)
    #expect(String(decoding: data, as: UTF8.self) == "fine")
    #expect(response.statusCode == 201)
    #expect(response.value(forHTTPHeaderField: "X-A") == "a, b")
  }
}
