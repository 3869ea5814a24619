import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Plants many secrets in many places, records them through a real loopback server into a
/// cassette in a fresh folder, then reads every byte of every file the run left: no secret may
/// appear, and where a write is refused the failure must say so.
@Suite struct SecretCorpusTests {
  /// The planted secrets and where each was put.
  final class Corpus: @unchecked Sendable {
    private(set) var planted: [(place: String, secret: String)] = []

    /// A new secret for `place`: unique, URL- and JSON-safe, and not shaped like any credential
    /// the scanner knows, so only redaction can remove it.
    func plant(_ place: String) -> String {
      let random = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
      let secret = "q\(planted.count)z" + random.prefix(14)
      planted.append((place, secret))
      return secret
    }

    var places: Set<String> { Set(planted.map(\.place)) }
  }

  static func folder() -> URL {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("understudy-corpus-\(UUID().uuidString)")
  }

  /// Every secret found in any file under `folder`, with the file.
  static func leaks(of corpus: Corpus, under folder: URL) throws -> [String] {
    var leaks: [String] = []
    let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
    while let file = files?.nextObject() as? URL {
      guard let data = try? Data(contentsOf: file) else { continue }
      for (place, secret) in corpus.planted where data.range(of: Data(secret.utf8)) != nil {
        leaks.append("\(place): \(secret) in \(file.lastPathComponent)")
      }
    }
    return leaks
  }

  @Test func noPlantedSecretReachesAnyFileTheRecordingLeaves() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let folder = Self.folder()
    let file = folder.appendingPathComponent("corpus.har")
    let corpus = Corpus()
    let registry = StubRegistry()
    let cassette = Cassette(at: file, mode: .all)
    registry.use(cassette)
    let session = registry.makeSession()
    func send(_ request: URLRequest) async throws {
      _ = try await session.data(for: request)
    }
    func request(_ path: String, body: String? = nil, type: String? = nil) -> URLRequest {
      var request = URLRequest(url: server.url(path))
      if let body {
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
      }
      if let type { request.setValue(type, forHTTPHeaderField: "Content-Type") }
      return request
    }

    // Request headers of every credential family, echoed back into the response's JSON body.
    var headers = request("/echo/headers")
    headers.setValue("Bearer \(corpus.plant("Authorization"))", forHTTPHeaderField: "Authorization")
    let basic = "\(corpus.plant("Basic user")):\(corpus.plant("Basic password"))"
    let encodedBasic = Data(basic.utf8).base64EncodedString()
    headers.setValue("Basic \(encodedBasic)", forHTTPHeaderField: "Proxy-Authorization")
    headers.setValue(
      "sid=\(corpus.plant("Cookie")); pref=\(corpus.plant("Cookie"))", forHTTPHeaderField: "Cookie")
    for name in [
      "X-Api-Key", "Api-Key", "X-Auth-Token", "Private-Token", "X-CSRF-Token",
      "X-Amz-Security-Token", "X-Goog-Api-Key", "Ocp-Apim-Subscription-Key", "X-Client-Secret",
      "X-Access-Token", "X-Refresh-Token", "X-Session-Token", "X-Functions-Key",
      "X-Hub-Signature", "X-Authorization", "X-Password", "X-Api-Secret",
    ] {
      headers.setValue(corpus.plant("header \(name)"), forHTTPHeaderField: name)
    }
    try await send(headers)
    var tokenScheme = request("/echo/token-scheme")
    tokenScheme.setValue(
      "Token \(corpus.plant("Authorization Token"))", forHTTPHeaderField: "Authorization")
    try await send(tokenScheme)

    // Query parameters under many spellings, `;`-separated ones, path parameters, a fragment.
    let query = [
      "access_token", "accessToken", "api_key", "apiKey", "code", "client_secret", "password",
      "refresh_token", "sig", "id_token", "key", "signature", "jwt", "X-Amz-Credential",
    ].map { "\($0)=\(corpus.plant("query \($0)"))" }.joined(separator: "&")
    try await send(request("/echo/query?page=2&\(query)"))
    let moreQuery = [
      "auth", "session", "passwd", "secret", "api-key", "token", "access_key", "privateKey",
      "credentials",
    ].map { "\($0)=\(corpus.plant("query \($0)"))" }.joined(separator: "&")
    try await send(request("/echo/more-query?\(moreQuery)"))
    try await send(request("/echo/semi?a=1;token=\(corpus.plant("query ;token"))"))
    try await send(request("/echo/app;jsessionid=\(corpus.plant("path ;jsessionid"))/items"))
    try await send(request("/echo/fragment#access_token=\(corpus.plant("fragment"))"))

