// Query items are compared decoded as servers decode them (percent escapes, and `+` as a space)
// and in any order; a report shows every item the request had, since the one that is missing
// often sits beside a misspelt one.

extension RequestPattern {
  /// Matches when the query has an item `name` with the value `value` (other items may be
  /// present, in any order).
  ///
  /// The query is decoded as servers decode it: percent escapes, and `+` as a space, so
  /// `.query("q", "swift testing")` matches `?q=swift+testing` and `?q=swift%20testing`; a plus
  /// sign itself arrives as `%2B`.
  ///
  /// ```swift
  /// .query("page", "2")  // matches ?sort=asc&page=2
  /// ```
  public static func query(_ name: String, _ value: String) -> RequestPattern {
    let item = NameValuePairs.Pair(name: name, value: value)
    return queryCondition(field: "query \(name)", expected: "== \(value)") {
      $0.pairs.contains(item)
    }
  }

  /// Matches when the query has an item `name`, with any value.
  public static func query(_ name: String) -> RequestPattern {
    queryCondition(field: "query \(name)", expected: "present") {
      $0.pairs.contains { $0.name == name }
    }
  }

  /// Matches when the query has every one of `items`; other items may be present too.
  ///
  /// ```swift
  /// .query(containing: ["q": "swift testing", "page": "2"])
  /// ```
  public static func query(containing items: [String: String]) -> RequestPattern {
    queryContaining(NameValuePairs(items))
  }

  /// Matches when the query has exactly `items`, in any order: nothing missing, nothing extra,
  /// each repeated item as often as listed. An item with a `nil` value counts as an empty value.
  public static func query(exactly items: [URLQueryItem]) -> RequestPattern {
    let expected = NameValuePairs(items)
    let counts = expected.counts
    return queryCondition(
      field: "query", expected: "== " + expected.rendered(empty: "no query"),
      key: "== " + expected.key
    ) {
      $0.counts == counts
    }
  }

  static func queryContaining(_ items: NameValuePairs) -> RequestPattern {
    queryCondition(
      field: "query", expected: "contains " + items.rendered(empty: "nothing"),
      key: "contains " + items.key
    ) {
      $0.containsAll(items)
    }
  }

  private static func queryCondition(
    field: String, expected: String, key: String? = nil,
    test: @escaping @Sendable (NameValuePairs) -> Bool
  ) -> RequestPattern {
    RequestPattern.builtIn(
      field: field, expected: expected, key: key.map { field + "\u{1F}" + $0 }
    ) { request in
      // Decoded as servers decode a query (form style, `+` is a space), so `.query("q", "a b")`
      // matches `q=a+b` and `q=a%20b` alike; `%2B` stays a plus.
      let actual = NameValuePairs(
        encoded: Substring(request.url.query(percentEncoded: true) ?? ""), plusIsSpace: true)
      return test(actual) ? .matched : .mismatched(actual: actual.rendered(empty: "no query"))
    }
  }
}
