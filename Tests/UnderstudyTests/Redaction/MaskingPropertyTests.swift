import Foundation
import Testing

@testable import Understudy

/// Texts built at random from the pieces reports are made of (pairs, headers, JSON members,
/// URLs with user information, placeholders, values masked already, accents, a JSON string cut
/// short after an escaped quote), from a fixed
/// seed so every run checks the same ones: masking one twice changes nothing, and a credential
/// pair's value never survives.
@Suite struct MaskingPropertyTests {
  private static let pieces = [
    "token=", "••••(5 chars)", " ", "password=", "abc", "<redacted:x>", "é", "e\u{301}", ":",
    "Authorization: Bearer ", "\n", "&", "\"", "AKIA", "?", "https://u:p@h/x?", "\"key\": \"",
    "%3Credacted:y%3E", "x-api-key: ", "=", " token=s3cr3t-value", "\\\"", "\"password\":\"",
  ]

  @Test func maskingTwiceChangesNothingAndNoCredentialPairSurvives() {
    var generator = SplitMix(seed: 17)
    for _ in 0..<10_000 {
      let count = Int.random(in: 1...14, using: &generator)
      let text = (0..<count).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
      let once = LogRedaction.mask(text)
      #expect(LogRedaction.mask(once) == once, "\(text.debugDescription)")
      #expect(!once.contains("s3cr3t-value"), "\(text.debugDescription)")
    }
  }
}
