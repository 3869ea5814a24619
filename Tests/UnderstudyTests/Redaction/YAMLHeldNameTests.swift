import Foundation
import Testing

@testable import Understudy

/// A YAML mapping that says in one key what another holds, as Kubernetes' env list does
/// (`- name: DB_PASSWORD` then `value: …`, in either order): the thirteenth blind attack found
/// the value written to cassettes, attachments, `understudy stub` output and reports.
@Suite struct YAMLHeldNameTests {
  static let heldNames = ["DB_PASSWORD", "API_TOKEN", "stripeSecretKey", "/prod/db/password"]

  /// Each layout, as a function of the name key, the held name and the value.
  static let layouts: [@Sendable (String, String, String) -> String] = [
    { "env:\n- \($0): LOG_LEVEL\n  value: info\n- \($0): \($1)\n  value: \($2)\n" },
    { "env:\n- value: \($2)\n  \($0): \($1)\n- value: info\n  \($0): LOG_LEVEL\n" },
    {
      "spec:\n  containers:\n  - name: web\n    env:\n    - \($0): \($1)\n      value: \"\($2)\"\n"
        + "    - \($0): PORT\n      value: \"80\"\n"
    },
    { "- \($0): '\($1)'  # from the vault\n  value: '\($2)'\n" },
    { "\($0): \($1)\nvalue: \($2)\n" },
    { "params:\n  - \($0): \"\($1)\"\n    type: String\n    value: \($2) # rotated\n" },
  ]

  @Test func aValueNamedByItsMappingsNameKeyIsReplacedInEveryOutput() throws {
    var checked = 0
    for (layout, write) in Self.layouts.enumerated() {
      for (index, held) in Self.heldNames.enumerated() {
        for key in ["name", "key", "Name"] {
          let secret = "Sequoia\(1970 + layout * 10 + index)!"
          let body = write(key, held, secret)
          for type in ["application/x-yaml", "text/plain"] {
            try SpelledSecretChecks.expectHidden(body, mimeType: type, secrets: [secret])
          }
          #expect(!LogRedaction.mask(body).contains(secret), "report \(body)")
          checked += 1
        }
      }
    }
    #expect(checked == Self.layouts.count * Self.heldNames.count * 3)
  }

  /// The same pairs in flow style (`env: [{name: DB_PASSWORD, value: …}]`, a block list of
  /// `- {name: …, value: …}`), scalars plain, single- or double-quoted, over lines, nested in
  /// flow collections.
  static let flowLayouts: [@Sendable (String, String, String) -> String] = [
    { "env: [{\($0): LOG_LEVEL, value: info}, {\($0): \($1), value: \($2)}]\n" },
    { "env:\n- {\($0): \($1), value: \($2)}\n- {\($0): PORT, value: \"80\"}\n" },
    { "- {value: '\($2)', \($0): '\($1)'}\n" },
    { "spec: {containers: [{name: web, env: [{\($0): \"\($1)\", value: \"\($2)\"}]}]}\n" },
    { "env: [\n  { \($0): \($1),\n    value: \($2) },\n]\n" },
    { "params: [{ \($0): \($1), type: String, value: \($2) }]  # rotated\n" },
  ]

  @Test func aValueNamedInAFlowMappingIsReplacedInEveryOutput() async throws {
    var checked = 0
    for (layout, write) in Self.flowLayouts.enumerated() {
      for (index, held) in Self.heldNames.enumerated() {
        for key in ["name", "key", "Name"] {
          let secret = "plain-pass-\(1970 + layout * 10 + index)x"
          let body = write(key, held, secret)
          for type in ["application/x-yaml", "text/plain"] {
            try SpelledSecretChecks.expectHidden(body, mimeType: type, secrets: [secret])
          }
          #expect(!LogRedaction.mask(body).contains(secret), "report \(body)")
          // The traffic attachment of a test that served it.
          let registry = StubRegistry()
          registry.stub(
            .get("https://api.example.test/env"),
            .text(body, headers: ["Content-Type": "application/x-yaml"]))
          _ = try await registry.makeSession().data(
            from: URL(string: "https://api.example.test/env")!)
          let attachment = String(
            decoding: try #require(
              TrafficAttachmentWriter.attachmentBytes(of: registry, testName: "t")),
            as: UTF8.self)
          #expect(!attachment.contains(secret), "attachment \(body): \(attachment)")
          checked += 1
        }
      }
    }
    #expect(checked == Self.flowLayouts.count * Self.heldNames.count * 3)
    // Everyday names, and a value no name key of its own mapping names, keep their bytes.
    for body in [
      "env: [{name: LOG_LEVEL, value: info}, {name: PORT, value: \"80\"}]\n",
      "- {name: DB_PASSWORD, items: [{value: kept-one}]}\n",
      "env: [{name: DB_PASSWORD}, {value: kept-two}]\n",
      "policy: {name: strength, value: kept-three}\n",
    ] {
      let (_, redacted) = redactedResponse(body, mimeType: "application/yaml")
      #expect(redacted == body, "\(body) -> \(redacted)")
      #expect(LogRedaction.mask(body) == body)
    }
  }

  /// Values named by everyday names are kept byte for byte, and so is a `value:` whose name key
  /// is in another item or deeper.
  @Test func everydayHeldNamesAreKept() {
    for body in [
      "env:\n- name: LOG_LEVEL\n  value: info\n- name: PORT\n  value: \"80\"\n",
      "- name: DB_PASSWORD\n  value: x1\n  items:\n  - value: kept-one\n",
      "- name: DB_PASSWORD\n- value: kept-two\n",
      "password_policy:\n  name: strength\n  value: kept-three\n",
    ] {
      let (_, redacted) = redactedResponse(body, mimeType: "application/yaml")
      for kept in ["info", "\"80\"", "kept-one", "kept-two", "kept-three"]
      where body.contains(kept) {
        #expect(redacted.contains(kept), "\(body) -> \(redacted)")
      }
    }
  }
}
