import Foundation

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A distinct value per test and place, built at run time so the source holds no secret
/// literal: `S3CRET`, up to 8 letters of `place`, and 8 random characters.
func plantedSecret(_ place: String) -> String {
  "S3CRET" + place.filter(\.isLetter).prefix(8) + String(UUID().uuidString.prefix(8))
}

/// `body` as one entry's response under `mimeType`, redacted by the default rules: the archive
/// and the response body's text as written.
func redactedResponse(_ body: String, mimeType: String) -> (HAR, String) {
  let entry = HAR.Entry.sample(content: HAR.Content(body: Data(body.utf8), mimeType: mimeType))
  let redacted = Redaction.default.redact(HAR(entries: [entry]))
  return (redacted, redacted.log.entries[0].response.content.text ?? "")
}

/// Secrets planted in every part of a request a log could print, each value distinct so a grep
/// over the output names the place that leaked.
struct PlantedSecrets {
  private(set) var planted: [(place: String, value: String)] = []

  /// A new distinct secret for `place`; built at run time so the source holds no
  /// credential-shaped literal.
  private mutating func plant(_ place: String, prefix: String = "") -> String {
    let alphabet = Array("Q7xK2mV9pR4tW8zB3nH6jL5cF1dG0sY")
    let seed = planted.count + 1
    let filler = String((0..<24).map { alphabet[($0 * 11 + seed * 5) % alphabet.count] })
    let value = prefix + "pl\(seed)nt" + filler
    planted.append((place, value))
    return value
  }

  private mutating func record(_ place: String, _ value: String) -> String {
    planted.append((place, value))
    return value
  }

  /// Requests no stub answers, each carrying secrets where logs used to print them.
  private(set) var unmatched: [URLRequest] = []
  /// Requests a stub answers; their secrets reach only the traffic attachment.
  private(set) var matched: [URLRequest] = []
  /// Values only the test's own redaction names: a header and a JSON path no default rule knows.
  private(set) var testNamed: [(place: String, value: String)] = []

