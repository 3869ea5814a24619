/// A server-sent event stream (`text/event-stream`) names what an event carries in its
/// `event:` line and carries it in the `data:` lines after it: `event: token` then `data: …`
/// is a token, as a member named `token` would hold one.
extension CompiledRedaction {
  /// The byte ranges of the `data:` values of each event whose `event:` name is a credential's,
  /// each with its placeholder. Events are found from each `event:` by `memmem`.
  func eventStreamReplacements(in text: String, echoes: inout RedactionEchoes)
    -> [(Range<Int>, String)]
  {
    guard !memberNames.isEmpty, text.contains(bytes: "event:") else { return [] }
    var replacements: [(Range<Int>, String)] = []
    var text = text
    text.withUTF8 { bytes in
      var eventName: String?
      Self.forEachLine(in: bytes) { lineStart, line in
        if line.isEmpty {
          // A blank line ends the event.
          eventName = nil
        } else if let value = Self.field("event", in: line) {
          let name = String(decoding: UnsafeBufferPointer(rebasing: line[value]), as: UTF8.self)
          eventName = memberNames.matches(name) ? name : nil
        } else if let name = eventName, let value = Self.field("data", in: line), !value.isEmpty {
          let range = (lineStart + value.lowerBound)..<(lineStart + value.upperBound)
          let secret = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
          if !RedactionPlaceholder.isPresent(in: secret) {
            let key = RedactionPlaceholder.name(from: name.lowercased())
            echoes.remember(memberValue: secret, as: key)
            replacements.append((range, RedactionPlaceholder.text(key)))
          }
        }
      }
    }
    return replacements
  }

  /// Each line of `bytes` (its `\r` before `\n` left out) with the offset it starts at, found
  /// by `memchr`.
  private static func forEachLine(
    in bytes: UnsafeBufferPointer<UInt8>, _ body: (Int, UnsafeBufferPointer<UInt8>) -> Void
  ) {
    var lineStart = 0
    while lineStart < bytes.count {
      let lineEnd = bytes.index(of: 0x0A, in: lineStart..<bytes.count) ?? bytes.count
      var end = lineEnd
      if end > lineStart, bytes[end - 1] == 0x0D { end -= 1 }
      body(lineStart, UnsafeBufferPointer(rebasing: bytes[lineStart..<end]))
      lineStart = lineEnd + 1
    }
  }

  /// The value's range in `line` when it is the field `name` (`name:` and one optional space).
  private static func field(_ name: StaticString, in line: UnsafeBufferPointer<UInt8>)
    -> Range<Int>?
  {
    let count = name.utf8CodeUnitCount
    guard line.count > count, line[count] == UInt8(ascii: ":"),
      (0..<count).allSatisfy({ line[$0] == name.utf8Start[$0] })
    else { return nil }
    var start = count + 1
    if start < line.count, line[start] == 0x20 { start += 1 }
    return start..<line.count
  }
}

extension CompiledRedaction {
  /// An event's `data:` lines are one value joined by line breaks (the standard's reading), so
  /// a JSON document a server split over them (`data: {"a":{"refresh_token":` then
  /// `data: "…"}}`) is read whole, as a JSON body, and each of its lines is written back to its
  /// own `data:` line. Events of one `data:` line are read as the text they are.
  func splitEventDataReplacements(in text: String, echoes: inout RedactionEchoes)
    -> [(Range<Int>, String)]
  {
    guard text.contains(bytes: "\ndata:") else { return [] }
    var events: [[Range<Int>]] = []
    var text = text
    let values: [String] = text.withUTF8 { bytes in
      var current: [Range<Int>] = []
      Self.forEachLine(in: bytes) { lineStart, line in
        if line.isEmpty {
          if current.count > 1 { events.append(current) }
          current = []
        } else if let value = Self.field("data", in: line) {
          current.append((lineStart + value.lowerBound)..<(lineStart + value.upperBound))
        }
      }
      if current.count > 1 { events.append(current) }
      return events.joined().map {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self)
      }
    }
    var replacements: [(Range<Int>, String)] = []
    var next = 0
    for lines in events {
      let lineValues = values[next..<(next + lines.count)]
      next += lines.count
      let joined = lineValues.joined(separator: "\n")
      // Only a JSON document is read across lines; text is read line by line already.
      guard let first = joined.utf8.first(where: { $0 != 0x20 && $0 != 0x09 }),
        first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
      else { continue }
      let redacted = redactBody(joined, mimeType: "application/json", echoes: &echoes)
      guard redacted != joined else { continue }
      let parts = redacted.split(separator: "\n", omittingEmptySubsequences: false)
      if parts.count == lines.count {
        for (range, (part, value)) in zip(lines, zip(parts, lineValues)) where part != value {
          replacements.append((range, String(part)))
        }
      } else {
        // A rule that added or took a line break: its lines as `data:` lines of the first.
        replacements.append((lines[0], parts.joined(separator: "\ndata: ")))
        replacements += lines.dropFirst().map { ($0, "") }
      }
    }
    return replacements
  }
}
