import Foundation
import Testing

@testable import Understudy

/// A file that exists and passes every check but fails when read: its error names the system's
/// reason, not Foundation's "The operation could not be completed. (NSCocoaErrorDomain error
/// 256.)". On Linux `/proc/self/mem` is such a file for every user, root included (reading its
/// first page gives EIO); a `chmod 000` file is not, since the tests run as root here.
@Suite struct FileReadFailureTests {
  #if os(Linux)
    private static let failingFile = URL(fileURLWithPath: "/proc/self/mem")

    @Test func aCassetteThatFailsToReadNamesTheReason() throws {
      #expect(FileManager.default.isReadableFile(atPath: Self.failingFile.path))
      let error = try #require(throws: CassetteError.self) {
        try HAR.load(contentsOf: Self.failingFile)
      }
      #expect(error.kind == .unreadable)
      #expect(error.file == "/proc/self/mem")
      #expect(error.problem == "the file could not be read (Input/output error)")
    }

    @Test func aTemplateThatFailsToReadNamesTheReason() {
      #expect(
        StubResponse.fixture(at: Self.failingFile, templated: true).problem
          == "fixture template at /proc/self/mem could not be read (Input/output error)")
    }

    /// It is a regular, readable file, so the stub is accepted; the read fails per request,
    /// whether the body goes out in slices or in parts sent on a plan. A failed read is never
    /// passed off as a shorter body.
    @Test(arguments: [nil, [BodyChunk(size: 4, delay: 0), BodyChunk(size: 4, delay: 0)]])
    func aFixtureThatFailsWhileStreamingFailsTheRequestWithTheReason(parts: [BodyChunk]?)
      async throws
    {
      let registry = StubRegistry()
      var response = StubResponse.fixture(at: Self.failingFile)
      response.chunks = parts
      registry.stub(.get("https://api.test/dump"), response)
      let error = try await #require(throws: URLError.self) {
        try await registry.makeSession().data(from: URL(string: "https://api.test/dump")!)
      }
      #expect(error.code == .cannotDecodeContentData)
      #expect(
        error.localizedDescription.contains(
          "Understudy: reading the fixture failed (Input/output error)"),
        "\(error.localizedDescription)")
    }
  #endif

  /// A fixture that passed its checks but is gone when a request opens it: only a race makes
  /// one, so the message is checked with the error a real open of a missing file throws.
  @Test func aFixtureThatCannotBeOpenedNamesTheReason() throws {
    let missing = FileManager.default.temporaryDirectory
      .appendingPathComponent("understudy-gone-\(UUID().uuidString).json")
    let error = try #require(throws: (any Error).self) {
      _ = try FileHandle(forReadingFrom: missing)
    }
    #expect(
      ResponseBody.cannotOpen(missing, because: error)
        == "Understudy: cannot open fixture file \(missing.path) (No such file or directory)")
  }

  @Test func aDirectoryThatCannotBeCreatedNamesTheReasonAndWhere() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("understudy-read-failure-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("plain")
    try Data().write(to: file)
    let cassette = file.appendingPathComponent("a/b/x.har")
    let error = try #require(throws: CassetteError.self) {
      try HAR(entries: []).write(to: cassette)
    }
    #expect(error.kind == .writeFailed)
    let directoryPath = "\(file.path)/a/b"
    #expect(
      error.problem.hasPrefix("could not create the directory \(directoryPath) (Not a directory"),
      "\(error.problem)")
    #if os(Linux)
      // Linux's Foundation names where creation failed, the first directory below the file,
      // and it follows the reason (not checked on Darwin, whose Foundation may name another).
      #expect(error.problem.hasSuffix("(Not a directory: \(file.path)/a)"))
    #endif
  }
}
