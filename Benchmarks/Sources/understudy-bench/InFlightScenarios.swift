import Foundation
import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// 64 requests in flight, against the floor with the same number of sessions: whether the
/// library's locks and lookups serialise what URLSession would otherwise overlap.
enum InFlightScenarios {
  static let group = "in flight"
  static let width = 64

  static var all: [Scenario] {
    [
      Scenario(group: group, name: "64 in flight, one session") { context in
        let registry = StubRegistry()
        let url = CannedResponse.origin + "/items/1"
        registry.stub(.get(url), StubScenarios.json(CannedResponse.floorBody))
        let request = URLRequest(url: URL(string: url)!)
        return [
          try await compare(
            "64 in flight, one session", registries: [registry], request: request,
            bodies: [CannedResponse.floorBody], context)
        ]
      },
      Scenario(group: group, name: "64 in flight across 16 scopes") { context in
        // Sixteen registries stubbing the same URL with different bodies: every answer is
        // checked, so a request answered by another scope's stub fails the run.
        let bodies = (0..<16).map { CannedResponse.body(tag: "scope-\($0)") }
        let url = CannedResponse.origin + "/items/1"
        let registries = bodies.map { body in
          let registry = StubRegistry()
          registry.stub(.get(url), StubScenarios.json(body))
          return registry
        }
        return [
          try await compare(
            "64 in flight across 16 scopes", registries: registries,
            request: URLRequest(url: URL(string: url)!), bodies: bodies, context)
        ]
      },
    ]
  }

  private static func compare(
    _ scenario: String, registries: [StubRegistry], request: URLRequest, bodies: [Data],
    _ context: BenchmarkContext
  ) async throws -> Row {
    let floorLanes = registries.map { _ in
      (session: FloorProtocol.makeSession(), request: request, body: CannedResponse.floorBody)
    }
    let lanes = zip(registries, bodies).map { registry, body in
      (session: registry.makeSession(), request: request, body: body)
    }
    let comparison = try await PairedRuns.compare(
      floor: Workloads.inFlight(floorLanes, width: width),
      subject: Workloads.inFlight(lanes, width: width), plan: context.plan)
    withExtendedLifetime(registries) {}
    return .compared(
      group, scenario, comparison, bar: .inFlight,
      note: "floor uses \(floorLanes.count) session(s) too")
  }
}
