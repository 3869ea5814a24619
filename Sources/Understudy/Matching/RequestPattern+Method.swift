extension RequestPattern {
  /// Matches requests sent with `method`.
  ///
  /// ```swift
  /// .method(.delete) && .path("/users/{id}")
  /// ```
  public static func method(_ method: HTTPMethod) -> RequestPattern {
    RequestPattern.builtIn(
      field: "method", expected: "== \(method.rawValue)", test: .method(method.rawValue)
    ) { request in
      request.methodName == method.rawValue
        ? .matched : .mismatched(actual: LogRedaction.shown(method: request.methodName))
    }
  }
}
