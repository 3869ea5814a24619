import Foundation
import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// 100,000 sequential requests: resident memory after a warm-up and at the end.
///
/// The registry's journal keeps every request by default (tests read it to verify), so the
/// no-growth scenario bounds it with `StubRegistry(journalCapacity: 0)`; a second, full-run-only
/// scenario shows what the default journal costs per request.
enum SoakScenario {
  static let group = "memory"

  static var all: [Scenario] {
    [
      soak(journalCapacity: 0, bar: .noGrowth, fullRunOnly: false),
      soak(journalCapacity: nil, bar: nil, fullRunOnly: true),
    ]
  }

  private static func soak(journalCapacity: Int?, bar: Bar?, fullRunOnly: Bool) -> Scenario {
    let journal = journalCapacity.map { "journalCapacity: \($0)" } ?? "default journal (keeps all)"
    return Scenario(group: group, name: "100,000 requests, \(journal)", fullRunOnly: fullRunOnly) {
      context in
      let total = context.isCI ? 20_000 : 100_000
      let registry = StubRegistry(journalCapacity: journalCapacity)
      let url = CannedResponse.origin + "/items/1"
      registry.stub(.get(url), StubScenarios.json(CannedResponse.floorBody))
      let send = Workloads.sequential(
        registry.makeSession(), URLRequest(url: URL(string: url)!),
        expecting: CannedResponse.floorBody)
      try await send(1_000)
      guard let start = ProcessMemory.residentBytes else {
        return [.notAvailableYet(group, "RSS over \(total)", bar: nil, reason: "needs /proc")]
      }
      // Checkpoints show whether growth is steady (a leak) or a one-off step (allocator).
      var checkpoints: [Double] = []
      for _ in 0..<10 {
        try await send(total / 10)
        checkpoints.append((ProcessMemory.residentBytes ?? start).mebibytes)
      }
      let end = ProcessMemory.residentBytes ?? start
      withExtendedLifetime(registry) {}
      let growth = (end - start).mebibytes
      return [
        .measured(
          group, "\(total.formatted()) requests, \(journal): RSS growth", growth, unit: "MiB",
          bar: bar,
          note: String(format: "RSS %.1f → %.1f MiB; every 10%%: ", start.mebibytes, end.mebibytes)
            + checkpoints.map { String(format: "%.1f", $0) }.joined(separator: " "))
      ]
    }
  }
}
