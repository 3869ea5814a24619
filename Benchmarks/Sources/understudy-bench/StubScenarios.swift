import Foundation
import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sequential requests answered by stubs, against the floor: the cost of finding the stub.
enum StubScenarios {
  static let group = "stubs"

  static var all: [Scenario] {
    [
      Scenario(group: group, name: "one exact stub") { context in
        let registry = StubRegistry()
        let url = CannedResponse.origin + "/items/1"
        registry.stub(.get(url), json(CannedResponse.floorBody))
        return [
          try await compare(
            "one exact stub", registry, URLRequest(url: URL(string: url)!),
            CannedResponse.floorBody, context, bar: .oneStub)
        ]
      },
      Scenario(group: group, name: "one exact stub, journalCapacity: 0") { context in
        // The same stub in a registry that journals nothing: the difference to the row above is
        // what keeping every request (the default) costs.
        let registry = StubRegistry(journalCapacity: 0)
        let url = CannedResponse.origin + "/items/1"
        registry.stub(.get(url), json(CannedResponse.floorBody))
        return [
          try await compare(
            "one exact stub, journalCapacity: 0", registry, URLRequest(url: URL(string: url)!),
            CannedResponse.floorBody, context)
        ]
      },
      Scenario(group: group, name: "one responder stub") { context in
        // A closure answers: it runs on a thread of its own, off URLSession's work queue, and
        // its answer comes back through the re-entry path. The difference to "one exact stub"
        // is what that hop costs (Documentation/Responses.md quotes it).
        let registry = StubRegistry()
        let url = CannedResponse.origin + "/items/1"
        let response = json(CannedResponse.floorBody)
        registry.stub(.get(url)) { _ in response }
        let request = URLRequest(url: URL(string: url)!)
        let responder = try await compare(
          "one responder stub", registry, request, CannedResponse.floorBody, context)
        // The same answer from a plain stub, measured beside it (issue 41: within 1.5x).
        let plain = StubRegistry()
        plain.stub(.get(url), response)
        let stub = try await compare(
          "one exact stub, beside the responder", plain, request, CannedResponse.floorBody,
          context)
        guard let closure = responder.ratio?.median, let canned = stub.ratio?.median else {
          return [responder, stub]
        }
        return [
          responder, stub,
          .measured(
            group, "one responder stub over one exact stub", closure / canned, unit: "x",
            bar: .responder, note: "ratio of the two rows' median ratios to the floor"),
        ]
      },
      Scenario(group: group, name: "one path-template stub") { context in
        let registry = StubRegistry()
        registry.stub(.get(CannedResponse.origin + "/items/{id}"), json(CannedResponse.floorBody))
        let request = URLRequest(url: URL(string: CannedResponse.origin + "/items/42")!)
        return [
          try await compare(
            "one path-template stub", registry, request, CannedResponse.floorBody, context)
        ]
      },
      manyExactStubs(1_000, bar: nil),
      manyExactStubs(10_000, bar: .manyExactStubs),
      // Templates on distinct literal leading segments (`/shelf7/{id}`), then templates that
      // start with a placeholder (`/{shelf}/item7`), then a mix of shapes: the route index files
      // every template by all its segments, so each request meets only the templates whose
      // literals it has.
      manyTemplateStubs(
        "1,000 template stubs", route: { "/shelf\($0)/{id}" }, hitting: "/shelf0/7"),
      manyTemplateStubs(
        "1,000 placeholder-first templates", route: { "/{shelf}/item\($0)" },
        hitting: "/shelf/item0"),
      manyTemplateStubs(
        "1,000 templates of mixed shapes", route: mixedShape, hitting: "/shelf/item0"),
      Scenario(group: group, name: "mixed predicates") { context in
        try await mixedPredicates(context)
      },
    ]
  }

  /// `count` stubs on distinct exact routes; the request hits the last-registered stub (found
  /// first, newest first) and then the first-registered one (found last without the index).
  private static func manyExactStubs(_ count: Int, bar: Bar?) -> Scenario {
    let label = count.formatted()
    return Scenario(group: group, name: "\(label) exact stubs") { context in
      try await KeptRegistries.run({ StubRegistry() }) { registry in
        let decoy = CannedResponse.body(tag: "decoy")
        let first = CannedResponse.body(tag: "first")
        let last = CannedResponse.body(tag: "last")
        for index in 0..<count {
          let body = index == 0 ? first : index == count - 1 ? last : decoy
          registry.stub(.get(CannedResponse.origin + "/items/\(index)"), json(body))
        }
        let lastRequest = URLRequest(
          url: URL(string: CannedResponse.origin + "/items/\(count - 1)")!)
        let firstRequest = URLRequest(url: URL(string: CannedResponse.origin + "/items/0")!)
        return [
          try await compare(
            "\(label) exact stubs, hit last registered", registry, lastRequest, last, context,
            bar: bar),
          try await compare(
            "\(label) exact stubs, hit first registered", registry, firstRequest, first, context,
            bar: bar),
        ]
      }
    }
  }

