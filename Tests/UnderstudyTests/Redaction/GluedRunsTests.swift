import Foundation
import Testing

@testable import Understudy

/// A token a shape names only in part is masked whole: the runs glued to it by `=`, `:` or `~`
/// that read as random are its own (Atlassian's `=` checksum, an FCM key's `AAAA…:` head).
@Suite struct GluedRunsTests {
  /// A fixed generator, so a failure repeats.
  private static func random(_ count: Int, seed: inout UInt64) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
    return String(
      (0..<count).map { _ in
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return alphabet[Int((seed >> 33) % UInt64(alphabet.count))]
      })
  }

  @Test func aTokensGluedPartsAreMaskedWithIt() {
    var seed: UInt64 = 0x5EED_0013
    for _ in 0..<50 {
      let checksum = String(format: "%08X", UInt32(truncatingIfNeeded: seed >> 20) | 0x1000_0000)
      let head = "AAAA" + Self.random(7, seed: &seed).replacingOccurrences(of: "-", with: "9")
      let tokens = [
        "ATATT3x" + Self.random(180, seed: &seed) + "=" + checksum,
        head + ":APA91b" + Self.random(134, seed: &seed),
      ]
      for token in tokens {
        for line in [
          #"{"result": "\#(token)", "ok": true}"#, "X-Debug-Ref: \(token)", "ref=\(token)&x=1",
        ] {
          let masked = LogRedaction.mask(line)
          for part in [checksum, head] where token.contains(part) {
            #expect(!masked.contains(part), "\(line) → \(masked)")
          }
          #expect(!masked.contains(String(token.suffix(12))), "\(line) → \(masked)")
        }
      }
    }
  }

  /// A token holding percent escapes (`%2B`, `%2F`, `%3D`) is masked whole: the run after the
  /// last escape is what the shape finds, and the runs before it were printed (a Twitter app's
  /// bearer token, `AAAA…%2B…%3D…`).
  @Test func aTokensEscapedPartsAreMaskedWithIt() {
    var seed: UInt64 = 0x5EED_0014
    let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    func draw(_ count: Int) -> String {
      String(
        (0..<count).map { _ in
          seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
          return Array(alphabet)[Int((seed >> 33) % UInt64(alphabet.count))]
        })
    }
    for glue in [["%2B", "%3D"], ["%2F", "%2f"], ["%3D", "%2B"], ["%7E", "%3A"]] {
      for _ in 0..<20 {
        let parts = [String(repeating: "A", count: 22) + draw(12), draw(14), draw(50)]
        let token = parts[0] + glue[0] + parts[1] + glue[1] + parts[2]
        for line in [
          "deploy:\n  ref: \(token)\n  region: eu\n", #"{"result": "\#(token)"}"#,
          "X-Debug-Ref: \(token)",
        ] {
          let masked = LogRedaction.mask(line)
          for part in parts {
            #expect(!masked.contains(String(part.suffix(8))), "\(line) → \(masked)")
          }
        }
      }
    }
  }

  /// A number glued to a run by `|`, `:` or `/` is the token's prefix however a URL spells the
  /// glue: the byte itself or its percent escape in either case (`%7C`, `%3a`, `%2F`), so a
  /// Facebook app token or an Asana PAT in a query is refused and masked like one in a header.
  @Test func anIdGluedByAnEscapeMakesTheRunAToken() {
    var seed: UInt64 = 0x5EED_0015
    let scanner = CredentialScanner()
    for glue in ["|", ":", "/", "%7C", "%7c", "%3A", "%3a", "%2F", "%2f"] {
      let secret = Self.random(27, seed: &seed)
      let hex = String(
        Self.random(64, seed: &seed).unicodeScalars.map { String($0.value % 16, radix: 16) }
          .joined().prefix(32))
      for (text, body) in [
        ("https://api.test/v1/items?ctx=433216300083156\(glue)\(secret)&n=1", secret),
        ("https://api.test/v1/items?pat=1%2F7062662808749075\(glue)\(hex)", hex),
      ] {
        #expect(!scanner.scan(text, at: "t").isEmpty, "kept: \(text)")
        let masked = LogRedaction.mask(text)
        #expect(!masked.contains(String(body.suffix(8))), "\(text) → \(masked)")
      }
    }
  }

  /// A name glued to its value is no random run: it stays readable.
  @Test func aNameBeforeAMaskedValueIsKept() {
    let token = "ghp_" + "Zq8Rw2Lm5Tx9Vb3Nc7Kd1Hf6Jg4Ps0Ya2Ue"
    for line in ["token=\(token)", "password:\(token)", "api_key=\(token)"] {
      let masked = LogRedaction.mask(line)
      #expect(masked.hasPrefix(String(line.prefix { $0 != "=" && $0 != ":" })), "\(masked)")
      #expect(!masked.contains("Zq8Rw2Lm"), "\(masked)")
    }
  }
}
