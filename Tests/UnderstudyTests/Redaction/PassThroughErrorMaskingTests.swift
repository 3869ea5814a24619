import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A request passed through (or recorded) that the network fails: the error the code under
/// test gets names what failed, keeps its code, and holds no credential of the URL in its
/// description, localized description or user info. The third blind round found the network's
/// own error handed on as it was: `?access_token=…`, `ada:…@` and `;jsessionid=…` in full.
@Suite struct PassThroughErrorMaskingTests {
  @Test(arguments: [
    "http://127.0.0.1:1/cb?access_token=%@", "http://ada:%@@127.0.0.1:1/cb",
    "http://127.0.0.1:1/app;jsessionid=%@", "http://127.0.0.1:1/q?page=2&api_key=%@",
  ])
  func aFailedPassThroughShowsNoCredentialOfItsURL(shape: String) async throws {
    let secret = "Pt7Kq2Wz9Rm4Xv8Ln3Bd"
    let registry = StubRegistry(unmatchedRequests: .passThrough)
    let url = URL(string: shape.replacingOccurrences(of: "%@", with: secret))!
    let error = try #require(
      try await errorOf { try await registry.makeSession().data(from: url) })
    #expect(error.code == .cannotConnectToHost || error.code == .networkConnectionLost)
    let printed = [
      "\(error)", error.localizedDescription, String(describing: error.userInfo),
      (error as NSError).description,
    ]
    for text in printed {
      #expect(!text.contains(secret), "\(text)")
    }
    #expect(error.localizedDescription.contains("passed through to the network failed"))
  }
}
