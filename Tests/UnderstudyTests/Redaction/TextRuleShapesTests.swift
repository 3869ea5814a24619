import Foundation
import Testing

@testable import Understudy

/// Shapes of text bodies a blind attack of 2026-12-06 carried a secret through: a name read in
/// brackets and quotes, a compound assignment, a `.netrc` over lines, an element a `name`
/// attribute names, a pair right after a tag or a quote, an `.npmrc` line in a JSON string.
/// The value is plain words, which no shape rule would take: only the name rule can.
@Suite struct TextRuleShapesTests {
  static let secret = "walnutmeadowzephyr"

  static func redacted(_ text: String, _ mimeType: String = "text/plain") -> String {
    RedactionPlacesTests.redactedBody(text, mimeType)
  }

  @Test(arguments: [
    "$config['db_pass'] = '\(secret)';",
    "$config[\"db_pass\"] = \"\(secret)\";",
    "ENV['SECRET_KEY_BASE'] ||= \"\(secret)\"",
    "ENV[\"SECRET_KEY_BASE\"] = \"\(secret)\"",
    "os.environ[\"OPENAI_API_KEY\"] = \"\(secret)\"",
    "$_ENV['DB_PASSWORD'] = '\(secret)';",
    "settings[\"api_token\"] ??= '\(secret)'",
  ])
  func aQuotedKeyInBracketsNamesTheValue(line: String) {
    let redacted = Self.redacted("<?php\n\(line)\n$retries = 3;\n")
    #expect(!redacted.contains(Self.secret), "\(redacted)")
    #expect(redacted.contains("$retries = 3;"), "\(redacted)")
  }

  @Test(arguments: [
    "API_TOKEN ?= \(secret)", "API_TOKEN := \(secret)", "API_TOKEN ?=\(secret)",
    "password += \"\(secret)\"", "API_TOKEN:=\(secret)", "$password .= '\(secret)';",
  ])
  func aCompoundAssignmentAssigns(line: String) {
    let redacted = Self.redacted("all: build\n\(line)\nJOBS ?= 4\n")
    #expect(!redacted.contains(Self.secret), "\(redacted)")
    #expect(redacted.contains("JOBS ?= 4"), "\(redacted)")
  }

  /// A line of a credential's name and one long word, in a body of any type (redis.conf's
  /// `requirepass`, a `password` line of its own): logs masked these, and cassettes read them
  /// only in a `.properties` body. Both outputs read them alike now.
  @Test(arguments: [
    "requirepass \(secret)", "masterauth \(secret)", "  Password    \(secret)",
    "adminpass\t\(secret)",
  ])
  func aLineOfANameAndOneLongWordIsReadInAnyText(line: String) {
    for mimeType in ["text/plain", "application/octet-stream", "text/x-redis-conf"] {
      let text = "# generated\n\(line)\nport 6379\nPassword reset\n"
      let redacted = Self.redacted(text, mimeType)
      #expect(!redacted.contains(Self.secret), "\(mimeType): \(redacted)")
      #expect(redacted.contains("port 6379\nPassword reset\n"), "\(redacted)")
      #expect(!LogRedaction.mask(text).contains(Self.secret))
    }
  }

  /// A pair whose value is a tuple or a list (`auth=('ada', '…')`): a pair's value stops at a
  /// quote, so the bracket alone was replaced and the strings in it kept.
  @Test(arguments: [
    "r = requests.get(url, auth=('ada', '\(secret)'))", "api_keys=[\"\(secret)\", \"b\"] next",
    "session.auth=(\"ada\", \"\(secret)\")",
  ])
  func aPairWhoseValueIsATupleIsReplacedWhole(line: String) {
    let redacted = Self.redacted(line + "\n")
    #expect(!redacted.contains(Self.secret), "\(redacted)")
    #expect(!LogRedaction.mask(line).contains(Self.secret), "\(LogRedaction.mask(line))")
  }

  @Test func comparisonsAreNoAssignments() {
    let text = "if password != expected && token <= limit { retry = a.b }\n"
    #expect(Self.redacted(text) == text)
  }

  @Test(arguments: [
    "machine api.heroku.com\n  login ada@x.test\n  password \(secret)\n",
    "machine api.heroku.com\nlogin ada@x.test\npassword \(secret)\n",
    "machine a.test\n  login ada\n  password one\nmachine api.heroku.com\n  login ada\n"
      + "  password \(secret)\n",
    "machine api.heroku.com login ada\r\n\tpassword \(secret)\r\n",
    "default\n  login ada\n  password \(secret)\n",
  ])
  func aNetrcEntryOverLinesIsRead(netrc: String) {
    let redacted = Self.redacted(netrc)
    #expect(!redacted.contains(Self.secret), "\(redacted)")
    #expect(redacted.contains("login ada"), "\(redacted)")
  }

