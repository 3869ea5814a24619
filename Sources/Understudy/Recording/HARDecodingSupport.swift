/// A value that decoded as JSON but means nothing valid in a cassette (a date that is not a date,
/// base64 that is not base64).
///
/// Thrown from `init(from:)` instead of `DecodingError.dataCorrupted` so the loader keeps the kind
/// of problem and the suggested fix, not just a debug string.
struct HARValueProblem: Error {
  var kind: CassetteError.Kind
  var codingPath: [any CodingKey]
  var problem: String
  var fix: String
}

extension KeyedDecodingContainer {
  /// Decodes `key`, or returns `fallback` when the member is absent or `null`: real exports omit
  /// members the spec calls required, and the spec gives defaults for many of them.
  func decode<T: Decodable>(_ key: Key, or fallback: @autoclosure () -> T) throws -> T {
    try decodeIfPresent(T.self, forKey: key) ?? fallback()
  }

  /// Decodes an ISO 8601 date and time from a string member.
  func decodeTimestamp(_ key: Key) throws -> Date {
    let text = try decode(String.self, forKey: key)
    guard let date = HARTimestamp.parse(text) else {
      throw HARValueProblem(
        kind: .invalidValue, codingPath: codingPath + [key],
        problem: "\"\(text)\" is not an ISO 8601 date and time",
        fix: "Write it like \"2024-05-01T12:30:00.000Z\" or \"2024-05-01T14:30:00.000+02:00\".")
    }
    return date
  }
}

extension KeyedEncodingContainer {
  /// Encodes a date the way every cassette writes it: UTC, milliseconds, `Z`.
  mutating func encodeTimestamp(_ date: Date, forKey key: Key) throws {
    try encode(HARTimestamp.format(date), forKey: key)
  }
}
