import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Replay's public suite (mattt/Replay, `Tests/ReplayTests/`) in Understudy's API, for users who
/// migrate: filters become `Redaction` and `beforeRecord` hooks (`ReplayPortTests.Filters`),
/// matchers become `ReplayMatching` rules (`ReplayPortTests.Matchers`, `ReplayPortTests.FirstMatch`), and playback, recording
/// modes and stubs are cassettes and registries (`ReplayPortTests.Playback`). Peer tests already
/// answered elsewhere are named where they belong; those that test Replay's own machinery are
/// listed at the end of this file.
@Suite struct ReplayPortTests {
  /// A folder of its own for one test's cassettes, removed by `cleanUp`.
  static func scratchFolder() -> URL {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("understudy-replay-port-\(UUID().uuidString)")
  }

  static func cleanUp(_ folder: URL) {
    try? FileManager.default.removeItem(at: folder)
  }

  /// Records `request` against the loopback server into a fresh cassette with `options`, and
  /// returns what was written.
  static func record(
    _ request: URLRequest, options: CassetteOptions, in folder: URL
  ) async throws -> HAR {
    let file = folder.appendingPathComponent("recorded.har")
    let registry = StubRegistry()
    let recorder = Cassette(at: file, mode: .missing, options: options)
    registry.use(recorder)
    _ = try await registry.makeSession().data(for: request)
    let failures = recorder.finish()
    #expect(failures.isEmpty, "\(failures)")
    return try HAR.load(contentsOf: file)
  }
}

extension ReplayPortTests {
  /// Replay's `RecordingModeTests` and the observable parts of `PlaybackTests`: what a cassette
  /// does with a missing archive, with inline stubs, and with a request nothing answers.
  @Suite struct Playback {
    /// `RecordingModeTests` (the modes exist, are distinct, and the environment chooses one):
    /// Understudy's modes are `RecordMode`, chosen by `UNDERSTUDY_RECORD`, and replay-only
    /// when it is unset.
    @Test func theEnvironmentChoosesTheRecordingModeAndReplayIsTheDefault() {
      #expect(RecordMode.effective(.never, environment: [:]) == .never)
      let spelled: [String: RecordMode] = [
        "never": .never, "missing": .missing, "new_episodes": .newEpisodes, "all": .all,
        "drift_check": .driftCheck, "New-Episodes": .newEpisodes,
      ]
      for (value, mode) in spelled {
        #expect(RecordMode.effective(.never, environment: ["UNDERSTUDY_RECORD": value]) == mode)
      }
      #expect(Set(spelled.values).count == 5)
    }

    /// `PlaybackStoreTests.configureWithMissingFileStrictThrows`: replaying an archive that
    /// does not exist fails, and says so.
    @Test func replayingAMissingArchiveFails() async throws {
      let folder = ReplayPortTests.scratchFolder()
      defer { ReplayPortTests.cleanUp(folder) }
      let registry = StubRegistry()
      let cassette = Cassette(at: folder.appendingPathComponent("absent.har"), mode: .never)
      registry.use(cassette)
      await #expect(throws: (any Error).self) {
        _ = try await registry.makeSession().data(from: URL(string: "https://api.test/users")!)
      }
      let failures = cassette.finish()
      #expect(!failures.isEmpty)
      #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    /// `PlaybackStoreTests.configureWithMissingFileRecordingSucceeds`: with recording on, a
    /// missing archive is no error; it is recorded.
    @Test func recordingIntoAMissingArchiveWritesIt() async throws {
      let server = try await LoopbackServer.shared()
      let folder = ReplayPortTests.scratchFolder()
      defer { ReplayPortTests.cleanUp(folder) }
      let har = try await ReplayPortTests.record(
        URLRequest(url: server.url("/echo/first")), options: CassetteOptions(), in: folder)
      #expect(har.log.entries.count == 1)
      #expect(har.log.entries.first?.request.url.hasSuffix("/echo/first") == true)
    }

    /// `PlaybackStoreTests.configureWithStubs`, `getAvailableEntries` and
    /// `handleRequestMatching`: inline stubs answer each method with their status and headers.
    @Test func inlineStubsAnswerEveryMethod() async throws {
      let registry = StubRegistry()
      let methods: [(HTTPMethod, Int)] = [
        (.get, 200), (.post, 201), (.put, 200), (.delete, 204), (.patch, 200), (.head, 200),
        (.options, 200), (HTTPMethod(rawValue: "SYNC"), 200),
      ]
      for (method, status) in methods {
        // Replay's stub answers DELETE with 204 and a body; Understudy refuses a 204 that
        // carries one (MigratingFromReplay.md), so this one has none.
        let answer: StubResponse =
          status == 204
          ? .status(204).header("X-Answer", method.rawValue)
          : .text(method.rawValue, status: status, headers: ["X-Answer": method.rawValue])
        registry.stub(.method(method) && .url("https://api.test/users"), answer)
      }
      let session = registry.makeSession()
      for (method, status) in methods {
        var request = URLRequest(url: URL(string: "https://api.test/users")!)
        request.httpMethod = method.rawValue
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == status)
        #expect(http.value(forHTTPHeaderField: "X-Answer") == method.rawValue)
        if method != .head && status != 204 {
          #expect(String(decoding: data, as: UTF8.self) == method.rawValue)
        }
      }
    }

