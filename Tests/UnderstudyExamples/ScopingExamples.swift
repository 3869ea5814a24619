import Testing
import Understudy
import XCTest

/// The examples of Documentation/Scoping.md (and its DocC article).
@Suite(.stubs { $0.stub(.get("/config"), .json(["theme": "dark"])) })
struct ProfileTests {
  @Test(.stubs { $0.stub(.get("/users/{id}"), .json(User(id: 1, name: "Ada"))) })
  func showsTheName() async throws {
    let client = UserClient(session: try #require(StubRegistry.current).makeSession())
    #expect(try await client.user(id: 1).name == "Ada")
  }

  @Test func everyTestStartsFresh() throws {
    let stubs = try #require(StubRegistry.current)
    #expect(stubs.stubs.count == 1)  // only the suite's /config stub
  }

  @Test(arguments: [1, 2, 3])
  func eachCaseHasItsOwnRegistry(id: Int) async throws {
    let stubs = try #require(StubRegistry.current)
    stubs.stub(.get("/users/\(id)"), .json(User(id: id, name: "User \(id)")))
    let client = UserClient(session: stubs.makeSession())
    #expect(try await client.user(id: id).name == "User \(id)")
  }
}

@Suite struct ScopingExamples {
  @Test(
    .stubs(verifying: [.noUnmatchedRequests, .allStubsUsed], attachTraffic: .always) { stubs in
      stubs.stub(.get("/users/{id}"), .json(User(id: 1, name: "Ada")))
    })
  func strictAboutUnusedStubs() async throws {
    let client = UserClient(session: StubRegistry.current!.makeSession())
    _ = try await client.user(id: 1)
  }

  @Test(.stubs(unmatchedRequests: .fail))
  func sessionsWorkFromDetachedTasks() async throws {
    let stubs = try #require(StubRegistry.current)
    stubs.stub(.get("/users/{id}"), .json(User(id: 5, name: "Lin")))
    let session = stubs.makeSession()

    let name = try await Task.detached {
      try await UserClient(session: session).user(id: 5).name
    }.value

    #expect(name == "Lin")
  }

  @Test func sessionsYouConfigure() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/users/{id}"), .json(User(id: 3, name: "Kay")))

    let base = URLSessionConfiguration.ephemeral
    base.timeoutIntervalForRequest = 5
    let session = registry.makeSession(configuration: base)

    let configuration = URLSessionConfiguration.ephemeral
    configuration.protocolClasses = [registry.protocolClass]
    configuration.urlCache = nil
    let assembled = URLSession(configuration: configuration)

    #expect(try await UserClient(session: session).user(id: 3).name == "Kay")
    #expect(try await UserClient(session: assembled).user(id: 3).name == "Kay")
  }

  @Test func librariesThatTakeAConfiguration() async throws {
    let registry = StubRegistry()
    registry.stub(.get("/users/{id}"), .json(User(id: 3, name: "Kay")))

    let configuration = registry.makeSessionConfiguration(from: .ephemeral)
    configuration.timeoutIntervalForRequest = 5
    // Hand `configuration` to the library; it builds its own session from it.
    let libraryOwnedSession = URLSession(configuration: configuration)

    #expect(try await UserClient(session: libraryOwnedSession).user(id: 3).name == "Kay")
  }
}

/// Code that cannot be handed a session.
enum LegacyStatus {
  static func fetch() async throws -> String {
    let url = URL(string: "https://legacy.example.com/status")!
    let (data, _) = try await URLSession.shared.data(from: url)
    return String(decoding: data, as: UTF8.self)
  }
}

@Suite struct SharedSessionExamples {
  @Test(
    .stubs(interceptingSharedSession: true) { stubs in
      stubs.stub(.get("https://legacy.example.com/status"), .text("green"))
    })
  func legacyCodeUsingTheSharedSession() async throws {
    #expect(try await LegacyStatus.fetch() == "green")
  }
}

final class ProfileXCTests: StubbedTestCase {
  override var stubVerification: ScopeVerification { [.noUnmatchedRequests, .allStubsUsed] }

  override func setUp() {
    super.setUp()
    stubs.stub(.get("/config"), .json(["theme": "dark"]))
  }

  func testShowsTheName() async throws {
    stubs.stub(.get("/users/{id}"), .json(User(id: 1, name: "Ada")))
    let client = UserClient(session: stubs.makeSession())

    let user = try await client.user(id: 1)
    XCTAssertEqual(user.name, "Ada")
    _ = try await stubs.makeSession().data(from: URL(string: "https://api.example.com/config")!)
  }
}

final class WithStubsXCTests: XCTestCase {
  func testWithStubs() async throws {
    let name = try await withStubs { stubs in
      stubs.stub(.get("/users/{id}"), .json(User(id: 2, name: "Bo")))
      return try await UserClient(session: stubs.makeSession()).user(id: 2).name
    }
    XCTAssertEqual(name, "Bo")
  }
}
