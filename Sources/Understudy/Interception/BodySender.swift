import Dispatch

/// Sends a response body to the client in parts: paced for throttled stubs, in bounded slices
/// for large files, cut short for dropped connections.
///
/// It runs only on the task's work queue (inside `startLoading`); the protocol comes back to it
/// each time the next part is due.
final class BodySender {
  enum Source {
    case data(Data, offset: Int)
    case file(FileHandle)
  }

  enum Step {
    /// Send `data` now, then come back after `delay` seconds (immediately when zero).
    case send(Data, thenAfter: TimeInterval)
    /// Send `data` (possibly empty) and finish.
    case finish(Data)
    /// Send `data` (possibly empty), then fail with `error`.
    case fail(Data, any Error & Sendable)
  }

  private var source: Source
  private let chunkSize: Int
  private let interval: TimeInterval
  private var remainingBeforeDrop: Int?
  /// Explicit parts, for streamed bodies; consumed from the front.
  private var plan: [BodyChunk]?
  /// Consumers that keep only the last `didLoad` get everything at the end.
  let deliversChunks: Bool
  private var held = Data()
  private let url: URL
  /// Bytes handed over per visit when not paced, so the queue every session shares is never
  /// held for long by one large fixture.
  static let bytesPerVisit = 4 * 1024 * 1024
  static let unpacedChunk = 256 * 1024
  /// How often a throttled body advances; smaller makes smoother, more expensive transfers.
  static let tick: TimeInterval = 0.05

  init(
    source: Source, bytesPerSecond: Int?, dropAfterBytes: Int?, chunks: [BodyChunk]? = nil,
    deliversChunks: Bool, url: URL
  ) {
    self.source = source
    self.plan = chunks
    if let rate = bytesPerSecond {
      chunkSize = max(1, Int(Double(rate) * Self.tick))
      interval = Double(chunkSize) / Double(rate)
    } else {
      chunkSize = Self.unpacedChunk
      interval = 0
    }
    remainingBeforeDrop = dropAfterBytes
    self.deliversChunks = deliversChunks
    self.url = url
  }

  /// How long to wait before the first part.
  var initialDelay: TimeInterval { plan?.first?.delay ?? 0 }

  /// When the response started: every part is due at a fixed offset from it (the sum of the
  /// delays before it), not a delay after the part before was delivered. Counted that way, each
  /// late wake-up on a busy machine (a timer, the work queue every session shares) delayed
  /// every later part too: five stream parts recorded 150 ms apart arrived up to 886 ms apart.
  private let started = DispatchTime.now()
  /// How long after ``started`` the part to come is due.
  private var dueAfterStart: TimeInterval = 0

  /// Seconds from now until the part that comes `delay` after the one before it is due; zero
  /// when it is due already. The first part's delay counts from the response's start.
  func wait(after delay: TimeInterval) -> TimeInterval {
    dueAfterStart += delay
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
    return max(0, dueAfterStart - elapsed)
  }

  /// The next part to hand to the client.
  func next() -> Step {
    if plan != nil { return nextPlanned() }
    var budget = interval > 0 ? chunkSize : Self.bytesPerVisit
    var out = Data()
    while budget > 0 {
      var want = min(budget, chunkSize)
      if let remaining = remainingBeforeDrop { want = min(want, remaining) }
      if want == 0 { return dropped(out) }
      let chunk: Data
      do {
        chunk = try read(want)
      } catch {
        return readFailed(error, after: out)
      }
      if chunk.isEmpty { return .finish(flush(out)) }
      out.append(chunk)
      budget -= chunk.count
      if let remaining = remainingBeforeDrop { remainingBeforeDrop = remaining - chunk.count }
    }
    if remainingBeforeDrop == 0 { return dropped(out) }
    if deliversChunks { return .send(out, thenAfter: interval) }
    held.append(out)
    return .send(Data(), thenAfter: interval)
  }

  /// The next part of a streamed body, exactly as planned.
  private func nextPlanned() -> Step {
    // The part read on this visit goes out before the error of a read that fails after it.
    var unsent = Data()
    do {
      return try nextPlanned(unsent: &unsent)
    } catch {
      return readFailed(error, after: unsent)
    }
  }

  private func nextPlanned(unsent: inout Data) throws -> Step {
    // Any bytes beyond the plan go out with the last part.
    guard var parts = plan, !parts.isEmpty else { return .finish(flush(try read(Int.max))) }
    let part = parts.removeFirst()
    plan = parts
    var wanted = part.size
    if let remaining = remainingBeforeDrop { wanted = min(wanted, remaining) }
    let chunk = try read(wanted)
    unsent = chunk
    if let remaining = remainingBeforeDrop {
      remainingBeforeDrop = remaining - chunk.count
      if remainingBeforeDrop == 0 { return dropped(chunk) }
    }
    if parts.isEmpty { return .finish(flush(chunk + (try read(Int.max)))) }
    if deliversChunks { return .send(chunk, thenAfter: parts[0].delay) }
    held.append(chunk)
    return .send(Data(), thenAfter: parts[0].delay)
  }

  /// A fixture that fails mid-body fails the request after what was read: a body cut short
  /// is never passed off as the whole one.
  private func readFailed(_ error: any Error, after out: Data) -> Step {
    .fail(
      flush(out),
      URLError.understudy(
        .cannotDecodeContentData,
        "Understudy: reading the fixture failed (\(FileErrorReason.of(error)))",
        url))
  }

  func close() {
    if case .file(let handle) = source { try? handle.close() }
  }

  private func dropped(_ out: Data) -> Step {
    .fail(
      flush(out),
      URLError.understudy(
        .networkConnectionLost, "Understudy: the stub dropped the connection mid-body", url))
  }

  /// What to hand over when the body ends: the last part, or everything held back.
  private func flush(_ out: Data) -> Data {
    guard !deliversChunks else { return out }
    held.append(out)
    defer { held = Data() }
    return held
  }

  private func read(_ count: Int) throws -> Data {
    // A planned part's size is the stub's or the cassette's; a negative one reads nothing
    // (responders are not checked at declaration).
    let count = max(0, count)
    switch source {
    case .data(let data, let offset):
      let end = offset + min(data.count - offset, count)
      source = .data(data, offset: end)
      return data.subdata(in: data.startIndex + offset..<data.startIndex + end)
    case .file(let handle):
      if count == Int.max { return try handle.readToEnd() ?? Data() }
      return try handle.read(upToCount: count) ?? Data()
    }
  }
}
