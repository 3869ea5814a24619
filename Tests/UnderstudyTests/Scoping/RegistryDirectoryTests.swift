import Testing

@testable import Understudy

/// The directory keeps why registries were retired for the most recent ones only, and still
/// refuses the others. Each test uses a small directory of its own: retiring hundreds of
/// registries in the shared one would push out the reasons other tests running now look up.
@Suite struct RegistryDirectoryTests {
  private let scope = SourceLocation(fileID: "AppTests/Scopes.swift", line: 7)

  private func retire(_ count: Int, in directory: RegistryDirectory, keeping registry: StubRegistry)
    -> [Int]
  {
    (0..<count).map { index in
      let id = directory.allocateID()
      directory.register(registry, as: id)
      directory.retire(id, reason: .scopeEnded(testName: "t\(index)()", location: scope))
      return id
    }
  }

  @Test func keepsTheReasonsOfTheMostRecentRetirementsOnly() {
    let directory = RegistryDirectory(reasonCapacity: 4)
    let ids = retire(10, in: directory, keeping: StubRegistry())
    #expect(directory.keptReasons == 4)
    for (index, id) in ids.enumerated().suffix(4) {
      guard case .retired(let reason, _) = directory.lookup(id) else {
        Issue.record("registry \(id) is live after it was retired")
        continue
      }
      #expect(reason == "its test t\(index)() ended (scope declared at AppTests/Scopes.swift:7)")
    }
  }

  @Test func anOlderRetiredRegistryIsStillRefusedWithAReason() {
    let directory = RegistryDirectory(reasonCapacity: 2)
    let ids = retire(3, in: directory, keeping: StubRegistry())
    guard case .retired(let reason, let reportAt) = directory.lookup(ids[0]) else {
      Issue.record("the oldest retired registry answers again")
      return
    }
    #expect(reason.contains("its test scope ended or it was deallocated"))
    #expect(reason.contains("number \(ids[0])"))
    #expect(reportAt == nil)
  }

  @Test func theFirstRetirementStandsEvenOnceItsReasonIsDropped() {
    let directory = RegistryDirectory(reasonCapacity: 1)
    let registry = StubRegistry()
    let first = directory.allocateID()
    directory.register(registry, as: first)
    directory.retire(first, reason: .scopeEnded(testName: "first()", location: scope))
    let second = retire(1, in: directory, keeping: registry)[0]
    // The registry's deallocation retires it again; that must not bring back a reason, nor push
    // out the one kept.
    directory.retire(first, reason: .deallocated(createdAt: scope))
    #expect(directory.keptReasons == 1)
    guard case .retired(let reason, _) = directory.lookup(second),
      case .retired(let older, _) = directory.lookup(first)
    else {
      Issue.record("a retired registry answers again")
      return
    }
    #expect(reason == "its test t0() ended (scope declared at AppTests/Scopes.swift:7)")
    #expect(older.contains("its test scope ended or it was deallocated"))
  }

  @Test func aClosedIdentifierIsRefusedForever() {
    let directory = RegistryDirectory(reasonCapacity: 1)
    directory.close(0, reason: "nobody owns it")
    _ = retire(3, in: directory, keeping: StubRegistry())
    guard case .retired(let reason, _) = directory.lookup(0) else {
      Issue.record("a closed identifier answers")
      return
    }
    #expect(reason == "nobody owns it")
  }
}

/// Each registry identifier gets a protocol class of its own, which names it back.
@Suite struct ScopeTagTests {
  @Test func eachIdentifierGetsItsOwnClassNamingIt() {
    let ids = [
      1, 2, 15, 16, 17, 255, 256, 0xFFF, 0x1000, 0x10_0001, 0x7ABC_DEF0_1234, Int.max - 16, Int.max,
    ]
    var seen: [ObjectIdentifier] = []
    for id in ids {
      let minted: AnyClass = ScopeTags.protocolClass(for: id)
      #expect(ObjectIdentifier(minted) == ObjectIdentifier(ScopeTags.protocolClass(for: id)))
      #expect((minted as? InterceptingProtocol.Type)?.registryID == id)
      seen.append(ObjectIdentifier(minted))
    }
    #expect(Set(seen).count == ids.count)
  }
}

/// Classes are minted a block of identifiers at a time; whichever identifier of a block comes
/// first, and however many blocks come between, each gets its own class, the same every time.
@Suite struct MintedBlockTests {
  @Test func identifiersOutOfOrderAndBlocksDroppedKeepTheirClasses() {
    // Far above any identifier the process's registries take, so no other test mints these.
    let base = 0x5EED_0000_0000
    var first: [Int: ObjectIdentifier] = [:]
    // Mid-block first, then its neighbours, then enough other blocks to drop it, then again.
    let order = [base + 7, base + 1, base + 16, base + 17] + (1...6).map { base + $0 * 16 + 3 }
    for id in order + order.reversed() {
      let minted: AnyClass = ScopeTags.protocolClass(for: id)
      #expect((minted as? InterceptingProtocol.Type)?.registryID == id)
      if let earlier = first[id] {
        #expect(earlier == ObjectIdentifier(minted))
      } else {
        first[id] = ObjectIdentifier(minted)
      }
    }
    #expect(Set(first.values).count == first.count)
  }
}