  @Test func proseAfterANetrcEntryIsKept() {
    let text = "machine api.test login ada\nthe password rotates weekly\n"
    #expect(Self.redacted(text) == text)
  }

  @Test(arguments: [
    ("<resources><string name=\"api_key\">\(secret)</string></resources>", "application/xml"),
    ("<applet><param name=\"password\">\(secret)</param></applet>", "text/html"),
    ("<form><textarea name=\"token\">\(secret)</textarea></form>", "text/html"),
    // A type names it too, an XML schema's `xsi:type` as well (a blind attack of 2026-12-07).
    (
      "<form xmlns:xsi=\"x\"><field name=\"f1\" xsi:type=\"password\">\(secret)</field></form>",
      "application/xml"
    ),
    ("<credentials><item type=\"token\">\(secret)</item></credentials>", "application/xml"),
  ])
  func anElementsNameAttributeNamesItsContent(body: String, type: String) {
    let redacted = Self.redacted(body, type)
    #expect(!redacted.contains(Self.secret), "\(redacted)")
  }

  @Test func anHTMLIdNamesNoContent() {
    let page = "<section id=\"password-reset\"><p>Choose a new one.</p></section>"
    #expect(Self.redacted(page, "text/html") == page)
  }

  @Test(arguments: [
    ("<p>token=\(secret)</p>", "text/html"),
    ("<td>token=\(secret)</td>", "text/html"),
    ("<p>&#x74;oken=\(secret)</p>", "text/html"),
    ("Forwarded: for=1.2.3.4;by=\"token=\(secret)\"", "text/plain"),
    ("[Service]\nEnvironment=\"DB_PASSWORD=\(secret)\"\n", "text/plain"),
    ("run('password=\(secret)')", "text/plain"),
  ])
  func aPairRightAfterATagOrAQuoteIsRead(body: String, type: String) {
    let redacted = Self.redacted(body, type)
    #expect(!redacted.contains(Self.secret), "\(redacted)")
  }

  @Test(arguments: [
    #"{"npmrc": "//registry.npmjs.org/:_authToken=\#(secret)"}"#,
    #"{"npmrc": "\/\/registry.npmjs.org\/:_authToken=\#(secret)"}"#,
    #"{"lines": ["@scope:token=\#(secret)"]}"#,
  ])
  func anNpmrcLineInAJSONStringIsRead(json: String) {
    let redacted = Self.redacted(json, "application/json")
    #expect(!redacted.contains(Self.secret), "\(redacted)")
  }

  @Test(arguments: [
    "kubectl create secret generic x --from-literal=password=\(secret)\n",
    "kubectl create secret generic x --from-literal=api_token=\(secret) --dry-run\n",
    "mode=token=\(secret)\n",
  ])
  func anOptionWhoseValueIsAPairIsRead(line: String) {
    let redacted = Self.redacted(line)
    #expect(!redacted.contains(Self.secret), "\(redacted)")
  }

  @Test(arguments: [
    "DataSource ds = builder.url(\"jdbc:h2:mem\").password(\"\(secret)\").build();",
    "val client = Client.Builder()\n  .apiKey(\"\(secret)\")\n  .build()",
    "config.clientSecret('\(secret)').timeout(30)",
  ])
  func aBuilderCallNamedForACredentialIsRead(code: String) {
    let redacted = Self.redacted(code, "text/x-java")
    #expect(!redacted.contains(Self.secret), "\(redacted)")
    #expect(!LogRedaction.mask(code).contains(Self.secret))
  }

  @Test func aCallWithoutAReceiverOrNamedForNoCredentialIsKept() {
    let code = "label = token(\"Sign in\")\nbuilder.url(\"https://api.test\").retries(\"3\")\n"
    #expect(Self.redacted(code, "text/x-java") == code)
  }

  /// A value that is a call with a string argument runs to the end of its statement, where a
  /// program's fallback stands.
  @Test(arguments: [
    "let key = std::env::var(\"API_KEY\").unwrap_or(\"Walnut1997!\".into());\nlet n = 1;\n",
    "api_key = os.environ.get(\"API_KEY\") or \"Walnut1997!\"\nn = 1\n",
  ])
  func aCallsFallbackIsPartOfTheValue(code: String) {
    let redacted = Self.redacted(code)
    #expect(!redacted.contains("Walnut1997"), "\(redacted)")
    #expect(redacted.contains("n = 1"))
  }

