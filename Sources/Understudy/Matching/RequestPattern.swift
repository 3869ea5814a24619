/// A description of the requests a stub answers: a tree of field conditions joined by `&&`, `||`
/// and `!`.
///
/// Patterns are values: build them from the factories (`.get("/users/{id}")`,
/// `.header("Accept", "application/json")`, `.jsonBody(subset:)` …) and combine them. Every
/// condition names its field and what it expected, so a pattern can explain field by field why a
/// request did not match.
///
/// ```swift
/// let pattern: RequestPattern = .post("/users") && .jsonBody(subset: ["role": "admin"])
/// ```
public struct RequestPattern: Sendable, CustomStringConvertible {
  indirect enum Node: Sendable {
    case condition(Condition)
    case all([Node])
    case any([Node])
    case not(Node)
  }

  let node: Node
  /// Whether no condition has a problem; checked before matching, because an invalid condition
  /// under `!` or `||` would otherwise let the pattern match.
  let isSound: Bool

  /// `node` with each `&&` group's conditions in the order matching tries them.
  let matchNode: Node
  /// Whether a condition runs a closure the user wrote, which may block or start requests of its
  /// own and so never runs on a URLSession work queue.
  let runsUserCode: Bool
  /// `matchNode`'s conditions when it is a plain conjunction (nearly every stub's pattern), so
  /// matching loops over them instead of walking the tree's indirect nodes.
  let conjunction: [Condition]?
  /// Where in `conjunction` the condition the registry files the stub by sits, when that
  /// condition tests the exact path and nothing else; -1 otherwise. A stub found under the
  /// request's path has passed it already (see ``match(_:pathIndexed:)``).
  private let indexedPathPosition: Int

  init(_ node: Node) {
    self.node = node
    matchNode = Self.inMatchOrder(node)
    let conjunction = Self.conditions(ofConjunction: matchNode)
    self.conjunction = conjunction
    indexedPathPosition = Self.indexedPathPosition(node, in: conjunction)
    isSound = Self.invalidConditions(node).isEmpty
    runsUserCode = Self.runsUserCode(node)
  }

  /// Creates a pattern from one condition on one field, running user code; ``custom(_:_:)`` is
  /// the public spelling, whose report shows the description it was given.
  ///
  /// - Parameters:
  ///   - field: The field the condition looks at, as shown in reports (`"header X-Id"`).
  ///   - expected: What the condition expects, as shown in reports.
  ///   - check: Tests a request and says what it found when it does not match.
  package init(
    field: String, expected: String,
    check: @escaping @Sendable (InterceptedRequest) -> FieldCheck
  ) {
    self.init(
      .condition(Condition(field: field, expected: expected, runsUserCode: true, check: check)))
  }

  /// A condition of the library's own, which is safe to run on a URLSession work queue.
  static func builtIn(
    field: String, expected: String, key: String? = nil, test: BuiltInTest? = nil,
    check: @escaping @Sendable (InterceptedRequest) -> FieldCheck
  ) -> RequestPattern {
    RequestPattern(
      .condition(
        Condition(field: field, expected: expected, key: key, builtIn: test, check: check)))
  }

  init(_ condition: Condition) {
    self.init(.condition(condition))
  }

  /// A pattern that matches every request.
  public static var any: RequestPattern { RequestPattern(.all([])) }

  /// A pattern decided by your own predicate; `description` is what reports show it expected.
  ///
  /// Matching stops at the first condition that fails and may try conditions in any order, so
  /// the predicate may not run for every request: keep it free of side effects. It runs off
  /// URLSession's work queues, so it may block or send requests of its own.
  public static func custom(
    _ description: String, _ predicate: @escaping @Sendable (InterceptedRequest) -> Bool
  ) -> RequestPattern {
    RequestPattern(field: "custom", expected: description) { request in
      predicate(request) ? .matched : .mismatched(actual: "predicate returned false")
    }
  }

  /// Whether `request` matches, with the values captured by path templates.
  ///
  /// Stops at the first failing condition, trying path conditions first and body conditions
  /// last whatever order the pattern was written in; use ``explain(_:)`` to see every field.
  public func match(_ request: InterceptedRequest) -> [String: String]? {
    match(request, pathIndexed: false)
  }

