/// A request body read as JSON: the value, or why it is not JSON.
enum ParsedJSONBody: Sendable {
  case value(JSONValue)
  case notJSON(reason: String)
}

/// The JSON reading of one request's body, shared by every JSON matcher that tests the request
/// while the registry looks for its stub, so the body is parsed once however many stubs look at
/// it. Copies share the reading, as copies of a `Locked` do.
struct ParsedJSONBodyCache: Sendable {
  // Guards the reading, made by whichever matcher needs it first.
  private let reading = Locked<ParsedJSONBody?>(nil)

  func json(of body: Data, parse: (Data) -> ParsedJSONBody) -> ParsedJSONBody {
    if let cached = reading.current { return cached }
    let parsed = parse(body)
    reading.withLock { $0 = parsed }
    return parsed
  }
}
