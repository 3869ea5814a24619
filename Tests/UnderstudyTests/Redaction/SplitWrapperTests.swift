import Foundation
import Testing

@testable import Understudy

/// What an echo search leaves of a base64 wrapper, and two strings in a row that are no
/// `("name", "value")` pair: shapes found where the parts of the redaction meet, and fixed at
/// their cause.
@Suite struct SplitWrapperTests {
  /// An echo search replaces a secret's base64 spelling inside a longer base64 run (a server
  /// that echoes a request's body as base64), so the run is cut by placeholders at any place of
  /// its groups of four; what is left between them is base64 of text, read as text from the
  /// right alignment, not a random token.
  @Test func theRestOfABase64WrapperAroundPlaceholdersIsNoFinding() {
    let names = [
      "signing_key", "encryptionKey", "master-key", "APP_SECRET", "ldap_password", "dbPassword",
      "X-Secret-Key-Base", "consumer_key", "oauthToken", "shared_access_key",
    ]
    let scanner = CredentialScanner()
    var leftovers = 0
    for rotation in 0..<names.count {
      let chosen = (0..<4).map { names[(rotation + $0) % names.count] }
      var text = "<config>"
      var secrets: [Range<Int>] = []
      for (index, name) in chosen.enumerated() {
        text += "<\(name)>"
        let start = text.utf8.count
        text += "s3cr3t-value-\(rotation)-\(index)-" + String(repeating: "x", count: rotation)
        secrets.append(start..<text.utf8.count)
        text += "</\(name)>"
      }
      text += "</config>"
      let encoded = Array(Data(text.utf8).base64EncodedString().utf8)
      // Each secret's base64 characters, from the group its first byte falls in, replaced.
      var cut = ""
      var position = 0
      for secret in secrets {
        let from = secret.lowerBound * 4 / 3 + 1
        let to = min(encoded.count, (secret.upperBound * 4 + 2) / 3 - 1)
        cut += String(decoding: encoded[position..<from], as: UTF8.self) + "<redacted:x>"
        position = to
      }
      cut += String(decoding: encoded[position...], as: UTF8.self)
      leftovers += cut.split(separator: "<redacted:x>").filter { $0.count >= 30 }.count
      let findings = scanner.scan(#"{"body_base64": "\#(cut)"}"#, at: "body")
      #expect(findings.isEmpty, "\(cut): \(findings)")
    }
    // The cut leaves pieces long enough to be judged, so the test can fail.
    #expect(leftovers >= 10)
  }

  /// A random token is still one however a run starts (no alignment of random bytes reads as
  /// text) and however its letters fall between the cases: a seeded fuzz of 1,000 tokens of 25
  /// to 45 characters. Drawn from the system's generator, 50 a run, one run in about sixty
  /// failed: a token with few lower-case letters read as words joined by case.
  @Test func aRandomTokenIsStillFoundAtEveryStart() {
    var random = SplitMix(seed: 40)
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    var missed: [String] = []
    for _ in 0..<1_000 {
      let length = Int.random(in: 25...45, using: &random)
      let token =
        "zq_" + String((0..<length).map { _ in alphabet.randomElement(using: &random)! })
      if CredentialScanner().scan(#"{"note": "\#(token)"}"#, at: "body").isEmpty {
        missed.append(token)
      }
    }
    #expect(missed.isEmpty, "not found: \(missed)")
  }

  /// `"id", "n"` in JSON is a value and the next member's name: a random identifier whose last
  /// letters spell `pw` names nothing, and the member after it is printed. Swift arguments and
  /// JSON arrays of pairs are still read as a name and its value.
  @Test func twoStringsInARowAreAPairOnlyAsArgumentsOrAnArraysItems() {
    let json = #"{"blob":"ch_rMuD4PZ2S76mospYfrSLIqPW","n":1,"count":2}"#
    #expect(LogRedaction.mask(json) == json)
    let swift = #".header("X-Api-Key", "k3y-0123456789abcdef")"#
    #expect(!LogRedaction.mask(swift).contains("0123456789abcdef"))
    let pairs = #"{"headers": [["Host", "a.test"], ["Authorization", "Bearer 0123456789abcdef"]]}"#
    #expect(!LogRedaction.mask(pairs).contains("0123456789abcdef"))
    #expect(LogRedaction.mask(pairs).contains("a.test"))
  }
}