  /// ``match(_:)``, told with `pathIndexed` that the registry found the stub under the request's
  /// path (`RouteIndex`), so the condition it was filed by holds and is not tested again.
  func match(_ request: InterceptedRequest, pathIndexed: Bool) -> [String: String]? {
    guard isSound else { return nil }
    var captures = [String: String]()
    guard let conjunction else {
      return Self.match(matchNode, request, &captures) ? captures : nil
    }
    // The pattern holds its conditions for the whole loop, so each is lent to the test rather
    // than retained and released: two atomic operations per condition of every stub tried.
    // A counted loop: `indices` builds a range through generic metadata in a debug build.
    var index = 0
    let skipped = pathIndexed ? indexedPathPosition : -1
    while index < conjunction.count {
      if index == skipped {
        index += 1
        continue
      }
      let matched = Unmanaged.passUnretained(conjunction[index])._withUnsafeGuaranteedRef {
        Self.match($0, request, &captures)
      }
      if !matched { return nil }
      index += 1
    }
    return captures
  }

  /// Evaluates every condition against `request` and says which fields matched and which did not.
  ///
  /// A pattern with problems never matches, so its invalid conditions come first among the
  /// mismatches, wherever they sit (in a `||` branch or under `!` they would not otherwise show).
  public func explain(_ request: InterceptedRequest) -> MatchExplanation {
    var explanation = Self.explain(node, request)
    if !isSound {
      let invalid = Self.invalidConditions(node).map(\.invalidMismatch)
      explanation.mismatches = invalid + explanation.mismatches.filter { !invalid.contains($0) }
      explanation.captures = [:]
    }
    return explanation
  }

  /// Problems found while building the pattern, such as an invalid regular expression or path
  /// template; a pattern with problems never matches.
  public var problems: [String] {
    // Every declared stub asks; a sound pattern (nearly all) need not walk its conditions again.
    isSound ? [] : Self.invalidConditions(node).compactMap(\.problem)
  }

  /// A readable form, such as `method == GET && path ~ /users/{id}`.
  public var description: String { description(naming: nil) }

  /// The description, with the values a test's own redaction names masked too.
  func description(naming: NamedSecrets?) -> String {
    Self.describe(node, topLevel: true, naming: naming)
  }

  /// Both patterns must match.
  public static func && (lhs: RequestPattern, rhs: RequestPattern) -> RequestPattern {
    RequestPattern(.all(lhs.conjuncts + rhs.conjuncts))
  }

  /// All of `patterns` must match: the same pattern as joining them with `&&` in turn, built
  /// once instead of once per `&&`.
  static func allOf(_ patterns: [RequestPattern]) -> RequestPattern {
    // A counted loop: `flatMap` with a key path is generic all the way in a debug build.
    var nodes: [Node] = []
    var index = 0
    while index < patterns.count {
      nodes += patterns[index].conjuncts
      index += 1
    }
    return RequestPattern(.all(nodes))
  }

  /// Either pattern must match; the first that matches supplies the path parameters.
  public static func || (lhs: RequestPattern, rhs: RequestPattern) -> RequestPattern {
    RequestPattern(.any(lhs.disjuncts + rhs.disjuncts))
  }

  /// The pattern must not match.
  public static prefix func ! (pattern: RequestPattern) -> RequestPattern {
    RequestPattern(.not(pattern.node))
  }

  private var conjuncts: [Node] {
    if case .all(let nodes) = node { return nodes }
    return [node]
  }

  private var disjuncts: [Node] {
    if case .any(let nodes) = node { return nodes }
    return [node]
  }
}

extension RequestPattern {
  /// One field test inside a pattern.
  ///
  /// A class: matching walks a pattern's conditions for every request, and copying a struct of
  /// six strings and two closures costs a retain and a release for each of them.
  final class Condition: Sendable {
    let field: String
    let expected: String
    /// Set when the condition pins the exact path, so the registry can index it.
    let exactPath: String?
    /// Set when the condition is a path template the registry can file by its segments.
    let template: PathTemplate?
    /// Set when the condition pins the scheme, so sessions claim that custom scheme.
    let scheme: String?
    /// Why the condition can never match (an invalid regex, say); `nil` when it is sound.
    let problem: String?
    /// Whether `check` is a closure the user wrote.
    let runsUserCode: Bool
    let check: @Sendable (InterceptedRequest) -> FieldCheck
    /// A quicker yes-or-no form of `check`, for conditions that capture nothing and whose
    /// mismatch description costs more than the test; matching uses it, explaining never does.
    let test: (@Sendable (InterceptedRequest) -> Bool)?
    /// The same yes-or-no test for the commonest conditions, run inline by matching without a
    /// closure (see ``BuiltInTest``).
    let builtIn: BuiltInTest?
    /// What patterns compare this condition by when `field` and `expected` do not say it in
    /// full (they were clipped, or a header name compares without case); see ``key``.
    private let fullKey: String?