    // URL userinfo.
    let user = corpus.plant("userinfo user")
    let password = corpus.plant("userinfo password")
    var userinfo = URLComponents(url: server.url("/echo/userinfo"), resolvingAgainstBaseURL: false)!
    userinfo.user = user
    userinfo.password = password
    try await send(URLRequest(url: userinfo.url!))

    // A JSON body under many spellings and depths, echoed back as a JSON string.
    let members = [
      "password", "Password", "passwd", "secret", "client_secret", "token", "access_token",
      "accessToken", "refresh_token", "api_key", "apiKey", "id_token", "newPassword",
      "privateKey",
    ]
    var json = members.map { "\"\($0)\":\"\(corpus.plant("JSON \($0)"))\"" }
    json.append(
      "\"user\":{\"credentials\":{\"secretAccessKey\":\"\(corpus.plant("JSON nested"))\"}}")
    json.append("\"list\":[{\"token\":\"\(corpus.plant("JSON in array"))\"}]")
    try await send(
      request("/echo/json", body: "{" + json.joined(separator: ",") + "}", type: "application/json")
    )

    // Form bodies, with and without a Content-Type.
    let form = ["password", "client_secret", "refresh_token", "code"]
      .map { "\($0)=\(corpus.plant("form \($0)"))" }.joined(separator: "&")
    try await send(
      request("/echo/form", body: "grant_type=x&\(form)", type: "application/x-www-form-urlencoded")
    )
    let untyped = ["password", "token", "api_key"]
      .map { "\($0)=\(corpus.plant("untyped form \($0)"))" }.joined(separator: "&")
    try await send(request("/echo/untyped", body: "user=ada&\(untyped)"))

    // Almost-JSON, sent and answered (the reply endpoint returns the body under the type).
    func reply(_ type: String, _ body: String) async throws {
      try await send(request("/reply?type=\(type)", body: body, type: type))
    }
    let responseMembers = [
      "session_id", "sessionToken", "csrf_token", "auth_token", "webhook_secret", "api_secret",
      "passphrase", "AWS_SECRET_ACCESS_KEY", "refreshToken", "bearer_token", "set_cookie",
      "authorization", "jwt",
    ].map { "\"\($0)\": \"\(corpus.plant("response JSON \($0)"))\"" }
    try await reply(
      "application/json", "{\n  " + responseMembers.joined(separator: ",\n  ") + "\n}")
    try await reply(
      "application/x-ndjson",
      "{\"token\":\"\(corpus.plant("NDJSON"))\"}\n{\"apiKey\":\"\(corpus.plant("NDJSON"))\"}\n")
    try await reply(
      "application/javascript", "cb({\"access_token\":\"\(corpus.plant("JSONP"))\"});")
    try await reply("application/json", ")]}'\n{\"token\":\"\(corpus.plant("XSSI"))\"}")
    try await reply("application/json", "\u{FEFF}{\"password\":\"\(corpus.plant("BOM"))\"}")
    let depth = 600
    try await reply(
      "application/json",
      "{\"api_key\":\"\(corpus.plant("deep JSON shallow"))\",\"d\":"
        + String(repeating: "[", count: depth)
        + "{\"password\":\"\(corpus.plant("deep JSON"))\"}" + String(repeating: "]", count: depth)
        + "}")
    try await reply(
      "text/html",
      "<script>window.state = {\"accessToken\":\"\(corpus.plant("JSON in HTML"))\"};</script>")

