import Foundation
import Testing

@testable import Understudy

/// The parent of every recording suite, so `swift test --filter Recording` selects them all.
@Suite enum RecordingTests {}

/// Paths to the package's `Fixtures/HAR` folder, found from this file so tests run from any
/// working directory.
enum HARFixtures {
  static let directory: URL = {
    var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path)
    {
      url.deleteLastPathComponent()
    }
    return url.appendingPathComponent("Fixtures/HAR")
  }()

  static func url(_ name: String) -> URL {
    directory.appendingPathComponent(name)
  }
}

/// Runs `body` with a fresh directory of its own, removed afterwards, so parallel tests never
/// share files.
func withTemporaryDirectory<Result>(_ body: (URL) throws -> Result) throws -> Result {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("understudy-har-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  return try body(directory)
}

/// Credential-shaped strings built at run time, so the repository itself never holds a string
/// that secret scanners (ours or a host's) would flag.
enum FakeSecret {
  static let gitHub = "ghp" + "_" + "R4nd0mT0k3nV4lu3F0rT3st1ngOnly0123"
  static let aws = "AKIA" + "IOSFODNN7EXAMPLE"
  static let slack = "xoxb" + "-1234567890-abcdefghijkl"
  static let stripe = "sk_live" + "_51Hq2xYzAbCdEfGhIjKl"
  static let google = "AIza" + "SyD-1234567890abcdefghijklmnopqrstu"
  static let gitLab = "glpat" + "-xY12zW34vU56tS78rQ90"
  static let openAI = "sk" + "-proj-abcdefghijklmnopqrstuvwxyz012345"
  static let jwt =
    "eyJ"
    + "hbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
  static let bearer = "Bearer " + "opaque-token-0123456789abcdef"
  static let basic = "Basic " + Data("ada:correct horse".utf8).base64EncodedString()
  static let pemHeader = "-----BEGIN " + "RSA PRIVATE KEY-----"
}

extension HAR.Entry {
  /// A small exchange for tests that only care about one part of it.
  static func sample(
    method: String = "GET", url: String = "https://api.example.com/users/7",
    requestHeaders: [HAR.Header] = [], postData: HAR.PostData? = nil,
    status: Int = 200, responseHeaders: [HAR.Header] = [],
    content: HAR.Content = HAR.Content(body: Data("{\"id\":7}".utf8), mimeType: "application/json")
  ) -> HAR.Entry {
    HAR.Entry(
      startedDateTime: Date(timeIntervalSince1970: 1_700_000_000.123),
      time: 12.5,
      request: HAR.Request(method: method, url: url, headers: requestHeaders, postData: postData),
      response: HAR.Response(
        status: status, statusText: "OK", headers: responseHeaders, content: content))
  }
}

extension HAR {
  /// The encoded cassette as text, for assertions about what a file would hold.
  var encodedText: String {
    get throws { String(decoding: try encoded(), as: UTF8.self) }
  }
}

/// The `CassetteError` that `body` throws, or `nil` when it throws nothing or something else.
func cassetteError(_ body: () throws -> Void) -> CassetteError? {
  do {
    try body()
    return nil
  } catch let error as CassetteError {
    return error
  } catch {
    return nil
  }
}
