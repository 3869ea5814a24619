extension CassetteError {
  /// Turns whatever `JSONDecoder` threw into an error that names the file, the JSON path, the
  /// line and column, and a fix.
  static func decoding(_ error: any Error, bytes: [UInt8], source: String) -> CassetteError {
    switch error {
    case let problem as HARValueProblem:
      return located(
        CassetteError(kind: problem.kind, problem: problem.problem, fix: problem.fix),
        at: JSONPathComponent.path(problem.codingPath), bytes: bytes, source: source)
    case DecodingError.typeMismatch(let type, let context):
      return typeMismatch(expected: type, context: context, bytes: bytes, source: source)
    case DecodingError.valueNotFound(let type, let context):
      let path = JSONPathComponent.path(context.codingPath)
      return located(
        CassetteError(
          kind: .wrongType, problem: "expected \(describe(type)) but found null",
          fix: "Replace null with a value, for example \(example(for: path.lastKey, type))."),
        at: path, bytes: bytes, source: source)
    case DecodingError.keyNotFound(let key, let context):
      return missingMember(key.stringValue, context: context, bytes: bytes, source: source)
    case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty:
      return syntax(bytes: bytes, source: source, decoderSaid: context.debugDescription)
    case DecodingError.dataCorrupted(let context):
      return located(
        CassetteError(
          kind: .invalidValue, problem: context.debugDescription.lowercasingFirst,
          fix: "Correct the value, or record the cassette again."),
        at: JSONPathComponent.path(context.codingPath), bytes: bytes, source: source)
    default:
      return CassetteError(
        kind: .malformedJSON, file: source, problem: "the cassette could not be decoded: \(error)",
        fix: "Record the cassette again, or restore it from version control.")
    }
  }

  /// A member named twice in one object, placed at its second name: which copy counts is
  /// undefined, and Foundation's reader would drop the later one without a word.
  static func repeatedMember(
    _ name: String, at offset: Int, in json: some Collection<UInt8>, source: String
  ) -> CassetteError {
    let bytes = [UInt8](json)
    let path = (try? JSONNode.parse(bytes))?.path(toContainerOf: offset) ?? []
    let (line, column) = JSONNode.lineAndColumn(of: offset, in: bytes)
    let object = path.isEmpty ? "the top-level object" : "the object"
    return CassetteError(
      kind: .malformedJSON, file: source,
      jsonPath: path.isEmpty ? nil : JSONPathComponent.render(path), line: line, column: column,
      // A name can be a value (an object keyed by session id): quoted only when plain.
      problem: QuotedValue.mayShow(name)
        ? "\(object) has the member \"\(name)\" twice"
        : "\(object) has a member named by a value of \(name.count) characters twice",
      fix: "Keep one and delete the other: readers disagree on which copy counts, and "
        + "Foundation's would silently use the first.")
  }

  private static func typeMismatch(
    expected type: Any.Type, context: DecodingError.Context, bytes: [UInt8], source: String
  ) -> CassetteError {
    let path = JSONPathComponent.path(context.codingPath)
    let found = (try? JSONNode.parse(bytes)).map { $0.descendant(at: path) }
      .flatMap { $0.reached ? $0.node : nil }
    if path.isEmpty {
      return CassetteError(
        kind: .notHAR, file: source, line: 1, column: 1,
        problem: "the file is not a HAR cassette: expected a top-level object with \"log\" "
          + "but found \(found?.summary ?? "another JSON value")",
        fix: "Check that this is the cassette you meant; a HAR file looks like "
          + "{\"log\": {\"version\": \"1.2\", \"entries\": […]}}.")
    }
    let problem =
      "expected \(describe(type))"
      + (found.map { " but found \(summary(of: $0, expected: type, at: path))" } ?? "")
    return located(
      CassetteError(
        kind: .wrongType, problem: problem,
        fix: fixForWrongType(expected: type, found: found, key: path.lastKey)),
      at: path, bytes: bytes, source: source)
  }

  private static func missingMember(
    _ key: String, context: DecodingError.Context, bytes: [UInt8], source: String
  ) -> CassetteError {
    let containerPath = JSONPathComponent.path(context.codingPath)
    guard containerPath.isEmpty, key == "log" else {
      return located(
        CassetteError(
          kind: .missingMember, problem: "the required member \"\(key)\" is missing",
          fix: "Add it to this object, for example \(example(for: key, nil)), "
            + "or record the cassette again."),
        at: containerPath, bytes: bytes, source: source
      ).with(jsonPath: JSONPathComponent.render(containerPath + [.key(key)]))
    }
    var fix =
      "Check that this is the cassette you meant; a HAR file looks like "
      + "{\"log\": {\"version\": \"1.2\", \"entries\": […]}}."
    var members = ""
    if case .object(let found)? = (try? JSONNode.parse(bytes))?.value {
      let names = found.map { "\"\($0.key)\"" }
      members =
        names.isEmpty
        ? " but found an empty object"
        : " but found the members "
          + names.prefix(5).joined(separator: ", ") + (names.count > 5 ? ", …" : "")
      if found.contains(where: { $0.key == "entries" }) {
        fix = "The object looks like the contents of \"log\": wrap it as {\"log\": …}."
      }
    }
    return CassetteError(
      kind: .notHAR, file: source, line: 1, column: 1,
      problem: "the file is not a HAR cassette: expected a top-level object with \"log\""
        + members,
      fix: fix)
  }

  /// The error for bytes that are not JSON, with the line and column of the first problem.
  private static func syntax(bytes: [UInt8], source: String, decoderSaid: String)
    -> CassetteError
  {
    if let marker = conflictMarkerOffset(in: bytes) {
      let (line, column) = JSONNode.lineAndColumn(of: marker, in: bytes)
      return CassetteError(
        kind: .malformedJSON, file: source, line: line, column: column,
        problem: "the file contains a version control conflict marker",
        fix: "Resolve the merge conflict, or record the cassette again.")
    }
    let firstByte = bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
    if bytes.starts(with: Array("version https://git-lfs".utf8)) {
      return CassetteError(
        kind: .malformedJSON, file: source, line: 1, column: 1,
        problem: "the file is a Git LFS pointer, not the cassette itself",
        fix: "Run `git lfs pull` to fetch the cassette.")
    }
    let document: JSONNode
    do {
      document = try JSONNode.parse(bytes, strict: true)
    } catch {
      let (line, column) = JSONNode.lineAndColumn(of: error.offset, in: bytes)
      let isJSONAtAll = firstByte == UInt8(ascii: "{") || firstByte == UInt8(ascii: "[")
      let fix =
        error.isTruncated
        ? "The file was cut short (a process stopped while writing it, or a bad copy); restore "
          + "it from version control or record the cassette again."
        : isJSONAtAll
          ? "Correct the JSON at that position, or record the cassette again."
          : "A HAR cassette is a JSON object starting with {; check that the path names the "
            + "cassette you meant, or record it again."
      return CassetteError(
        kind: .malformedJSON, file: source, line: line, column: column,
        problem: isJSONAtAll ? error.problem : "the file is not JSON: \(error.problem)", fix: fix)
    }
    // The JSON is well formed, and JSONDecoder says "not valid JSON" without a path when a
    // number does not fit the member's type, so look for one.
    var path: [JSONPathComponent] = []
    if let (node, error) = unrepresentableNumber(in: document, key: nil, path: &path) {
      return located(error, at: path, bytes: bytes, source: source).with(node: node, bytes: bytes)
    }
    // Foundation rejected what this parser accepts; report its own words and position.
    var problem = "the file could not be decoded (\(decoderSaid.withoutFinalPeriod))"
    var position: (line: Int, column: Int)?
    do {
      _ = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    } catch {
      let message = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
      if let message {
        problem = "the file is not valid JSON: \(message.lowercasingFirst.withoutFinalPeriod)"
      }
      if let offset = message.flatMap(characterOffset) {
        position = JSONNode.lineAndColumn(of: offset, in: bytes)
      }
    }
    return CassetteError(
      kind: .malformedJSON, file: source, line: position?.line, column: position?.column,
      problem: problem, fix: "Correct the JSON, or record the cassette again.")
  }

  /// Members the model reads as `Int`; every other number is read as a `Double`.
  private static let wholeNumberMembers: Set<String> = [
    "status", "size", "compression", "headersSize", "bodySize", "hitCount",
  ]

  /// The first number no member could hold: one too large for a `Double`, or one that is not a
  /// whole number in `Int`'s range where the model reads an `Int`. Custom `_` members are
  /// skipped, because decoding ignores them.
  private static func unrepresentableNumber(
    in node: JSONNode, key: String?, path: inout [JSONPathComponent]
  ) -> (JSONNode, CassetteError)? {
    switch node.value {
    case .object(let members):
      for member in members where !member.key.hasPrefix("_") {
        path.append(.key(member.key))
        if let found = unrepresentableNumber(in: member.value, key: member.key, path: &path) {
          return found
        }
        path.removeLast()
      }
    case .array(let elements):
      for (index, element) in elements.enumerated() {
        path.append(.index(index))
        if let found = unrepresentableNumber(in: element, key: key, path: &path) { return found }
        path.removeLast()
      }
    case .number(let text):
      let value = Double(text) ?? .infinity
      let name = key.map { "\"\($0)\": " } ?? ""
      // A number long enough to be a token is described by its length, as everywhere else.
      let shown = mayQuote(text) ? "the number \(text)" : "a number of \(text.count) characters"
      guard value.isFinite else {
        return (
          node,
          CassetteError(
            kind: .invalidValue, problem: "\(shown) is too large to be read",
            fix: "Write a smaller number, for example \(name)0.")
        )
      }
      guard let key, wholeNumberMembers.contains(key), Int(text) == nil else { return nil }
      if value.rounded() != value {
        return (
          node,
          CassetteError(
            kind: .wrongType, problem: "expected a whole number but found \(shown)",
            fix: "Write a whole number, for example \(name)\(Int(value.rounded(.down))).")
        )
      }
      if abs(value) >= 0x1p63 {
        return (
          node,
          CassetteError(
            kind: .invalidValue, problem: "\(shown) is too large for \"\(key)\"",
            fix: "Write a whole number below 2^63, for example \(example(for: key, Int.self)).")
        )
      }
    case .string, .bool, .null:
      break
    }
    return nil
  }

  /// Adds the file and the line and column of `path` to an error.
  private static func located(
    _ error: CassetteError, at path: [JSONPathComponent], bytes: [UInt8], source: String
  ) -> CassetteError {
    var error = error
    error.file = source
    error.jsonPath = JSONPathComponent.render(path)
    if let document = try? JSONNode.parse(bytes) {
      let offset = document.descendant(at: path).node.range.lowerBound
      (error.line, error.column) = JSONNode.lineAndColumn(of: offset, in: bytes)
    }
    return error
  }

  private func with(jsonPath: String) -> CassetteError {
    var copy = self
    copy.jsonPath = jsonPath
    return copy
  }

  /// The error placed at `node` itself rather than where its path leads, which for a member
  /// repeated in one object is the last one.
  private func with(node: JSONNode, bytes: [UInt8]) -> CassetteError {
    var copy = self
    (copy.line, copy.column) = JSONNode.lineAndColumn(of: node.range.lowerBound, in: bytes)
    return copy
  }

  private static func describe(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: return "a string"
    case is Int.Type: return "a whole number"
    case is Double.Type: return "a number"
    case is Bool.Type: return "true or false"
    default:
      let name = String(describing: type)
      if name.hasPrefix("Array") || name.hasPrefix("[") { return "an array" }
      return "an object"
    }
  }

  /// What was found, as an error about a malformed cassette prints it in CI logs, where masking
  /// reads a secret by its name or shape only. A number long enough to be a secret where text
  /// belongs (a header's or a query parameter's `value`) is a token still; any string among
  /// cookies is a cookie's value, a credential wherever it stands (`"cookies": "sid=…"`).
  private static func summary(
    of node: JSONNode, expected type: Any.Type, at path: [JSONPathComponent]
  ) -> String {
    switch node.value {
    case .number(let text) where type == String.self && !mayQuote(text):
      return "a number of \(text.count) characters"
    case .string(let text) where path.contains(.key("cookies")):
      return "a string of \(text.count) characters"
    default:
      return node.summary
    }
  }

  private static func mayQuote(_ number: String) -> Bool {
    number.count < Redaction.minimumEchoLength
  }

  private static func fixForWrongType(expected type: Any.Type, found: JSONNode?, key: String?)
    -> String
  {
    let name = key.map { "\"\($0)\": " } ?? ""
    switch (type, found?.value) {
    case (is Int.Type, .string(let text)?) where Int(text) != nil,
      (is Double.Type, .string(let text)?) where Double(text) != nil:
      return "Write the number without quotes, for example \(name)\(text)."
    case (is String.Type, .number(let text)?):
      return
        "Put the value in double quotes, for example \(name)\"\(mayQuote(text) ? text : "…")\"."
    default:
      return "Write \(describe(type)) here, for example \(example(for: key, type))."
    }
  }

  /// A valid member to show in a fix.
  private static func example(for key: String?, _ type: Any.Type?) -> String {
    let known: [String: String] = [
      "log": "{\"version\": \"1.2\", \"entries\": []}",
      "entries": "[]", "request": "{\"method\": \"GET\", \"url\": \"https://example.com/\"}",
      "response": "{\"status\": 200}", "method": "\"GET\"", "url": "\"https://example.com/\"",
      "status": "200", "startedDateTime": "\"2024-05-01T12:00:00.000Z\"", "id": "\"page_1\"",
    ]
    let value: String
    switch (key.flatMap { known[$0] }, type) {
    case (let known?, _): value = known
    case (nil, is Int.Type), (nil, is Double.Type): value = "0"
    case (nil, is Bool.Type): value = "false"
    case (nil, let type?) where describe(type) == "an array": value = "[]"
    case (nil, let type?) where describe(type) == "an object": value = "{}"
    default: value = "\"\""
    }
    return key.map { "\"\($0)\": \(value)" } ?? value
  }

  private static func conflictMarkerOffset(in bytes: [UInt8]) -> Int? {
    let marker = Array("<<<<<<< ".utf8)
    if bytes.starts(with: marker) { return 0 }
    var index = 0
    while let newline = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) {
      if bytes[(newline + 1)...].starts(with: marker) { return newline + 1 }
      index = newline + 1
    }
    return nil
  }

  /// The offset in Foundation's "around character 19." messages.
  private static func characterOffset(in message: String) -> Int? {
    guard let range = message.range(of: "around character ") else { return nil }
    return Int(message[range.upperBound...].prefix { $0.isNumber })
  }
}

extension [JSONPathComponent] {
  /// The name of the last member on the path, for examples in fixes.
  fileprivate var lastKey: String? {
    for component in reversed() {
      if case .key(let key) = component { return key }
    }
    return nil
  }
}

extension String {
  var lowercasingFirst: String { prefix(1).lowercased() + dropFirst() }

  /// The sentence without its full stop, for a clause that another sentence continues.
  fileprivate var withoutFinalPeriod: String { hasSuffix(".") ? String(dropLast()) : self }
}
