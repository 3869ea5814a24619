import Foundation
import Testing

@testable import Understudy

extension RecordingTests {
  @Suite struct AtomicWriteTests {
    private struct Interrupted: Error {}

    private let old = HAR(entries: [.sample(url: "https://example.com/old")])
    private let new = HAR(entries: [.sample(url: "https://example.com/new")])

    private func contents(of directory: URL) throws -> [String] {
      try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test func writeCreatesIntermediateDirectories() throws {
      try withTemporaryDirectory { directory in
        let url = directory.appendingPathComponent("Cassettes/Users/list.har")
        try new.write(to: url)
        #expect(try HAR.load(contentsOf: url) == new)
        #expect(try Data(contentsOf: url) == new.encoded())
      }
    }

    @Test func writeReplacesAnExistingCassetteAndLeavesNothingElse() throws {
      try withTemporaryDirectory { directory in
        let url = directory.appendingPathComponent("cassette.har")
        try old.write(to: url)
        try new.write(to: url)
        #expect(try HAR.load(contentsOf: url) == new)
        #expect(try contents(of: directory) == ["cassette.har"])
      }
    }

    @Test func aWriteThatFailsBeforeTheRenameKeepsTheOldFileAndNoTemporaryFile() throws {
      try withTemporaryDirectory { directory in
        let url = directory.appendingPathComponent("cassette.har")
        try old.write(to: url)
        let before = try Data(contentsOf: url)
        let error = cassetteError {
          try AtomicFile.replaceContents(of: url, with: try new.encoded()) { throw Interrupted() }
        }
        #expect(error?.kind == .writeFailed)
        #expect(error?.fix.contains("previous cassette") == true)
        #expect(try Data(contentsOf: url) == before)
        #expect(try contents(of: directory) == ["cassette.har"])
      }
    }

    @Test func aRenameThatFailsRemovesTheTemporaryFile() throws {
      try withTemporaryDirectory { directory in
        // A non-empty directory where the cassette should go makes rename(2) fail.
        let url = directory.appendingPathComponent("cassette.har")
        try FileManager.default.createDirectory(
          at: url.appendingPathComponent("inside"), withIntermediateDirectories: true)
        let error = cassetteError { try new.write(to: url) }
        #expect(error?.kind == .writeFailed)
        #expect(error?.problem.contains("could not move the new cassette into place") == true)
        #expect(try contents(of: directory) == ["cassette.har"])
        #expect(try contents(of: url) == ["inside"])
      }
    }

    @Test func aParentThatIsAFileIsReported() throws {
      try withTemporaryDirectory { directory in
        let file = directory.appendingPathComponent("plain")
        try Data().write(to: file)
        let error = cassetteError { try new.write(to: file.appendingPathComponent("x.har")) }
        #expect(error?.kind == .writeFailed)
        #expect(error?.problem.contains("could not create the directory") == true)
      }
    }

    @Test func replacingKeepsTheFilesPermissions() throws {
      try withTemporaryDirectory { directory in
        let url = directory.appendingPathComponent("cassette.har")
        try old.write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        try new.write(to: url)
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
      }
    }

    @Test func writingThroughASymbolicLinkUpdatesItsTarget() throws {
      try withTemporaryDirectory { directory in
        let target = directory.appendingPathComponent("real.har")
        let link = directory.appendingPathComponent("link.har")
        try old.write(to: target)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        try new.write(to: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try HAR.load(contentsOf: target) == new)
      }
    }

    /// Readers racing two writers only ever see one whole cassette or the other.
    @Test func concurrentWritersNeverLeaveAMixedFile() async throws {
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("understudy-har-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: directory) }
      let url = directory.appendingPathComponent("cassette.har")
      let versions = [
        try HAR(entries: Array(repeating: .sample(url: "https://a.example/"), count: 40)).encoded(),
        try HAR(entries: Array(repeating: .sample(url: "https://b.example/"), count: 60)).encoded(),
      ]
      try AtomicFile.replaceContents(of: url, with: versions[0])
      try await withThrowingTaskGroup(of: Void.self) { group in
        for data in versions {
          group.addTask {
            for _ in 0..<25 { try AtomicFile.replaceContents(of: url, with: data) }
          }
        }
        group.addTask {
          for _ in 0..<50 {
            let read = try Data(contentsOf: url)
            #expect(versions.contains(read))
          }
        }
        try await group.waitForAll()
      }
      #expect(try contents(of: directory) == ["cassette.har"])
    }
  }
}