    /// `field` and `expected` are what reports show, clipped here for the library's own
    /// conditions; `key` says in full what the condition checks, when the two do not (they are
    /// clipped, or a header name that compares without case).
    init(
      field: String, expected: String, key: String? = nil, exactPath: String? = nil,
      template: PathTemplate? = nil, scheme: String? = nil, problem: String? = nil,
      runsUserCode: Bool = false, test: (@Sendable (InterceptedRequest) -> Bool)? = nil,
      builtIn: BuiltInTest? = nil, check: @escaping @Sendable (InterceptedRequest) -> FieldCheck
    ) {
      self.runsUserCode = runsUserCode
      self.field = runsUserCode ? field : field.clipped()
      self.expected = runsUserCode ? expected : expected.clipped()
      // Built only when the shown text falls short, since every stub declared builds these.
      let clipped =
        self.field.utf8.count != field.utf8.count
        || self.expected.utf8.count != expected.utf8.count
      fullKey = key ?? (clipped ? field + "\u{1F}" + expected : nil)
      self.exactPath = exactPath
      self.template = template
      self.scheme = scheme
      self.problem = problem
      self.test = test
      self.builtIn = builtIn
      self.check = check
    }

    /// What patterns compare this condition by: the library's own conditions by what they check,
    /// in full; `nil` for a closure the user wrote, which equals only itself.
    var key: String? {
      guard !runsUserCode else { return nil }
      return (fullKey ?? field + "\u{1F}" + expected) + "\u{1F}" + (problem ?? "")
    }

    /// How an explanation shows a condition that has a problem.
    var invalidMismatch: FieldMismatch {
      FieldMismatch(field: field, expected: expected, actual: "invalid pattern: \(problem ?? "")")
    }
  }

  /// Puts the conditions most likely to rule a request out, and cheapest to test, first: the
  /// path (stubs differ by it far more than by anything else), then the method, then the rest;
  /// then the scheme, host and port, which the stubs a request reaches by its path nearly always
  /// share (one origin per test), so they seldom rule one out; the body last. Reports keep the
  /// order the pattern was written in.
  private static func inMatchOrder(_ node: Node) -> Node {
    func rank(_ node: Node) -> Int {
      guard case .condition(let condition) = node else { return 2 }
      switch condition.field {
      case "path": return 0
      case "method": return 1
      case "scheme", "host", "port": return 3
      case "body": return 4
      // A multipart part matcher reads the body too.
      case _ where condition.field.hasPrefix("part "): return 4
      default: return 2
      }
    }
    switch node {
    case .condition: return node
    case .all(let nodes):
      // Each member ranked once, then taken rank by rank in written order (a stable sort), in
      // counted loops: `sorted` on enumerated pairs, comparing tuples and ranking both sides of
      // every comparison, cost a debug build (what `swift test` compiles) 54,000 instructions
      // for the five conditions of a target, and `insert(_:at:)` 2,000 a call.
      var members: [Node] = []
      var ranks: [Int] = []
      var index = 0
      while index < nodes.count {
        let member = inMatchOrder(nodes[index])
        members.append(member)
        ranks.append(rank(member))
        index += 1
      }
      var ordered: [Node] = []
      ordered.reserveCapacity(members.count)
      var currentRank = 0
      while currentRank <= 4 {  // the highest rank `rank` gives
        index = 0
        while index < members.count {
          if ranks[index] == currentRank { ordered.append(members[index]) }
          index += 1
        }
        currentRank += 1
      }
      return .all(ordered)
    case .any(let nodes): return .any(nodes.map(inMatchOrder))
    case .not(let inner): return .not(inMatchOrder(inner))
    }
  }

