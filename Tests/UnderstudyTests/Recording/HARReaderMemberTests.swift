import Foundation
import Testing

@testable import Understudy

extension RecordingTests {
  /// The two readers of one format, member by member: `HARReader` (one pass over the bytes) and
  /// each `HAR` type's `init(reference:)` (the `Codable` reference the loader falls back to). Every
  /// member of the exporters' files is taken away, set to `null`, or given a value of another
  /// type; whatever the one-pass reader accepts must be what `JSONDecoder` builds. A default, a
  /// check or a member name changed in one reader and not the other fails here.
  @Suite struct HARReaderMemberTests {
    /// A step of a path into a JSON document.
    enum Step: CustomStringConvertible {
      case member(String)
      case element(Int)

      var description: String {
        switch self {
        case .member(let name): ".\(name)"
        case .element(let index): "[\(index)]"
        }
      }
    }

    /// What becomes of the member at a path.
    enum Change: CaseIterable {
      case removed, null, otherType
    }

    @Test func buildsWhatJSONDecoderBuildsWhenAnyMemberIsMissingNullOrOfAnotherType() throws {
      var variants = 0
      var accepted = 0
      let files = [
        "chrome-export.har", "firefox-export.har", "mitmproxy-export.har", "stub-edge-cases.har",
      ]
      for name in files {
        let document = try JSONSerialization.jsonObject(
          with: Data(contentsOf: HARFixtures.url(name)))
        for path in Self.memberPaths(in: document) {
          for change in Change.allCases {
            let changed = Self.applying(change, at: path[...], to: document)
            let data = try JSONSerialization.data(withJSONObject: changed)
            variants += 1
            guard let read = HARReader.read(data) else { continue }
            accepted += 1
            let reference = try? JSONDecoder().decode(HARReference<HAR>.self, from: data).value
            let location = path.map(\.description).joined()
            #expect(read == reference, "\(name): \(location) \(change)")
          }
        }
      }
      #expect(variants > 1_500)
      // The fast path must stay the usual one, or the comparison above says little.
      #expect(accepted * 3 > variants, "the reader took \(accepted) of \(variants) variants")
    }

    /// The path of every object member in `value`, outermost first.
    static func memberPaths(in value: Any, under prefix: [Step] = []) -> [[Step]] {
      if let object = value as? [String: Any] {
        return object.keys.sorted().flatMap { name in
          let path = prefix + [.member(name)]
          return [path] + memberPaths(in: object[name]!, under: path)
        }
      }
      if let array = value as? [Any] {
        return array.indices.flatMap { memberPaths(in: array[$0], under: prefix + [.element($0)]) }
      }
      return []
    }

    /// `document` with `change` made to the member at `path`.
    static func applying(_ change: Change, at path: ArraySlice<Step>, to document: Any) -> Any {
      guard let step = path.first else { return document }
      let rest = path.dropFirst()
      switch step {
      case .element(let index):
        var array = document as! [Any]
        array[index] = applying(change, at: rest, to: array[index])
        return array
      case .member(let name):
        var object = document as! [String: Any]
        guard rest.isEmpty else {
          object[name] = applying(change, at: rest, to: object[name]!)
          return object
        }
        switch change {
        case .removed: object[name] = nil
        case .null: object[name] = NSNull()
        case .otherType: object[name] = otherType(than: object[name]!)
        }
        return object
      }
    }

    /// A value of another JSON type than `value`.
    static func otherType(than value: Any) -> Any {
      switch value {
      case is String: 1
      case is [String: Any]: [Any]()
      case is [Any]: [String: Any]()
      default: "1"
      }
    }
  }
}