    // Other body types that name their credentials.
    let boundary = "corpus-boundary"
    try await reply(
      "multipart/form-data; boundary=\(boundary)",
      "--\(boundary)\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\n"
        + "\(corpus.plant("multipart"))\r\n--\(boundary)--\r\n")
    try await reply(
      "application/soap+xml",
      "<Envelope><wsse:Password>\(corpus.plant("XML"))</wsse:Password>"
        + "<apiKey>\(corpus.plant("XML"))</apiKey></Envelope>")
    try await reply(
      "application/json",
      "{\"next\":\"https://app.example.com/cb?code=\(corpus.plant("URL in JSON string"))&state=1\"}"
    )
    var link = request("/reply?type=text/plain", body: "ok")
    link.addValue(
      "Link: <https://api.example.com/p?api_key=\(corpus.plant("URL in Link header"))>; rel=next",
      forHTTPHeaderField: "X-Reply-Header")
    try await send(link)

    // Response headers that hand out tokens; the reply endpoint is told them in a request
    // header no rule names, so only the echo search removes them there.
    var handout = request("/reply?type=text/plain", body: "ok")
    for (name, place) in [
      ("X-Auth-Token", "response X-Auth-Token"), ("X-Subject-Token", "response X-Subject-Token"),
      ("Set-Cookie", "response Set-Cookie"),
    ] {
      let value = name == "Set-Cookie" ? "sid=\(corpus.plant(place)); Path=/" : corpus.plant(place)
      handout.addValue("\(name): \(value)", forHTTPHeaderField: "X-Reply-Header")
    }
    try await send(handout)
    try await send(request("/set-cookie?theme_pref=\(corpus.plant("Set-Cookie from query"))"))

    // A redirect whose Location carries userinfo and a token, followed to the next hop.
    var next = URLComponents(url: server.url("/echo/hop"), resolvingAgainstBaseURL: false)!
    next.user = corpus.plant("redirect user")
    next.password = corpus.plant("redirect password")
    next.query = "access_token=\(corpus.plant("redirect token"))"
    let target = next.url!.absoluteString.addingPercentEncoding(
      withAllowedCharacters: .alphanumerics)!
    _ = try? await session.data(for: request("/redirect-to?url=\(target)"))