  /// A lookup's name names the string a program falls back on when the lookup finds nothing,
  /// whatever the variable it goes to is called: checked in the cassette's body and in a
  /// masked log line, and a lookup of no credential keeps its fallback.
  @Test(arguments: [
    "let x = env::var(\"DB_PASSWORD\").unwrap_or(\"Walnut1997!\".to_string());",
    "let x = env::var(\"DB_PASSWORD\").unwrap_or_else(|| \"Walnut1997!\".into());",
    "const x = process.env.API_TOKEN || \"Walnut1997!\";",
    "const x = process.env.API_TOKEN ?? 'Walnut1997!';",
    "$x = getenv('DB_PASSWORD') ?: 'Walnut1997!';",
    "x = ENV.fetch(\"API_TOKEN\") { \"Walnut1997!\" }",
    "x = os.getenv(\"DB_PASSWORD\") or \"Walnut1997!\"",
    "String x = Optional.ofNullable(System.getenv(\"DB_PASSWORD\")).orElse(\"Walnut1997!\");",
    "val x = System.getenv(\"API_TOKEN\").getOrElse(\"Walnut1997!\")",
  ])
  func aLookupsFallbackIsNamedByTheLookup(line: String) {
    for (body, type) in [
      ("\(line)\nlet n = 1;\n", "text/plain"),
      (
        "{\"snippet\": \"\(line.replacingOccurrences(of: "\"", with: "\\\""))\"}",
        "application/json"
      ),
    ] {
      let redacted = Self.redacted(body, type)
      #expect(!redacted.contains("Walnut1997"), "\(redacted)")
    }
    #expect(!LogRedaction.mask(line).contains("Walnut1997"), "\(LogRedaction.mask(line))")
    let neutral =
      "const theme = process.env.THEME || \"dark-blue\";\n"
      + "sel = getattr(obj, \"color\") or \"teal\"\nlabel = t(\"title\") ?: \"Home\"\n"
    #expect(Self.redacted(neutral) == neutral)
  }

  /// A JSON string whose markup escaped its quotes and braces as character references holds
  /// JSON or pairs all the same: it is read decoded, in the cassette and in reports; a string
  /// with an `&` in a URL or prose is kept.
  @Test(arguments: [
    #"{"msg":"&#123;&quot;password&quot;:&quot;Rhubarb1981$&quot;&#125;"}"#,
    #"{"msg":"&lt;pre&gt;&#x7B;&#x22;api_key&#x22;: &#x22;Rhubarb1981$&#x22;&#x7D;"}"#,
    #"{"msg":"{&apos;password&apos;: &apos;Rhubarb1981$&apos;}"}"#,
  ])
  func characterReferencesInAJSONStringAreReadDecoded(body: String) {
    let redacted = Self.redacted(body, "application/json")
    #expect(!redacted.contains("Rhubarb1981"), "\(redacted)")
    #expect(redacted.hasPrefix(#"{"msg":""#))
    #expect(
      !LogRedaction.mask(traffic: body).contains("Rhubarb1981"),
      "\(LogRedaction.mask(traffic: body))")
    let kept = #"{"url":"https://x.test/?a=1&b=2;c","t":"Tom &amp; Jerry"}"#
    #expect(Self.redacted(kept, "application/json") == kept)
  }

  /// A quoted value that `+` continues is the whole expression: every literal in it is
  /// replaced, a subscript's key and what follows the expression stay.
  @Test(arguments: [
    "fetch(u, { headers: { Authorization: 'Basic ' + btoa('ada:Walnut1997!'), Accept: 'json' } })",
    "password = \"Wal\" + \"nut1997!\";\nAccept = 'json'",
    "conf.setPassword(\"Walnut\" + \"1997!\" + suffix), Accept: 'json'",
    "\"Authorization\": \"Basic \" + base64.b64encode(b'ada:Walnut1997!'), Accept: 'json'",
  ])
  func aConcatenatedValueIsTheWholeExpression(code: String) {
    let redacted = Self.redacted(code)
    #expect(!redacted.contains("Walnut1997"), "\(redacted)")
    #expect(!redacted.contains("nut1997"), "\(redacted)")
    #expect(redacted.contains("Accept"), "\(redacted)")
    #expect(
      !LogRedaction.mask(traffic: code).contains("nut1997"), "\(LogRedaction.mask(traffic: code))")
    let kept =
      "headers = {\"Authorization\": \"Bearer \" + os.environ[\"API_TOKEN\"]}\n"
      + "label = \"Total: \" + \"sum\"\n"
    #expect(Self.redacted(kept).contains("os.environ[\"API_TOKEN\"]"))
    #expect(Self.redacted(kept).contains("label = \"Total: \" + \"sum\""))
  }

  /// A Wi-Fi QR code's text names its password by its `P:` field.
  @Test(arguments: [
    ("WIFI:T:WPA;S:CoffeeShop;P:Hedgehog1984!;;", "text/plain"),
    ("{\"qr\": \"WIFI:S:Home\\\\;Net;T:WPA;P:Hedgehog1984!;H:false;;\"}", "application/json"),
  ])
  func aWiFiCodesPasswordIsReplaced(body: String, type: String) {
    let redacted = Self.redacted(body, type)
    #expect(!redacted.contains("Hedgehog1984"), "\(redacted)")
    #expect(redacted.contains("WIFI:"))
  }

  /// Nix's indented string is a quoted value; an empty pair of quotes is none.
  @Test func aNixIndentedStringIsAQuotedValue() {
    let nix = "{ services.app = { user = \"ada\"; password = ''Ironbark1995$''; }; }\n"
    let redacted = Self.redacted(nix)
    #expect(!redacted.contains("Ironbark1995"), "\(redacted)")
    #expect(redacted.contains("password = ''<redacted:password>'';"))
    let empty = "password = '';\nuser = 'ada';\n"
    #expect(Self.redacted(empty) == empty)
  }

  /// A Terraform block marked `sensitive = true` holds a secret whatever its label says.
  @Test func aBlockMarkedSensitiveHoldsASecret() {
    let block =
      "variable \"api\" {\n  type      = string\n  sensitive = true\n  default   = \"Sunflower2008*\"\n}\n"
    let redacted = Self.redacted(block)
    #expect(!redacted.contains("Sunflower2008"), "\(redacted)")
    #expect(redacted.contains("default   = \"<redacted:sensitive>\""))
    let plain = "variable \"region\" {\n  sensitive = false\n  default = \"eu-west-1\"\n}\n"
    #expect(Self.redacted(plain) == plain)
  }

  /// A value no shape describes is found by its name alone, in an Erlang binary too.
  @Test func anErlangBinaryIsNamedByItsTuple() {
    let text = "[{username, <<\"ada\">>}, {password, <<\"Apricot1997$\">>}].\n"
    let redacted = Self.redacted(text)
    #expect(!redacted.contains("Apricot1997"), "\(redacted)")
    #expect(redacted.contains("<<\"ada\">>"))
  }
}

