import Foundation
import Testing
import Understudy

/// The tool treats the values of its credential-named environment variables as known values:
/// they are replaced in every file it writes and masked in everything it prints, in every
/// spelling, wherever they stand (issue 40, parts 1 and 5).
@Suite struct KnownValueCLITests {
  static let value = "cliKnown_7Hq2/Zx9+Lp4&Vw8"

  /// The value's spellings as encoders write them, the parts a grep of an artifact looks for.
  static var spellings: [String] {
    let bytes = Data(value.utf8)
    var forms = [
      value,
      value.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!,
      value.replacingOccurrences(of: "/", with: "\\/").replacingOccurrences(
        of: "&", with: "\\u0026"),
      bytes.map { String(format: "%02x", $0) }.joined(),
    ]
    // Inside a longer base64 run, after 0, 1 and 2 other bytes: the characters of the value alone.
    for lead in 0..<3 {
      let encoded = Array(
        (Data(count: lead) + bytes).base64EncodedString().utf8.prefix { $0 != 61 })
      let before = (lead * 8 + 5) / 6
      let after = ((lead + bytes.count) * 8) % 6 == 0 ? 0 : 1
      forms.append(String(decoding: encoded[before..<(encoded.count - after)], as: UTF8.self))
    }
    return forms
  }

  /// An export with the value in a path, a header's name and value, a query, a JSON body with
  /// Go's escapes, a base64 blob and a hex dump: no rule names any of those places.
  private func export(in directory: URL) throws -> String {
    let go = Self.spellings[2]
    let blob = Data("{\"v\":\"\(Self.value)\"}".utf8).base64EncodedString()
    return try HAR(entries: [
      .exchange(
        url: "https://api.example.com/v1/\(Self.spellings[1])/report?q=\(Self.spellings[1])",
        requestHeaders: [
          HAR.Header(name: "X-Trace", value: Self.value),
          HAR.Header(name: "X-\(Self.spellings[1])", value: "1"),
        ],
        body: #"{"note":"\#(go)","blob":"\#(blob)","dump":"\#(Self.spellings[3])"}"#)
    ]).saved(as: "export.har", in: directory)
  }

  private let environment = ["KNOWN_VALUE_CLI_TOKEN": value]

  @Test func redactWritesNoSpellingOfAnEnvironmentValue() async throws {
    try await withTemporaryDirectory { directory in
      let path = try export(in: directory)
      let output = directory.appendingPathComponent("out.har").path
      let result = try await understudy(
        ["redact", path, "-o", output], environment: environment)
      let written = try String(contentsOfFile: output, encoding: .utf8)
      for spelling in Self.spellings {
        #expect(!written.contains(spelling), "the file holds \(spelling)")
        #expect(!result.output.contains(spelling))
      }
      #expect(written.contains("redacted:KNOWN_VALUE_CLI_TOKEN"))
    }
  }

  @Test(arguments: [["inspect"], ["inspect", "--json"], ["stub"], ["validate"], ["scan"]])
  func noCommandPrintsAnEnvironmentValue(command: [String]) async throws {
    try await withTemporaryDirectory { directory in
      let path = try export(in: directory)
      let result = try await understudy(command + [path], environment: environment)
      #expect(!result.output.isEmpty)
      for spelling in Self.spellings {
        #expect(!result.output.contains(spelling), "\(command) printed \(spelling)")
      }
    }
  }

  /// A variable whose name reads as no credential's is declared by name with
  /// `--value-from-env`: `redact`, `convert` and `scan` then treat its value as a known value.
  @Test(arguments: ["redact", "convert", "scan"])
  func aValueNamedByValueFromEnvIsReplacedAndNeverPrinted(command: String) async throws {
    try await withTemporaryDirectory { directory in
      let path = try export(in: directory)
      let output = directory.appendingPathComponent("out.har").path
      var arguments = [command, path]
      if command != "scan" { arguments += ["-o", output] }
      let result = try await understudy(
        arguments + ["--value-from-env", "DEPLOY_REF"], environment: ["DEPLOY_REF": Self.value])
      for spelling in Self.spellings {
        #expect(!result.output.contains(spelling), "\(command) printed \(spelling)")
      }
      if command != "scan" {
        let written = try String(contentsOfFile: output, encoding: .utf8)
        for spelling in Self.spellings {
          #expect(!written.contains(spelling), "\(command) wrote \(spelling)")
        }
        #expect(written.contains("redacted:DEPLOY_REF"))
      }
    }
  }

  /// A variable that is not set, or whose value is too short to be a secret (it would replace
  /// every place it occurs), is a usage error that names it, never a silent run.
  @Test(arguments: [
    ("NOT_SET_ANYWHERE_42", nil, "--value-from-env NOT_SET_ANYWHERE_42: no such"),
    ("SHORT_REF", "…", "--value-from-env SHORT_REF: the value has 1 characters"),
  ])
  func aVariableThatHoldsNoSecretIsAUsageError(name: String, value: String?, message: String)
    async throws
  {
    try await withTemporaryDirectory { directory in
      let path = try export(in: directory)
      let result = try await understudy(
        [
          "redact", path, "-o", directory.appendingPathComponent("out.har").path,
          "--value-from-env", name,
        ], environment: value.map { [name: $0] } ?? [:])
      #expect(result.status == 2)
      #expect(result.output.contains(message), "\(result.output)")
    }
  }
}