    // Credential pairs in text that is no form: log lines, a sentence in a JSON string, a
    // header, each pair after a space or at the start of the text.
    try await reply(
      "text/plain",
      "level=info token=\(corpus.plant("log line token"))\n"
        + "password=\(corpus.plant("log line at the start")) user=ada\n"
        + "retry\u{A0}api_key=\(corpus.plant("log line after a no-break space"))")
    try await send(
      request(
        "/echo/log", body: "ts=1 level=debug client_secret=\(corpus.plant("request log line"))",
        type: "text/plain"))
    try await reply(
      "application/json",
      "{\"message\":\"signed in with access_token=\(corpus.plant("pair in a JSON string")) ok\"}")
    // Credentials a configuration file, a script or a page names.
    try await reply(
      "application/yaml",
      "kind: Secret\npassword: \(corpus.plant("YAML bare"))\n"
        + "client_secret: '\(corpus.plant("YAML quoted"))'\n")
    try await send(
      request(
        "/echo/toml", body: "[db]\npassword = \"\(corpus.plant("TOML request"))\"\n",
        type: "application/toml"))
    // A value's part after a comma, a semicolon or a bracket, and a table's cells (2026-11-29).
    try await reply(
      "application/yaml", "password: Ab1,\(corpus.plant("YAML value after a comma"))\n")
    try await reply(
      "text/plain", "[db]\npassword = Ab1;(\(corpus.plant("INI value after a bracket")))\n")
    // A pair's value after a `#`, `;` or `&` that starts no pair (2026-11-29).
    try await reply(
      "text/plain",
      "password=P@ss#\(corpus.plant("pair value after a hash"))\n"
        + "db.password=Ab1;\(corpus.plant("pair value after a semicolon"))\n"
        + "token=Ab1&\(corpus.plant("pair value after an ampersand")) next=1\n")
    // A name in quotes, `=>`, a YAML block scalar, and a URL's user information in a one-line
    // `.env` body, which is read as a form (2026-11-29).
    try await reply(
      "application/x-httpd-php", "<?php return ['password' => '\(corpus.plant("PHP array"))'];")
    try await reply("text/x-python", "cfg = {'api_key': '\(corpus.plant("Python dict"))'}")
    try await reply(
      "text/plain", "$ deploy --password \(corpus.plant("command-line option")) --user ada\n")
    try await reply(
      "application/yaml", "stringData:\n  password: |\n    \(corpus.plant("YAML block"))\n")
    try await reply(
      "text/plain", "DATABASE_URL=postgres://ada:\(corpus.plant("one-line .env URL"))@db/app")
    try await reply(
      "text/csv",
      "id,email,api_key\r\n1,ada@example.test,\(corpus.plant("CSV cell"))\r\n"
        + "2,bob@example.test,\"x,\(corpus.plant("CSV quoted cell"))\"\r\n")
    try await reply(
      "text/html",
      "<form><input type=\"hidden\" name=\"authenticity_token\" value=\""
        + "\(corpus.plant("HTML hidden field"))\"></form>"
        + "<meta name=\"csrf-token\" content=\"\(corpus.plant("HTML meta tag"))\">"
        + "<script>const apiKey = '\(corpus.plant("script literal"))';</script>")
    try await send(
      request(
        "/echo/graphql",
        body: #"{"query":"mutation { login(email: \"ada@example.test\", password: \""#
          + corpus.plant("GraphQL argument") + #"\") { id } }"}"#, type: "application/json"))
    var pairHeader = request("/echo/pair-header")
    pairHeader.setValue(
      "mode=debug session=\(corpus.plant("pair in a header"))", forHTTPHeaderField: "X-Debug")
    try await send(pairHeader)

    // Echoes: in a response header, and in a later entry's bodies.
    let echoedKey = corpus.plant("echo in response header")
    var echo = request("/reply?type=text/plain", body: "key \(echoedKey)")
    echo.setValue(echoedKey, forHTTPHeaderField: "X-Api-Key")
    echo.addValue("X-Echo: \(echoedKey)", forHTTPHeaderField: "X-Reply-Header")
    try await send(echo)
    let earlier = corpus.planted.first { $0.place == "Authorization" }!.secret
    try await reply("text/html", "<p>signed in with \(earlier)</p>")

    let failures = cassette.finish()
    #expect(failures.isEmpty, "\(failures.map(\.message))")
    let written = try String(contentsOf: file, encoding: .utf8)
    #expect(written.contains("<redacted:authorization>"))
    #expect(written.contains("%3Credacted:userinfo%3E@"))
    #expect(written.contains("/echo/hop"), "the redirect's next hop was recorded")
    #expect(corpus.planted.count >= 100)
    #expect(corpus.places.count >= 30)
    let leaks = try Self.leaks(of: corpus, under: folder)
    #expect(leaks.isEmpty, "\(leaks.count) secrets leaked:\n\(leaks.joined(separator: "\n"))")
    try? FileManager.default.removeItem(at: folder)
  }

  /// An opaque credential in a path segment has no name to redact it by; the scan must refuse
  /// the cassette, and the folder must hold nothing with the token.
  @Test func aCredentialNoRuleCanSeeStopsTheWrite() async throws {
    let server = try await LoopbackServer.start()
    defer { server.stop() }
    let folder = Self.folder()
    let file = folder.appendingPathComponent("refused.har")
    let token = "ghp_" + String(repeating: "a1B2c3D4e5", count: 4).prefix(36)
    let registry = StubRegistry()
    let cassette = Cassette(at: file, mode: .all)
    registry.use(cassette)
    _ = try await registry.makeSession().data(from: server.url("/echo/files/\(token)/download"))
    let failures = cassette.finish()
    #expect(failures.count == 1)
    #expect(failures.first?.message.contains("was not written") == true)
    #expect(!FileManager.default.fileExists(atPath: file.path))
    let corpus = Corpus()
    _ = corpus.plant("unused")
    let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
    while let leftover = files?.nextObject() as? URL {
      let data = (try? Data(contentsOf: leftover)) ?? Data()
      #expect(data.range(of: Data(token.utf8)) == nil, "\(leftover.path) holds the token")
    }
  }
}
