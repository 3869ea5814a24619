import Understudy

/// `understudy demo`: the library's main job in one run. A small API client, a registry of
/// stubs answering it, what each call received, the journal, and the near-miss report of a
/// request no stub matched.
enum DemoCommand: Command {
  static let name = "demo"
  static let summary =
    "Run a small example: a client answered by stubs, its journal, and a near-miss report."
  static let usage = "understudy demo"
  static let discussion = """
    Runs a self-contained example of what Understudy does in a test: a WeatherClient that uses
    URLSession is handed a session from a StubRegistry, so its requests are answered by stubs
    instead of the network. The stubs show a path template with a capture, a POST matched by a
    subset of its JSON body, a delayed response and a network error. The demo prints what each
    call received, the registry's journal of every request, and the near-miss report of one
    request that no stub matches: the message a failing test shows. Nothing leaves the machine.
    """
  static let options: [OptionSpec] = []
  static let examples = ["understudy demo"]

  static func run(_ arguments: CommandLineArguments) async throws(CLIError) -> ExitCode {
    guard arguments.positionals.isEmpty else {
      throw .usage("demo takes no arguments.", of: self)
    }
    await WeatherDemo().run()
    return .success
  }
}

/// The code under test: a small client of a weather API, written as an app would write it,
/// with nothing in it that knows about tests.
struct WeatherClient {
  struct Forecast: Codable, Sendable {
    var city: String
    var celsius: Double
    var summary: String
  }

  struct Alert: Codable, Sendable {
    var city: String
    var severity: String
    var message: String
  }

  struct Receipt: Codable, Sendable {
    var id: String
    var status: String
  }

  /// A response whose status is not 2xx.
  struct HTTPError: Error {
    var status: Int
  }

  let baseURL: URL
  let session: URLSession

  /// `GET /v1/forecast/{city}`.
  func forecast(city: String) async throws -> Forecast {
    let url = baseURL.appendingPathComponent("v1/forecast/\(city)")
    let (data, response) = try await session.data(from: url)
    try check(response)
    return try JSONDecoder().decode(Forecast.self, from: data)
  }

  /// `POST /v1/alerts` with the alert as JSON.
  func createAlert(_ alert: Alert) async throws -> Receipt {
    var request = URLRequest(url: baseURL.appendingPathComponent("v1/alerts"))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    request.httpBody = try encoder.encode(alert)
    let (data, response) = try await session.data(for: request)
    try check(response)
    return try JSONDecoder().decode(Receipt.self, from: data)
  }

  private func check(_ response: URLResponse) throws {
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    guard (200..<300).contains(status) else { throw HTTPError(status: status) }
  }
}

/// The demo itself: declares the stubs, makes the calls, prints what happened.
private struct WeatherDemo {
  typealias Forecast = WeatherClient.Forecast
  typealias Alert = WeatherClient.Alert

  let registry = StubRegistry()

  /// Each stub as the demo shows it and as it declares it.
  var stubs: [(code: String, declare: (StubRegistry) -> Void)] {
    [
      (
        """
        registry.stub(.get("https://api.weather.example/v1/forecast/{city}")) { request in
          .json(Forecast(city: request.pathParameters["city"]!, celsius: 21, summary: "Sunny"))
        }
        """,
        { registry in
          registry.stub(.get("https://api.weather.example/v1/forecast/{city}")) { request in
            .json(Forecast(city: request.pathParameters["city"]!, celsius: 21, summary: "Sunny"))
          }
        }
      ),
      (
        """
        registry.stub(
          .post("https://api.weather.example/v1/alerts") && .jsonBody(subset: ["severity": "severe"]),
          .json(Receipt(id: "alert-1", status: "queued"), status: 201))
        """,
        { registry in
          registry.stub(
            .post("https://api.weather.example/v1/alerts")
              && .jsonBody(subset: ["severity": "severe"]),
            .json(WeatherClient.Receipt(id: "alert-1", status: "queued"), status: 201))
        }
      ),
      (
        """
        registry.stub(
          .get("https://api.weather.example/v1/forecast/reykjavik"),
          .json(Forecast(city: "reykjavik", celsius: -3, summary: "Snow")).delayed(by: 0.3))
        """,
        { registry in
          registry.stub(
            .get("https://api.weather.example/v1/forecast/reykjavik"),
            .json(Forecast(city: "reykjavik", celsius: -3, summary: "Snow")).delayed(by: 0.3))
        }
      ),
      (
        """
        registry.stub(
          .get("https://api.weather.example/v1/forecast/atlantis"),
          .failure(URLError(.cannotFindHost)))
        """,
        { registry in
          registry.stub(
            .get("https://api.weather.example/v1/forecast/atlantis"),
            .failure(URLError(.cannotFindHost)))
        }
      ),
    ]
  }

