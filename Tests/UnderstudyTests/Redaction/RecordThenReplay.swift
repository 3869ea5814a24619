import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Records the request `make` builds against a real loopback server into a fresh cassette,
/// expects no file the recording left to hold `secret`, then replays the request with a
/// cassette that never records: the live request, redacted as the stored one was, must find its
/// entry under `matching`.
func expectRecordedAndReplayed(
  keeping secret: String, matching: ReplayMatching,
  sourceLocation: Testing.SourceLocation = #_sourceLocation,
  _ make: (LoopbackServer) -> URLRequest
) async throws {
  let server = try await LoopbackServer.start()
  defer { server.stop() }
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("understudy-replayed-\(UUID().uuidString)")
  defer { try? FileManager.default.removeItem(at: folder) }
  let file = folder.appendingPathComponent("replayed.har")
  let request = make(server)

  let recording = StubRegistry()
  let recorder = Cassette(at: file, mode: .missing, options: CassetteOptions(matching: matching))
  recording.use(recorder)
  _ = try await recording.makeSession().data(for: request)
  #expect(recorder.finish().isEmpty, sourceLocation: sourceLocation)
  let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
  while let written = files?.nextObject() as? URL {
    let data = try Data(contentsOf: written)
    #expect(
      data.range(of: Data(secret.utf8)) == nil, "\(written.lastPathComponent) holds it",
      sourceLocation: sourceLocation)
  }

  let replaying = StubRegistry()
  let replayer = Cassette(at: file, mode: .never, options: CassetteOptions(matching: matching))
  replaying.use(replayer)
  let (_, response) = try await replaying.makeSession().data(for: request)
  #expect((response as? HTTPURLResponse)?.statusCode == 200, sourceLocation: sourceLocation)
  #expect(replayer.finish().isEmpty, sourceLocation: sourceLocation)
}
