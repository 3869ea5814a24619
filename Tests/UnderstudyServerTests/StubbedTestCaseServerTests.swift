#if Server
  import Understudy
  import UnderstudyServer
  import XCTest
  #if canImport(FoundationNetworking)
    import FoundationNetworking
  #endif

  /// The XCTest form: a `StubbedTestCase` starts its registry's server; the scope stops it.
  final class StubbedTestCaseServerTests: StubbedTestCase {
    func testTheTestsRegistryServesOverLoopback() async throws {
      stubs.stub(.get("/greeting"), .text("hello from XCTest"))
      let server = try await stubs.startServer()
      let (data, _) = try await URLSession(configuration: .ephemeral).data(
        from: server.baseURL.appending(path: "greeting"))
      XCTAssertEqual(String(decoding: data, as: UTF8.self), "hello from XCTest")
      XCTAssertEqual(stubs.journal.count, 1)
    }

    func testTheServerStopsWithTheWithStubsScope() async throws {
      let port = try await withStubs { stubs in
        stubs.stub(.get("/greeting"), .text("hello"))
        return try await stubs.startServer().port
      }
      let curl = try await Subprocess.curl("http://127.0.0.1:\(port)/greeting")
      // 7: "Failed to connect" - the scope's end closed the listener.
      XCTAssertEqual(curl.status, 7, curl.errors)
    }
  }
#endif
