import Foundation

/// The values a request holds under credentials' names: a report masks them by name where they
/// stand, and wherever else the request repeats them (a key in the path, in a pair whose name
/// says nothing, in the body), as a cassette's echoes are.
enum RequestSecrets {
  /// Values of at least ``Redaction/minimumEchoLength`` characters, longest first: credential
  /// headers and the secrets inside them, as a cassette remembers them (the credentials after a
  /// scheme, a Basic pair decoded, cookies), credential-named query and form pairs, and string
  /// members of a JSON body under credential names.
  static func values(of request: InterceptedRequest, redaction: Redaction?) -> [String] {
    let naming = redaction.map(NamedSecrets.init)
    var values = removed(from: request, by: redaction ?? .default)
    for field in request.headers
    where NamedSecrets.isSecret(field.name, at: .header, naming: naming) {
      values.formUnion(RedactionEchoes.secrets(inHeaderValue: field.value, named: field.name))
    }
    var pairs = NameValuePairs(request.queryItems).pairs
    if let text = request.bodyText {
      if request.headers["Content-Type"]?.lowercased().contains("x-www-form-urlencoded") == true {
        pairs += NameValuePairs(encoded: text[...], plusIsSpace: true).pairs
      } else if let json = try? JSONSerialization.jsonObject(
        with: Data(text.utf8), options: [.fragmentsAllowed])
      {
        collect(json, into: &values, naming: naming)
      }
    }
    for pair in pairs where NamedSecrets.isSecret(pair.name, at: .parameter, naming: naming) {
      values.insert(pair.value)
    }
    return values.filter { $0.count >= Redaction.minimumEchoLength }
      .sorted { $0.count > $1.count }
  }

  /// How much of a body the report's own redaction reads: a report prints the start of a body,
  /// and a value further on is one it does not print.
  static let bodyLimit = 64 * 1024

  /// The values the cassette's redaction removes from `request` (the first ``bodyLimit`` bytes
  /// of its body): one judgement for what a cassette writes and what a report prints, so a
  /// report masks a multipart part, an XML element or a text assignment's value wherever else
  /// it shows it (a stub's `body(containing:)`, a mismatch line) as the cassette would.
  private static func removed(from request: InterceptedRequest, by redaction: Redaction)
    -> Set<String>
  {
    var request = request
    if let body = request.body, body.count > bodyLimit { request.body = body.prefix(bodyLimit) }
    return redaction.removedValues(
      from: HAR.Entry(
        startedDateTime: Date(timeIntervalSince1970: 0), time: 0, request: HAR.Request(request),
        response: HAR.Response(status: 0, headers: [:], body: nil)))
  }

  private static func collect(_ json: Any, into values: inout Set<String>, naming: NamedSecrets?) {
    if let object = json as? [String: Any] {
      for (name, value) in object {
        if let text = value as? String,
          NamedSecrets.isSecret(name, at: .jsonMember, naming: naming)
        {
          values.insert(text)
        } else {
          collect(value, into: &values, naming: naming)
        }
      }
    } else if let array = json as? [Any] {
      for element in array { collect(element, into: &values, naming: naming) }
    }
  }
}
