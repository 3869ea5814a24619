/// A value that decoded as JSON but means nothing valid in a cassette (a date that is not a date,
/// base64 that is not base64).
///
/// Thrown from `init(reference:)` (or a package type's `init(from:)`) instead of
/// `DecodingError.dataCorrupted` so the loader keeps the kind of problem and the suggested fix,
/// not just a debug string.
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
        problem: "\(QuotedValue.quoted(text)) is not an ISO 8601 date and time",
        fix: "Write it like \"2024-05-01T12:30:00.000Z\" or \"2024-05-01T14:30:00.000+02:00\".")
    }
    guard HARTimestamp.isWritable(date) else {
      throw HARValueProblem(
        kind: .invalidValue, codingPath: codingPath + [key],
        problem: "\"\(text)\" is outside the years 0000 to 9999 once converted to UTC, so the "
          + "cassette could not be written back",
        fix: "Write a date from 0000-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z.")
    }
    return date
  }
}

extension KeyedEncodingContainer {
  /// Encodes a date the way every cassette writes it: UTC, milliseconds, `Z`.
  ///
  /// - Throws: `EncodingError.invalidValue` for a date outside the years 0000 to 9999.
  mutating func encodeTimestamp(_ date: Date, forKey key: Key) throws {
    guard let text = HARTimestamp.format(date) else {
      throw EncodingError.invalidValue(
        date,
        EncodingError.Context(
          codingPath: codingPath + [key], debugDescription: "the date is outside 0000 to 9999"))
    }
    try encode(text, forKey: key)
  }
}