    /// `StubTests.replayFromStubs`: a test's inline stubs answer `URLSession.shared` when the
    /// trait intercepts it (such tests run one at a time, as Replay's global scope does).
    @Test(
      .stubs(interceptingSharedSession: true) {
        $0.stub(.get("https://replay-port.test/hello"), .text("OK"))
      })
    func inlineStubsAnswerTheSharedSession() async throws {
      let url = try #require(URL(string: "https://replay-port.test/hello"))
      let (data, response) = try await URLSession.shared.data(from: url)
      #expect((response as? HTTPURLResponse)?.statusCode == 200)
      #expect(String(decoding: data, as: UTF8.self) == "OK")
    }

    /// `PlaybackStoreTests.handleRequestStrictNoMatch`: a request no stub matches fails rather
    /// than reaching the network.
    @Test func aRequestNothingMatchesFails() async throws {
      let registry = StubRegistry()
      registry.stub(.get("https://api.test/api"), .text("Success"))
      await #expect(throws: (any Error).self) {
        _ = try await registry.makeSession().data(from: URL(string: "https://other.test/")!)
      }
      #expect(registry.unmatchedReports.count == 1)
    }
  }
}

// MARK: - Not portable
//
// Peer tests that check Replay's own machinery, with no counterpart a migrating user relies on:
//
// FilterTests
// - CustomFilterTests.supportsAsyncOperations: Understudy's `beforeRecord` hook is synchronous
//   by design (it runs once per write, bounded by `hookTimeout`); there is no async filter.
// - ConvenienceExtensionTests (headersVariadic, headersVariadicWithReplacement,
//   headersRemovingArray, queryParametersVariadic, queryParametersVariadicWithReplacement,
//   queryParametersRemovingArray, bodyReplacing): spellings of the same filter; Understudy has one
//   variadic spelling per rule, exercised by the ports in `Filters`.
// - ConvenienceExtensionTests.headersRemovingDefaultReplacement,
//   queryParametersRemovingDefaultReplacement, bodyReplacingDefaultReplacement: Replay's default
//   text is `[FILTERED]`; Understudy's default is a `<redacted:NAME>` placeholder by design
//   (`ReplacementTextTests.withoutAReplacementPlaceholdersAreWritten`).
// - BodyTransformTests.ignoresNonMatchingTypes, handlesBase64EncodedContent,
//   handlesInvalidBase64Gracefully, handlesNonJSONContentGracefully: the decoding is the user's
//   own code inside a `beforeRecord` hook; nothing of Understudy's runs.
// - BodyTransformTests.transformsResponseBody: the same hook as
//   `Filters.aHookRewritesADecodedRequestBody`, applied to `response.content` instead.
// - AllowlistTests.queryParametersKeepingCaseSensitive: the allow-list is the user's hook code
//   (`Filters.aHookKeepsOnlyTheNamedQueryParameters` shows the hook).
//
// MatcherTests
// - QueryMatcherTests.doesNotMatchWhenRequestHasNilURL, doesNotMatchWhenCandidateHasNilURL: an
//   intercepted request always has a URL (URLSession refuses a request without one).
// - ArrayExtensionTests.matchesSingleRequest: Replay's convenience of matching a request with
//   itself; answered in passing by `Matchers.theDefaultRulesAreMethodAndURL`.
//
// PlaybackTests
// - ReplayScopeTests, SourceTests, ConfigurationTests: Replay's configuration types (Understudy's
//   scoping is per registry; see Scoping.md).
// - PlaybackStoreRegistryTests, PlaybackStoreTests.sharedInstance, clearResetsState,
//   clearAllowsReconfiguration, handleRequestNotConfigured, configureWithEntries,
//   configureWithLog_populatesEntries_removedCase: Replay's global store and its keys; an
//   Understudy registry lives for one test and is never reconfigured.
//
// RecordingModeTests
// - EquatableTests, CurrentPropertyTests.returnsValidMode: enum conformances of Replay's type.
//
// Not examined in this port: ArchiveResolutionTests (archive naming is `ArchiveNameTests`),
// CaptureTests, CookieFilterArchiveTests, QueryFilterArchiveTests, HARTests, LocalScopeTests,
// ReplayErrorTests, ReplayHTTPClientTests, ReplayNamespaceTests, ReplayTests, ReplayTraitTests.