  /// The conditions of `node` when it is a conjunction of conditions (or one condition).
  private static func conditions(ofConjunction node: Node) -> [Condition]? {
    switch node {
    case .condition(let condition): return [condition]
    case .all(let nodes):
      var conditions: [Condition] = []
      for node in nodes {
        guard case .condition(let condition) = node else { return nil }
        conditions.append(condition)
      }
      return conditions
    case .any, .not: return nil
    }
  }

  private static func match(
    _ condition: Condition, _ request: InterceptedRequest, _ captures: inout [String: String]
  ) -> Bool {
    // No problem check here: `match(_:)` refuses a pattern with an unsound condition first.
    if let builtIn = condition.builtIn { return builtIn.passes(request) }
    if let result = condition.test?(request) { return result }
    switch condition.check(request) {
    case .matched(let found):
      // Most conditions capture nothing; merging an empty dictionary still costs a call.
      if captures.isEmpty {
        captures = found
      } else if !found.isEmpty {
        captures.merge(found) { _, new in new }
      }
      return true
    case .mismatched:
      return false
    }
  }

  private static func match(
    _ node: Node, _ request: InterceptedRequest, _ captures: inout [String: String]
  ) -> Bool {
    switch node {
    case .condition(let condition):
      return match(condition, request, &captures)
    case .all(let nodes):
      for node in nodes where !match(node, request, &captures) {
        return false
      }
      return true
    case .any(let nodes):
      for node in nodes {
        var branch: [String: String] = [:]
        if match(node, request, &branch) {
          if !branch.isEmpty { captures.merge(branch) { _, new in new } }
          return true
        }
      }
      return false
    case .not(let inner):
      var ignored: [String: String] = [:]
      return !match(inner, request, &ignored)
    }
  }

  private static func explain(_ node: Node, _ request: InterceptedRequest) -> MatchExplanation {
    switch node {
    case .condition(let condition):
      if condition.problem != nil {
        return MatchExplanation(
          matchedFields: [], mismatches: [condition.invalidMismatch], captures: [:])
      }
      switch condition.check(request) {
      case .matched(let found):
        return MatchExplanation(matchedFields: [condition.field], mismatches: [], captures: found)
      case .mismatched(let actual):
        let mismatch = FieldMismatch(
          field: condition.field, expected: condition.expected, actual: actual)
        return MatchExplanation(matchedFields: [], mismatches: [mismatch], captures: [:])
      }
    case .all(let nodes):
      var result = MatchExplanation(matchedFields: [], mismatches: [], captures: [:])
      for node in nodes {
        let part = explain(node, request)
        result.matchedFields += part.matchedFields
        result.mismatches += part.mismatches
        result.captures.merge(part.captures) { _, new in new }
      }
      return result
    case .any(let nodes):
      let branches = nodes.map { explain($0, request) }
      if let hit = branches.first(where: \.isMatch) { return hit }
      // No branch matched: report the branch that came closest, so the report stays specific.
      return branches.max { $0.score < $1.score }
        ?? MatchExplanation(
          matchedFields: [],
          mismatches: [FieldMismatch(field: "any of", expected: "(no alternatives)", actual: "-")],
          captures: [:])
    case .not(let inner):
      let part = explain(inner, request)
      if part.isMatch {
        let mismatch = FieldMismatch(
          field: "not", expected: "not (\(describe(inner, topLevel: true)))",
          actual: "matched \(part.matchedFields.joined(separator: ", "))")
        return MatchExplanation(matchedFields: [], mismatches: [mismatch], captures: [:])
      }
      return MatchExplanation(matchedFields: ["not"], mismatches: [], captures: [:])
    }
  }

  private static func runsUserCode(_ node: Node) -> Bool {
    switch node {
    case .condition(let condition): return condition.runsUserCode
    case .all(let nodes), .any(let nodes): return nodes.contains(where: runsUserCode)
    case .not(let inner): return runsUserCode(inner)
    }
  }

  /// The conditions that have a problem, in the order they were written.
  private static func invalidConditions(_ node: Node) -> [Condition] {
    switch node {
    case .condition(let condition): return condition.problem == nil ? [] : [condition]
    case .all(let nodes), .any(let nodes): return nodes.flatMap(invalidConditions)
    case .not(let inner): return invalidConditions(inner)
    }
  }

