/// Mints one `URLProtocol` subclass per registry at run time.
///
/// Sessions carry their protocol classes in their configuration, so a class that knows its
/// registry routes every request of those sessions to it, from any task or thread. This is the
/// only public-API route that holds on both platforms: configuration headers never reach the
/// protocol on Linux, task-locals are lost on detached tasks, and `URLProtocol` properties do not
/// survive FoundationNetworking's request bridging. Generic specialisation gives each registry
/// identifier its own class; the identifier is spelled in binary so the type nests only
/// log2(n) deep.
protocol ScopeTag: SendableMetatype {
  static var id: Int { get }
}

enum LeadingOneBit: ScopeTag {
  static var id: Int { 1 }
}

enum ZeroBit<Rest: ScopeTag>: ScopeTag {
  static var id: Int { Rest.id << 1 }
}

enum OneBit<Rest: ScopeTag>: ScopeTag {
  static var id: Int { Rest.id << 1 | 1 }
}

enum ScopeTags {
  /// The protocol class for registry `id` (which must be positive); the same class every time.
  static func protocolClass(for id: Int) -> AnyClass {
    precondition(id > 0, "registry identifiers start at 1")
    let bits = Int.bitWidth - id.leadingZeroBitCount
    return specialise(LeadingOneBit.self, id: id, remainingBits: bits - 1)
  }

  private static func specialise<Tag: ScopeTag>(_ tag: Tag.Type, id: Int, remainingBits: Int)
    -> AnyClass
  {
    if remainingBits == 0 { return TaggedInterceptingProtocol<Tag>.self }
    if (id >> (remainingBits - 1)) & 1 == 1 {
      return specialise(OneBit<Tag>.self, id: id, remainingBits: remainingBits - 1)
    }
    return specialise(ZeroBit<Tag>.self, id: id, remainingBits: remainingBits - 1)
  }
}

/// The protocol class of one registry: the tag names the registry, and all behaviour is inherited
/// from ``InterceptingProtocol``.
final class TaggedInterceptingProtocol<Tag: ScopeTag>: InterceptingProtocol {
  override class var registryID: Int { Tag.id }
}
