import Foundation
import Testing

@testable import Understudy

/// Checks shared by the suites on secrets hidden by their spelling (YAML scalars, names behind
/// `/` and `:`, character references, MIME base64): the body recorded as a request's and a
/// response's body, and masked as a report masks it, holds no secret in any form a reader could
/// undo (as written, in base64 over lines, in character references), and redacting it again
/// changes nothing.
enum SpelledSecretChecks {
  static func expectHidden(
    _ body: String, mimeType: String, secrets: [String], redaction: Redaction = .default,
    masking: Bool = true, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws {
    let entry = HAR.Entry.sample(
      method: "POST", postData: HAR.PostData(mimeType: mimeType, text: body),
      content: HAR.Content(body: Data(body.utf8), mimeType: mimeType))
    let redacted = redaction.redact(HAR(entries: [entry]))
    let text = try redacted.encodedText
    let written = [
      text, redacted.log.entries[0].request.postData?.text ?? "",
      redacted.log.entries[0].response.content.text ?? "",
    ]
    for secret in secrets {
      for form in written.flatMap(readings) {
        #expect(
          !form.contains(secret), "\(body) kept \(secret): \(form)", sourceLocation: sourceLocation)
      }
      if masking {
        let masked = LogRedaction.mask(traffic: body)
        for form in readings(of: masked) {
          #expect(
            !form.contains(secret), "masking \(body) kept \(secret): \(masked)",
            sourceLocation: sourceLocation)
        }
      }
    }
    #expect(
      try redaction.redact(redacted).encodedText == text, "redacting \(body) is idempotent",
      sourceLocation: sourceLocation)
  }

  /// `text`, and what a reader gets from it by undoing character references and base64 (over
  /// lines, up to three times).
  static func readings(of text: String) -> [String] {
    var forms = [text, decodingReferences(text)]
    // A MIME part's base64, after the blank line that ends its headers.
    let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
    for chunk in normalized.components(separatedBy: "\n\n").dropFirst() {
      let lines = chunk.split(separator: "\n").prefix { !$0.isEmpty && !$0.hasPrefix("--") }
      if let data = Data(base64Encoded: lines.joined()) {
        forms.append(String(decoding: data, as: UTF8.self))
      }
    }
    var current = text
    for _ in 0..<3 {
      var standard = current.filter { !$0.isNewline && $0 != "\r\n" }
        .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
      while standard.utf8.count % 4 != 0 { standard += "=" }
      guard let data = Data(base64Encoded: standard) else { break }
      current = String(decoding: data, as: UTF8.self)
      forms.append(current)
    }
    return forms
  }

  /// `text` with every numeric character reference decoded.
  static func decodingReferences(_ text: String) -> String {
    var result = ""
    var rest = text[...]
    while let start = rest.range(of: "&#") {
      result += rest[..<start.lowerBound]
      var digits = rest[start.upperBound...]
      let isHex = digits.first == "x" || digits.first == "X"
      if isHex { digits = digits.dropFirst() }
      let number = digits.prefix { isHex ? $0.isHexDigit : $0.isNumber }
      guard !number.isEmpty, let value = UInt32(number, radix: isHex ? 16 : 10),
        let scalar = Unicode.Scalar(value)
      else {
        result += "&#"
        rest = rest[start.upperBound...]
        continue
      }
      result.unicodeScalars.append(scalar)
      var after = number.endIndex
      if after < rest.endIndex, rest[after] == ";" { after = rest.index(after: after) }
      rest = rest[after...]
    }
    return result + rest
  }
}
