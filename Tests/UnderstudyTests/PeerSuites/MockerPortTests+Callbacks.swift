import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension MockerPortTests {
  /// Mocker's `onRequest`, `onRequestHandler` and `completion` callbacks, and its expectation
  /// helpers: in Understudy a responder closure sees the request, and the stub keeps what it
  /// answered.
  @Suite struct Callbacks {
    static let url = URL(string: "https://www.fakeurl.test")!

    struct Parameters: Codable, Equatable, Sendable {
      let name: String
    }

    /// A POST to `url` carrying `body`.
    static func post(_ body: Data?) -> URLRequest {
      var request = URLRequest(url: url)
      request.httpMethod = "POST"
      request.httpBody = body
      return request
    }

    /// Mocker's `testMockCallbacks`: the request is seen before the call completes.
    @Test func theResponderRunsBeforeTheCallCompletes() async throws {
      let registry = StubRegistry()
      let events = Locked<[String]>([])
      registry.stub(.get(Self.url.absoluteString)) { _ in
        events.withLock { $0.append("request") }
        return .json([String]())
      }
      _ = try await registry.makeSession().data(from: Self.url)
      events.withLock { $0.append("completion") }
      #expect(events.current == ["request", "completion"])
    }

    /// Mocker's `testOnRequestLegacyPostBodyParameters`: a pretty-printed JSON body, read as a
    /// dictionary.
    @Test func theResponderReadsAPrettyPrintedJSONBody() async throws {
      let registry = StubRegistry()
      let expected = ["test": "value"]
      let body = try JSONSerialization.data(withJSONObject: expected, options: .prettyPrinted)
      let seen = Locked<(URL?, [String: String]?)>((nil, nil))
      registry.stub(.post(Self.url.absoluteString)) { request in
        let parameters = try JSONSerialization.jsonObject(with: request.body ?? Data())
        seen.withLock { $0 = (request.url, parameters as? [String: String]) }
        return .json([String]())
      }
      _ = try await registry.makeSession().data(for: Self.post(body))
      #expect(seen.current.0 == Self.url)
      #expect(seen.current.1 == expected)
    }

    /// Mocker's `testOnRequestDecodablePostBodyParameters`.
    @Test func theResponderDecodesTheBody() async throws {
      let registry = StubRegistry()
      let expected = Parameters(name: UUID().uuidString)
      let seen = Locked<Parameters?>(nil)
      registry.stub(.post(Self.url.absoluteString)) { request in
        let decoded = try JSONDecoder().decode(Parameters.self, from: request.body ?? Data())
        seen.withLock { $0 = decoded }
        return .json([String]())
      }
      _ = try await registry.makeSession().data(for: Self.post(try JSONEncoder().encode(expected)))
      #expect(seen.current == expected)
    }

    /// Mocker's `testOnRequestDecodablePostBodyParametersWithCustomJSONDecoder`: the decoder is
    /// the test's own, here one that converts snake case.
    @Test func theResponderDecodesTheBodyWithItsOwnDecoder() async throws {
      let registry = StubRegistry()
      let expected = Parameters(name: UUID().uuidString)
      let seen = Locked<Parameters?>(nil)
      registry.stub(.post(Self.url.absoluteString)) { request in
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let decoded = try decoder.decode(Parameters.self, from: request.body ?? Data())
        seen.withLock { $0 = decoded }
        return .json([String]())
      }
      let encoder = JSONEncoder()
      encoder.keyEncodingStrategy = .convertToSnakeCase
      _ = try await registry.makeSession().data(for: Self.post(try encoder.encode(expected)))
      #expect(seen.current == expected)
      // The stub kept the request too, for a check after the call.
      #expect(registry.stubs.first?.requests.first?.url == Self.url)
    }

    /// Mocker's `testOnRequestJSONDictionaryPostBodyParameters`.
    @Test func theStubKeepsTheJSONBodyItAnswered() async throws {
      let registry = StubRegistry()
      let expected = ["test": "value"]
      let stub = registry.stub(.post(Self.url.absoluteString), .json([String]()))
      let body = try JSONSerialization.data(withJSONObject: expected, options: .prettyPrinted)
      _ = try await registry.makeSession().data(for: Self.post(body))
      let request = try #require(stub.requests.first)
      #expect(request.url == Self.url)
      #expect(
        try JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: String]
          == expected)
    }

    /// Mocker's `testOnRequestCallbackWithoutRequestAndParameters`: a POST without a body.
    @Test func theResponderRunsForABodilessPost() async throws {
      let registry = StubRegistry()
      let calls = Locked(0)
      registry.stub(.post(Self.url.absoluteString)) { _ in
        calls.withLock { $0 += 1 }
        return .json([String]())
      }
      _ = try await registry.makeSession().data(for: Self.post(nil))
      #expect(calls.current == 1)
    }

    /// Mocker's `testOnRequestPostBodyParametersWithTopLevelCollectionType`.
    @Test func theResponderReadsATopLevelJSONArray() async throws {
      let registry = StubRegistry()
      let expected = [["test": "value"], ["test": "value"]]
      let seen = Locked<[[String: String]]?>(nil)
      registry.stub(.post(Self.url.absoluteString)) { request in
        let parameters = try JSONSerialization.jsonObject(with: request.body ?? Data())
        seen.withLock { $0 = parameters as? [[String: String]] }
        return .json([String]())
      }
      let body = try JSONSerialization.data(withJSONObject: expected, options: .prettyPrinted)
      _ = try await registry.makeSession().data(for: Self.post(body))
      #expect(seen.current == expected)
    }

    /// Mocker's `testOnRequestExpectation` (`expectationForRequestingMock`): waiting for a
    /// request the test does not await.
    @Test func aTestCanWaitForARequestItDoesNotAwait() async throws {
      let registry = StubRegistry()
      registry.stub(.get(Self.url.absoluteString), .json([String]()))
      let session = registry.makeSession()
      Task.detached { _ = try? await session.data(from: Self.url) }
      let sent = try await registry.request(matching: .get(Self.url.absoluteString))
      #expect(sent.url == Self.url)
    }

    /// Mocker's `testOnCompletionExpectation` (`expectationForCompletingMock`): waiting for the
    /// stub to have answered.
    @Test func aTestCanWaitForTheAnswerToARequestItDidNotSend() async throws {
      let registry = StubRegistry()
      let stub = registry.stub(.get(Self.url.absoluteString), .json([String]()))
      let session = registry.makeSession()
      let task = Task.detached { try await session.data(from: Self.url) }
      _ = try await registry.request(matching: .get(Self.url.absoluteString))
      _ = try await task.value
      registry.verify(stub, calledTimes: 1)
      #expect(registry.journal.first?.response?.status == 200)
    }
  }
}
