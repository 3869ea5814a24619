/// Mints one `URLProtocol` subclass per registry at run time.
///
/// Sessions carry their protocol classes in their configuration, so a class that knows its
/// registry routes every request of those sessions to it, from any task or thread. This is the
/// only public-API route that holds on both platforms: configuration headers never reach the
/// protocol on Linux, task-locals are lost on detached tasks, and `URLProtocol` properties do not
/// survive FoundationNetworking's request bridging. Generic specialisation gives each registry
/// identifier its own class; the identifier is spelled in hexadecimal, one generic tag per digit,
/// so the type nests log16(n) deep: every scope mints a class, and each level is a lookup in
/// the runtime's metadata cache, in memory the scope finds cold (binary nested four times as
/// deep).
protocol ScopeTag: SendableMetatype {
  static var id: Int { get }
}

enum LeadingDigits: ScopeTag {
  static var id: Int { 0 }
}

// One tag per hexadecimal digit: `HexA<Hex1<LeadingDigits>>` is 0x1A.
enum Hex0<Rest: ScopeTag>: ScopeTag { static var id: Int { Rest.id << 4 | 0x0 } }
enum Hex1<Rest: ScopeTag>: ScopeTag { static var id: Int { Rest.id << 4 | 0x1 } }
enum Hex2<Rest: ScopeTag>: ScopeTag { static var id: Int { Rest.id << 4 | 0x2 } }
enum Hex3<Rest: ScopeTag>: ScopeTag { static var id: Int { Rest.id << 4 | 0x3 } }
enum Hex4<Rest: ScopeTag>: ScopeTag { static var id: Int { Rest.id << 4 | 0x4 } }
enum Hex5<Rest: ScopeTag>: ScopeTag { static var id: Int { Rest.id << 4 | 0x5 } }
enum Hex6<Rest: ScopeTag>: ScopeTag { static var id: Int { Rest.id << 4 | 0x6 } }
enum Hex7<Rest: ScopeTag>: ScopeTag { static var id: Int { Rest.id << 4 | 0x7 } }
enum Hex8<Rest: ScopeTag>: ScopeTag { static var id: Int { Rest.id << 4 | 0x8 } }
enum Hex9<Rest: ScopeTag>: ScopeTag { static var id: Int { Rest.id << 4 | 0x9 } }
enum HexA<Rest: ScopeTag>: ScopeTag { static var id: Int { Rest.id << 4 | 0xA } }
enum HexB<Rest: ScopeTag>: ScopeTag { static var id: Int { Rest.id << 4 | 0xB } }
enum HexC<Rest: ScopeTag>: ScopeTag { static var id: Int { Rest.id << 4 | 0xC } }
enum HexD<Rest: ScopeTag>: ScopeTag { static var id: Int { Rest.id << 4 | 0xD } }
enum HexE<Rest: ScopeTag>: ScopeTag { static var id: Int { Rest.id << 4 | 0xE } }
enum HexF<Rest: ScopeTag>: ScopeTag { static var id: Int { Rest.id << 4 | 0xF } }

enum ScopeTags {
  /// The protocol class for registry `id` (which must be positive); the same class every time.
  static func protocolClass(for id: Int) -> AnyClass {
    precondition(id > 0, "registry identifiers start at 1")
    let digits = (Int.bitWidth - id.leadingZeroBitCount + 3) / 4
    return specialise(LeadingDigits.self, id: id, remainingDigits: digits)
  }

  private static func specialise<Tag: ScopeTag>(_ tag: Tag.Type, id: Int, remainingDigits: Int)
    -> AnyClass
  {
    if remainingDigits == 0 { return TaggedInterceptingProtocol<Tag>.self }
    let rest = remainingDigits - 1
    switch (id >> (rest * 4)) & 0xF {
    case 0x0: return specialise(Hex0<Tag>.self, id: id, remainingDigits: rest)
    case 0x1: return specialise(Hex1<Tag>.self, id: id, remainingDigits: rest)
    case 0x2: return specialise(Hex2<Tag>.self, id: id, remainingDigits: rest)
    case 0x3: return specialise(Hex3<Tag>.self, id: id, remainingDigits: rest)
    case 0x4: return specialise(Hex4<Tag>.self, id: id, remainingDigits: rest)
    case 0x5: return specialise(Hex5<Tag>.self, id: id, remainingDigits: rest)
    case 0x6: return specialise(Hex6<Tag>.self, id: id, remainingDigits: rest)
    case 0x7: return specialise(Hex7<Tag>.self, id: id, remainingDigits: rest)
    case 0x8: return specialise(Hex8<Tag>.self, id: id, remainingDigits: rest)
    case 0x9: return specialise(Hex9<Tag>.self, id: id, remainingDigits: rest)
    case 0xA: return specialise(HexA<Tag>.self, id: id, remainingDigits: rest)
    case 0xB: return specialise(HexB<Tag>.self, id: id, remainingDigits: rest)
    case 0xC: return specialise(HexC<Tag>.self, id: id, remainingDigits: rest)
    case 0xD: return specialise(HexD<Tag>.self, id: id, remainingDigits: rest)
    case 0xE: return specialise(HexE<Tag>.self, id: id, remainingDigits: rest)
    default: return specialise(HexF<Tag>.self, id: id, remainingDigits: rest)
    }
  }
}

/// The protocol class of one registry: the tag names the registry, and all behaviour is inherited
/// from ``InterceptingProtocol``.
final class TaggedInterceptingProtocol<Tag: ScopeTag>: InterceptingProtocol {
  override class var registryID: Int { Tag.id }
}
