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
  /// How many consecutive identifiers' classes are minted together: those that differ only in
  /// their last hexadecimal digit.
  static let blockSize = 16

  /// The classes of the blocks minted last.
  private static let minted = Locked(MintedBlocks())

  /// The protocol class for registry `id` (which must be positive); the same class every time.
  ///
  /// Classes are minted a block of identifiers at a time. Minting one runs the runtime's
  /// metadata code, which the session a test makes between two registries pushes out of the
  /// caches, so a class minted alone costs several times what it costs next to its neighbours
  /// (measured on the test-scope rows of the benchmark). Registries take identifiers in order,
  /// so the next fifteen find theirs minted. An identifier's class is never another's: a block
  /// minted again (after the last few were dropped) gives the same classes.
  static func protocolClass(for id: Int) -> AnyClass {
    precondition(id > 0, "registry identifiers start at 1")
    let block = id / blockSize
    if let known = minted.withLock({ $0.protocolClass(for: id, inBlock: block) }) { return known }
    let classes = mintBlock(block)
    minted.withLock { $0.insert(classes, asBlock: block) }
    return classes[id % blockSize]!
  }

  /// The classes of identifiers `block * 16` to `block * 16 + 15` (none for 0, which no
  /// registry gets).
  ///
  /// They share every digit but the last, so the tag of those digits is built once: each level
  /// of a tag is a lookup in the runtime's metadata cache for that generic type, a cache that
  /// holds a type for every registry the process has made and that the scope finds cold. Built
  /// per identifier, a class took five such lookups; now it takes two.
  private static func mintBlock(_ block: Int) -> [AnyClass?] {
    let prefix: any ScopeTag.Type = block == 0 ? LeadingDigits.self : tag(for: block)
    return (0..<blockSize).map { digit in
      block == 0 && digit == 0 ? nil : protocolClass(tagged: appending(digit, to: prefix))
    }
  }

  /// The tag is built digit by digit through an existential, so the compiler cannot specialise
  /// the walk for the leading digits: a specialised walk (18 copies of it once) named each
  /// two-digit tag by its mangled name, and every new prefix was demangled in the runtime, about
  /// 13,000 instructions and 740 cache misses on the scope that met it. Through the existential
  /// each level is a call to the tag's metadata accessor, and one small function serves them all.
  private static func tag(for id: Int) -> any ScopeTag.Type {
    var tag: any ScopeTag.Type = LeadingDigits.self
    var shift = (Int.bitWidth - id.leadingZeroBitCount + 3) / 4 * 4
    while shift > 0 {
      shift -= 4
      tag = appending((id >> shift) & 0xF, to: tag)
    }
    return tag
  }

  private static func appending<Rest: ScopeTag>(_ digit: Int, to rest: Rest.Type)
    -> any ScopeTag.Type
  {
    switch digit {
    case 0x0: Hex0<Rest>.self
    case 0x1: Hex1<Rest>.self
    case 0x2: Hex2<Rest>.self
    case 0x3: Hex3<Rest>.self
    case 0x4: Hex4<Rest>.self
    case 0x5: Hex5<Rest>.self
    case 0x6: Hex6<Rest>.self
    case 0x7: Hex7<Rest>.self
    case 0x8: Hex8<Rest>.self
    case 0x9: Hex9<Rest>.self
    case 0xA: HexA<Rest>.self
    case 0xB: HexB<Rest>.self
    case 0xC: HexC<Rest>.self
    case 0xD: HexD<Rest>.self
    case 0xE: HexE<Rest>.self
    default: HexF<Rest>.self
    }
  }

  private static func protocolClass<Tag: ScopeTag>(tagged _: Tag.Type) -> AnyClass {
    TaggedInterceptingProtocol<Tag>.self
  }
}

/// The protocol class of one registry: the tag names the registry, and all behaviour is inherited
/// from ``InterceptingProtocol``.
final class TaggedInterceptingProtocol<Tag: ScopeTag>: InterceptingProtocol {
  override class var registryID: Int { Tag.id }
}

/// The last few blocks of minted classes, by block number; the oldest is dropped first. A few
/// blocks let registries of parallel tests, which take identifiers nearly in order, find theirs.
private struct MintedBlocks {
  private static let capacity = 4
  private var blocks: [(number: Int, classes: [AnyClass?])] = []

  func protocolClass(for id: Int, inBlock number: Int) -> AnyClass? {
    guard let block = blocks.last(where: { $0.number == number }) else { return nil }
    return block.classes[id % ScopeTags.blockSize]
  }

  mutating func insert(_ classes: [AnyClass?], asBlock number: Int) {
    if blocks.count == Self.capacity { blocks.removeFirst() }
    blocks.append((number, classes))
  }
}
