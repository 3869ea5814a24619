extension Redaction {
  /// A redaction that writes only the headers named, of requests and responses alike, as
  /// Replay's `.headers(keeping:)` filter does; names compare in any case.
  ///
  /// Every other header is left out of the cassette (and, with `Cookie` or `Set-Cookie` left
  /// out, the entry's cookies too). The rules read every header before it is left out, so a
  /// credential that a left-out header carried is still replaced wherever the server echoed
  /// it. Replay compares a live request redacted the same way, so a header rule in
  /// ``ReplayMatching`` sees only kept headers on both sides. Called again, it keeps the names
  /// of both calls.
  ///
  /// ```swift
  /// let redaction = Redaction.default.keepingOnlyHeaders("Content-Type", "X-Request-Id")
  /// ```
  public func keepingOnlyHeaders(_ names: String...) -> Redaction {
    var copy = self
    copy.keptHeaderNames = (keptHeaderNames ?? []) + names
    return copy
  }
}

extension HAR.Entry {
  /// Leaves out every header whose lower-cased name `kept` lacks, and the cookies of a
  /// `Cookie` or `Set-Cookie` header left out.
  mutating func keepOnlyHeaders(_ kept: Set<String>) {
    request.headers.removeAll { !kept.contains($0.name.lowercased()) }
    response.headers.removeAll { !kept.contains($0.name.lowercased()) }
    if !kept.contains("cookie") { request.cookies = [] }
    if !kept.contains("set-cookie") { response.cookies = [] }
  }
}
