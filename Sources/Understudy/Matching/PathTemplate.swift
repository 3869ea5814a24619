/// A URL path with named placeholders, such as `/users/{id}` or `/files/{path...}`, parsed once
/// and matched against request paths.
///
/// - `{name}` captures one non-empty segment.
/// - `{name...}` captures the non-empty rest of the path, slashes included; it must be the last
///   segment.
/// - Every other segment is literal. A placeholder fills a whole segment: `/{name}.json` is an
///   error (use ``RequestPattern/path(matching:)`` for that).
/// - A trailing slash is significant: `/users/{id}` does not match `/users/7/`.
///
/// Literals may be written decoded or percent-encoded (`/a b` and `/a%20b` are the same);
/// captured values are percent-decoded.
///
/// ```swift
/// let template = try PathTemplate("/users/{id}/posts")
/// template.match("/users/a%20b/posts")  // ["id": "a b"]
/// ```
package struct PathTemplate: Sendable, Hashable, CustomStringConvertible {
  /// Why a template cannot be used, as a sentence naming the template and the fix.
  package struct Invalid: Error, Sendable, Hashable, CustomStringConvertible {
    /// The sentence.
    package let description: String
  }

  enum Segment: Sendable, Hashable {
    case literal(String)
    case parameter(String)
    case remainder(String)
  }

  /// The template as written.
  package let template: String
  /// The decoded literal text before the first placeholder, such as `/users/` for
  /// `/users/{id}`; the whole decoded path when there is no placeholder, which is the path a
  /// literal template pins.
  package let literalPrefix: String
  /// The placeholder names, in order.
  package let parameterNames: [String]
  let segments: [Segment]

  /// Whether the template has no placeholders and so names one exact path.
  package var isLiteral: Bool { parameterNames.isEmpty }

  /// The template as written.
  package var description: String { template }

  /// Parses `template`, throwing when it does not start with `/`, has unbalanced braces, an empty,
  /// invalid or repeated placeholder name, or a `{name...}` before the last segment.
  package init(_ template: String) throws(Invalid) {
    func fail(_ reason: String) -> Invalid {
      Invalid(description: "Path template \(template.quoted()) \(reason).")
    }
    guard template.utf8.first == UInt8(ascii: "/") else {
      throw fail("must start with \"/\"; write \"/\(template)\"")
    }
    // Split on the "/" byte, as request paths are: a slash followed by a combining mark is one
    // Character, so splitting Characters would see a different segment count than the path has.
    let parts = template.utf8.dropFirst().split(
      separator: UInt8(ascii: "/"), omittingEmptySubsequences: false
    ).map { Substring($0) }
    var segments: [Segment] = []
    var names: [String] = []
    for (index, part) in parts.enumerated() {
      // Scalars, not Characters: a `{` followed by a combining mark is one Character that is
      // no `{`, and the segment read as literal text instead of an unbalanced brace.
      guard part.utf8.contains(UInt8(ascii: "{")) || part.utf8.contains(UInt8(ascii: "}")) else {
        segments.append(.literal(Self.decoded(part)))
        continue
      }
      let segment = try Self.placeholder(part, fail: fail)
      let name: String
      switch segment {
      case .parameter(let parameter): name = parameter
      case .remainder(let rest):
        name = rest
        if index != parts.count - 1 {
          throw fail(
            "has \"\(part)\" before the last segment; a {name...} placeholder must end the "
              + "template, or use .path(matching:) for other shapes")
        }
      case .literal: continue
      }
      if names.contains(name) {
        throw fail(
          "uses the placeholder name \"\(name)\" twice; give each placeholder its own name")
      }
      names.append(name)
      segments.append(segment)
    }
    self.template = template
    self.segments = segments
    self.parameterNames = names
    self.literalPrefix = Self.literalPrefix(of: segments)
  }

  /// The captured values when `path` fits the template, or `nil`.
  ///
  /// - Parameter path: The path as it appears in the URL, percent-encoded, so that an encoded
  ///   slash stays inside its segment; an empty path counts as `/`.
  package func match(_ path: String) -> [String: String]? {
    let path = path.isEmpty ? "/" : path
    guard path.utf8.first == UInt8(ascii: "/") else { return nil }
    // Most templates tried do not fit; checking the shape first means those allocate nothing.
    guard fits(path) else { return nil }
    var captures = [String: String]()
    var parts = PathParts(path)
    for segment in segments {
      guard let (part, rest) = parts.next() else { break }
      switch segment {
      case .literal:
        continue
      case .parameter(let name):
        captures[name] = Self.decoded(part)
      case .remainder(let name):
        captures[name] = Self.decoded(rest)
        return captures
      }
    }
    return captures
  }

  /// Whether `path` has the template's shape: every literal in place, every placeholder filled.
  private func fits(_ path: String) -> Bool {
    var parts = PathParts(path)
    for segment in segments {
      guard let (part, rest) = parts.next() else { return false }
      switch segment {
      case .literal(let text):
        guard part == text || (part.utf8.contains(UInt8(ascii: "%")) && Self.decoded(part) == text)
        else { return false }
      case .parameter:
        guard !part.isEmpty else { return false }
      case .remainder:
        return !rest.isEmpty
      }
    }
    return parts.isAtEnd
  }

  /// The segments of a path, walked in place: splitting it into an array would cost an
  /// allocation per template tried.
  private struct PathParts {
    private var remaining: Substring?

    init(_ path: String) {
      remaining = Substring(path.utf8.dropFirst())
    }

    var isAtEnd: Bool { remaining == nil }

    /// The next segment, and the rest of the path from that segment on.
    mutating func next() -> (part: Substring, rest: Substring)? {
      guard let rest = remaining else { return nil }
      if let slash = rest.utf8.firstIndex(of: UInt8(ascii: "/")) {
        remaining = rest[rest.utf8.index(after: slash)...]
        return (rest[..<slash], rest)
      }
      remaining = nil
      return (rest, rest)
    }
  }

  /// Percent-decodes `text`, keeping it as written when it is not valid percent-encoding (a
  /// literal `100%`, say).
  static func decoded(_ text: Substring) -> String {
    // utf8.contains: `contains("%")` resolves to Foundation's substring search, far slower, and
    // this runs for every segment of every template tried.
    guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
    return text.removingPercentEncoding ?? String(text)
  }

  /// Reads a segment that holds braces: exactly one placeholder filling the whole segment.
  private static func placeholder(_ part: Substring, fail: (String) -> Invalid) throws(Invalid)
    -> Segment
  {
    var depth = 0
    var placeholders = 0
    for scalar in part.unicodeScalars {
      switch scalar {
      case "{" where depth == 0:
        depth = 1
        placeholders += 1
      case "{":
        throw fail("has a \"{\" inside a placeholder in \"\(part)\"; close each placeholder first")
      case "}" where depth == 0:
        throw fail("has an unbalanced \"}\" in \"\(part)\"; open each placeholder, as in \"{id}\"")
      case "}": depth = 0
      default: break
      }
    }
    if depth != 0 {
      throw fail("has an unbalanced \"{\" in \"\(part)\"; close each placeholder, as in \"{id}\"")
    }
    guard placeholders == 1, part.unicodeScalars.first == "{", part.unicodeScalars.last == "}"
    else {
      throw fail(
        "puts a placeholder inside the segment \"\(part)\"; a placeholder must fill a whole "
          + "segment between slashes, or use .path(matching:) for finer patterns")
    }
    let inner = Substring(part.unicodeScalars.dropFirst().dropLast())
    let isRemainder = inner.hasSuffix("...")
    let name = isRemainder ? inner.dropLast(3) : inner
    guard !name.isEmpty else {
      throw fail("has a placeholder without a name in \"\(part)\"; name it, as in \"{id}\"")
    }
    guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") })
    else {
      throw fail(
        "has the invalid placeholder name \"\(name)\"; use ASCII letters, digits, \"_\" and \"-\"")
    }
    return isRemainder ? .remainder(String(name)) : .parameter(String(name))
  }

  private static func literalPrefix(of segments: [Segment]) -> String {
    var prefix = "/"
    for (index, segment) in segments.enumerated() {
      guard case .literal(let text) = segment else { return prefix }
      prefix += index == segments.count - 1 ? text : text + "/"
    }
    return prefix
  }
}
