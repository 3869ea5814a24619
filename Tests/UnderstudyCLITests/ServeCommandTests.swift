import Foundation
import Testing
import Understudy

#if Server
  /// `understudy serve`, run as a subprocess on a free port and driven by real clients.
  @Suite struct ServeCommandTests {
    static let cassette = HAR(entries: [
      .exchange(url: "https://api.example.com/users/7", body: #"{"name":"Ada"}"#),
      .exchange(url: "https://api.example.com/users/7", body: #"{"name":"Ada Lovelace"}"#),
      .exchange(url: "https://api.example.com/broken", status: 0, body: ""),
      .exchange(url: "http://plain.example.com/ping", body: "pong", mimeType: "text/plain"),
    ])

    @Test func replaysInRecordedOrderAndAnswersMissesWithTheMaskedReport() async throws {
      try await withTemporaryDirectory { directory in
        let path = try Self.cassette.saved(as: "api.har", in: directory)
        let server = try await RunningServer.understudy(["serve", path])
        #expect(server.output.contains("Serving \(path) (4 entries) at \(server.baseURL)"))
        #expect(server.output.contains("stand for https://api.example.com."))

        let first = try await fetch(server.url("/users/7"))
        let second = try await fetch(server.url("/users/7"))
        let third = try await fetch(server.url("/users/7"))
        #expect(first.status == 200 && first.body == #"{"name":"Ada"}"#)
        #expect(second.status == 200 && second.body == #"{"name":"Ada Lovelace"}"#)
        #expect(third.status == 404)
        #expect(third.body.contains("already replayed"), "\(third.body)")

        let broken = try await fetch(server.url("/broken"))
        #expect(broken.status == 404)
        #expect(broken.body.contains("recorded no response (status 0"), "\(broken.body)")

        let miss = try await fetch(server.url("/users/8?access_token=\(FakeSecret.accessToken)"))
        #expect(miss.status == 404)
        #expect(
          miss.body.contains("has no recorded answer for GET https://api.example.com/users/8"))
        #expect(miss.body.contains("entry 0"), "the closest entries are listed: \(miss.body)")
        #expect(!miss.body.contains(FakeSecret.accessToken), "the token is masked")

        // A client that uses the server as its HTTP proxy reaches the other origin.
        let proxied = try await curl([
          "-x", server.baseURL.absoluteString, "http://plain.example.com/ping",
        ])
        #expect(proxied == "pong")

        let ended = await server.stop(SIGINT)
        #expect(ended.status == 0, "\(ended.stderr)")
        #expect(ended.stdout.contains("GET https://api.example.com/users/7 — replayed"))
        #expect(ended.stdout.contains("GET https://api.example.com/users/8"))
        #expect(!ended.stdout.contains(FakeSecret.accessToken))
        #expect(ended.stdout.hasSuffix("Stopped (SIGINT).\n"))
      }
    }

    @Test func aTakenPortIsRefusedAndSIGTERMEndsTheServerCleanly() async throws {
      try await withTemporaryDirectory { directory in
        let path = try Self.cassette.saved(as: "api.har", in: directory)
        let server = try await RunningServer.understudy(["serve", path, "--allow-repeats"])
        let port = try #require(server.baseURL.port)
        let second = try await understudy("serve", path, "--port", String(port))
        #expect(second.status == 3)
        #expect(second.stderr.contains("could not listen on 127.0.0.1:\(port)"), "\(second.stderr)")

        // With repeats, the last recorded answer answers again.
        for _ in 0..<3 { _ = try await fetch(server.url("/users/7")) }
        #expect(try await fetch(server.url("/users/7")).body == #"{"name":"Ada Lovelace"}"#)

        let ended = await server.stop(SIGTERM)
        #expect(ended.status == 0, "\(ended.stderr)")
        #expect(ended.stdout.hasSuffix("Stopped (SIGTERM).\n"))
      }
    }

    @Test func aMissingCassetteOrARecordModeIsRefusedBeforeListening() async throws {
      let missing = try await understudy("serve", "no-such.har")
      #expect(missing.status == 3)
      #expect(missing.stderr.contains("no-such.har"))
      try await withTemporaryDirectory { directory in
        let path = try Self.cassette.saved(as: "api.har", in: directory)
        let recording = try await understudy(
          ["serve", path], environment: ["UNDERSTUDY_RECORD": "all"])
        #expect(recording.status == 2)
        #expect(recording.stderr.contains("serve only replays"), "\(recording.stderr)")
      }
    }

    /// A password in `--upstream` or `--origin` holding what a URL reads as a delimiter once made
    /// it another host or a fragment, where the printed URL's masking missed it; any user
    /// information is refused, before any other argument is read (a port out of range here),
    /// and without the value in the message.
    @Test(arguments: [
      "s3cr3t-Pass-word", "p@ss-w0rd-with-at", "p#ss-w0rd-hash", "p%zz-w0rd-pct", "p/ss-w0rd-slash",
    ])
    func userInformationInTheServerURLIsRefusedWithoutRepeatingIt(_ password: String) async throws {
      try await withTemporaryDirectory { directory in
        let path = try Self.cassette.saved(as: "api.har", in: directory)
        for arguments in [
          [
            "record", "--upstream", "http://ada:\(password)@127.0.0.1:9", "--to", "r.har", "--port",
            "70000",
          ],
          [
            "serve", path, "--origin", "https://ada:\(password)@api.example.com", "--port", "70000",
          ],
        ] {
          let result = try await understudy(arguments)
          #expect(result.status == 2, "\(arguments[0]): \(result.output)")
          #expect(result.stderr.contains("user information"), "\(result.stderr)")
          for start in stride(from: 0, through: password.count - 6, by: 1) {
            let part = password.dropFirst(start).prefix(6)
            #expect(!result.output.contains(part), "\(arguments[0]) printed \(part)")
          }
        }
      }
    }
  }

  /// `curl` with a time limit; its standard output.
  func curl(_ arguments: [String]) async throws -> String {
    let result = try await understudy(
      ["--silent", "--show-error", "--max-time", "20"] + arguments,
      executable: URL(fileURLWithPath: "/usr/bin/curl"))
    return result.stdout
  }
#else
  /// Without the `Server` trait, `serve` and `record` say in one line how to get them.
  @Suite struct ServeCommandTests {
    @Test(arguments: [
      ["serve", "api.har"], ["record", "--upstream", "http://x", "--to", "a.har"],
    ])
    func withoutTheServerTraitTheCommandSaysHowToGetIt(_ arguments: [String]) async throws {
      let result = try await understudy(arguments)
      #expect(result.status == 2)
      #expect(result.stdout.isEmpty)
      #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
      #expect(result.stderr.contains("`swift build --traits Server`"))
    }
  }
#endif
