import Foundation
import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A 1 GiB fixture streamed to a session-delegate data task that drops the data: how much the
/// process's peak resident memory rises above what it was just before.
///
/// The file is sparse (created with `truncate`), so generating it costs no disk writes on a shared
/// machine; reading it still goes through `FileHandle` and the library's 256 KiB chunks, and page
/// cache pages are not counted in the process's RSS.
enum FixtureStreamingScenario {
  static let group = "memory"
  static let size = 1 << 30

  static var scenario: Scenario {
    Scenario(group: group, name: "1 GiB fixture to a delegate") { _ in
      let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("understudy-bench-\(getpid())")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      let big = try sparseFile(folder.appendingPathComponent("1GiB.bin"), size: size)
      let small = try sparseFile(folder.appendingPathComponent("1MiB.bin"), size: 1 << 20)

      let registry = StubRegistry()
      registry.stub(.get(CannedResponse.origin + "/big"), .fixture(at: big))
      registry.stub(.get(CannedResponse.origin + "/small"), .fixture(at: small))
      let delegate = DiscardingDelegate()
      let session = registry.makeSession(delegate: delegate)
      defer { session.invalidateAndCancel() }

      // Warm up the delegate path so its one-time allocations are in the baseline.
      _ = try await delegate.fetch(URL(string: CannedResponse.origin + "/small")!, with: session)

      let resetWorked = ProcessMemory.resetPeak()
      guard let baseline = ProcessMemory.residentBytes else {
        return [.notAvailableYet(group, "1 GiB fixture", bar: nil, reason: "needs /proc")]
      }
      let clock = ContinuousClock()
      var received = 0
      let elapsed = try await clock.measure {
        received = try await delegate.fetch(
          URL(string: CannedResponse.origin + "/big")!, with: session)
      }
      let peak = ProcessMemory.peakResidentBytes ?? baseline
      guard received == size else {
        throw WrongAnswer(description: "streamed \(received) bytes of \(size)")
      }
      let seconds =
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      let rate = Double(size) / seconds / 1_048_576
      return [
        .measured(
          group, "1 GiB fixture to a delegate: peak RSS above baseline",
          (peak - baseline).mebibytes, unit: "MiB", bar: .fixturePeak,
          note: String(
            format: "baseline %.1f MiB, %.2f s (%.0f MiB/s)%@", baseline.mebibytes, seconds, rate,
            resetWorked ? "" : "; VmHWM could not be reset, peak may include earlier scenarios"))
      ]
    }
  }

  private static func sparseFile(_ url: URL, size: Int) throws -> URL {
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
      throw WrongAnswer(description: "cannot create \(url.path)")
    }
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    try handle.truncate(atOffset: UInt64(size))
    return url
  }
}
