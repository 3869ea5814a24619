import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What a registry keeps besides its stubs and journal: read now and then (an unmatched
/// request, a scenario stub, the scope's end), never on every request, so one lock guards it
/// all. A test scope makes a registry per test, and each lock is an allocation, a mutex to set
/// up and tear down and memory the scope touches cold.
struct ScopeState: Sendable {
  /// What happens to requests no stub matches.
  var policy: UnmatchedRequestPolicy
  /// The current state of each scenario; held while a scenario stub is claimed, so a state
  /// check and the move it causes happen together.
  var scenarioStates = [String: String]()
  /// The cassette that answers what no stub does.
  var cassette: Cassette?
  /// Whether the test this registry serves has ended.
  var ended = false
  /// Why the registry was retired (its scope ended) and where late requests are reported, as
  /// the directory has it: the loopback server asks the registry it holds for every request,
  /// without a directory lookup.
  var retirement: RegistryDirectory.Retirement?
  /// What user code did wrong (a responder threw, a closure overran its request's timeout)
  /// while a test scope owned the registry, reported when the scope ends; `nil` once it ended.
  var userCodeFailures: [ScopeFailure]? = []
  /// Whether requests arriving after the scope ended are recorded as Swift Testing issues (set
  /// by the trait; XCTest would pin them on whichever test runs next).
  var reportsStragglers = false
  /// Where sessions of the registry keep cacheable answers (``StubRegistry/cachesResponses``).
  var urlCache: URLCache?
  /// What the scope will check when it ends, and the unmatched requests the test said to expect.
  var expectations = ScopeExpectations()
}
