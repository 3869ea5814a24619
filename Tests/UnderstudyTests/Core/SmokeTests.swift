import Testing

@testable import Understudy

@Suite struct SmokeTests {
  @Test func stubAnswersAsyncDataFor() async throws {
    let registry = StubRegistry()
    registry.stub(.custom("path /hello") { $0.path == "/hello" }, .text("hi"))
    let session = registry.makeSession()
    let (data, response) = try await session.data(from: URL(string: "https://api.test/hello")!)
    #expect(String(decoding: data, as: UTF8.self) == "hi")
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
    let error = await #expect(throws: URLError.self) {
      _ = try await session.data(from: URL(string: "https://api.test/nope")!)
    }
    #expect(
      error?.localizedDescription.contains("no stub matched GET https://api.test/nope") == true)
  }

  @Test func delayedStubAndPassThroughReenter() async throws {
    let registry = StubRegistry()
    registry.stub(.custom("any") { _ in true }, StubResponse.text("late").delayed(by: 0.05))
    let session = registry.makeSession()
    let (data, _) = try await session.data(from: URL(string: "https://api.test/x")!)
    #expect(String(decoding: data, as: UTF8.self) == "late")
  }
}
