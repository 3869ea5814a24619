/// What a registry does with a request no stub matches.
#if hasAttribute(nonexhaustive)
  @nonexhaustive
#endif
public enum UnmatchedRequestPolicy: Sendable {
  /// Fail the request with a `URLError` carrying the near-miss report (the default): nothing
  /// reaches the network unless a stub says so.
  case fail
  /// Send the request to the real server, rewritten as given.
  case passThrough(PassThrough)

  /// Send unmatched requests to the real server unchanged.
  public static var passThrough: UnmatchedRequestPolicy { .passThrough(PassThrough()) }
}