  private static func describe(_ node: Node, topLevel: Bool, naming: NamedSecrets? = nil)
    -> String
  {
    switch node {
    case .condition(let condition):
      // A description is printed (reports, a stub's description), so it is masked as they are.
      let expected = FieldMismatch.maskedExpectation(
        condition.expected, of: condition.field, naming: naming)
      return "\(condition.field) \(expected)"
    case .all(let nodes):
      if nodes.isEmpty { return "any request" }
      let text = nodes.map { describe($0, topLevel: false, naming: naming) }
        .joined(separator: " && ")
      return topLevel || nodes.count == 1 ? text : "(\(text))"
    case .any(let nodes):
      let text = nodes.map { describe($0, topLevel: false, naming: naming) }
        .joined(separator: " || ")
      return topLevel || nodes.count == 1 ? text : "(\(text))"
    case .not(let inner):
      return "!(\(describe(inner, topLevel: true, naming: naming)))"
    }
  }

  /// The exact path every matching request must have, when the pattern pins one; the registry
  /// indexes such stubs so lookups stay flat as stubs grow.
  var indexedPath: String? {
    Self.indexedPathCondition(of: node)?.exactPath
  }

  /// The condition ``indexedPath`` comes from.
  private static func indexedPathCondition(of node: Node) -> Condition? {
    switch node {
    case .condition(let condition): return condition.exactPath == nil ? nil : condition
    case .all(let nodes):
      for node in nodes {
        if case .condition(let condition) = node, condition.exactPath != nil { return condition }
      }
      return nil
    case .any, .not: return nil
    }
  }

  /// The position in `conjunction` of the condition ``indexedPath`` comes from, when that
  /// condition tests the path alone (a `.url` condition files its stub by path too, but tests
  /// more); -1 otherwise.
  private static func indexedPathPosition(_ node: Node, in conjunction: [Condition]?) -> Int {
    guard let conjunction, let indexed = indexedPathCondition(of: node),
      case .exactPath? = indexed.builtIn
    else { return -1 }
    var position = 0
    while position < conjunction.count {
      if conjunction[position] === indexed { return position }
      position += 1
    }
    return -1
  }

  /// The path template every matching request must fit, when the pattern pins one the registry
  /// can file by its segments.
  var indexedTemplate: PathTemplate? {
    for node in conjuncts {
      if case .condition(let condition) = node, let template = condition.template {
        return template
      }
    }
    return nil
  }

  /// Custom schemes the pattern names, which sessions must claim.
  var schemes: [String] {
    func collect(_ node: Node) -> [String] {
      switch node {
      case .condition(let condition): return condition.scheme.map { [$0] } ?? []
      case .all(let nodes), .any(let nodes): return nodes.flatMap(collect)
      case .not: return []
      }
    }
    return collect(node)
  }
}

/// The outcome of one condition: matched (with any captured path parameters), or not, with what
/// was actually found.
package enum FieldCheck: Sendable, Hashable {
  /// The field matched; the dictionary holds captured path parameters, usually empty.
  case matched([String: String])
  /// The field did not match; `actual` is what the request had, as shown in reports.
  case mismatched(actual: String)

  /// The field matched and captured nothing.
  package static var matched: FieldCheck { .matched([String: String]()) }
}

/// One field that did not match: what the pattern expected and what the request had.
public struct FieldMismatch: Sendable, Hashable, CustomStringConvertible {
  /// The field, such as `method`, `path` or `header Accept`.
  public var field: String
  /// What the pattern expected.
  var expected: String
  /// What the request had.
  var actual: String

  /// Creates a mismatch.
  package init(field: String, expected: String, actual: String) {
    self.field = field
    self.expected = expected
    self.actual = actual
  }

  /// `field: expected …, got …`.
  public var description: String { "\(field): expected \(expected), got \(actual)" }
}

/// Why a request did or did not match a pattern, field by field.
public struct MatchExplanation: Sendable, Hashable {
  /// The fields that matched.
  public var matchedFields: [String]
  /// The fields that did not match; empty when the request matched.
  public var mismatches: [FieldMismatch]
  /// Path parameters captured by templates.
  var captures: [String: String]

  /// Whether the request matched.
  public var isMatch: Bool { mismatches.isEmpty }

  /// The share of fields that matched, from 0 to 1; near-miss reports rank stubs by it.
  package var score: Double {
    let total = matchedFields.count + mismatches.count
    return total == 0 ? 1 : Double(matchedFields.count) / Double(total)
  }
}
