import Foundation

/// A request body read as JSON: the value, or why it is not JSON.
enum ParsedJSONBody: Sendable {
  case value(JSONValue)
  case notJSON(reason: String)
}

/// The JSON readings of one request's body, shared by every JSON matcher that tests the request
/// while the registry looks for its stub, so the body is read once however many stubs look at
/// it: the tape subset matchers use, and the parsed value the others (and reports) use. Copies
/// share the readings, as copies of a `Locked` do.
struct ParsedJSONBodyCache: Sendable {
  private struct Readings {
    var parsed: ParsedJSONBody?
    /// `.some(nil)` once the body has been found to need the full parse.
    var tape: JSONTape??
  }

  // Guards the readings, each made by whichever matcher needs it first.
  private let readings = Locked(Readings())

  func json(of body: Data, parse: (Data) -> ParsedJSONBody) -> ParsedJSONBody {
    if let cached = readings.current.parsed { return cached }
    let parsed = parse(body)
    readings.withLock { $0.parsed = parsed }
    return parsed
  }

  /// The body's tape, or `nil` when it needs the full parse.
  func tape(of body: Data) -> JSONTape? {
    if let cached = readings.current.tape { return cached }
    let tape = body.withUnsafeBytes { JSONTape($0) }
    readings.withLock { $0.tape = .some(tape) }
    return tape
  }
}
