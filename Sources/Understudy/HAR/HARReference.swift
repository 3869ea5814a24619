// The Codable reference of the HAR model, kept out of the public API. A user reads a cassette
// with HAR.decode(_:source:) or load(contentsOf:) and writes one with encoded() or write(to:);
// a public Codable conformance would only add a second route, with its own errors and none of
// their checks, and make every type's init(from:) and encode(to:) API to keep. So the public
// model types are not Codable: each has a reference reader and writer here, reached through
// HARReference, which is. JSONDecoder reads through it what HARReader is unsure of, the scanner
// and the tool encode through it, and the tests compare it with HARReader and HARWriter.

/// A public HAR model type with a `Codable` reference reader and writer.
package protocol HARReferenceCodable {
  /// Decodes the value from the reference decoder, as `init(from:)` would.
  init(reference decoder: any Decoder) throws
  /// Encodes the value, as `encode(to:)` would.
  func encode(reference encoder: any Encoder) throws
}

/// A model value as a `Codable` one, for `JSONDecoder` and `JSONEncoder`.
package struct HARReference<Value: HARReferenceCodable>: Codable {
  /// The model value.
  package var value: Value

  /// Wraps `value` for an encoder.
  package init(_ value: Value) {
    self.value = value
  }

  /// Decodes the value through its reference reader, with the same coding path.
  package init(from decoder: any Decoder) throws {
    value = try Value(reference: decoder)
  }

  /// Encodes the value through its reference writer.
  package func encode(to encoder: any Encoder) throws {
    try value.encode(reference: encoder)
  }
}

// The container methods the model's readers and writers call, for members of the model's own
// types: the same spellings as for `Codable` members, so each reader reads as it did.
extension KeyedDecodingContainer {
  func decode<T: HARReferenceCodable>(_: T.Type, forKey key: Key) throws -> T {
    try decode(HARReference<T>.self, forKey: key).value
  }

  func decode<T: HARReferenceCodable>(_: [T].Type, forKey key: Key) throws -> [T] {
    try decode([HARReference<T>].self, forKey: key).map(\.value)
  }

  func decodeIfPresent<T: HARReferenceCodable>(_: T.Type, forKey key: Key) throws -> T? {
    try decodeIfPresent(HARReference<T>.self, forKey: key)?.value
  }

  /// Decodes `key`, or returns `fallback` when the member is absent or `null`.
  func decode<T: HARReferenceCodable>(_ key: Key, or fallback: @autoclosure () -> T) throws -> T {
    try decodeIfPresent(T.self, forKey: key) ?? fallback()
  }

  /// Decodes the array at `key`, or returns `fallback` when the member is absent or `null`.
  func decode<T: HARReferenceCodable>(_ key: Key, or fallback: @autoclosure () -> [T]) throws
    -> [T]
  {
    try decodeIfPresent([HARReference<T>].self, forKey: key)?.map(\.value) ?? fallback()
  }
}

extension KeyedEncodingContainer {
  mutating func encode<T: HARReferenceCodable>(_ value: T, forKey key: Key) throws {
    try encode(HARReference(value), forKey: key)
  }

  mutating func encode<T: HARReferenceCodable>(_ values: [T], forKey key: Key) throws {
    try encode(values.map { HARReference($0) }, forKey: key)
  }

  mutating func encodeIfPresent<T: HARReferenceCodable>(_ value: T?, forKey key: Key) throws {
    try encodeIfPresent(value.map { HARReference($0) }, forKey: key)
  }
}
