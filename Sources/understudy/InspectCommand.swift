import Understudy

/// `understudy inspect`: a table of a HAR file's entries.
enum InspectCommand: Command {
  static let name = "inspect"
  static let summary = "List the entries of a HAR file: method, URL, status, size and time."
  static let usage = "understudy inspect <file.har> [--json]"
  static let discussion = """
    Prints one row per entry: its index (from 0, as JSON paths and `understudy stub --entry`
    count), method, URL (shortened in the middle when long), response status, the bytes of
    response body the file holds, and total time, then a line of totals. `?` marks a time the
    file does not know; `omitted` marks a body the exporter declared but left out (replay
    refuses such an entry). With --json the same facts are printed as JSON, URLs in full.
    """
  static let options = [
    OptionSpec("--json", help: "Print JSON instead of a table.")
  ]
  static let examples = [
    "understudy inspect Fixtures/HAR/chrome-export.har",
    "understudy inspect recording.har --json | jq '.entries[] | select(.status >= 400)'",
  ]

  /// The widest a URL gets in the table before it is shortened.
  static let urlWidth = 60

  static func run(_ arguments: CommandLineArguments) throws(CLIError) -> ExitCode {
    let path = try file(arguments)
    let har = try CassetteFile.load(path)
    // A file inspected may be an export no one redacted: a value its rules would remove from
    // one entry is masked where another entry's URL repeats it.
    let secrets = har.removedValuesForLogs()
    let rows = har.log.entries.enumerated().map {
      Row(index: $0.offset, entry: $0.element, hiding: secrets)
    }
    let totals = Totals(rows)
    if arguments.flag("--json") {
      Console.print(json(Report(file: path, entries: rows, totals: totals)))
    } else {
      Console.print(table(rows))
      Console.print("")
      Console.print(totals.sentence)
    }
    return .success
  }

  /// One entry as the table and the JSON show it.
  struct Row: Encodable {
    var index: Int
    var method: String
    var url: String
    var status: Int
    var mimeType: String
    /// The bytes of response body the file holds (decoded from base64 when so stored).
    var size: Int
    /// The size the exporter declared for a body it left out, or `nil` when the body is there.
    var omittedSize: Int?
    /// The exchange's total time in milliseconds, or `nil` when unknown.
    var time: Double?

    init(index: Int, entry: HAR.Entry, hiding secrets: Set<String>) {
      self.index = index
      method = LogRedaction.shown(method: entry.request.method)
      // Masked before the table shortens it, so a cut cannot hide a credential's name.
      url = LogRedaction.mask(url: entry.request.url)
      if !secrets.isEmpty { url = LogRedaction.mask(url, hiding: secrets) }
      status = entry.response.status
      // A media type's parameters are text a server chose (`; profile=…`): masked as a URL is.
      mimeType = LogRedaction.mask(entry.response.content.mimeType)
      if !secrets.isEmpty { mimeType = LogRedaction.mask(mimeType, hiding: secrets) }
      // What is in the file, not `content.size`: exporters declare sizes for bodies they drop.
      size = entry.response.content.body?.count ?? 0
      omittedSize = entry.response.content.omittedSize
      time = entry.time >= 0 ? entry.time : nil
    }
  }

  struct Totals: Encodable {
    var entries: Int
    var hosts: Int
    var responseBytes: Int
    /// How many response bodies the exporter left out.
    var omittedBodies: Int
    var time: Double

    init(_ rows: [Row]) {
      entries = rows.count
      hosts = Set(rows.compactMap { URLComponents(string: $0.url)?.host?.lowercased() }).count
      // A file's sizes and times are whatever it says: sums that overflow stop at the largest
      // value rather than trap (two times of 1.7e308 ms add up to infinity).
      responseBytes = rows.reduce(0) { sum, row in
        let (total, overflow) = sum.addingReportingOverflow(row.size)
        return overflow ? (row.size > 0 ? .max : .min) : total
      }
      omittedBodies = rows.filter { $0.omittedSize != nil }.count
      let total = rows.compactMap(\.time).reduce(0, +)
      time = total.isFinite ? total : .greatestFiniteMagnitude
    }

    var sentence: String {
      [
        entries == 1 ? "1 entry" : "\(entries) entries", hosts == 1 ? "1 host" : "\(hosts) hosts",
        "\(formatBytes(responseBytes)) of response bodies", formatMilliseconds(time) + " in all",
      ].joined(separator: ", ")
        + (omittedBodies == 0
          ? ""
          : "; \(omittedBodies == 1 ? "1 body was" : "\(omittedBodies) bodies were") left out by "
            + "the exporter, and replay refuses those entries")
    }
  }

  struct Report: Encodable {
    var file: String
    var entries: [Row]
    var totals: Totals
  }

  private static func table(_ rows: [Row]) -> String {
    guard !rows.isEmpty else { return "The file has no entries." }
    let header = ["#", "Method", "URL", "Status", "Size", "Time"]
    let cells = rows.map { row in
      [
        String(row.index), row.method, shortened(row.url, to: urlWidth), String(row.status),
        row.omittedSize == nil ? formatBytes(row.size) : "omitted",
        row.time.map(formatMilliseconds) ?? "?",
      ]
    }
    let widths = header.indices.map { column in
      ([header] + cells).map { $0[column].count }.max() ?? 0
    }
    // Numbers line up on the right, words on the left.
    let rightAligned: Set = [0, 3, 4, 5]
    return ([header] + cells).map { line in
      line.enumerated().map { column, text in
        let padding = String(repeating: " ", count: widths[column] - text.count)
        return rightAligned.contains(column) ? padding + text : text + padding
      }.joined(separator: "  ").trimmingTrailingSpaces()
    }.joined(separator: "\n")
  }

  /// `text` cut to `width` characters with an ellipsis in the middle, so both the host and the
  /// end of the path stay visible.
  static func shortened(_ text: String, to width: Int) -> String {
    guard text.count > width else { return text }
    let head = (width - 1) * 2 / 3
    return text.prefix(head) + "…" + text.suffix(width - 1 - head)
  }

  private static func json(_ report: Report) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // Numbers that are not finite (none are kept, but a row's time is the file's) are written
    // as strings, so every member is a string, a number or an array of them: this cannot fail.
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
    return String(decoding: try! encoder.encode(report), as: UTF8.self)
  }
}

/// `512 B`, `1.5 KiB`, `3.2 MiB`.
func formatBytes(_ count: Int) -> String {
  if count < 1024 { return "\(count) B" }
  if count < 1024 * 1024 { return String(format: "%.1f KiB", Double(count) / 1024) }
  return String(format: "%.1f MiB", Double(count) / 1024 / 1024)
}

/// `120.5 ms`.
func formatMilliseconds(_ milliseconds: Double) -> String {
  String(format: "%.1f ms", milliseconds)
}
