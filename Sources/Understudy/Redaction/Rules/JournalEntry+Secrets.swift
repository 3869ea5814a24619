import Foundation

extension JournalEntry {
  /// The values `redaction` removes from this exchange (its request, and its answer when it has
  /// one; the first ``RequestSecrets/bodyLimit`` bytes of each body), for a tool that prints the
  /// traffic it serves: a value one exchange carried is masked in every later line that repeats
  /// it (a cookie set by one answer and sent in the next request's query).
  package func removedValues(by redaction: Redaction) -> Set<String> {
    var request = request
    let limit = RequestSecrets.bodyLimit
    if let body = request.body, body.count > limit { request.body = body.prefix(limit) }
    let answer: HAR.Response
    if let response, let status = response.status {
      answer = HAR.Response(
        status: status, headers: response.headers, body: response.body.map { $0.prefix(limit) })
    } else {
      answer = HAR.Response(status: 0, headers: [:], body: nil)
    }
    return redaction.removedValues(
      from: HAR.Entry(request: request, response: answer, startedDateTime: date, duration: .zero)
    )
    .filter { $0.count >= Redaction.minimumEchoLength }
  }
}

extension LogRedaction {
  /// `text` masked as ``mask(_:noting:)`` masks it, and each of `values` masked wherever it
  /// stands, as written or percent-encoded.
  package static func mask(_ text: String, hiding values: some Collection<String>) -> String {
    mask(text, naming: nil, echoes: values.sorted { $0.count > $1.count })
  }
}
