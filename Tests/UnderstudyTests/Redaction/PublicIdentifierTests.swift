import Foundation
import Testing

@testable import Understudy

/// Values random by design and public by design, kept byte for byte wherever they appear: trace
/// ids in their documented formats, a JSON Web Key's public members, a Wi-Fi network's name. A
/// test framework that refuses a harmless recording is broken.
@Suite struct PublicIdentifierTests {
  private let scanner = CredentialScanner()

  /// Each written where it arrives: a header, `Server-Timing`, a JSON member, a log line.
  static let traceIdentifiers = [
    "00-669a290543f278962b43fd6b45225e7a-021ae94b78fc4598-01",
    "Root=1-52d65f27-653ff16e48a203c7cf54c40d;Parent=53995c3f42cd8ad8;Sampled=1",
    "80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1-1-05e3ac9a4f6e3b90",
    "a3ce929d0e0e4736-00f067aa0ba902b7-d",
    "771a43a4192642f0b136d5159a501700-b7ad6b7169203331-0",
  ]

  static func places(_ value: String) -> [String] {
    [
      value, #"traceparent;desc="\#(value)""#, #"{"trace": "\#(value)", "ok": true}"#,
      "2026-12-07T10:00:00Z INFO request done trace=\(value) status=200\n",
    ]
  }

  @Test(arguments: traceIdentifiers)
  func aTraceIdIsNeitherRefusedNorMasked(value: String) {
    var echoes = RedactionEchoes()
    let rules = CompiledRedaction(.default)
    for text in Self.places(value) {
      #expect(scanner.scan(text, at: "t").isEmpty, "refused: \(text)")
      #expect(LogRedaction.mask(text) == text)
      #expect(rules.redactText(text, echoes: &echoes) == text)
    }
  }

  /// The structure is what is kept: a field longer or shorter than the format's, or a random
  /// run after the same `00-`, is judged as any token.
  @Test func onlyTheDocumentedStructureIsATraceId() {
    let random = "Zq8Rw2Lm5Tx9Vb3Nc7Kd1Hf6Jg4Ps0Ya2UeQ"
    for text in [
      "00-\(random)-021ae94b78fc4598-01", "1-52d65f27-\(random)",
      "00-669a290543f278962b43fd6b45225e7a5d-021ae94b78fc4598-01",
    ] {
      #expect(!scanner.scan(text, at: "t").isEmpty, "kept: \(text)")
    }
  }

  static let modulus =
    "ZKjvgKqlOjIGavpelLoTGDUe981WPFOdv9IyFwW-KN0_wCXe2Dv4qyXGncJJmZcSTnXJYo-2-hiOkHS9Tw-SZfKorg3dm9hSykuc8d16F9BCyaCG4D8t3tfLRLzsdd0jmpX5NxwqiERP2DxC2e3Z4l_x167WO7QyjzJm2pg7Ka_IxLI7nqiO1oOrtej8WqQ2c8UKLJS3IzQ3rBv7wfMWgQQMVlpptf7zXtVN0MM0sgsY2NloGSY_VTsyL-6CJBOknJbxeRulu7DUoXhhT0_fQeajddupbL20mvs0kCZ-iYnEnB74XVx_hAefoPHQrsH-wXxwWB6_iCD0QZG2A-viOA"

  /// A JWKS document publishes its keys: the modulus, exponent, curve point and thumbprints of
  /// an object with `kty` are kept, also in a JSON text printed inside another (an attachment).
  @Test func aJSONWebKeysPublicMembersAreKept() throws {
    let jwks =
      #"{"keys": [{"kty": "RSA", "kid": "k1", "use": "sig", "alg": "RS256", "n": "\#(Self.modulus)", "e": "AQAB"}]}"#
    #expect(scanner.scan(jwks, at: "t").isEmpty)
    #expect(LogRedaction.mask(jwks) == jwks)
    let printed = String(decoding: try JSONEncoder().encode(["text": jwks]), as: UTF8.self)
    #expect(LogRedaction.mask(printed) == printed)
    let entry = HAR.Entry.sample(
      url: "https://id.test/.well-known/jwks.json",
      requestHeaders: [HAR.Header(name: "traceparent", value: Self.traceIdentifiers[0])],
      content: HAR.Content(body: Data(jwks.utf8), mimeType: "application/json"))
    let har = HAR(entries: [entry])
    #expect(scanner.scan(har).isEmpty)
    let attachment = try har.encodedText
    #expect(LogRedaction.mask(traffic: attachment) == attachment)
  }

  /// Only public members of a key: its private exponent, or the same run under `n` in an
  /// object that is no key, is judged as any token.
  @Test func aKeysPrivateMembersAndOtherObjectsAreStillJudged() {
    for text in [
      #"{"kty": "RSA", "n": "AQAB", "d": "\#(Self.modulus)"}"#,
      #"{"n": "\#(Self.modulus)", "kind": "RSA"}"#,
      #"{"kty": "RSA", "inner": {"n": "\#(Self.modulus)"}}"#,
    ] {
      #expect(!scanner.scan(text, at: "t").isEmpty, "kept: \(text)")
      #expect(!LogRedaction.mask(text).contains(String(Self.modulus.prefix(40))))
    }
  }

  /// A run-together name ends in the longest word it ends with: `ssid` is a Wi-Fi network's
  /// name, not an `s` and a session id; `phpsessid` still ends in `sessid`.
  @Test func aNetworkNameIsNoSessionId() {
    for name in ["ssid", "SSID", "bssid", "essid", "wifi_ssid", "wifiSsid", "wifissid"] {
      #expect(!CredentialWords.isCredential(name, at: .jsonMember), "\(name)")
      #expect(!CredentialWords.isCredential(name, at: .parameter), "\(name)")
    }
    for name in ["sid", "phpsessid", "PHPSESSID", "connect.sid", "usersid", "mysessid"] {
      #expect(CredentialWords.isCredential(name, at: .jsonMember), "\(name)")
    }
    let text = "network={\n  ssid=\"CoffeeShop-Guest-5G\"\n  scan_ssid=1\n}\n"
    var echoes = RedactionEchoes()
    #expect(CompiledRedaction(.default).redactText(text, echoes: &echoes) == text)
    #expect(LogRedaction.mask(text) == text)
  }
}