/// Shapes the second blind attack of 2026-12-06 carried a secret through, each at its cause: a
/// scheme word alone as a pair's value, a byte order mark before the first line, a quoted name
/// before a bare value or `=`, an XML-RPC value element with children, named character
/// references, a compound name and its value ending a line, a setter given the name it sets,
/// and a Markdown table row.
@Suite struct SecondAttackTextShapesTests {
  static let secret = "89E7walnutmeadowzephyr"

  @Test(arguments: [
    ("2026-12-06 DEBUG Authorization=Bearer \(secret)\n", "text/plain"),
    ("level=info auth=Basic \(secret)== user=ada\n", "text/plain"),
    ("\u{FEFF}password: \(secret)\n", "text/plain"),
    ("\u{FEFF}API_TOKEN=\(secret)\n", "text/plain"),
    ("\"api_key\": \(secret)\n", "application/yaml"),
    ("\"api-key\" = \"\(secret)\"\n", "application/toml"),
    ("'x' = 1\n\"db_password\"=\"\(secret)\"\n", "text/plain"),
    (
      "<methodCall><params><param><value><struct><member><name>password</name><value>"
        + "<string>\(secret)</string></value></member></struct></value></param></params>"
        + "</methodCall>", "text/xml"
    ),
    ("<p> token&equals;\(secret)</p>", "text/html"),
    ("<pre>&quot;password&quot;: &quot;\(secret)&quot;</pre>", "text/html"),
    ("FROM alpine\nENV API_TOKEN \(secret)\n", "text/plain"),
    ("aws configure set aws_secret_access_key \(secret)\n", "text/plain"),
    ("os.Setenv(\"API_TOKEN\", \"\(secret)\")\n", "text/plain"),
    ("props.setProperty(\"password\", '\(secret)');\n", "text/x-java"),
    ("| name | value |\n|---|---|\n| token | \(secret) |\n", "text/markdown"),
    (
      "{\"avatar\": \"data:text/plain;base64,"
        + Data("password=\(secret)".utf8).base64EncodedString() + "\"}", "application/json"
    ),
    ("{\"link\": \"data:text/plain,api_key=\(secret)\"}", "application/json"),
    ("event: ping\ndata: 1\n\nevent: token\ndata: \(secret)\n\n", "text/event-stream"),
    (
      "variable \"db_password\" {\n  type    = string\n  default = \"\(secret)\"\n}\n", "text/plain"
    ),
    ("db.user=ada\ndb.password=first\\\n    \(secret)\nport=5432\n", "text/x-java-properties"),
    // Names in other scripts wherever a name stands (the third attack).
    ("<login><비밀번호>\(secret)</비밀번호></login>", "application/xml"),
    ("<cfg 密码=\"\(secret)\"/>", "application/xml"),
    ("user: ada\nパスワード: \(secret)\n", "application/yaml"),
    ("пароль=\(secret)\n", "text/plain"),
    ("[db]\nlösenord = \"\(secret)\"\n", "application/toml"),
    ("{\"ŞİFRE\": \"\(secret)\"}", "application/json"),
    // An algorithm glued to the name in camel case.
    ("{\"tokenRS256\": \"\(secret)\", \"apiKeyHS256\": \"\(secret)\"}", "application/json"),
    // A URL in a JSON string with its `&` escaped as Go escapes it.
    ("{\"cb\": \"https://a.test/cb?a=1\\u0026token=\(secret)\"}", "application/json"),
    // A name, then blanks and at most one comma, then a string (the fourth attack).
    ("os.Setenv( \"API_TOKEN\" , \"\(secret)\" )\n", "text/plain"),
    ("props.setProperty(\"password\",\n    \"\(secret)\");\n", "text/x-java"),
    ("props.setProperty(\n  \"password\",\n  \"\(secret)\"\n);\n", "text/x-java"),
    ("define( 'AUTH_KEY', '\(secret)' );\n", "text/x-php"),
    ("set(API_TOKEN \"\(secret)\")\n", "text/plain"),
    ("{:password \"\(secret)\"}\n", "application/edn"),
    ("{password, \"\(secret)\"}.\n", "text/plain"),
    ("ALTER USER ada WITH PASSWORD '\(secret)';\n", "application/sql"),
    ("curl_setopt($ch, CURLOPT_USERPWD, \"ada:\(secret)\");\n", "text/x-php"),
    // PowerShell's drive-qualified variable is one name.
    ("$env:API_TOKEN = \"\(secret)\"\n", "text/plain"),
    ("$Env:API_TOKEN=\"\(secret)\"\n", "text/plain"),
  ])
  func theValueIsHiddenInEveryOutput(text: String, mimeType: String) throws {
    try SpelledSecretChecks.expectHidden(text, mimeType: mimeType, secrets: [Self.secret])
  }

