/// A fixture file whose `{{…}}` placeholders are filled in from the request it answers, as
/// WireMock's response templating does: `.fixture("Fixtures/user.json", templated: true)`.
///
/// Placeholders: `request.path.NAME` (a value the stub's path template captured),
/// `request.query.NAME`, `request.headers.NAME`, `request.json.a.b.0.c` (a value in the request's
/// JSON body), `request.method`, `request.path`, `request.url`, `now` (ISO 8601, UTC, to the
/// second) and `counter` (1 for the stub's first request, then 2, 3…).
///
/// In a JSON fixture, a value lands as JSON: inside a string it is escaped for a JSON string
/// (quotes, backslashes, control characters), and outside one it is written as a number, `true`,
/// `false` or `null` when it is one and as a quoted, escaped string otherwise, so the rendered
/// body is always valid JSON if the template is. Other fixtures take values as they are.
struct FixtureTemplate: Sendable {
  /// How values are written into the file: escaped for JSON, or as they are.
  enum Syntax: Sendable, Hashable {
    case json
    case text

    /// JSON when the response's Content-Type says so.
    init(contentType: String?) {
      self = contentType?.lowercased().contains("json") == true ? .json : .text
    }
  }

  /// A placeholder and where it sits.
  struct Placeholder: Sendable {
    enum Source: Sendable {
      case pathParameter(String)
      case query(String)
      case header(String)
      case json([String])
      case method
      case path
      case url
      case now
      case counter
    }

    let source: Source
    let text: String
    /// Its byte range in the file, braces included.
    let range: Range<Int>
    let line: Int
    let column: Int
    /// Whether it sits inside a JSON string literal.
    let insideString: Bool
  }

  /// The largest template read: templates are read whole and rendered for every request.
  static let maximumSize = 8 << 20

  let url: URL
  let bytes: [UInt8]
  let placeholders: [Placeholder]
  let isJSON: Bool

