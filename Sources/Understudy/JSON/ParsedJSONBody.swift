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
    var tape: JSONTape?
    /// Whether the body has been found to need the full parse.
    var tapeDeclined = false
  }

  /// The readings under a plain lock, in memory of their own: every subset matcher a request
  /// meets asks here, and a debug build (what `swift test` compiles) paid several hundred
  /// instructions a question through `Locked`'s generic methods.
  private final class Shared: @unchecked Sendable {
    // `readings` is read and written only with `lock` held.
    let lock = UnsafeMutablePointer<PlatformLock.Primitive>.allocate(capacity: 1)
    let readings = UnsafeMutablePointer<Readings>.allocate(capacity: 1)

    init() {
      PlatformLock.initialize(lock)
      readings.initialize(to: Readings())
    }

    deinit {
      readings.deinitialize(count: 1)
      readings.deallocate()
      PlatformLock.destroy(lock)
      lock.deallocate()
    }
  }

  private let shared = Shared()

  func json(of body: Data, parse: (Data) -> ParsedJSONBody) -> ParsedJSONBody {
    PlatformLock.lock(shared.lock)
    let cached = shared.readings.pointee.parsed
    PlatformLock.unlock(shared.lock)
    if let cached { return cached }
    let parsed = parse(body)
    PlatformLock.lock(shared.lock)
    shared.readings.pointee.parsed = parsed
    PlatformLock.unlock(shared.lock)
    return parsed
  }

  /// The body's tape, or `nil` when it needs the full parse.
  func tape(of body: Data) -> JSONTape? {
    PlatformLock.lock(shared.lock)
    let (cached, declined) = (shared.readings.pointee.tape, shared.readings.pointee.tapeDeclined)
    PlatformLock.unlock(shared.lock)
    if let cached { return cached }
    if declined { return nil }
    let tape = body.withUnsafeBytes { JSONTape($0) }
    PlatformLock.lock(shared.lock)
    shared.readings.pointee.tape = tape
    shared.readings.pointee.tapeDeclined = tape == nil
    PlatformLock.unlock(shared.lock)
    return tape
  }
}
