extension CassetteError {
  /// The errors with ``line`` and ``column`` set to where the member at each one's ``jsonPath``
  /// starts in `data`.
  ///
  /// Errors from ``HAR/decode(_:source:)`` come located already. Checks that run on a decoded
  /// ``HAR`` (a validator's consistency checks, say) know the JSON path of what they found but
  /// not where it sits in the file; this gives their reports the same `file:line:column:` start,
  /// so editors and CI logs link to the spot. The document is parsed once for all the errors.
  ///
  /// ```swift
  /// let problem = CassetteError(
  ///   kind: .invalidValue, file: path, jsonPath: "log.entries[2].response.status",
  ///   problem: "the status -1 is not an HTTP status", fix: "Write the status the server sent.")
  /// print(CassetteError.locating([problem], in: data)[0])  // path:41:21: log.entries[2]…
  /// ```
  ///
  /// - Parameters:
  ///   - errors: Errors whose ``jsonPath`` is written as decoding errors write it:
  ///     `log.entries[3].response.status`, with `["odd key"]` for names that are not
  ///     identifiers.
  ///   - data: The cassette's bytes, optionally starting with a UTF-8 byte order mark.
  /// - Returns: The errors in the same order. An error keeps its position unchanged when it has
  ///   no JSON path, the path leads to no member, or `data` is not JSON.
  package static func locating(_ errors: [CassetteError], in data: Data) -> [CassetteError] {
    guard errors.contains(where: { $0.jsonPath != nil }) else { return errors }
    let json = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data
    let bytes = [UInt8](json)
    guard let document = try? JSONNode.parse(bytes) else { return errors }
    // Many errors in a large file: find each line by binary search rather than by counting
    // newlines from the start every time.
    var lineStarts = [0]
    for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
      lineStarts.append(offset + 1)
    }
    return errors.map { error in
      guard let rendered = error.jsonPath, let path = JSONPathComponent.parse(rendered) else {
        return error
      }
      let (node, reached) = document.descendant(at: path)
      guard reached else { return error }
      let offset = node.range.lowerBound
      let line = lineStarts.partitioningIndex { $0 > offset }
      var located = error
      located.line = line
      located.column = JSONNode.column(of: offset, lineStart: lineStarts[line - 1], in: bytes)
      return located
    }
  }
}

extension [Int] {
  /// The index of the first element for which `isAfter` is true, in a sorted array where it is
  /// false up to some point and true after it.
  fileprivate func partitioningIndex(where isAfter: (Int) -> Bool) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if isAfter(self[middle]) { high = middle } else { low = middle + 1 }
    }
    return low
  }
}
