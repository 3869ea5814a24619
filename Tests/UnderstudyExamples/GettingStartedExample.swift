import Testing
import Understudy

/// The first example of the README: a stub answering a session.
@Test func gettingStartedExampleRuns() async throws {
  let registry = StubRegistry()
  registry.stub(.get("https://api.example.com/users/{id}")) { request in
    .json(["id": request.pathParameters["id"]!, "name": "Ada"])
  }
  let (data, _) = try await registry.makeSession().data(
    from: URL(string: "https://api.example.com/users/42")!)
  #expect(String(decoding: data, as: UTF8.self).contains("\"id\":\"42\""))
}
