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

    #if canImport(FoundationNetworking)
      /// The scope's failures that the test below expects; swift-corelibs-xctest records them
      /// through this method.
      private var expectedFailures: [String] = []

      override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
        expected: Bool
      ) {
        guard description.contains("https through the server as a proxy is not supported") else {
          return super.recordFailure(
            withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
        expectedFailures.append(description)
      }

      func testHTTPSThroughAConnectTunnelFailsTheScopeWithWhatToDoInstead() async throws {
        try await withStubs { stubs in
          let server = try await stubs.startServer()
          let curl = try await Subprocess.curl(
            "--proxy", server.baseURL.absoluteString, "https://api.example.com/secure")
          // 35: curl's "SSL connect error", the server's TLS alert; a hang would be 28.
          XCTAssertEqual(curl.status, 35, curl.errors)
          XCTAssertTrue(expectedFailures.isEmpty, "reported before the scope ended")
        }
        XCTAssertEqual(expectedFailures.count, 1, "\(expectedFailures)")
        let failure = try XCTUnwrap(expectedFailures.first)
        XCTAssertTrue(failure.contains("CONNECT tunnel to api.example.com:443"), failure)
        XCTAssertTrue(failure.contains("Send http:// URLs through the proxy"), failure)
      }
    #endif
  }
#endif
