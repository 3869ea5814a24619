#if Server
  import Foundation
  import Testing
  import Understudy
  import UnderstudyServer

  /// What the server writes itself when it cannot answer from the registry (a target it cannot
  /// read, a `CONNECT` it does not tunnel, a WebSocket stub met without a handshake, a
  /// pass-through that would loop back to it) quotes the request, so it goes through the same
  /// masking as reports: the client under test may log the answer, and its log is a CI log.
  @Suite struct ServerRefusalMaskingTests {
    private static let secret = "s3cr3t-refusal-4417"

    /// The whole answer, head and body, as curl received it.
    private static func raw(_ arguments: String...) async throws -> String {
      let curl = try await Subprocess.curl(["--include"] + arguments)
      #expect(curl.status == 0, "\(curl.errors)")
      return curl.output
    }

    /// Every artifact the exchange left: the answer, and the registry's journal and reports.
    private static func expectNoSecret(in answer: String, _ registry: StubRegistry) {
      #expect(!answer.contains(secret), "\(answer)")
      for entry in registry.journal {
        #expect(!"\(entry.request)".contains(secret))
        let body = entry.response?.body.map { String(decoding: $0, as: UTF8.self) } ?? ""
        #expect(!body.contains(secret), "\(body)")
      }
      for report in registry.unmatchedReports {
        #expect(!report.description.contains(secret))
      }
    }

    @Test(.servedStubs)
    func aTargetTheServerCannotReadIsQuotedMasked() async throws {
      let server = try #require(LoopbackServer.current)
      for target in [
        "ftp://api.example.com/x?access_token=\(Self.secret)",
        "ftp://user:\(Self.secret)@api.example.com/x",
      ] {
        let answer = try await Self.raw("--request-target", target, server.baseURL.absoluteString)
        #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request"), "\(answer)")
        #expect(answer.contains("cannot tell the URL of GET ftp://"), "\(answer)")
        #expect(answer.contains("••••("), "\(answer)")
        Self.expectNoSecret(in: answer, server.registry)
      }
    }

    @Test(.servedStubs)
    func aRefusedConnectIsQuotedMasked() async throws {
      let server = try #require(LoopbackServer.current)
      let answer = try await Self.raw(
        "--request-target", "user:\(Self.secret)@api.example.com:443", "--request", "CONNECT",
        server.baseURL.absoluteString)
      #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request"), "\(answer)")
      #expect(answer.contains("tunnels CONNECT to host:port only"), "\(answer)")
      #expect(answer.contains("••••("), "\(answer)")
      Self.expectNoSecret(in: answer, server.registry)
    }

    @Test(.servedStubs { $0.stub(.get("/socket"), .webSocket([.send(.text("hi"))])) })
    func aWebSocketStubMetWithoutAHandshakeQuotesTheTargetMasked() async throws {
      let server = try #require(LoopbackServer.current)
      // An upgrade without Sec-WebSocket-Key, which SwiftNIO declines to upgrade.
      let answer = try await Self.raw(
        "--header", "Connection: Upgrade", "--header", "Upgrade: websocket", "--header",
        "Sec-WebSocket-Version: 13",
        "\(server.baseURL.absoluteString)/socket?access_token=\(Self.secret)")
      #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request"), "\(answer)")
      #expect(answer.contains("not a valid WebSocket handshake"), "\(answer)")
      #expect(answer.contains("access_token=••••("), "\(answer)")
      Self.expectNoSecret(in: answer, server.registry)
    }

    @Test(.servedStubs(unmatchedRequests: .passThrough(PassThrough())))
    func aPassThroughBackToTheServerQuotesTheURLMasked() async throws {
      let server = try #require(LoopbackServer.current)
      let answer = try await Self.raw(
        "http://localhost:\(server.port)/anything?access_token=\(Self.secret)")
      #expect(answer.hasPrefix("HTTP/1.1 508"), "\(answer)")
      #expect(answer.contains("this loopback server itself"), "\(answer)")
      #expect(answer.contains("access_token=••••("), "\(answer)")
      #expect(server.registry.journal.count == 1)
      Self.expectNoSecret(in: answer, server.registry)
    }
  }
#endif
