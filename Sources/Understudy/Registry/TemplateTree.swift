/// Template stubs filed by their segments, literal and placeholder alike, as HTTP routers file
/// routes: a request walks the tree one path segment at a time, following the edge for that
/// literal and the placeholder edge, so it meets only the templates whose every literal segment
/// it has, whatever the literals' positions.
///
/// Walking may reach several nodes (a literal and a placeholder both fit a segment); each holds
/// its stubs in registration order, and ``RouteIndex/Candidates`` merges them newest first.
struct TemplateTree: Sendable {
  private struct Node: Sendable {
    var literals = [String: Int]()
    var placeholder: Int?
    /// Templates that end at this node.
    var ending: [Stub] = []
    /// Templates whose `{name...}` takes the rest of the path from this node's depth on.
    var remainder: [Stub] = []
  }

  /// Nodes by index, the root first: indices keep the tree a value without recursive types.
  private var nodes = [Node()]
  private(set) var isEmpty = true

  /// Whether a template can be filed here: one whose literal segments hold a `%` after decoding
  /// cannot, since a request segment may match such a literal as written, without decoding,
  /// which a decoded key would miss.
  static func canFile(_ template: PathTemplate) -> Bool {
    !template.segments.contains { segment in
      guard case .literal(let text) = segment else { return false }
      return text.utf8.contains(UInt8(ascii: "%"))
    }
  }

  mutating func add(_ stub: Stub, under template: PathTemplate) {
    isEmpty = false
    edit(under: template) { $0.append(stub) }
  }

  mutating func remove(_ stub: Stub, under template: PathTemplate) {
    edit(under: template) { $0.removeAll { $0 === stub } }
  }

  /// Applies `change` to the stub list `template` is filed in, making the nodes on the way.
  private mutating func edit(under template: PathTemplate, _ change: (inout [Stub]) -> Void) {
    var node = 0
    for segment in template.segments {
      switch segment {
      case .literal(let text):
        node = child(of: node, literal: text)
      case .parameter:
        node = child(of: node, literal: nil)
      case .remainder:
        change(&nodes[node].remainder)
        return
      }
    }
    change(&nodes[node].ending)
  }

  private mutating func child(of node: Int, literal: String?) -> Int {
    if let existing = literal.map({ nodes[node].literals[$0] }) ?? nodes[node].placeholder {
      return existing
    }
    nodes.append(Node())
    let added = nodes.count - 1
    if let literal {
      nodes[node].literals[literal] = added
    } else {
      nodes[node].placeholder = added
    }
    return added
  }

  /// Appends to `lists` every stub list whose templates `path` (percent-encoded, as in the URL)
  /// may fit, judged as ``PathTemplate/match(_:)`` judges: literals compared decoded,
  /// placeholders filled by non-empty segments, `{name...}` by a non-empty rest.
  func collect(_ path: String, into lists: inout [ArraySlice<Stub>]) {
    let path = path.isEmpty ? "/" : path
    guard !isEmpty, path.utf8.first == UInt8(ascii: "/") else { return }
    let parts = Substring(path).utf8.dropFirst().split(
      separator: UInt8(ascii: "/"), omittingEmptySubsequences: false
    ).map { PathTemplate.decoded(Substring($0)) }
    walk(node: 0, depth: 0, parts, into: &lists)
  }

  private func walk(
    node index: Int, depth: Int, _ parts: [String], into lists: inout [ArraySlice<Stub>]
  ) {
    let node = nodes[index]
    guard depth < parts.count else {
      if !node.ending.isEmpty { lists.append(node.ending[...]) }
      return
    }
    let part = parts[depth]
    // The rest of the path from here is empty only at a trailing slash's empty last segment.
    if !node.remainder.isEmpty, !(part.isEmpty && depth == parts.count - 1) {
      lists.append(node.remainder[...])
    }
    if let literal = node.literals[part] {
      walk(node: literal, depth: depth + 1, parts, into: &lists)
    }
    if let placeholder = node.placeholder, !part.isEmpty {
      walk(node: placeholder, depth: depth + 1, parts, into: &lists)
    }
  }
}
