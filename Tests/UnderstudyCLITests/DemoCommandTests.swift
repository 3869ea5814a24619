import Foundation
import Testing

@Suite struct DemoCommandTests {
  @Test func demoRunsTheStubsAndPrintsTheJournalAndANearMissReport() async throws {
    let result = try await understudy("demo")
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    let expected = [
      "Understudy demo\n",
      #"  1. registry.stub(.get("https://api.weather.example/v1/forecast/{city}")) { request in"#,
      """
        client.forecast(city: "lisbon")
          received 200 {"celsius":21,"city":"lisbon","summary":"Sunny"}
          returned Forecast(city: "lisbon", celsius: 21.0, summary: "Sunny")
      """,
      #"    received 200 {"celsius":-3,"city":"reykjavik","summary":"Snow"}"#,
      #"    received 201 {"id":"alert-1","status":"queued"}"#,
      "    threw URLError -1003 (cannotFindHost)",
      "    threw URLError -1008 (no stub matched; the near-miss report is below)",
      "  2. GET  https://api.weather.example/v1/forecast/reykjavik    200   answered by stub 3",
      "  5. POST https://api.weather.example/v1/alerts                error unmatched",
      "  Understudy: no stub matched POST https://api.weather.example/v1/alerts",
      #"    body (55 bytes): {"city":"lisbon","message":"Breezy","severity":"minor"}"#,
      "       declared at UnderstudyCLI/DemoCommand.swift:",
      #"       ✗ body: expected has JSON subset {"severity":"severe"}, got at $.severity: "#
        + #"expected "severe", got "minor""#,
    ]
    for line in expected {
      #expect(result.stdout.contains(line), "\(line)")
    }
  }

  @Test func demoTakesNoArguments() async throws {
    let result = try await understudy("demo", "extra")
    #expect(result.status == 2)
    #expect(result.stderr.hasPrefix("demo takes no arguments."))
  }
}
