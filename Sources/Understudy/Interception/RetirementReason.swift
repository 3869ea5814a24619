/// Why a registry was retired, as the facts a late request's report puts into words.
///
/// A value rather than a closure over the same facts: every test's scope retires a registry and
/// few reasons are ever read, and the closures were three allocations a scope (the reason, the
/// directory's wrapper of it, and the one a deallocated registry made), two of them kept for the
/// next thousand retirements.
enum RetirementReason: Sendable, CustomStringConvertible {
  /// The test `testName`, whose scope was declared at `location`, ended.
  case scopeEnded(testName: String, location: SourceLocation)
  /// The registry created at `location` was deallocated.
  case deallocated(createdAt: SourceLocation)

  /// The reason as it completes "… arrived after …" in a report.
  var description: String {
    switch self {
    case .scopeEnded(let testName, let location):
      "its test \(testName) ended (scope declared at \(location))"
    case .deallocated(let location):
      "its StubRegistry (created at \(location)) was deallocated"
    }
  }
}
