import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Replay finds its candidates through a chain of the entries that share an index key (method
/// and path); the chain must give them in recorded order, and rules that pin no path must still
/// see every entry in order.
@Suite struct CassetteIndexTests {
  static func cassette(_ exchanges: [(method: HTTPMethod, path: String, body: String)]) throws
    -> URL
  {
    let file = RecordReplayTests.temporaryCassette()
    try HAR(
      entries: exchanges.map { exchange in
        HAR.Entry(
          request: InterceptedRequest(
            method: exchange.method, url: URL(string: "https://api.test" + exchange.path)!),
          response: HAR.Response(
            status: 200, headers: ["Content-Type": "text/plain"], body: Data(exchange.body.utf8)),
          startedDateTime: Date(), duration: .milliseconds(1))
      }
    ).write(to: file)
    return file
  }

  static let interleaved: [(method: HTTPMethod, path: String, body: String)] = [
    (.get, "/a", "a1"), (.get, "/b", "b1"), (.get, "/a", "a2"), (.post, "/a", "post a"),
    (.get, "/a", "a3"),
  ]

  @Test func entriesSharingAKeyAnswerInRecordedOrderBetweenOthers() async throws {
    let registry = StubRegistry()
    registry.use(
      Cassette(
        at: try Self.cassette(Self.interleaved), options: CassetteOptions(allowsRepeats: true)))
    let session = registry.makeSession()
    let a = URL(string: "https://api.test/a")!
    #expect(try await session.text(from: URL(string: "https://api.test/b")!) == "b1")
    #expect(try await session.text(from: a) == "a1")
    #expect(try await session.text(from: a) == "a2")
    #expect(try await session.text(from: a) == "a3")
    // Every match used: the last one answers again.
    #expect(try await session.text(from: a) == "a3")
    var post = URLRequest(url: a)
    post.httpMethod = "POST"
    let (body, _) = try await session.data(for: post)
    #expect(String(decoding: body, as: UTF8.self) == "post a")
  }

  @Test func rulesThatPinNoPathSeeEveryEntryInOrder() async throws {
    let registry = StubRegistry()
    registry.use(
      Cassette(
        at: try Self.cassette(Self.interleaved),
        options: CassetteOptions(matching: ReplayMatching([.method]))))
    let session = registry.makeSession()
    let any = URL(string: "https://api.test/anything")!
    for expected in ["a1", "b1", "a2", "a3"] {
      #expect(try await session.text(from: any) == expected)
    }
    await #expect(throws: URLError.self) { try await session.data(from: any) }
  }

  @Test func parallelRequestsEachBuildAndGetTheirOwnEntrysAnswer() async throws {
    let count = 24
    let file = try Self.cassette(
      (0..<count).map { (method: HTTPMethod.get, path: "/same", body: "answer \($0)") })
    let registry = StubRegistry()
    registry.use(Cassette(at: file))
    let session = registry.makeSession()
    let url = URL(string: "https://api.test/same")!
    let answers = try await withThrowingTaskGroup(of: String.self) { group in
      for _ in 0..<count { group.addTask { try await session.text(from: url) } }
      return try await group.reduce(into: [String]()) { $0.append($1) }
    }
    #expect(Set(answers) == Set((0..<count).map { "answer \($0)" }))
    #expect(answers.count == count)
  }

  @Test func parallelFirstUsesOfOneEntryGetTheSameAnswer() async throws {
    let file = try Self.cassette([(.get, "/once", "the answer")])
    let registry = StubRegistry()
    registry.use(Cassette(at: file, options: CassetteOptions(allowsRepeats: true)))
    let session = registry.makeSession()
    let url = URL(string: "https://api.test/once")!
    let answers = try await withThrowingTaskGroup(of: String.self) { group in
      for _ in 0..<16 { group.addTask { try await session.text(from: url) } }
      return try await group.reduce(into: [String]()) { $0.append($1) }
    }
    #expect(answers == Array(repeating: "the answer", count: 16))
  }
}
