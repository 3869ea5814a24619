import Foundation
import Testing

@testable import Understudy

/// The work queue takes a quick closure's answer itself, and leaves a slow one's to the re-entry
/// path without waiting past its patience (issue 41: a responder stub cost 5.85x the floor).
@Suite struct UserCodeHandOffTests {
  @Test func aQuickAnswerIsTakenByTheWaiter() {
    let later = Locked<[Int]>([])
    let handOff = UserCodeHandOff<Int> { answer in later.withLock { $0.append(answer) } }
    DispatchQueue(label: "quick closure").async { handOff.deliver(7) }
    // On a busy machine the closure's thread may start after the patience; then it is late.
    if let answer = handOff.wait() {
      #expect(answer == 7)
      #expect(later.current.isEmpty)
    }
  }

  @Test func aSlowAnswerGoesToLaterAndTheWaiterWaitsNoLonger() async throws {
    let later = Locked<[Int]>([])
    let handOff = UserCodeHandOff<Int> { answer in later.withLock { $0.append(answer) } }
    let release = DispatchSemaphore(value: 0)
    DispatchQueue(label: "slow closure").async {
      release.wait()
      handOff.deliver(8)
    }
    let start = Date()
    #expect(handOff.wait() == nil)
    // Without a patience the wait would never end (the closure answers only after it); the
    // bound, a thousand patiences and more for a loaded machine, says the patience is short.
    #expect(
      Date().timeIntervalSince(start) < 10 * TestTiming.scale,
      "the waiter gave up after its patience")
    release.signal()
    var deadline = HangDeadline(seconds: 10)
    while later.current.isEmpty, !deadline.hasPassed {
      try await deadline.pause(nanoseconds: 1_000_000)
    }
    #expect(later.current == [8])
  }
}
