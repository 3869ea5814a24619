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
          let loadStart = DispatchTime.now().uptimeNanoseconds
          // Repeats allowed: the benchmark sends the same request thousands of times.
          let cassette = Cassette(at: file, allowsRepeats: true)
          let loadSeconds = Double(DispatchTime.now().uptimeNanoseconds - loadStart) / 1e9
          guard cassette.problem == nil, cassette.entryCount == count else {
            throw BenchmarkFailure(
              "cassette of \(count) entries did not load: \(String(describing: cassette.problem))")
          }
          if count == 10_000 {
            rows.append(
              .measured(
                group, "load a 10,000-entry cassette", loadSeconds, unit: " s",
                bar: .cassetteLoad,
                note: ByteCountFormatter.string(fromByteCount: fileSize(file), countStyle: .file)))
          }
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
