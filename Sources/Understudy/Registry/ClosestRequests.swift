/// The journaled requests that came closest to a pattern, with the fields that differed: the
/// near-miss explanation for a verification or a wait that found too few requests.
struct ClosestRequests {
  /// How many requests a report lists.
  static let limit = 3

  let pattern: RequestPattern
  let ranked: [(request: InterceptedRequest, explanation: MatchExplanation)]
  let total: Int

  init(to pattern: RequestPattern, among requests: [InterceptedRequest]) {
    self.pattern = pattern
    self.total = requests.count
    let explained = requests.enumerated().compactMap {
      (index, request) -> (Int, InterceptedRequest, MatchExplanation)? in
      let explanation = pattern.explain(request)
      return explanation.isMatch ? nil : (index, request, explanation)
    }
    // Best score first; among equals, the earlier request first, as the test sent them.
    self.ranked = explained.sorted { ($0.2.score, -$0.0) > ($1.2.score, -$1.0) }
      .prefix(Self.limit).map { ($0.1, $0.2) }
  }

  /// The report's lines, indented to sit under a headline.
  var lines: [String] {
    if total == 0 { return ["  The journal holds no requests at all."] }
    if ranked.isEmpty { return [] }
    var lines = ["  Closest requests (\(ranked.count) of \(total)), best first:"]
    for (index, candidate) in ranked.enumerated() {
      lines.append("  \(index + 1). \(candidate.request)")
      // An upload's parts say more than its URL; their summaries mask credential parts.
      for part in candidate.request.multipartParts ?? [] {
        lines.append("     " + part.description)
      }
      for mismatch in candidate.explanation.mismatches {
        lines.append("     " + mismatch.reportLine())
      }
    }
    return lines
  }
}
