import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// `understudy inspect` on an export nobody redacted: one answer sets a cookie, a later entry
/// echoes its value in any spelling a cassette searches for (``SpelledEchoCases``), in its URL's
/// query and in its media type's parameters. Neither the table nor the JSON shows it (third
/// blind attack, P088: the hex echo was printed).
@Suite struct EchoSpellingCLITests {
  @Test(arguments: SpelledEchoCases.cases)
  func inspectMasksAnEchoInEverySpelling(_ spelling: SpelledEchoCases.Case) async throws {
    try await withTemporaryDirectory { directory in
      let query = spelling.fitsURL ? "?h=\(spelling.placed)" : ""
      let path = try HAR(entries: [
        .exchange(
          url: "http://h.test/login",
          responseHeaders: [HAR.Header(name: "Set-Cookie", value: "sid=\(SpelledEchoCases.value)")]
        ),
        .exchange(url: "http://h.test/x" + query, mimeType: "text/plain; h=\(spelling.placed)"),
      ]).saved(as: "export.har", in: directory)
      for arguments in [["inspect", path, "--json"], ["inspect", path]] {
        let result = try await understudy(arguments)
        #expect(result.status == 0, "\(result.output)")
        // The JSON's strings as a reader decodes them (`\\u0053` is printed for `\u0053`).
        var shown = [result.output]
        if arguments.contains("--json"), let data = result.stdout.data(using: .utf8),
          let document = try? JSONSerialization.jsonObject(with: data)
        {
          shown.append(Self.strings(in: document).joined(separator: "\n"))
        }
        for output in shown {
          #expect(
            !output.contains(spelling.evidence), "\(arguments) showed \(spelling): \(output)")
          #expect(!output.contains(SpelledEchoCases.value), "\(arguments): \(output)")
        }
      }
    }
  }

  private static func strings(in value: Any) -> [String] {
    switch value {
    case let text as String: [text]
    case let array as [Any]: array.flatMap(strings)
    case let object as [String: Any]: object.values.flatMap(strings)
    default: []
    }
  }
}
