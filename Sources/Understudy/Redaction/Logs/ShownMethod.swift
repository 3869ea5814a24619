extension LogRedaction {
  /// The longest method a report shows as it is; `UPDATEREDIRECTREF`, the longest registered,
  /// has 17 characters.
  static let longestShownMethod = 20

  /// A request's method as a report may show it: a method of the usual shape (letters and `-`,
  /// `GET`, `VERSION-CONTROL`) as it is; anything else by its length. A crafted cassette can
  /// put a token where the method goes, and matching upper-cases a method before any report
  /// reads it: `SK_LIVE_…` is no spelling the masking knows, so no method is left to it.
  package static func shown(method: some StringProtocol) -> String {
    let usual =
      !method.isEmpty && method.utf8.count <= longestShownMethod
      && method.utf8.allSatisfy { ASCIIByte.isLetter($0) || $0 == UInt8(ascii: "-") }
    return usual ? String(method) : "\(marker)(\(method.count) chars)"
  }
}

extension HTTPMethod {
  /// The method as a report may show it (``LogRedaction/shown(method:)``).
  package var shown: String { LogRedaction.shown(method: rawValue) }
}