  func run() async {
    let client = WeatherClient(
      baseURL: URL(string: "https://api.weather.example")!, session: registry.makeSession())
    Console.print("Understudy demo")
    Console.print(
      indent(
        """
        WeatherClient is an ordinary URLSession client. Its session comes from a StubRegistry,
        so every request is answered by a stub declared below and none reaches the network.
        """))

    section("Stubs (when several match, the one declared last answers)")
    for (number, stub) in stubs.enumerated() {
      stub.declare(registry)
      Console.print(indent(stub.code, number: number + 1))
    }

    section("Calls")
    await call(#"client.forecast(city: "lisbon")"#) {
      try await client.forecast(city: "lisbon")
    }
    await call(
      #"client.forecast(city: "reykjavik")"#,
      note: "stubs 1 and 3 both match; stub 3, declared later, answers, 0.3 s late"
    ) {
      try await client.forecast(city: "reykjavik")
    }
    await call(
      #"client.createAlert(Alert(city: "lisbon", severity: "severe", message: "Heatwave"))"#
    ) {
      try await client.createAlert(Alert(city: "lisbon", severity: "severe", message: "Heatwave"))
    }
    await call(#"client.forecast(city: "atlantis")"#) {
      try await client.forecast(city: "atlantis")
    }
    await call(
      #"client.createAlert(Alert(city: "lisbon", severity: "minor", message: "Breezy"))"#,
      note: "no stub matches: the JSON body has severity \"minor\""
    ) {
      try await client.createAlert(Alert(city: "lisbon", severity: "minor", message: "Breezy"))
    }

    section("Journal (registry.journal: every request, in order)")
    let declared = registry.stubs
    for (number, entry) in registry.journal.enumerated() {
      let outcome: String
      switch entry.outcome {
      case .stubbed(let stub):
        let index = declared.firstIndex { $0 === stub }.map { "stub \($0 + 1)" } ?? "a stub"
        outcome = "answered by \(index)"
      case .passedThrough: outcome = "sent to the network"
      case .replayed(let cassette): outcome = "replayed from \(cassette.lastPathComponent)"
      case .unmatched: outcome = "unmatched"
      }
      let status =
        entry.response?.status.map(String.init)
        ?? (entry.response?.error != nil ? "error" : "-")
      let duration = entry.response.map { String(format: "%.2f s", $0.duration) } ?? ""
      Console.print(
        "  \(number + 1). \(entry.request.method.shown.padding(toLength: 4, withPad: " ", startingAt: 0)) "
          + "\(entry.request.url.absoluteString.padding(toLength: 52, withPad: " ", startingAt: 0)) "
          + "\(status.padding(toLength: 5, withPad: " ", startingAt: 0)) "
          + "\(outcome.padding(toLength: 18, withPad: " ", startingAt: 0)) \(duration)")
    }

    if let report = registry.unmatchedReports.last {
      section(
        "Near-miss report (the journal entry's outcome, .unmatched(report); a test fails with "
          + "this message)",
        report.description)
    }
    section(
      "Next",
      """
      Declare stubs like these in your tests, or record real traffic once and replay it.
      `understudy --help` lists the tools for recorded HAR cassettes.
      """)
  }

  /// Makes one call and prints what the client got back and what the registry answered.
  private func call<Value: Sendable>(
    _ code: String, note: String? = nil, _ body: () async throws -> Value
  ) async {
    Console.print("  \(code)")
    if let note { Console.print("    // \(note)") }
    let result: Result<Value, any Error>
    do {
      result = .success(try await body())
    } catch {
      result = .failure(error)
    }
    if let entry = registry.journal.last, let response = entry.response {
      if let status = response.status {
        Console.print("    received \(status) \(response.body.map(displayed) ?? "")")
      }
    }
    switch result {
    case .success(let value):
      Console.print("    returned \(value)")
    case .failure(let error as URLError):
      let reason =
        registry.journal.last?.isUnmatched == true
        ? "no stub matched; the near-miss report is below" : "\(error.code)"
      Console.print("    threw URLError \(error.code.rawValue) (\(reason))")
    case .failure(let error):
      Console.print("    threw \(error)")
    }
  }

  /// A body as text; JSON with its keys sorted, since `JSONEncoder` writes them in no
  /// particular order and the demo's output should read the same every run.
  private func displayed(_ body: Data) -> String {
    if let object = try? JSONSerialization.jsonObject(with: body),
      let sorted = try? JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    {
      return String(decoding: sorted, as: UTF8.self)
    }
    return String(decoding: body, as: UTF8.self)
  }

  private func section(_ title: String, _ text: String? = nil) {
    Console.print("")
    Console.print(title)
    if let text { Console.print(indent(text)) }
  }

  private func indent(_ text: String, number: Int? = nil) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map {
      line, content in
      let prefix = number.map { line == 0 ? "\($0)." : "" } ?? ""
      return "  " + prefix.padding(toLength: number == nil ? 0 : 3, withPad: " ", startingAt: 0)
        + content
    }.joined(separator: "\n")
  }
}
