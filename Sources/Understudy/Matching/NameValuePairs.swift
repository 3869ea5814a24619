/// The decoded name–value items of a query string or a form body, compared as a multiset: order
/// does not matter, repeats do.
///
/// An item without `=` counts as an empty value, so `?flag` and `?flag=` are the same item.
struct NameValuePairs: Sendable, Hashable {
  struct Pair: Sendable, Hashable {
    let name: String
    let value: String
  }

  let pairs: [Pair]

  init(_ pairs: [Pair]) {
    self.pairs = pairs
  }

  init(_ items: [URLQueryItem]) {
    pairs = items.map { Pair(name: $0.name, value: $0.value ?? "") }
  }

  /// Sorted by name, so reports built from a dictionary read the same on every run.
  init(_ dictionary: [String: String]) {
    pairs = dictionary.sorted { $0.key < $1.key }.map { Pair(name: $0.key, value: $0.value) }
  }

  /// Parses `a=1&b=x%20y`; form bodies also write spaces as `+`.
  init(encoded: Substring, plusIsSpace: Bool) {
    pairs = encoded.split(separator: "&").map { item in
      let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      func decode(_ text: Substring) -> String {
        let spaced = plusIsSpace ? text.replacingOccurrences(of: "+", with: " ") : String(text)
        return spaced.removingPercentEncoding ?? spaced
      }
      return Pair(name: decode(parts[0]), value: parts.count > 1 ? decode(parts[1]) : "")
    }
  }

  /// The items in full and in a fixed order, unmasked: what patterns built from them compare
  /// by, as a multiset.
  var key: String {
    pairs.map { $0.name + "=" + $0.value }.sorted().joined(separator: "&")
  }

  /// Whether every item of `other` is here, each with its value.
  func containsAll(_ other: NameValuePairs) -> Bool {
    let present = Set(pairs)
    return other.pairs.allSatisfy(present.contains)
  }

  /// How often each item occurs, which is what "order-insensitive but repeat-sensitive" compares.
  var counts: [Pair: Int] {
    pairs.reduce(into: [:]) { $0[$1, default: 0] += 1 }
  }

  /// `a=1&b=x y`, decoded, masked and then clipped (so a value the cut would split is still
  /// masked whole), or `empty` when there are no items. A credential's value is masked here,
  /// where the pairs are still apart: decoded, it may hold a `&` or a `"` that would end it for
  /// a mask reading the text.
  func rendered(empty: String) -> String {
    guard !pairs.isEmpty else { return empty }
    let text = pairs.lazy.map { pair in
      let value =
        CredentialName.isCredential(pair.name, at: .parameter)
        ? LogRedaction.masked(pair.value) : pair.value
      return pair.name + "=" + value
    }.joined(separator: "&")
    return text.masked(beforeCuttingTo: 120).clipped()
  }
}
