/// Finds the registry behind a protocol class's slot, and lends slots (and so classes) again.
///
/// Each registry is bound to a slot, and the slot names its protocol class (see ``ScopeTags``).
/// A session that outlives its registry must hear that its registry is gone, never be answered
/// by a newer registry bound to the same slot. So a slot is lent again only when no request can
/// reach its class any more: its registry is deallocated (so nothing can ask it for a session or
/// its class again), the class never left the library (``StubRegistry/protocolClass`` and
/// ``StubRegistry/makeSessionConfiguration(from:)`` hand it to code that can make sessions
/// Understudy never sees, so they keep the slot retired for good), and every session the registry
/// made is deallocated. FoundationNetworking deallocates a session once it has no task left
/// (invalidated or not; a task created and never resumed keeps it), a few milliseconds after its
/// last request. A slot lent again spares the next registry a new generic class, whose metadata
/// would stay for the life of the process.
///
/// One route is not covered: a session built from another session's `configuration`
/// (`URLSession(configuration: session.configuration, delegate: …)`) carries the class and is
/// invisible here. Should it outlive both its registry and the session it was built from, a
/// request it sends after the slot is lent again is answered by the newer registry.
final class RegistryDirectory: Sendable {
  static let shared = RegistryDirectory()

  enum Lookup {
    case live(StubRegistry)
    /// Why the registry is gone, and where a late request is recorded as an issue (the test's
    /// scope), if it is.
    case retired(String, reportAt: SourceLocation?)
  }

  /// A registry's place in the directory: the slot its class names, and which lending of it.
  struct Ticket: Sendable, Equatable {
    let slot: Int
    let generation: Int
  }

  private struct WeakSession {
    weak var session: URLSession?
  }

  private struct Slot {
    var generation = 0
    weak var registry: StubRegistry?
    var retired: (reason: String, reportAt: SourceLocation?)?
    /// Sessions the registry made itself; the slot waits for all of them to go.
    var sessions: [WeakSession] = []
    /// The class reached code that can make sessions Understudy never sees.
    var escaped = false

    /// Whether no request can reach the slot's class again.
    var isVacant: Bool {
      registry == nil && retired != nil && !escaped && sessions.allSatisfy { $0.session == nil }
    }
  }

  private struct State {
    /// Indexed by slot; slot 0 is the shared session's "no owner", never lent.
    var slots = [Slot(escaped: true)]
    /// Retired slots that may become vacant, checked a few at a time from `cursor`.
    var vacating: [Int] = []
    var cursor = 0
  }

  /// How many retired slots a new registry looks at for a vacant one before taking a new slot.
  private static let checksPerAllocation = 4

  // Guards the slots, what each is bound to and the retired slots that may be lent again.
  private let state = Locked(State())

  /// A slot for a new registry: a vacant one if one of the slots checked is, a new one otherwise.
  func allocate() -> Ticket {
    state.withLock { state in
      var checked = 0
      while checked < Self.checksPerAllocation, !state.vacating.isEmpty {
        checked += 1
        let index = state.cursor % state.vacating.count
        let slot = state.vacating[index]
        if state.slots[slot].isVacant || state.slots[slot].escaped {
          state.vacating.swapAt(index, state.vacating.count - 1)
          state.vacating.removeLast()
          guard !state.slots[slot].escaped else { continue }
          let generation = state.slots[slot].generation + 1
          state.slots[slot] = Slot(generation: generation)
          return Ticket(slot: slot, generation: generation)
        }
        state.cursor = index + 1
      }
      state.slots.append(Slot())
      return Ticket(slot: state.slots.count - 1, generation: 0)
    }
  }

  func register(_ registry: StubRegistry, at ticket: Ticket) {
    bound(ticket) { $0.registry = registry }
  }

  /// Notes a session the registry holding `ticket` made; the slot is not lent again while the
  /// session lives.
  func track(_ session: URLSession, at ticket: Ticket) {
    bound(ticket) { slot in
      slot.sessions.removeAll { $0.session == nil }
      slot.sessions.append(WeakSession(session: session))
    }
  }

  /// Keeps the slot retired for good once its registry is: its class left the library.
  func markEscaped(_ ticket: Ticket) {
    bound(ticket) { $0.escaped = true }
  }

  /// Marks the registry holding `ticket` as gone; later requests from its sessions fail with
  /// `reason`. The first reason stays.
  func retire(_ ticket: Ticket, reason: String, reportAt location: SourceLocation? = nil) {
    state.withLock { state in
      guard state.slots[ticket.slot].generation == ticket.generation,
        state.slots[ticket.slot].retired == nil
      else { return }
      state.slots[ticket.slot].retired = (reason, location)
      if !state.slots[ticket.slot].escaped { state.vacating.append(ticket.slot) }
    }
  }

  /// Retires the shared session's slot for requests while no test owns it.
  func retireUnowned(reason: String) {
    state.withLock { $0.slots[0].retired = (reason, nil) }
  }

  func lookup(_ slot: Int) -> Lookup {
    state.withLock { state in
      guard state.slots.indices.contains(slot) else {
        return .retired("its StubRegistry was deallocated", reportAt: nil)
      }
      let bound = state.slots[slot]
      if let retired = bound.retired { return .retired(retired.reason, reportAt: retired.reportAt) }
      if let registry = bound.registry { return .live(registry) }
      return .retired("its StubRegistry was deallocated", reportAt: nil)
    }
  }

  /// Changes the slot `ticket` names, if it is still bound to that ticket's registry.
  private func bound(_ ticket: Ticket, _ change: (inout Slot) -> Void) {
    state.withLock { state in
      guard state.slots[ticket.slot].generation == ticket.generation else { return }
      change(&state.slots[ticket.slot])
    }
  }
}
