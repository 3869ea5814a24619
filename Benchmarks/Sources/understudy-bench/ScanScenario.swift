import Foundation
import Understudy

/// `CredentialScanner.scan(_:)` (the default redaction's rules plus every credential shape) over
/// one entry with a 50 MB JSON response body, the size of a large exported HAR: megabytes per
/// second of the scanning thread's CPU time, best of ``SpeedGauge/runs`` runs, CI's too.
///
/// The body is ordinary API traffic (ids, names, e-mail addresses, URLs, prose that says
/// "token", "Basic" and "bearer") with one GitHub token near the end, so a scanner that gave up
/// early or skipped the body would be caught by the finding count rather than reported as fast.
enum ScanScenario {
  static let group = "scan"
  static let size = 50_000_000

  static var scenario: Scenario {
    Scenario(group: group, name: "scan a 50 MB body") { context in
      let har = HAR(entries: [entry(body: body())])
      let gauge = SpeedGauge()
      let megabytes = Double(size) / 1_000_000
      var rows: [Row] = []
      // The default rules as `understudy scan` runs them, then the shapes alone, which shows
      // how the time divides between running the redaction and the byte scanner.
      for (label, redaction) in [("", Redaction.default), (", shapes only", Redaction.none)] {
        let scanner = CredentialScanner(redaction: redaction)
        let clock = ContinuousClock()
        var bestWall = Double.infinity
        var bestCPU = Double.infinity
        var bestMultiple = 0.0
        var findings: [CredentialFinding] = []
        for _ in 0..<SpeedGauge.runs {
          let gaugeSpeed = try gauge.megabytesPerSecond()
          let cpuStart = ThreadCPU.seconds
          let elapsed = clock.measure { findings = scanner.scan(har) }
          let cpu = ThreadCPU.seconds - cpuStart
          bestCPU = min(bestCPU, cpu)
          bestMultiple = max(bestMultiple, megabytes / cpu / gaugeSpeed)
          bestWall = min(
            bestWall,
            Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        guard findings.count == 1, findings[0].description.contains(": GitHub token (") else {
          throw WrongAnswer(description: "expected the one planted GitHub token, found \(findings)")
        }
        // CPU time of the scanning thread: on a shared machine the wall clock mostly measures
        // the neighbours.
        rows.append(
          .throughput(
            group, "scan a 50 MB JSON body\(label) (CPU time)", megabytes / bestCPU,
            gaugeMultiple: bestMultiple, bar: label.isEmpty ? .scanThroughput : nil,
            note: String(
              format: "best run %.2f s CPU, %.2f s wall (%.1f MB/s wall)", bestCPU, bestWall,
              megabytes / bestWall)))
      }
      return rows
    }
  }

  static func entry(body: String) -> HAR.Entry {
    HAR.Entry(
      request: InterceptedRequest(url: URL(string: CannedResponse.origin + "/export")!),
      response: HAR.Response(
        status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8)),
      startedDateTime: Date(timeIntervalSince1970: 1_700_000_000), duration: .milliseconds(3))
  }

  /// The one credential the body holds.
  static let token = "ghp_" + String(repeating: "Ab1", count: 12)

  /// `size` bytes of a JSON array of records; the planted token sits in the last record.
  static func body(size: Int = size) -> String {
    var text = "["
    text.reserveCapacity(size + 1_000)
    var index = 0
    while text.utf8.count < size - 400 {
      text += """
        {"id":\(index),"name":"Customer \(index)","email":"user\(index)@example.com",\
        "url":"https://shop.example.com/items/\(index)?ref=home&page=\(index % 7)",\
        "note":"Basic plan; the bearer of this token may eye the catalogue, ask for a key",\
        "tags":["sale","new"],"price":\(index % 1000).99,"active":true},
        """
      index += 1
    }
    text += #"{"id":\#(index),"note":"last","deploy":"\#(token)"}]"#
    while text.utf8.count < size { text += " " }
    return text
  }
}
