#if Server
  import Foundation
  import Testing
  import Understudy

  /// `understudy record` against the Python loopback upstream, run as a subprocess and driven
  /// by real clients; the cassette it writes is then served by `understudy serve`.
  @Suite struct RecordCommandTests {
    @Test func recordsRedactedInOrderAndTheCassetteReplays() async throws {
      let upstream = try await RunningServer.pythonUpstream()
      try await withTemporaryDirectory { directory in
        let path = directory.appendingPathComponent("recorded.har").path
        let recorder = try await RunningServer.understudy([
          "record", "--upstream", upstream.baseURL.absoluteString, "--to", path, "--header",
          "X-Session",
        ])
        let expected = try await fetch(upstream.url("/json")).body
        _ = try await fetch(upstream.url("/__reset"))

        #expect(try await fetch(recorder.url("/json")).body == expected)
        #expect(try await curl([recorder.url("/json").absoluteString]) == expected)
        let echoed = try await fetch(
          recorder.url("/echo/login?page=1"), method: "POST",
          headers: [
            "Authorization": "Bearer \(FakeSecret.bearerToken)",
            "X-Session": FakeSecret.sessionID, "Content-Type": "application/json",
          ],
          body: Data(#"{"user":"ada"}"#.utf8))
        #expect(echoed.status == 200)
        #expect(echoed.body.contains(FakeSecret.sessionID), "the client gets the real answer")
        // A request for another origin, through the server as a proxy, is never sent.
        let elsewhere = try await curl([
          "-x", recorder.baseURL.absoluteString, "http://example.com/",
        ])
        #expect(elsewhere.contains("sends requests to \(upstream.baseURL.absoluteString) only"))

        let ended = await recorder.stop()
        #expect(ended.status == 0, "\(ended.stderr)")
        #expect(ended.stdout.contains("wrote \(path): 3 new entries, 3 in all."), "\(ended.stdout)")
        #expect(try await fetch(upstream.url("/__hits")).body.contains(#""count": 3"#))

        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains(FakeSecret.bearerToken))
        #expect(!text.contains(FakeSecret.sessionID), "--header X-Session redacts it, echoes too")
        let har = try HAR.load(contentsOf: URL(fileURLWithPath: path))
        #expect(
          har.log.entries.map(\.request.url) == [
            upstream.url("/json").absoluteString, upstream.url("/json").absoluteString,
            upstream.url("/echo/login?page=1").absoluteString,
          ])
        #expect(!har.log.entries.contains { $0.request.headers.contains { $0.name == "Host" } })

        // The cassette replays through `serve`, with no upstream involved.
        let server = try await RunningServer.understudy(["serve", path])
        #expect(try await fetch(server.url("/json")).body == expected)
        #expect(try await fetch(server.url("/json")).body == expected)
        #expect(try await fetch(server.url("/json")).status == 404)
        _ = await server.stop()

        // Recording again replays what is there and adds only what is new.
        let again = try await RunningServer.understudy([
          "record", "--upstream", upstream.baseURL.absoluteString, "--to", path,
        ])
        #expect(again.output.contains("The 3 entries already in \(path) are replayed."))
        #expect(try await fetch(again.url("/json")).body == expected)
        #expect(try await fetch(again.url("/bytes/10")).status == 200)
        let endedAgain = await again.stop(SIGTERM)
        #expect(endedAgain.status == 0, "\(endedAgain.stderr)")
        #expect(endedAgain.stdout.contains("1 new entry, 4 in all."), "\(endedAgain.stdout)")
        #expect(try await fetch(upstream.url("/__hits")).body.contains(#""count": 4"#))
      }
      _ = await upstream.stop(SIGTERM)
    }

    /// The upstream's answer is gzip-compressed: the client gets it decoded, and so does the
    /// cassette. (A request whose own body is compressed is refused instead: no rule could read
    /// it; `UnreadableBodyTests`.)
    @Test func aGzippedAnswerReachesTheClientAndTheCassetteDecoded() async throws {
      let upstream = try await RunningServer.pythonUpstream()
      try await withTemporaryDirectory { directory in
        let path = directory.appendingPathComponent("gzip.har").path
        let recorder = try await RunningServer.understudy([
          "record", "--upstream", upstream.baseURL.absoluteString, "--to", path,
        ])
        let answer = try await fetch(recorder.url("/gzip?text=decoded"))
        #expect(answer.status == 200)
        #expect(answer.body == "decoded")
        #expect(await recorder.stop().status == 0)
        let entry = try #require(
          try HAR.load(contentsOf: URL(fileURLWithPath: path)).log.entries.first)
        #expect(entry.response.content.text == "decoded")
      }
      _ = await upstream.stop(SIGTERM)
    }

    /// A value an answer set (a cookie) and a later request sent back under an everyday name is
    /// masked in the line `record` prints for that request: the journal keeps the answers the
    /// log reads.
    @Test func aCookieAnEarlierAnswerSetIsMaskedWhereALaterRequestSendsItBack() async throws {
      let upstream = try await RunningServer.pythonUpstream()
      // What the upstream's /session sets; no request carries it before the answer does.
      let cookie = "sunrise.marmalade.42"
      try await withTemporaryDirectory { directory in
        let path = directory.appendingPathComponent("cookie.har").path
        let recorder = try await RunningServer.understudy([
          "record", "--upstream", upstream.baseURL.absoluteString, "--to", path,
        ])
        // curl keeps no cookies, so the later request carries the value in its query only.
        let login = try await curl(["--include", recorder.url("/session").absoluteString])
        #expect(login.contains("sid=\(cookie)"), "the client gets the real answer")
        _ = try await curl([recorder.url("/json?s=\(cookie)").absoluteString])
        let ended = await recorder.stop()
        #expect(ended.status == 0, "\(ended.stderr)")
        #expect(ended.stdout.contains("/json?s="), "\(ended.stdout)")
        #expect(!(ended.stdout + ended.stderr).contains(cookie), "\(ended.stdout)")
        #expect(!(try String(contentsOfFile: path, encoding: .utf8)).contains(cookie))
      }
      _ = await upstream.stop(SIGTERM)
    }

    @Test func aCredentialThatSurvivesRedactionKeepsTheCassetteUnwritten() async throws {
      let upstream = try await RunningServer.pythonUpstream()
      try await withTemporaryDirectory { directory in
        let path = directory.appendingPathComponent("leaky.har").path
        let recorder = try await RunningServer.understudy([
          "record", "--upstream", upstream.baseURL.absoluteString, "--to", path,
        ])
        // An access key ID's shape with no credential's name beside it: no rule removes it, and
        // the scanner finds it (beside `key`, a line's credential rule would redact it).
        let answer = try await fetch(
          recorder.url("/reply?type=text/plain"), method: "POST",
          body: Data("ref \(FakeSecret.aws)".utf8))
        #expect(answer.body == "ref \(FakeSecret.aws)")
        let ended = await recorder.stop()
        #expect(ended.status == 1)
        #expect(ended.stderr.contains("was not written"), "\(ended.stderr)")
        #expect(ended.stderr.contains("--body-regex"))
        #expect(!ended.stderr.contains(FakeSecret.aws), "findings are masked")
        #expect(!FileManager.default.fileExists(atPath: path))
      }
      _ = await upstream.stop(SIGTERM)
    }

    @Test func aWrongCommandLineIsAUsageError() async throws {
      let noUpstream = try await understudy("record", "--to", "a.har")
      #expect(noUpstream.status == 2)
      #expect(noUpstream.stderr.contains("--upstream"))
      let notHTTP = try await understudy("record", "--upstream", "ftp://x", "--to", "a.har")
      #expect(notHTTP.status == 2)
      #expect(notHTTP.stderr.contains("http:// or https://"))
      let badPort = try await understudy("serve", "a.har", "--port", "70000")
      #expect(badPort.status == 2)
      #expect(badPort.stderr.contains("0 to 65535"))
    }
  }
#endif