  /// 1,000 template stubs made by `route` from their index; the request (to `path`) hits the
  /// first-registered, found last when trying newest first.
  private static func manyTemplateStubs(
    _ label: String, route: @escaping @Sendable (Int) -> String, hitting path: String
  ) -> Scenario {
    Scenario(group: group, name: label) { context in
      try await KeptRegistries.run({ StubRegistry() }) { registry in
        let decoy = CannedResponse.body(tag: "decoy")
        let first = CannedResponse.body(tag: "first")
        for index in 0..<1_000 {
          registry.stub(
            .get(CannedResponse.origin + route(index)), json(index == 0 ? first : decoy))
        }
        let request = URLRequest(url: URL(string: CannedResponse.origin + path)!)
        return [
          try await compare(
            "\(label), hit first registered", registry, request, first, context, bar: .templates)
        ]
      }
    }
  }

  /// Template shapes in turn: placeholder first, literal first, placeholders between literals,
  /// a `{rest...}` tail. Index 0 is `/{shelf}/item0`.
  @Sendable private static func mixedShape(_ index: Int) -> String {
    switch index % 4 {
    case 0: return "/{shelf}/item\(index)"
    case 1: return "/shelf\(index)/{id}"
    case 2: return "/{tenant}/orders\(index)/{id}/lines"
    default: return "/files\(index)/{path...}"
    }
  }

  /// Eight stubs on one route told apart by header and JSON body matchers; the request matches
  /// the first-registered, so every predicate of every stub runs.
  private static func mixedPredicates(_ context: BenchmarkContext) async throws -> [Row] {
    let registry = StubRegistry()
    let route = CannedResponse.origin + "/orders"
    let target = CannedResponse.body(tag: "target")
    let decoy = CannedResponse.body(tag: "decoy")
    registry.stub(
      .post(route) && .header("Authorization", matching: "^Bearer [a-z0-9-]+$")
        && .jsonBody(subset: ["kind": "book", "customer": ["tier": "gold"]]),
      json(target))
    for index in 1...3 {
      registry.stub(.post(route) && .header("Authorization", "Bearer other-\(index)"), json(decoy))
    }
    for index in 4...6 {
      registry.stub(
        .post(route) && .header("Content-Type", containing: "json")
          && .jsonBody(subset: ["kind": .string("dvd-\(index)")]),
        json(decoy))
    }
    registry.stub(.post(route) && .noHeader("Authorization"), json(decoy))
    var request = URLRequest(url: URL(string: route)!)
    request.httpMethod = "POST"
    request.setValue("Bearer token-0", forHTTPHeaderField: "Authorization")
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(
      #"{"kind":"book","quantity":2,"customer":{"id":42,"tier":"gold"},"notes":"leave at door"}"#
        .utf8)
    return [
      try await compare(
        "mixed predicates (8 stubs: header, regex, JSON subset)", registry, request, target,
        context, bar: .predicates,
        note: "every predicate runs; subsets read one tape of the body per request")
    ]
  }

  static func json(_ body: Data) -> StubResponse {
    .data(body, contentType: "application/json")
  }

  /// Times `request` through the floor and through `registry`, one at a time.
  static func compare(
    _ scenario: String, _ registry: StubRegistry, _ request: URLRequest, _ body: Data,
    _ context: BenchmarkContext, bar: Bar? = nil, note: String? = nil
  ) async throws -> Row {
    let comparison = try await PairedRuns.compare(
      floor: Workloads.sequential(
        FloorProtocol.makeSession(), request, expecting: CannedResponse.floorBody),
      subject: Workloads.sequential(registry.makeSession(), request, expecting: body),
      plan: context.plan)
    // Keep the registry alive until its sessions are done with it.
    withExtendedLifetime(registry) {}
    return .compared(group, scenario, comparison, bar: bar, note: note)
  }
}