  /// What the rules above must not take: a number that ends its member, a JSON member's
  /// literal, an everyday quoted name, and a scheme word in prose.
  @Test(arguments: [
    "{\"count\": 89E7, \"ok\": true}", "\"retries\": 3\n\"mode\" = \"fast\"\n",
    "the basic plan costs 3 dollars\n", "ENV LOG_LEVEL debug\nprint(\"hello\", \"world\")\n",
    "| name | value |\n|---|---|\n| region | eu-west-1 |\n", "<p>a &amp; b &lt; c</p>",
    "event: message\ndata: {\"n\": 1}\n\nevent: done\ndata: ok\n\n",
    "variable \"region\" {\n  default = \"eu-west-1\"\n}\n",
    // A list of names is no name and its value; a word ending a line names nothing below it.
    "required: [\"password\", \"email\"]\n", "fields = ('token', 'expires_in')\n",
    "Forgot your password?\n\"Reset it\" below.\n", "Reset your password\n'now'\n",
    "$env:PATH = \"/usr/bin\"\n",
  ])
  func everydayTextIsKept(text: String) {
    #expect(TextRuleShapesTests.redacted(text) == text)
  }

  /// A query or form value that is base64 of text is read as the body it holds.
  @Test func aBase64QueryValueIsOpened() throws {
    let wrapped = Data(#"{"password":"\#(Self.secret)"}"#.utf8).base64EncodedString()
    let url = "https://api.test/p?payload=" + wrapped.replacingOccurrences(of: "=", with: "%3D")
    let entry = HAR.Entry.sample(url: url)
    let text = try Redaction.default.redact(HAR(entries: [entry])).encodedText
    let decoded = text.split(whereSeparator: { !($0.isLetter || $0.isNumber || "+/=".contains($0)) }
    )
    .compactMap { Data(base64Encoded: String($0)).flatMap { String(data: $0, encoding: .utf8) } }
    #expect(!text.contains(Self.secret))
    #expect(!decoded.contains { $0.contains(Self.secret) }, "\(decoded)")
  }
}
