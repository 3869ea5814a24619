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
    var lists: [ArraySlice<Stub>] = []
    lists.reserveCapacity(templates.isEmpty ? 2 : 6)
    lists.append(byPath[request.path]?[...] ?? [])
    lists.append(unindexed[...])
    templates.collect(request.encodedPath, into: &lists)
    return Candidates(lists: lists)
  }

  /// Stubs from several registration-ordered lists, newest first.
  struct Candidates: Sequence, IteratorProtocol {
    private let lists: [ArraySlice<Stub>]
    /// How much of each list is left: its newest remaining stub is at `ends[list] - 1`. Moving
    /// an end index costs a few instructions where popping the slices, stored in an array,
    /// went through `replaceSubrange` (about 500 a stub).
    private var ends: [Int]

    init(lists: [ArraySlice<Stub>]) {
      self.lists = lists
      // A closure, not the key path `\.endIndex`: that projects through the key-path runtime
      // on every request.
      self.ends = lists.map { $0.endIndex }
    }

    mutating func next() -> Stub? {
      var newest: Int?
      var newestOrder = Int.min
      for list in lists.indices where ends[list] > lists[list].startIndex {
        let order = lists[list][ends[list] - 1].order
        guard order > newestOrder else { continue }
        newest = list
        newestOrder = order
      }
      guard let newest else { return nil }
      ends[newest] -= 1
      return lists[newest][ends[newest]]
    }
  }
}
