/// The near-miss report a loopback server sends as the body of its `404`.
///
/// The body goes to another process (a curl log, a UI test's console), so the request's
/// credentials are masked with the placeholders recording uses: every value of a header or query
/// parameter that ``Redaction/default`` redacts becomes `<redacted:NAME>` wherever the report
/// shows it.
enum ServedReport {
  static func masked(_ report: NearMissReport) -> String {
    var text = report.description
    let redaction = Redaction.default
    var secrets: [(value: String, name: String)] = []
    for field in report.request.headers
    where redaction.headerNames.contains(where: { $0.caseInsensitiveEquals(field.name) }) {
      secrets.append((field.value, field.name.lowercased()))
    }
    for item in report.request.queryItems
    where redaction.queryParameterNames.contains(where: { $0.caseInsensitiveEquals(item.name) }) {
      if let value = item.value {
        secrets.append((value, item.name.lowercased()))
        // The URL in the headline shows the value as sent, percent-encoded.
        if let encoded = value.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) {
          secrets.append((encoded, item.name.lowercased()))
        }
      }
    }
    // Longest first, so a value that contains another is replaced whole.
    for secret in secrets.sorted(by: { $0.value.count > $1.value.count })
    where !secret.value.isEmpty {
      text = text.replacingOccurrences(
        of: secret.value, with: RedactionPlaceholder.text(secret.name))
    }
    return text
  }
}
