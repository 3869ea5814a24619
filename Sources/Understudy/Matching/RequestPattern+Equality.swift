// Hippolyte keeps stubs in sets and compares the requests they describe, so patterns compare as
// values: what each condition checks, and how the conditions are joined.

extension RequestPattern: Hashable {
  /// Whether two patterns check the same things: the same conditions joined the same way.
  ///
  /// The library's conditions compare by what they check, in full, so `.get("/users/{id}")`
  /// built twice gives equal patterns; header names compare without case. The operands of `&&`
  /// and `||` compare in any order, so `(a && b) == (b && a)`. A condition that runs your own
  /// closure (``custom(_:_:)``) equals only itself: a copy of the pattern that holds it, never a
  /// pattern built again from the same code, since Swift cannot compare closures.
  ///
  /// Equal patterns match the same requests; unequal ones may still do so (`.url` given two
  /// spellings of one URL, say).
  public static func == (lhs: RequestPattern, rhs: RequestPattern) -> Bool {
    Node.same(lhs.node.flattened, rhs.node.flattened)
  }

  /// Hashes what ``==(_:_:)`` compares, so equal patterns hash alike.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(node.flattened.orderFreeHash)
  }
}

extension RequestPattern.Node {
  /// The tree with one-member groups replaced by their member and groups nested in a group of
  /// their own kind merged into it, so `(a && b) && c` and `a && (b && c)` compare alike.
  var flattened: Self {
    switch self {
    case .condition: return self
    case .not(let node): return .not(node.flattened)
    case .all(let nodes):
      let members = nodes.flatMap { node -> [Self] in
        if case .all(let inner) = node.flattened { return inner }
        return [node.flattened]
      }
      return members.count == 1 ? members[0] : .all(members)
    case .any(let nodes):
      let members = nodes.flatMap { node -> [Self] in
        if case .any(let inner) = node.flattened { return inner }
        return [node.flattened]
      }
      return members.count == 1 ? members[0] : .any(members)
    }
  }

  /// Whether two flattened trees hold the same conditions joined the same way, group members
  /// compared as multisets.
  static func same(_ lhs: Self, _ rhs: Self) -> Bool {
    switch (lhs, rhs) {
    case (.condition(let left), .condition(let right)): return left.isSame(as: right)
    case (.not(let left), .not(let right)): return same(left, right)
    case (.all(let left), .all(let right)), (.any(let left), .any(let right)):
      guard left.count == right.count else { return false }
      var unmatched = right
      for member in left {
        guard let index = unmatched.firstIndex(where: { same(member, $0) }) else { return false }
        unmatched.remove(at: index)
      }
      return true
    default: return false
    }
  }

  /// A hash that ignores the order of a group's members, as ``same(_:_:)`` does.
  var orderFreeHash: Int {
    var hasher = Hasher()
    switch self {
    case .condition(let condition):
      hasher.combine(0)
      if let key = condition.key {
        hasher.combine(key)
      } else {
        hasher.combine(ObjectIdentifier(condition))
      }
    case .not(let node):
      hasher.combine(1)
      hasher.combine(node.orderFreeHash)
    case .all(let nodes), .any(let nodes):
      if case .all = self { hasher.combine(2) } else { hasher.combine(3) }
      hasher.combine(nodes.count)
      // A sum, which does not depend on the order the members come in.
      hasher.combine(nodes.reduce(0) { $0 &+ $1.orderFreeHash })
    }
    return hasher.finalize()
  }
}

extension RequestPattern.Condition {
  /// The same condition, or one of the library's that checks the same thing.
  func isSame(as other: RequestPattern.Condition) -> Bool {
    self === other || (key != nil && key == other.key)
  }
}
