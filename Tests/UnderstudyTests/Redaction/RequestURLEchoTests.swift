import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A value a request holds under a credential's name, repeated in its own URL (a path segment,
/// the fragment, a query item whose name says nothing): every output that shows the URL shows
/// it as a cassette would write it. The failing URL in the error's user info, the journal
/// entry's description and the scope's end-of-test messages (an unused stub that expects it).
@Suite struct RequestURLEchoTests {
  static let token = "Zq7TnW2vKp9LxR4cYb8M"

  /// Where the request holds the value under a credential's name.
  enum Holder: String, CaseIterable, CustomTestStringConvertible {
    case bearer, apiKeyHeader, cookie, formPassword, jsonSecret
    var testDescription: String { rawValue }

    func apply(to request: inout URLRequest) {
      let token = RequestURLEchoTests.token
      switch self {
      case .bearer: request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
      case .apiKeyHeader: request.setValue(token, forHTTPHeaderField: "X-Api-Key")
      case .cookie: request.setValue("session=\(token)", forHTTPHeaderField: "Cookie")
      case .formPassword:
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("user=ada&password=\(token)".utf8)
      case .jsonSecret:
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"client_secret": "\#(token)"}"#.utf8)
      }
    }
  }

  /// Where the URL repeats it.
  static let urls = [
    "https://api.test/users/\(token)", "https://api.test/a?ref=\(token)",
    "https://api.test/a#\(token)", "https://api.test/a/\(token)/b?page=2",
  ]

  @Test(arguments: Holder.allCases, urls)
  func theURLShowsNoCredentialItsRequestHolds(holder: Holder, url: String) async throws {
    let registry = StubRegistry()
    registry.stub(.get("https://api.test/other") && .header("X-Ref", Self.token), .text("never"))
    registry.stub(
      .url(matching: "^\(NSRegularExpression.escapedPattern(for: url))$"), .text("x"),
      limit: .times(2))
    var request = URLRequest(url: URL(string: url)!)
    request.setValue("1", forHTTPHeaderField: "X-Miss")
    holder.apply(to: &request)
    registry.stub(.get("https://api.test/miss") && .header("X-Miss", "2"), .text("never"))
    var outputs: [String] = []
    let session = registry.makeSession()
    _ = try? await session.data(for: request)
    var unmatched = request
    unmatched.url = URL(string: url.replacingOccurrences(of: "api.test", with: "miss.test"))
    do {
      _ = try await session.data(for: unmatched)
      Issue.record("an unmatched request was answered")
    } catch {
      let failing = (error as NSError).userInfo[NSURLErrorFailingURLErrorKey] as? URL
      outputs += [
        String(reflecting: error), "\((error as NSError).userInfo)",
        "\(String(describing: failing))",
      ]
    }
    outputs += registry.journal.map { String(describing: $0) }
    outputs += registry.journal.map { "\($0.request)" }
    outputs += registry.endScope(
      testName: "t", verifying: [.allStubsUsed], location: SourceLocation()
    )
    .map(\.message)
    #expect(outputs.count > 6)
    for output in outputs {
      #expect(!output.contains(Self.token), "\(output)")
      #expect(!output.contains("Zq7TnW2v"), "a part of it: \(output)")
    }
  }

  /// A journal printed once a test's requests are made masks, in each entry, a value that a later
  /// entry holds under a credential's name: an invite token in the first request's path, sent as
  /// `{"token": …}`, a password member, or a bearer token by the next.
  @Test(arguments: [
    (#"{"token":"%@","name":"ada"}"#, nil as String?),
    (#"{"user":"ada","password":"%@"}"#, nil), ("", "Bearer %@"),
  ])
  func aJournalMasksAValueALaterEntryNames(body: String, authorization: String?) async throws {
    let token = "9PIygbVnG1boQBgseXGrc7AK"
    let registry = StubRegistry()
    registry.stub(.get("https://api.test/invite/\(token)/accept"), .text("ok"))
    registry.stub(.path("/login"), .text("ok"))
    let session = registry.makeSession()
    _ = try await session.data(from: URL(string: "https://api.test/invite/\(token)/accept")!)
    var login = URLRequest(url: URL(string: "https://api.test/login")!)
    login.httpMethod = "POST"
    login.httpBody = Data(body.replacingOccurrences(of: "%@", with: token).utf8)
    login.setValue("application/json", forHTTPHeaderField: "Content-Type")
    if let authorization {
      login.setValue(
        authorization.replacingOccurrences(of: "%@", with: token),
        forHTTPHeaderField: "Authorization")
    }
    _ = try await session.data(for: login)
    let lines = registry.journal.map { String(describing: $0) }
    #expect(lines.count == 2)
    for line in lines {
      #expect(!line.contains(token.prefix(12)), "\(line)")
    }
  }

  /// A miss report lists a cassette's closest entries; loaded from an export no one redacted,
  /// an entry's URL can repeat a token an earlier answer handed out: it is masked there.
  @Test func aMissReportMasksATokenAnExportsEarlierAnswerHandedOut() async throws {
    let file = RecordReplayTests.temporaryCassette()
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try HAR(entries: [
      .sample(
        method: "POST", url: "https://api.test/login",
        content: HAR.Content(
          body: Data(#"{"access_token": "\#(Self.token)"}"#.utf8), mimeType: "application/json")),
      .sample(url: "https://api.test/sessions/\(Self.token)"),
    ]).write(to: file)
    let registry = StubRegistry()
    registry.use(Cassette(at: file))
    do {
      _ = try await registry.makeSession().data(from: URL(string: "https://api.test/sessions/x")!)
      Issue.record("a request the cassette does not hold was answered")
    } catch {
      let shown = [String(reflecting: error), error.localizedDescription]
      #expect(shown[1].contains("Closest recorded requests"), "\(shown[1])")
      for text in shown {
        #expect(!text.contains(Self.token) && !text.contains("Zq7TnW2v"), "\(text)")
      }
    }
  }

  /// A cassette's own rule (`redactingQueryParameters("ref")`) replaces that parameter in the
  /// failing URL of a replay miss's `URLError`, as the cassette replaced it in its entries.
  @Test func aReplayMissesFailingURLReplacesWhatTheCassettesOwnRulesDo() async throws {
    let file = RecordReplayTests.temporaryCassette()
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try HAR(entries: [.sample(url: "https://api.test/orders?ref=%3Credacted:ref%3E")]).write(
      to: file)
    let registry = StubRegistry()
    registry.use(
      Cassette(
        at: file,
        options: CassetteOptions(redaction: .default.redactingQueryParameters("ref"))))
    let reference = "Rq4mZt8WxK2pLv6N"
    do {
      _ = try await registry.makeSession().data(
        from: URL(string: "https://api.test/invoices?ref=\(reference)&page=2")!)
      Issue.record("a request the cassette does not hold was answered")
    } catch {
      let failing = (error as? URLError)?.failingURL?.absoluteString ?? ""
      #expect(failing.contains("page=2"), "the failing URL is kept: \(failing)")
      #expect(!failing.contains(reference), "\(failing)")
      #expect(!String(reflecting: error).contains(reference), "\(String(reflecting: error))")
    }
  }
}
