/// The registry's stubs, indexed by route so finding the one that answers stays flat as stubs
/// grow.
///
/// A stub whose pattern pins an exact path is filed under that path; one whose path is a
/// template is filed in a ``TemplateTree`` by all its segments; the rest (regexes, prefixes,
/// custom predicates) are tried for every request. Each list is in registration order, and
/// ``candidates(for:)`` walks them merged, newest first, so precedence is the same as trying
/// every stub in turn.
struct RouteIndex: Sendable {
  private(set) var all: [Stub] = []
  private var byPath: [String: [Stub]] = [:]
  private var templates = TemplateTree()
  private var unindexed: [Stub] = []

  mutating func add(_ stub: Stub) {
    all.append(stub)
    if let path = stub.pattern.indexedPath {
      byPath[path, default: []].append(stub)
    } else if let template = stub.pattern.indexedTemplate {
      templates.add(stub, under: template)
    } else {
      unindexed.append(stub)
    }
  }

  mutating func remove(_ stub: Stub) {
    all.removeAll { $0 === stub }
    if let path = stub.pattern.indexedPath {
      Self.remove(stub, from: &byPath, at: path)
    } else if let template = stub.pattern.indexedTemplate {
      templates.remove(stub, under: template)
    } else {
      unindexed.removeAll { $0 === stub }
    }
  }

  private static func remove(_ stub: Stub, from index: inout [String: [Stub]], at key: String) {
    index[key]?.removeAll { $0 === stub }
    if index[key]?.isEmpty == true { index[key] = nil }
  }

  /// The stubs that could match `request`, newest first.
  func candidates(for request: InterceptedRequest) -> Candidates {
    // Template lists only when there are templates: most registries have none, and building a
    // list of slices costs a debug build (what `swift test` runs) thousands of instructions.
    var lists: [ArraySlice<Stub>] = []
    if !templates.isEmpty { templates.collect(request.encodedPath, into: &lists) }
    return Candidates(exact: byPath[request.path] ?? [], unindexed: unindexed, templates: lists)
  }

  /// Stubs from several registration-ordered lists, newest first.
  ///
  /// The exact-path and unindexed lists are walked by an end index each, and the template lists
  /// (if any) by one more each: `ends[list] - 1` is a list's newest remaining stub. Moving an end
  /// index costs a few instructions where popping the slices, stored in an array, went through
  /// `replaceSubrange` (about 500 a stub).
  struct Candidates: Sequence, IteratorProtocol {
    private let exact: [Stub]
    private var exactEnd: Int
    private let unindexed: [Stub]
    private var unindexedEnd: Int
    private let templates: [ArraySlice<Stub>]
    private var templateEnds: [Int]
    /// Whether the stub `next()` returned last was filed under the request's exact path, so
    /// the condition it was filed by holds.
    private(set) var lastWasExact = false

    init(exact: [Stub], unindexed: [Stub], templates: [ArraySlice<Stub>]) {
      self.exact = exact
      exactEnd = exact.count
      self.unindexed = unindexed
      unindexedEnd = unindexed.count
      self.templates = templates
      var ends: [Int] = []
      var list = 0
      while list < templates.count {
        ends.append(templates[list].endIndex)
        list += 1
      }
      templateEnds = ends
    }

    mutating func next() -> Stub? {
      // Most routes hold exact-path stubs only: those are taken in order without comparing.
      if unindexedEnd == 0 && templates.isEmpty {
        guard exactEnd > 0 else { return nil }
        lastWasExact = true
        exactEnd -= 1
        return exact[exactEnd]
      }
      // Which list holds the newest remaining stub: -2 exact, -1 unindexed, else a template list.
      var newest = Int.min
      var newestOrder = Int.min
      if exactEnd > 0 {
        newest = -2
        newestOrder = exact[exactEnd - 1].order
      }
      if unindexedEnd > 0, unindexed[unindexedEnd - 1].order > newestOrder {
        newest = -1
        newestOrder = unindexed[unindexedEnd - 1].order
      }
      var list = 0
      while list < templates.count {
        let end = templateEnds[list]
        if end > templates[list].startIndex, templates[list][end - 1].order > newestOrder {
          newest = list
          newestOrder = templates[list][end - 1].order
        }
        list += 1
      }
      lastWasExact = newest == -2
      switch newest {
      case Int.min:
        return nil
      case -2:
        exactEnd -= 1
        return exact[exactEnd]
      case -1:
        unindexedEnd -= 1
        return unindexed[unindexedEnd]
      default:
        templateEnds[newest] -= 1
        return templates[newest][templateEnds[newest]]
      }
    }
  }
}
