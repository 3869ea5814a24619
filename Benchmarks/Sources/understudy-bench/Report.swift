import Foundation

/// The results of one run, as a table for people and JSON for tools.
struct Report: Codable {
  struct Machine: Codable {
    let processors: Int
    let loadAverageAtStart: String?
    let loadAverageAtEnd: String?
  }

  let mode: String
  let requestsPerRun: Int
  let pairs: Int
  let warmUp: Int
  let machine: Machine
  let rows: [Row]

  /// The table: per-request medians in microseconds, the median ratio of the pairs with its
  /// min–max, and the verdict against the bar.
  var table: String {
    var lines: [String] = []
    let header = [
      Format.padded("scenario", 56), Format.padded("floor µs", 9, right: true),
      Format.padded("Understudy", 11, right: true), Format.padded("ratio", 7, right: true),
      Format.padded("(min–max)", 13), Format.padded("CPU", 6, right: true),
      Format.padded("bar", 10), "result",
    ]
    lines.append(header.joined(separator: " "))
    var group: String?
    for row in rows {
      if row.group != group {
        group = row.group
        lines.append("[\(row.group)]")
      }
      var cells = [Format.padded(row.scenario, 56)]
      if let ratio = row.ratio, let floor = row.floorMicroseconds,
        let subject = row.understudyMicroseconds
      {
        cells += [
          Format.padded(Format.fixed(floor.median, 1), 9, right: true),
          Format.padded(Format.fixed(subject.median, 1), 11, right: true),
          Format.padded(Format.fixed(ratio.median, 2) + "x", 7, right: true),
          Format.padded("(\(Format.fixed(ratio.min, 2))–\(Format.fixed(ratio.max, 2)))", 13),
          Format.padded(
            row.cpuRatio.map { Format.fixed($0.median, 2) + "x" } ?? "", 6, right: true),
        ]
      } else if let value = row.value {
        let measured = Format.fixed(value, 1) + " " + (row.unit ?? "")
        cells += [
          Format.padded(measured, 9 + 1 + 11 + 1 + 7, right: true), Format.padded("", 13 + 1 + 6),
        ]
      } else {
        cells += [
          Format.padded("—", 9 + 1 + 11 + 1 + 7, right: true), Format.padded("", 13 + 1 + 6),
        ]
      }
      cells.append(Format.padded(row.bar?.text ?? "", 10))
      cells.append(row.verdict.rawValue + (row.note.map { "  (\($0))" } ?? ""))
      lines.append(cells.joined(separator: " "))
    }
    return lines.joined(separator: "\n")
  }

  var json: Data {
    get throws {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      return try encoder.encode(self)
    }
  }

  /// Rows whose median ratio, measured value or multiple of the speed gauge is past the CI limit
  /// of their bar.
  var ciFailures: [Row] {
    rows.filter { row in
      guard let bar = row.bar, let value = row.ciCheckedValue else { return false }
      return bar.breaksCI(value)
    }
  }
}
