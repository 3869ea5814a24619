extension CompiledRedaction {
  /// Each run of `text` that is base64, hex or base32 of text (``EncodedTextRuns``: in an XML
  /// element, a CSV cell, an HTML attribute, a log line, a multipart part, an event stream),
  /// read as the body it holds; one the rules change is written back in its spelling.
  func encodedRunReplacements(
    in text: String, includingWhole: Bool = false, echoes: inout RedactionEchoes
  ) -> [(Range<Int>, String)] {
    var replacements: [(Range<Int>, String)] = []
    for run in EncodedTextRuns.runs(in: text, includingWhole: includingWhole) {
      var redacted = redactBody(run.text, mimeType: "", echoes: &echoes)
      // Lines cut an echo's base64: it is searched for in the text they hold, as a MIME part's.
      if case .base64(_, _, let width, _) = run.spelling, width > 0, !echoes.isEmpty {
        redacted = echoes.replace(in: redacted, field: .text)
      }
      guard redacted != run.text else { continue }
      replacements.append((run.range, EncodedTextRuns.encoded(redacted, as: run.spelling)))
    }
    return replacements
  }
}

extension CompiledRedaction {
  /// `value` (a header's, a query or form value) with each run of base64, hex or base32 of text
  /// in it, the whole of it too, opened as ``encodedRunReplacements(in:includingWhole:echoes:)``
  /// opens a body's; `nil` when no rule changes what they hold.
  func openedEncodedRuns(in value: String, echoes: inout RedactionEchoes) -> String? {
    let replacements = encodedRunReplacements(in: value, includingWhole: true, echoes: &echoes)
    return replacements.isEmpty ? nil : Self.splice(value, replacements)
  }
}
