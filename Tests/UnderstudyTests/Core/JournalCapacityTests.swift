import Testing

@testable import Understudy

/// A registry created with a journal capacity keeps only that many requests, in the journal and
/// in each stub, so long runs stay flat in memory; counts stay exact.
@Suite struct JournalCapacityTests {
  @Test func theJournalAndEachStubKeepOnlyTheNewestRequests() async throws {
    let registry = StubRegistry(journalCapacity: 2)
    let stub = registry.stub(.get("/items/{id}"), .text("item"))
    let session = registry.makeSession()
    for id in 1...5 {
      _ = try await session.data(from: URL(string: "https://api.test/items/\(id)")!)
    }
    let kept = ["https://api.test/items/4", "https://api.test/items/5"]
    #expect(stub.callCount == 5)
    #expect(stub.requests.map(\.url.absoluteString) == kept)
    #expect(registry.requests.map(\.url.absoluteString) == kept)
    #expect(registry.journal.allSatisfy { $0.response?.status == 200 })
  }

  @Test func aCapacityOfZeroKeepsNothingButStillCounts() async throws {
    let registry = StubRegistry(journalCapacity: 0)
    let stub = registry.stub(.get("/ping"), .text("pong"))
    let session = registry.makeSession()
    for _ in 1...3 { _ = try await session.data(from: URL(string: "https://api.test/ping")!) }
    #expect(stub.callCount == 3)
    #expect(stub.requests.isEmpty)
    #expect(registry.journal.isEmpty)
  }

  @Test func aBoundedLogTrimsInBatchesButShowsExactlyItsCapacity() {
    var log = BoundedLog<Int>(capacity: 3)
    for value in 1...10 { log.append(value) }
    #expect(log.elements == [8, 9, 10])
    log.updateLast(where: { $0 == 9 }, with: { $0 = 90 })
    #expect(log.elements == [8, 90, 10])
  }

  @Test func anUnboundedLogKeepsEverythingAcrossChunks() {
    var log = BoundedLog<Int>(capacity: nil)
    for value in 0..<5_000 { log.append(value) }
    #expect(log.elements == Array(0..<5_000))
    log.updateLast(where: { $0 == 10 }, with: { $0 = -10 })
    #expect(log.elements[10] == -10)
    var large = BoundedLog<Int>(capacity: 1_500)
    for value in 0..<5_000 { large.append(value) }
    #expect(large.elements == Array(3_500..<5_000))
  }
}