  /// Reads and parses the template at `url`.
  ///
  /// - Throws: A ``FixtureTemplateError`` naming the file, line and column of the first
  ///   placeholder that is unknown or unclosed, or saying why the file cannot be read.
  init(contentsOf url: URL, syntax: Syntax) throws(FixtureTemplateError) {
    let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
    guard size <= Self.maximumSize else {
      throw FixtureTemplateError(
        "fixture template \(url.path) is \(size) bytes; templates are read whole for every "
          + "request, so keep them under \(Self.maximumSize >> 20) MiB, or serve the file "
          + "without templated: true to stream it")
    }
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      let reason = FileErrorReason.of(error, besides: url.path)
      throw FixtureTemplateError("fixture template at \(url.path) could not be read (\(reason))")
    }
    try self.init(bytes: [UInt8](data), url: url, isJSON: syntax == .json)
  }

  init(bytes: [UInt8], url: URL, isJSON: Bool) throws(FixtureTemplateError) {
    self.url = url
    self.bytes = bytes
    self.isJSON = isJSON
    var placeholders: [Placeholder] = []
    var line = 1
    var lineStart = 0
    var inString = false
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x7B, index + 1 < bytes.count, bytes[index + 1] == 0x7B {
        let column = String(decoding: bytes[lineStart..<index], as: UTF8.self).count + 1
        guard let close = Self.closingBraces(bytes, after: index + 2) else {
          throw FixtureTemplateError(
            "\(url.path):\(line):\(column): \"{{\" is not closed by \"}}\" on its line")
        }
        let text = String(decoding: bytes[(index + 2)..<close], as: UTF8.self)
          .trimmingCharacters(in: .whitespaces)
        guard let source = Self.source(text) else {
          throw FixtureTemplateError(
            "\(url.path):\(line):\(column): unknown placeholder {{\(text)}}; use "
              + "request.path.NAME, request.query.NAME, request.headers.NAME, "
              + "request.json.PATH (a.b.0.c), request.method, request.path, request.url, "
              + "now or counter")
        }
        placeholders.append(
          Placeholder(
            source: source, text: text, range: index..<(close + 2), line: line, column: column,
            insideString: isJSON && inString))
        index = close + 2
        continue
      }
      if byte == 0x0A {
        line += 1
        lineStart = index + 1
      } else if isJSON, byte == 0x22 {
        inString.toggle()
      } else if isJSON, inString, byte == 0x5C {
        index += 1
      }
      index += 1
    }
    self.placeholders = placeholders
  }

  /// Where `}}` starts, on the same line; `nil` when it does not come.
  private static func closingBraces(_ bytes: [UInt8], after start: Int) -> Int? {
    var index = start
    while index + 1 < bytes.count, bytes[index] != 0x0A {
      if bytes[index] == 0x7D, bytes[index + 1] == 0x7D { return index }
      index += 1
    }
    return nil
  }

  private static func source(_ text: String) -> Placeholder.Source? {
    switch text {
    case "request.method": return .method
    case "request.path": return .path
    case "request.url": return .url
    case "now": return .now
    case "counter": return .counter
    case "request.json": return .json([])
    default: break
    }
    let families: [(String, (String) -> Placeholder.Source)] = [
      ("request.path.", { .pathParameter($0) }), ("request.query.", { .query($0) }),
      ("request.headers.", { .header($0) }),
    ]
    for (prefix, make) in families where text.hasPrefix(prefix) {
      let name = String(text.dropFirst(prefix.count))
      return name.isEmpty ? nil : make(name)
    }
    if text.hasPrefix("request.json.") {
      let steps = text.dropFirst("request.json.".count).split(
        separator: ".", omittingEmptySubsequences: false)
      return steps.contains(where: \.isEmpty) ? nil : .json(steps.map(String.init))
    }
    return nil
  }

  /// The body for `request`, the stub's `call`-th request (counting from 1).
  ///
  /// - Throws: A ``FixtureTemplateError`` naming the file, line and column of a placeholder the
  ///   request has no value for.
  func render(for request: InterceptedRequest, call: Int, now: Date = Date())
    throws(FixtureTemplateError) -> Data
  {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var position = 0
    var json: JSONValue?
    for placeholder in placeholders {
      output += bytes[position..<placeholder.range.lowerBound]
      position = placeholder.range.upperBound
      let value = try self.value(of: placeholder, request, call: call, now: now, json: &json)
      output += Array(written(value, placeholder).utf8)
    }
    output += bytes[position...]
    return Data(output)
  }

  /// A placeholder's value: text, or a JSON value from the request body.
  private enum Value {
    case text(String)
    case number(Int)
    case json(JSONValue)
  }

  private func value(
    of placeholder: Placeholder, _ request: InterceptedRequest, call: Int, now: Date,
    json: inout JSONValue?
  ) throws(FixtureTemplateError) -> Value {
    func missing(_ why: String) -> FixtureTemplateError {
      FixtureTemplateError(
        "\(url.path):\(placeholder.line):\(placeholder.column): {{\(placeholder.text)}} has no "
          + "value for \(request): \(why)", isInTheFile: false)
    }
    switch placeholder.source {
    case .method: return .text(request.methodName)
    case .path: return .text(request.path)
    case .url: return .text(request.url.absoluteString)
    case .counter: return .number(call)
    case .now:
      // ISO8601DateFormatter's default: 2026-11-25T16:40:00Z.
      return .text(ISO8601DateFormatter().string(from: now))
    case .pathParameter(let name):
      guard let value = request.pathParameters[name] else {
        let names = request.pathParameters.keys.sorted().joined(separator: ", ")
        throw missing(
          "the stub's path template captures no {\(name)}"
            + (names.isEmpty ? "" : " (it captures \(names))"))
      }
      return .text(value)
    case .query(let name):
      guard let item = request.queryItems.first(where: { $0.name == name }) else {
        throw missing("the URL has no query item \(name)")
      }
      return .text(item.value ?? "")
    case .header(let name):
      guard let value = request.headers[name] else {
        throw missing("the request has no header \(name)")
      }
      return .text(value)
    case .json(let steps):
      if json == nil {
        guard let body = request.body, !body.isEmpty else { throw missing("it has no body") }
        do {
          json = try JSONValue(parsing: body)
        } catch {
          throw missing("its body is not JSON")
        }
      }
      var current = json ?? .null
      var path = "$"
      for step in steps {
        switch current {
        case .object(let members):
          guard let next = members[step] else {
            throw missing("the JSON body has no member \(step.quoted(limit: 40)) at \(path)")
          }
          current = next
          path += "." + step
        case .array(let elements):
          guard let index = Int(step), elements.indices.contains(index) else {
            throw missing(
              "the JSON body's array at \(path) has \(elements.count) elements; "
                + "\(step.quoted(limit: 40)) is not one of their indices")
          }
          current = elements[index]
          path += "[\(index)]"
        default:
          throw missing("the JSON body has \(current.description.clipped(to: 40)) at \(path)")
        }
      }
      return .json(current)
    }
  }

  /// `value` as it lands at `placeholder`: see the type's description.
  private func written(_ value: Value, _ placeholder: Placeholder) -> String {
    switch value {
    case .number(let number):
      return String(number)
    case .text(let text):
      guard isJSON else { return text }
      if placeholder.insideString { return Self.escaped(text) }
      // A number or literal stays as written, so a long integer keeps every digit.
      if let literal = try? JSONValue(parsing: text), literal.isScalar { return text }
      return JSONValue.quoted(text)
    case .json(.string(let text)):
      guard isJSON else { return text }
      return placeholder.insideString ? Self.escaped(text) : JSONValue.quoted(text)
    case .json(let json):
      return isJSON && placeholder.insideString ? Self.escaped(json.description) : json.description
    }
  }

  /// `text` escaped for the inside of a JSON string.
  private static func escaped(_ text: String) -> String {
    String(JSONValue.quoted(text).dropFirst().dropLast())
  }
}

