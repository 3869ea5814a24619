import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The leftovers of issue 12's check (issue 40, part 5): shapes with no name beside them, and
/// the failing URL a `URLError` carries in its user info.
@Suite struct OutputGateTests {
  static let awsSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"

  @Test func aBareAWSSecretKeyNearItsAccessKeyIDIsFound() {
    let text = "creds: AKIAIOSFODNN7EXAMPLE \(Self.awsSecret)"
    #expect(CredentialScanner().scan(text, at: "body").map(\.kind).contains(.awsSecretKey))
    #expect(!LogRedaction.mask(text).contains("bPxRfiCY"))
  }

  @Test func anAWSSecretKeyStandingAloneIsFound() {
    #expect(CredentialScanner().scan(Self.awsSecret, at: "x").map(\.kind) == [.awsSecretKey])
    #expect(!LogRedaction.mask(Self.awsSecret).contains("bPxRfiCY"))
  }

  @Test func aSlackIncomingWebhookURLIsACredential() {
    let url = "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"
    #expect(CredentialScanner().scan("hook: \(url)", at: "body").map(\.kind) == [.slackToken])
    #expect(!LogRedaction.mask(url).contains("B00000000/XXXX"))
  }

  /// The failing URL in a `URLError`'s user info has its credentials replaced, as a cassette's
  /// would: test runners print the user info.
  @Test func aURLErrorsFailingURLCarriesNoCredential() async throws {
    let registry = StubRegistry()
    let url = URL(string: "https://api.test/cb?access_token=tok-abcdef123456&page=2")!
    do {
      _ = try await registry.makeSession().data(from: url)
      Issue.record("an unmatched request was answered")
    } catch {
      let failing = (error as NSError).userInfo[NSURLErrorFailingURLErrorKey] as? URL
      #expect(
        failing?.absoluteString
          == "https://api.test/cb?access_token=%3Credacted:access_token%3E&page=2")
      #expect(!"\((error as NSError).userInfo)".contains("tok-abcdef"))
    }
  }

  /// A malformed cassette's error quotes the text where reading stopped; a credential there is
  /// masked whole, never shown cut short.
  @Test func aMalformedCassettesErrorShowsNoPartOfACredential() {
    let token = "ghp_0123456789abcdefghijABCDEFGHIJ012345"
    for text in [
      #"{"log": \#(token)}"#, #"{"log": [\#(token)]}"#, #"{"log": {"a": 1 \#(token)}}"#,
      #"{"log": "x" "\#(token)"}"#,
    ] {
      do {
        _ = try HAR.decode(Data(text.utf8), source: "bad.har")
        Issue.record("\(text) was read")
      } catch {
        #expect(!"\(error)".contains("0123456789ab"), "\(error)")
      }
    }
  }
}
