extension Redaction {
  /// A path to values inside JSON bodies, in a small JSONPath subset.
  ///
  /// - `$.password`, `$.user.token`, `$['odd key']`: a member by name.
  /// - `$.items[0]`: an array element; `$.items[*].secret`, `$.user.*`: every element or member.
  /// - `$..token`: a member named `token` at any depth.
  ///
  /// Names match exactly (JSON member names are case-sensitive). The matched values, whatever
  /// their type, are replaced by the placeholder string in place; the rest of the body keeps
  /// its bytes and formatting.
  public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of the path.
    enum Step: Hashable {
      case member(String)
      case index(Int)
      case anyChild
      case descendant(String?)
    }

    /// The path as written.
    let expression: String
    /// The name in the placeholder, `<redacted:NAME>`.
    let name: String
    let steps: [Step]

    /// Parses `expression`.
    ///
    /// - Parameters:
    ///   - expression: The path, starting with `$`.
    ///   - name: The placeholder name; by default the path without its leading `$.` or `$..`,
    ///     so `$.user.token` redacts to `<redacted:user.token>` and `$..token` to
    ///     `<redacted:token>`. A key that holds a secret (`$.sessions['ghp_…']`, a long random
    ///     run, a known value) gives no name: the placeholder is `<redacted:secret>`.
    /// - Throws: ``PatternSyntaxError`` naming what to change.
    public init(_ expression: String, name: String? = nil) throws(PatternSyntaxError) {
      self.expression = expression
      steps = try Self.parse(expression)
      if let name {
        try RedactionPlaceholder.validate(name: name)
        self.name = name
      } else {
        // A key may be the secret itself (`$['ghp_…']`, a long random run): a name shaped
        // like one becomes the credential word its words give, as a field's name does.
        let trimmed = expression.drop { $0 == "$" || $0 == "." }
        self.name =
          trimmed.isEmpty ? "json" : RedactionPlaceholder.cleanedName(from: String(trimmed))
      }
    }

    /// The path as written.
    public var description: String { expression }

    /// Every value the path selects in `document`, each once.
    func matches(in document: JSONNode) -> [JSONNode] {
      var current = [document]
      for step in steps {
        if case .descendant = step {
          // A node inside another is in that one's subtree already: searching both would find
          // its descendants twice, and each further `..` would multiply them again.
          current = current.outermost
        }
        current = current.flatMap { node -> [JSONNode] in
          switch step {
          case .member(let name): return node.members(named: name)
          case .index(let index):
            guard case .array(let elements) = node.value, elements.indices.contains(index) else {
              return []
            }
            return [elements[index]]
          case .anyChild: return node.children
          case .descendant(let name):
            var found: [JSONNode] = []
            node.collectDescendants(named: name, into: &found)
            return found
          }
        }
      }
      return current
    }

    /// Reads `[0]`, `[*]` or `['name']` from the front of `rest`.
    private static func bracket(_ rest: inout Substring, in expression: String)
      throws(PatternSyntaxError) -> Step
    {
      guard let close = rest.firstIndex(of: "]") else {
        throw PatternSyntaxError(
          expression: expression, problem: "a [ is not closed; write [0], [*] or ['name']")
      }
      let inside = rest[rest.index(after: rest.startIndex)..<close]
      rest = rest[rest.index(after: close)...]
      if inside == "*" { return .anyChild }
      if let index = Int(inside), index >= 0 { return .index(index) }
      if inside.count >= 2, let quote = inside.first, "'\"".contains(quote), inside.last == quote {
        return .member(String(inside.dropFirst().dropLast()))
      }
      throw PatternSyntaxError(
        expression: expression, problem: "[\(inside)] is not an index; write [0], [*] or ['name']")
    }

    private static func parse(_ expression: String) throws(PatternSyntaxError) -> [Step] {
      func failure(_ problem: String) -> PatternSyntaxError {
        PatternSyntaxError(expression: expression, problem: problem)
      }
      var rest = Substring(expression)
      guard rest.first == "$" else {
        throw failure("JSON paths start with $, as in $.user.token")
      }
      rest.removeFirst()
      var steps: [Step] = []
      while let first = rest.first {
        if rest.hasPrefix("..") {
          rest.removeFirst(2)
          let step: Step
          if rest.first == "[" {
            step = try bracket(&rest, in: expression)
          } else {
            let name = rest.prefix { $0 != "." && $0 != "[" }
            rest.removeFirst(name.count)
            step = name == "*" ? .anyChild : .member(String(name))
          }
          switch step {
          case .member(let name) where !name.isEmpty: steps.append(.descendant(name))
          case .anyChild: steps.append(.descendant(nil))
          default: throw failure("write a member name, * or ['name'] after ..")
          }
        } else if first == "." {
          rest.removeFirst()
          let name = rest.prefix { $0 != "." && $0 != "[" }
          guard !name.isEmpty else { throw failure("write a member name or * after .") }
          rest.removeFirst(name.count)
          steps.append(name == "*" ? .anyChild : .member(String(name)))
        } else if first == "[" {
          steps.append(try bracket(&rest, in: expression))
        } else {
          throw failure("expected . or [ before \"\(rest.prefix(10))\"")
        }
      }
      guard !steps.isEmpty else { throw failure("the path selects the whole body; name a member") }
      return steps
    }
  }
}

extension JSONNode {
  fileprivate func members(named name: String) -> [JSONNode] {
    guard case .object(let members) = value else { return [] }
    return members.filter { $0.key == name }.map(\.value)
  }

  fileprivate var children: [JSONNode] {
    switch value {
    case .object(let members): return members.map(\.value)
    case .array(let elements): return elements
    default: return []
    }
  }

  /// The members named `name` (every child when `nil`) of this node and of every node below
  /// it, in document order. Walks in place: listing every node of a 50 MB body first and then
  /// filtering it was most of the cost of a credential scan.
  fileprivate func collectDescendants(named name: String?, into found: inout [JSONNode]) {
    switch value {
    case .object(let members):
      for member in members where name == nil || member.key == name {
        found.append(member.value)
      }
      for member in members { member.value.collectDescendants(named: name, into: &found) }
    case .array(let elements):
      if name == nil { found += elements }
      for element in elements { element.collectDescendants(named: name, into: &found) }
    default:
      break
    }
  }
}

extension JSONNode {
  /// Calls `body` with every member of every object in the document, outermost first.
  func visitMembers(_ body: (String, JSONNode) -> Void) {
    switch value {
    case .object(let members):
      for member in members {
        body(member.key, member.value)
        member.value.visitMembers(body)
      }
    case .array(let elements):
      for element in elements { element.visitMembers(body) }
    default:
      break
    }
  }
}

extension JSONNode {
  /// Calls `body` with the members of every object in the document, outermost first.
  func visitObjects(_ body: ([Member]) -> Void) {
    switch value {
    case .object(let members):
      body(members)
      for member in members { member.value.visitObjects(body) }
    case .array(let elements):
      for element in elements { element.visitObjects(body) }
    default:
      break
    }
  }
}

extension [JSONNode] {
  /// The nodes that are not inside another node of the list, in document order.
  fileprivate var outermost: [JSONNode] {
    var result: [JSONNode] = []
    for node in sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
      if let last = result.last, last.range.upperBound >= node.range.upperBound { continue }
      result.append(node)
    }
    return result
  }
}
