import Foundation

/// The entries of one journal list, shared by each of them: an entry's description masks the
/// values any entry of the list holds, found once for the whole list when a description first
/// asks.
final class JournalNeighbours: Sendable {
  private let entries: [JournalEntry]
  private let secrets = Locked<Set<String>?>(nil)

  private init(_ entries: [JournalEntry]) {
    self.entries = entries
  }

  /// `entries`, each knowing the others. One entry alone needs no neighbours.
  static func linking(_ entries: [JournalEntry]) -> [JournalEntry] {
    guard entries.count > 1 else { return entries }
    let shared = JournalNeighbours(entries)
    return entries.map { entry in
      var linked = entry
      linked.neighbours = shared
      return linked
    }
  }

  /// What the report rules take from every entry of the list.
  func removedValues() -> Set<String> {
    secrets.withLock { found in
      if let found { return found }
      let rules = CompiledRedaction.forReports
      let all = entries.reduce(into: Set<String>()) { $0.formUnion($1.removedValues(by: rules)) }
      found = all
      return all
    }
  }
}