  init() {
    var headers = URLRequest(
      url: URL(
        string: "https://api.test/users/7?access_token=\(plant("query access_token"))"
          + "&code=\(plant("query code"))&api_key=\(plant("query api_key"))"
          + "&apiKey=\(plant("query apiKey"))&page=2")!)
    headers.setValue("Bearer \(plant("header Authorization"))", forHTTPHeaderField: "Authorization")
    headers.setValue(
      "session=\(plant("header Cookie session")); theme=dark", forHTTPHeaderField: "Cookie")
    headers.setValue(plant("header X-Api-Key"), forHTTPHeaderField: "X-Api-Key")
    headers.setValue(plant("header Private-Token"), forHTTPHeaderField: "Private-Token")
    headers.setValue(plant("header X-CSRF-Token"), forHTTPHeaderField: "X-CSRF-Token")
    headers.setValue(plant("header X-Auth-Token"), forHTTPHeaderField: "X-Auth-Token")
    headers.setValue(plant("header Api-Key"), forHTTPHeaderField: "Api-Key")
    headers.setValue(plant("header x_client_secret"), forHTTPHeaderField: "x_client_secret")
    let basic = Data("ada:\(plant("basic password"))".utf8).base64EncodedString()
    headers.setValue(
      "Basic \(record("header Proxy-Authorization", basic))",
      forHTTPHeaderField: "Proxy-Authorization")
    headers.setValue(jwt(), forHTTPHeaderField: "X-Trace")
    headers.setValue(
      "client/1.0 "
        + record("GitHub token in User-Agent", "ghp" + "_" + plant("GitHub token body")),
      forHTTPHeaderField: "User-Agent")
    unmatched.append(headers)

    let userinfo = URLRequest(
      url: URL(
        string: "https://ada:\(plant("userinfo password"))@api.test/users/8"
          + "?token=\(plant("query token ;-separated"));sig=\(plant("query sig"))"
          + "&ref=\(record("AWS key in query", "AKIA" + "Z7QK2MV9PR4TW8ZB"))")!)
    unmatched.append(userinfo)
    unmatched.append(
      URLRequest(url: URL(string: "https://\(plant("userinfo token as user"))@api.test/repos")!))

    var json = URLRequest(url: URL(string: "https://api.test/login")!)
    json.httpMethod = "POST"
    json.setValue("application/json", forHTTPHeaderField: "Content-Type")
    json.httpBody = Data(
      """
      {"user":"ada","password":"\(plant("json password"))","apiKey":"\(plant("json apiKey"))",\
      "secret":"\(plant("json secret"))","token":"\(plant("json token"))",\
      "passwd":"\(plant("json passwd"))","nested":{"accessToken":"\(plant("json accessToken"))",\
      "client_secret":"\(plant("json client_secret"))","Password":"\(plant("json Password"))"},\
      "note":"ghp_\(plant("json GitHub token"))"}
      """.utf8)
    unmatched.append(json)

    var form = URLRequest(url: URL(string: "https://api.test/oauth/token")!)
    form.httpMethod = "POST"
    // No Content-Type: Linux sends httpBody without one.
    form.httpBody = Data(
      ("grant_type=authorization_code&code=\(plant("form code"))"
        + "&client_secret=\(plant("form client_secret"))"
        + "&refresh_token=\(plant("form refresh_token"))&password=\(plant("form password"))")
        .utf8)
    unmatched.append(form)

    var pem = URLRequest(url: URL(string: "https://api.test/keys")!)
    pem.httpMethod = "PUT"
    pem.setValue("text/plain", forHTTPHeaderField: "Content-Type")
    pem.httpBody = Data(
      ("-----BEGIN " + "RSA PRIVATE KEY-----\nMIIEow\(plant("PEM key body"))\n"
        + "-----END RSA PRIVATE KEY-----\n").utf8)
    unmatched.append(pem)

    plantSpellingsAReportReadsApart()

    var answered = URLRequest(url: URL(string: "https://api.test/profile")!)
    answered.httpMethod = "POST"
    answered.setValue("application/json", forHTTPHeaderField: "Content-Type")
    answered.setValue(
      "Bearer \(plant("answered request Authorization"))", forHTTPHeaderField: "Authorization")
    let sessionRef = "ref-\(UUID().uuidString)"
    let nationalID = "nid-\(UUID().uuidString)"
    testNamed = [("header X-Session-Ref", sessionRef), ("json $.profile.nationalID", nationalID)]
    answered.setValue(sessionRef, forHTTPHeaderField: "X-Session-Ref")
    answered.httpBody = Data(#"{"profile":{"name":"Ada","nationalID":"\#(nationalID)"}}"#.utf8)
    matched.append(answered)
  }

  /// Secrets spelled the ways an audit found reports printing them (2026-11-27): a decoded form
  /// value with spaces, a query value with a `'` or an escaped space, userinfo with a `'`, a
  /// JSON body's difference at a credential's path, JSON values that are not strings, XML
  /// elements (CDATA too), a multipart part where a form is expected, a token after a percent
  /// escape, and a credential inside a URL that is itself a query value.
  private mutating func plantSpellingsAReportReadsApart() {
    var form = URLRequest(url: URL(string: "https://api.test/oauth/token")!)
    form.httpMethod = "POST"
    form.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
    form.httpBody = Data("grant_type=password&password=correct+horse+\(plant("form spaces"))".utf8)
    unmatched.append(form)

    var multipart = URLRequest(url: URL(string: "https://api.test/oauth/token")!)
    multipart.httpMethod = "POST"
    multipart.setValue("multipart/form-data; boundary=B0undary", forHTTPHeaderField: "Content-Type")
    multipart.httpBody = Data(
      ("--B0undary\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\n"
        + "\(plant("multipart password"))\r\n--B0undary--\r\n").utf8)
    unmatched.append(multipart)

    let ghp = "ghp" + "_" + plant("GitHub token after an escape")
    let nested = "https%3A%2F%2Fapp.test%2Fcb%3Faccess_token%3D\(plant("nested access_token"))"
    unmatched.append(
      URLRequest(
        url: URL(
          string: "https://api.test/users/9?access_token=a%20\(plant("query escaped space"))"
            + "&token=it's-\(plant("query quote"))&state=Bearer%20\(ghp)&redirect_uri=\(nested)")!))
    unmatched.append(
      URLRequest(url: URL(string: "https://ada:it's-\(plant("userinfo quote"))@api.test/users/10")!)
    )

    var json = URLRequest(url: URL(string: "https://api.test/session")!)
    json.httpMethod = "POST"
    json.setValue("application/json", forHTTPHeaderField: "Content-Type")
    let number = record("json number refresh_token", "908172635445\(300_000 + planted.count)")
    json.httpBody = Data(
      """
      {"password":"\(plant("json password at a difference"))","refresh_token":\(number),\
      "api_key":["\(plant("json api_key in an array"))"],\
      "client_secret":{"v":"\(plant("json client_secret in an object"))"}}
      """.utf8)
    unmatched.append(json)

    var xml = URLRequest(url: URL(string: "https://api.test/keys")!)
    xml.httpMethod = "PUT"
    xml.setValue("application/xml", forHTTPHeaderField: "Content-Type")
    xml.httpBody = Data(
      ("<r><wsse:Password>\(plant("xml Password"))</wsse:Password>"
        + "<apiKey><![CDATA[\(plant("xml CDATA apiKey"))]]></apiKey>"
        + "<password><!-- set by the client -->\(plant("xml after a comment"))</password>"
        + "<secret>a<b/>\(plant("xml mixed content"))</secret>"
        + "<auth token=\"\(plant("xml attribute"))\"/></r>").utf8)
    unmatched.append(xml)
    plantSpellingsARoundTwoAuditFound()
  }

  /// What a second audit found reports printing (2026-11-27): a URL encoded twice as a query
  /// value, a decoded form value holding a `&`, a JSON difference cut inside a credential
  /// member, a difference path whose key holds a `:`, and a member name with an escape.
  private mutating func plantSpellingsARoundTwoAuditFound() {
    let twice =
      "https%253A%252F%252Fa.test%252Fcb%253Fcode%253D\(plant("code in a URL encoded twice"))"
    unmatched.append(
      URLRequest(url: URL(string: "https://api.test/users/11?redirect_uri=\(twice)")!))

    var form = URLRequest(url: URL(string: "https://api.test/oauth/token")!)
    form.httpMethod = "POST"
    form.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
    form.httpBody = Data(
      ("grant_type=password&password=ab%26\(plant("form value with &"))"
        + "&pass+word=\(plant("form name spelled with a +"))").utf8)
    unmatched.append(form)

    for (path, body) in [
      ("login", #"{"user":{"password":"\#(plant("json cut at 40 characters"))"}}"#),
      ("config", #"{"urn:cfg":{"password":"\#(plant("json path with a colon"))"}}"#),
      ("login", #"{"user":"ada","p\u0061ssword":"\#(plant("json escaped member name"))"}"#),
    ] {
      var json = URLRequest(url: URL(string: "https://api.test/\(path)")!)
      json.httpMethod = "POST"
      json.setValue("application/json", forHTTPHeaderField: "Content-Type")
      json.httpBody = Data(body.utf8)
      unmatched.append(json)
    }
  }

  /// A JSON Web Token whose signature is a planted value.
  private mutating func jwt() -> String {
    record(
      "JWT in X-Trace",
      "eyJ" + "hbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ." + plant("JWT signature"))
  }

  /// Secrets in what the stub answering ``matched`` sends back.
  mutating func plantResponse() -> StubResponse {
    StubResponse.json(
      [
        "access_token": plant("response access_token"),
        "refresh_token": plant("response refresh_token"),
      ]
    ).header("Set-Cookie", "sid=\(plant("response Set-Cookie")); HttpOnly")
  }

  /// Every planted value found in `text`, with its place.
  func leaks(in text: String, including extra: [(place: String, value: String)] = [])
    -> [String]
  {
    (planted + extra).filter { !$0.value.isEmpty && text.contains($0.value) }.map {
      "\($0.place): \($0.value)"
    }
  }
}