extension JSONValue {
  /// Whether the value is a number, a Boolean or null: one that stands outside a string as is.
  fileprivate var isScalar: Bool {
    switch self {
    case .null, .bool, .number: return true
    case .string, .array, .object: return false
    }
  }
}

/// Why a templated fixture cannot be used: a placeholder that is unknown, unclosed or has no
/// value for the request, named by file, line and column, or a file too large to template.
struct FixtureTemplateError: Error, Sendable, CustomStringConvertible {
  let description: String
  /// Whether the file itself is at fault, which a stub's declaration already reports; `false`
  /// for a value this one request lacks.
  let isInTheFile: Bool

  init(_ description: String, isInTheFile: Bool = true) {
    self.description = description
    self.isInTheFile = isInTheFile
  }
}

extension StubResponse {
  /// Whether the body is a templated fixture, which is rendered for each request off
  /// URLSession's work queue.
  var isTemplated: Bool { body?.template != nil }

  /// The response with its template rendered for `request`, the stub's `call`-th (from 1); a
  /// template that cannot be rendered gives a body that fails the request with the reason.
  func rendered(for request: InterceptedRequest, call: Int) -> (
    response: StubResponse, error: FixtureTemplateError?
  ) {
    guard case .http(let status, let headers, let body) = outcome, let syntax = body.template,
      case .file(let url) = body.storage
    else { return (self, nil) }
    var copy = self
    do {
      let template = try FixtureTemplate(contentsOf: url, syntax: syntax)
      let data = try template.render(for: request, call: call)
      copy.outcome = .http(status: status, headers: headers, body: .data(data))
      return (copy, nil)
    } catch {
      copy.outcome = .http(
        status: status, headers: headers,
        body: ResponseBody(storage: .unavailable(error.description)))
      return (copy, error)
    }
  }
}
