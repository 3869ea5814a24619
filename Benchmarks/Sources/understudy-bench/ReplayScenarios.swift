import Foundation
import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Replay from HAR cassettes: per-request cost at 1, 1,000 and 10,000 entries, the flatness of
/// that cost (10,000 entries against 1), and the time to load the largest cassette.
enum ReplayScenarios {
  static let group = "replay"

  static var all: [Scenario] {
    [
      Scenario(group: group, name: "replay") { context in
        let folder = FileManager.default.temporaryDirectory
          .appendingPathComponent("understudy-bench-cassettes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var rows: [Row] = []
        var ratios: [Int: Double] = [:]
        // Load every cassette before timing any: a large cassette changes the process's heap,
        // and measuring sizes one after another would charge that to whichever came last.
        var registries: [Int: StubRegistry] = [:]
        for count in [1, 1_000, 10_000] {
          let file = try writeCassette(entries: count, in: folder)
          let load: CassetteLoad
          if count == 10_000 {
            // Loads dropped before the kept one (two, one in CI) fault in the code and grow the
            // allocator's arenas, so the kept load's memory is the cassette's own; every load
            // counts for the best CPU time, since one on a shared machine can be slowed by a
            // neighbour.
            let dropped = try (0..<(context.isCI ? 1 : 2)).map { _ in
              try CassetteLoad.timed(file, entries: count).timing
            }
            load = try CassetteLoad(file, entries: count)
            rows.append(
              load.row(group, bestOf: dropped + [load.timing], fileBytes: fileSize(file)))
          } else {
            load = try CassetteLoad(file, entries: count)
          }
          let cassette = load.cassette
          let registry = StubRegistry(journalCapacity: 0)
          registry.use(cassette)
          registries[count] = registry
        }
        for count in [1, 1_000, 10_000] {
          // The last-recorded entry: what a linear search would find last.
          let request = URLRequest(url: URL(string: CannedResponse.origin + "/items/\(count - 1)")!)
          let label = count == 1 ? "1 entry" : "\(count.formatted()) entries"
          let row = try await StubScenarios.compare(
            "replay, cassette of \(label)", registries[count]!, request, CannedResponse.floorBody,
            context)
          ratios[count] = row.ratio?.median
          rows.append(row)
        }
        if let one = ratios[1], let many = ratios[10_000] {
          rows.append(
            .measured(
              group, "replay at 10,000 entries over 1 entry", many / one, unit: "x",
              bar: .replayFlat, note: "ratio of the two rows' median ratios to the floor"))
        }
        return rows
      }
    ]
  }

  /// A cassette of `entries` GET exchanges on distinct paths, each answering the floor's body.
  private static func writeCassette(entries: Int, in folder: URL) throws -> URL {
    let file = folder.appendingPathComponent("cassette-\(entries).har")
    let started = Date(timeIntervalSince1970: 1_700_000_000)
    let har = HAR(
      entries: (0..<entries).map { index in
        HAR.Entry(
          request: InterceptedRequest(url: URL(string: CannedResponse.origin + "/items/\(index)")!),
          response: HAR.Response(
            status: 200, headers: ["Content-Type": "application/json"],
            body: CannedResponse.floorBody),
          startedDateTime: started, duration: .milliseconds(3))
      })
    try har.write(to: file)
    return file
  }

  /// The wall and CPU time of one load.
  private struct LoadTiming {
    let wallSeconds: Double
    let cpuSeconds: Double
  }

  /// One load of a cassette: its time, and what the loaded cassette keeps in memory.
  private struct CassetteLoad {
    let cassette: Cassette
    let timing: LoadTiming
    /// Growth of the allocated heap once loaded (kept), and of resident memory while loading
    /// (peak), when the platform says.
    let keptGrowth: Int?
    let peakGrowth: Int?

    init(_ file: URL, entries: Int) throws {
      // Trimmed before and after, so the growth is what was allocated and is still held, not
      // what the allocator happened to have free or has not returned yet.
      ProcessMemory.releaseFreeMemory()
      let allocatedBefore = ProcessMemory.allocatedBytes
      let residentBefore = ProcessMemory.residentBytes
      let peakReset = ProcessMemory.resetPeak()
      (cassette, timing) = try Self.timed(file, entries: entries)
      let peak = peakReset ? ProcessMemory.peakResidentBytes : nil
      ProcessMemory.releaseFreeMemory()
      let allocatedAfter = ProcessMemory.allocatedBytes
      keptGrowth = allocatedBefore.flatMap { start in allocatedAfter.map { $0 - start } }
      peakGrowth = residentBefore.flatMap { start in peak.map { $0 - start } }
    }

    /// Loads the cassette at `file` on this thread, timing it.
    static func timed(_ file: URL, entries: Int) throws -> (cassette: Cassette, timing: LoadTiming)
    {
      let clock = ContinuousClock()
      let cpuStart = ThreadCPU.seconds
      var loaded: Cassette?
      // Repeats allowed: the benchmark sends the same request thousands of times.
      let elapsed = clock.measure {
        loaded = Cassette(at: file, options: CassetteOptions(allowsRepeats: true))
      }
      let cpuSeconds = ThreadCPU.seconds - cpuStart
      let wallSeconds =
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      let cassette = loaded!
      guard cassette.problem == nil, cassette.entryCount == entries else {
        throw BenchmarkFailure(
          "cassette of \(entries) entries did not load: \(String(describing: cassette.problem))")
      }
      return (cassette, LoadTiming(wallSeconds: wallSeconds, cpuSeconds: cpuSeconds))
    }

    /// The row: CPU time of the loading thread, best of `loads` (on a shared machine the wall
    /// clock mostly measures the neighbours), with the wall time and memory against the file.
    func row(_ group: String, bestOf loads: [LoadTiming], fileBytes: Int64) -> Row {
      let cpu = loads.map(\.cpuSeconds).min()!
      let wall = loads.map(\.wallSeconds).min()!
      var memory = ""
      if let keptGrowth, let peakGrowth {
        memory = String(
          format: "; memory kept %.1f MiB (%.2fx the file), peak %.1f MiB", keptGrowth.mebibytes,
          Double(keptGrowth) / Double(fileBytes), peakGrowth.mebibytes)
      }
      return .measured(
        group, "load a 10,000-entry cassette (CPU time)", cpu, unit: " s", bar: .cassetteLoad,
        note: String(
          format: "best of %d: %.3f s CPU, %.3f s wall; file %.1f MiB", loads.count, cpu, wall,
          Double(fileBytes) / 1_048_576) + memory)
    }
  }

  private static func fileSize(_ url: URL) -> Int64 {
    ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size]) as? NSNumber)?.int64Value
      ?? 0
  }
}

/// A scenario that could not set itself up.
struct BenchmarkFailure: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) {
    self.description = description
  }
}
