import Foundation
import Testing
import Understudy

/// A known value of the tool's environment inside a credential field's NAME never reaches what
/// it writes or prints through the placeholder made from that name.
@Suite struct SecretInNameCLITests {
  static let value = "EnvNm5Kq8Wz2Rt7Y"
  private let environment = ["SECRET_IN_NAME_CLI_TOKEN": value]

  private func export(in directory: URL) throws -> String {
    try HAR(entries: [
      .exchange(
        url: "https://api.example.com/v1?\(Self.value)_api_key=qv-1",
        requestHeaders: [HAR.Header(name: "X-\(Self.value)-Token", value: "hv-1")],
        body: #"{"\#(Self.value)_password":"mv-1"}"#)
    ]).saved(as: "export.har", in: directory)
  }

  @Test(arguments: [["redact"], ["scan"], ["stub"]])
  func noCommandWritesAKnownValueFromAName(command: [String]) async throws {
    try await withTemporaryDirectory { directory in
      let path = try export(in: directory)
      let output = directory.appendingPathComponent("out.har").path
      let arguments = command == ["redact"] ? command + [path, "-o", output] : command + [path]
      let result = try await understudy(arguments, environment: environment)
      var texts = [result.output]
      if command == ["redact"] { texts.append(try String(contentsOfFile: output, encoding: .utf8)) }
      for text in texts {
        for spelling in [Self.value, Self.value.lowercased()] {
          #expect(!text.contains(spelling), "\(command) wrote \(spelling)")
        }
      }
    }
  }
}
