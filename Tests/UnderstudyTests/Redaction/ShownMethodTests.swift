import Foundation
import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A method a report shows after matching upper-cased it. A blind attack (2026-12-06) put a
/// Stripe key where a crafted cassette's method goes, and the miss report printed it upper-cased
/// (`SK_LIVE_…`), a spelling the masking does not know: a method of no usual shape is shown by
/// its length, before any case change can hide it from masking.
@Suite struct ShownMethodTests {
  /// Letters only after its prefix: upper-cased, it is a run of capitals no shape names.
  static let key = "sk_live_" + "qwhrtyuiopasdfgjklzxcvbn"

  @Test func aMethodOfTheUsualShapeIsShownAndAnyOtherByItsLength() {
    for method in ["GET", "PROPFIND", "VERSION-CONTROL", "purge"] {
      #expect(LogRedaction.shown(method: method) == method)
    }
    for method in [Self.key, Self.key.uppercased(), "AKIAIOSFODNN7EXAMPLE", "", "A B"] {
      #expect(LogRedaction.shown(method: method) == "••••(\(method.count) chars)")
    }
  }

  @Test func aMissReportShowsNoRecordedMethodThatHoldsAToken() async throws {
    #expect(LogRedaction.mask(Self.key) != Self.key)
    let file = RecordReplayTests.temporaryCassette()
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    let entry = HAR.Entry.sample(method: Self.key, url: "https://api.test/users/7")
    try HAR(entries: [entry]).write(to: file)
    let registry = StubRegistry()
    registry.use(Cassette(at: file))
    var printed: [String] = []
    do {
      _ = try await registry.makeSession().data(from: URL(string: "https://api.test/users/7")!)
    } catch {
      printed += ["\(error)", error.localizedDescription]
    }
    #expect(!printed.isEmpty)
    let body = String(Self.key.dropFirst(8).prefix(8))
    for text in printed {
      #expect(!text.contains(body) && !text.contains(body.uppercased()), "\(text)")
      #expect(text.contains("differs in method GET ≠ ••••(32 chars)"), "\(text)")
    }
  }

  @Test func requestDescriptionsAndNearMissReportsShowAMethodByItsShape() async {
    var request = URLRequest(url: URL(string: "https://api.test/x")!)
    request.httpMethod = Self.key
    let intercepted = InterceptedRequest(request)
    #expect(!"\(intercepted)".uppercased().contains("QWHRTYUI"), "\(intercepted)")
    let registry = StubRegistry()
    registry.stub(.get("/x"), .ok)
    let report = NearMissReport(request: intercepted, stubs: registry.stubs).description
    #expect(!report.uppercased().contains("QWHRTYUI"), "\(report)")
  }
}
