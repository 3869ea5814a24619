#if Server
  // The examples of Documentation/LoopbackServer.md, compiled and run with the Server trait,
  // and again by .ci/server-examples.sh in a package that depends on Understudy, where no helper
  // of this test target is visible: keep them to the public API and Foundation.
  import Foundation
  import Testing
  import Understudy
  import UnderstudyServer
  import XCTest
  #if canImport(FoundationNetworking)
    import FoundationNetworking
  #endif

  @Suite struct LoopbackServerExamples {
    @Test(.servedStubs { $0.stub(.get("/users/{id}"), .text("Ada")) })
    func readsAUserOverLoopback() async throws {
      let server = try #require(LoopbackServer.current)
      let (data, _) = try await URLSession(configuration: .ephemeral).data(
        from: server.baseURL.appending(path: "users/7"))
      #expect(String(decoding: data, as: UTF8.self) == "Ada")
    }

    @Test(.servedStubs { $0.stub(.get("http://api.example.com/status"), .text("up")) })
    func answersAsAProxy() async throws {
      let proxy = try #require(LoopbackServer.current).baseURL.absoluteString
      let curl = Process()
      curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
      curl.arguments = ["--silent", "--proxy", proxy, "http://api.example.com/status"]
      let output = Pipe()
      curl.standardOutput = output
      try curl.run()
      let printed = output.fileHandleForReading.readDataToEndOfFile()
      curl.waitUntilExit()
      #expect(String(decoding: printed, as: UTF8.self) == "up")
    }

    @Test func servesARegistryOfYourOwn() async throws {
      let registry = StubRegistry()
      registry.stub(.get("/health"), .text("ok"))
      let server = try await registry.startServer()
      let (data, _) = try await URLSession(configuration: .ephemeral).data(
        from: server.baseURL.appending(path: "health"))
      #expect(String(decoding: data, as: UTF8.self) == "ok")
      await server.stop()
    }
  }

  final class ProfileServerTests: StubbedTestCase {
    func testServesTheProfile() async throws {
      stubs.stub(.get("/profile"), .text("Ada"))
      let server = try await stubs.startServer()
      let (data, _) = try await URLSession(configuration: .ephemeral).data(
        from: server.baseURL.appending(path: "profile"))
      XCTAssertEqual(String(decoding: data, as: UTF8.self), "Ada")
    }
  }
#endif
