import Testing

@testable import Understudy

/// Replay's archive names (`Traits.swift` takes a name ending in `.har` as the file name): a
/// cassette called `x.har` is the file `x.har`, never `x.har.har`.
@Suite struct ArchiveNameTests {
  @Test(arguments: ["fetchUser.har", "fetchUser.HAR", "fetchUser"])
  func aNameEndingInHARIsTakenAsIs(name: String) {
    let folder = URL(fileURLWithPath: "/App/Replays")
    let expected = name.lowercased().hasSuffix(".har") ? name : name + ".har"
    #expect(
      CassetteLocation.folder(folder).url(forCassetteNamed: name, testFilePath: "/x.swift")
        .lastPathComponent == expected)
    #expect(
      CassetteLocation.besideTestFile.url(
        forCassetteNamed: name, testFilePath: "/App/Tests/AppTests/UserTests.swift"
      ).path == "/App/Tests/AppTests/__Cassettes__/UserTests/\(expected)")
  }

  @Test func aNameThatIsOnlyTheExtensionStillGetsOne() {
    #expect(CassetteName.fileName(".har") == "har.har")
    #expect(CassetteName.fileName("users.har.json") == "users.har.json.har")
  }

  @Test func aCassetteNamedWithItsExtensionReplaysItsFile() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("archive-name-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let har = HAR(entries: [.sample(url: "https://api.test/user")])
    try har.encoded().write(to: folder.appendingPathComponent("fetchUser.har"))
    let file = CassetteLocation.folder(folder).url(
      forCassetteNamed: "fetchUser.har", testFilePath: #filePath)
    let registry = StubRegistry()
    registry.use(Cassette(at: file, mode: .never))
    let (data, _) = try await registry.makeSession().data(
      from: URL(string: "https://api.test/user")!)
    #expect(String(decoding: data, as: UTF8.self) == "{\"id\":7}")
  }
}
