/// Where a test's cassette lives and what it is called.
#if hasAttribute(nonexhaustive)
  @nonexhaustive
#endif
public enum CassetteLocation: Sendable, Hashable {
  /// `__Cassettes__/<TestFile>/<name>.har` in the folder of the test file (found via
  /// `#filePath`), so cassettes sit beside the tests that use them.
  case besideTestFile
  /// This exact file (for example a bundle resource's URL).
  case file(URL)
  /// `<name>.har` in this folder.
  case folder(URL)

  /// The file for a cassette called `name` declared in the file at `testFilePath`.
  public func url(forCassetteNamed name: String, testFilePath: String) -> URL {
    switch self {
    case .file(let url):
      return url
    case .folder(let folder):
      return folder.appendingPathComponent(CassetteName.fileName(name))
    case .besideTestFile:
      let testFile = URL(fileURLWithPath: testFilePath)
      return testFile.deletingLastPathComponent()
        .appendingPathComponent("__Cassettes__")
        .appendingPathComponent(testFile.deletingPathExtension().lastPathComponent)
        .appendingPathComponent(CassetteName.fileName(name))
    }
  }
}

/// Names derived from tests, safe as file names.
enum CassetteName {
  /// The file name of the cassette called `name`: `users` is `users.har`, and a name that already
  /// ends in `.har` (as Replay's archive names do) is taken as is rather than as `users.har.har`.
  static func fileName(_ name: String) -> String {
    // The stem is what the gate reads: a token before `.har` reads as a file's name.
    let hasExtension = name.lowercased().hasSuffix(".har") && name.count > 4
    let stem = hasExtension ? String(name.dropLast(4)) : name
    var safe = sanitized(withoutCredentials(stem))
    // A prefix the mask keeps (`glpat-`) may read as a token again beside what follows it
    // once sanitized: then the whole name is the digest.
    if !LogRedaction.maskedRanges(in: safe, naming: nil).isEmpty {
      safe = "redacted-" + shortDigest(stem)
    }
    return safe + (hasExtension ? String(name.suffix(4)) : ".har")
  }

  /// `name` with nothing a file name may not hold, the one gate every cassette's file name
  /// passes (a name written in a test, a test's own name, a parameterized test's arguments):
  /// each known value replaced by `redacted-` and its name (``withoutKnownValues(_:)``), and
  /// then each credential a log would mask (a token's shape such as `ghp_…`, a value after a
  /// credential's name) by `redacted-` and a digest of it, so two names still name two files.
  static func withoutCredentials(_ name: String) -> String {
    let named = withoutKnownValues(name)
    let masked = LogRedaction.maskedRanges(in: named, naming: nil)
    guard !masked.isEmpty else { return named }
    var result = ""
    var start = named.startIndex
    for range in masked.sorted(by: { $0.lowerBound < $1.lowerBound })
    where range.lowerBound >= start {
      result += named[start..<range.lowerBound]
      result += "redacted-" + shortDigest(String(named[range]))
      start = range.upperBound
    }
    return result + named[start...]
  }

  /// A stable digest of `text` for a file name: FNV-1a's 64 bits in hex.
  static func digest(_ text: String) -> String { String(fnv1a(text), radix: 16) }

  /// FNV-1a folded to 32 bits, 8 hex digits: short enough that a token's prefix the mask
  /// keeps (`glpat-`) and `redacted-` and it are no token's shape again.
  static func shortDigest(_ text: String) -> String {
    let hash = fnv1a(text)
    let short = String(UInt32(truncatingIfNeeded: hash ^ (hash >> 32)), radix: 16)
    return String(repeating: "0", count: 8 - short.count) + short
  }

  /// `name` with each known value (``KnownValues/forLogs``: a credential-named environment
  /// variable's, or one a cassette declared) replaced by `redacted-` and its name:
  /// `.cassette("dl-" + token)` is `dl-redacted-github_token.har`. By name rather than by digest,
  /// so the file keeps its name where the variable holds another value (a CI secret).
  static func withoutKnownValues(_ name: String) -> String {
    let found = KnownValues.forLogs.ranges(in: name)
    guard !found.isEmpty else { return name }
    var bytes = Array(name.utf8)
    for match in found.reversed() {
      bytes.replaceSubrange(match.range, with: Array("redacted-\(match.name)".utf8))
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Letters, digits, `-`, `_` and `.`; everything else becomes `-`, runs collapsed.
  static func sanitized(_ raw: String) -> String {
    var result = ""
    for character in raw {
      if character.isLetter || character.isNumber || "-_.".contains(character) {
        result.append(character)
      } else if result.last != "-" {
        result.append("-")
      }
    }
    let trimmed = result.trimmingCharacters(in: CharacterSet(charactersIn: "-."))
    return trimmed.isEmpty ? "cassette" : String(trimmed.prefix(120))
  }

  /// `loadsUser` for `loadsUser()`, `greets-Ada` for case `"Ada"` of `greets(name:)`, and
  /// `greets-Ada-Lovelace--3f2a91c0` for case `"Ada Lovelace"`.
  ///
  /// Distinct cases must never share a file, so the readable slug stands alone only when it
  /// says exactly what the case was: every character survived sanitising and, with arguments,
  /// no part contains the `-` that separates them. Otherwise a digest of the exact text follows
  /// after `--`, which no plain slug of arguments contains. Names that were exact before keep
  /// their file.
  static func forTest(named name: String, arguments: [String]) -> String {
    let base = name.split(separator: "(").first.map(String.init) ?? name
    let parts = [base] + arguments
    let readable = parts.joined(separator: "-")
    let slug = sanitized(readable)
    let separatorIsAmbiguous = !arguments.isEmpty && parts.contains { $0.contains("-") }
    if slug == readable && !separatorIsAmbiguous { return slug }
    // Length-prefixed, so ["a", "b c"] and ["a b", "c"] digest differently.
    let exact = parts.map { "\($0.utf8.count):\($0)" }.joined()
    let hash = fnv1a(exact)
    let short = String(UInt32(truncatingIfNeeded: hash ^ (hash >> 32)), radix: 16)
    return String(slug.prefix(100)) + "--" + String(repeating: "0", count: 8 - short.count) + short
  }

  /// The cassette beside `url` that the naming rule before digests gave the same test case, when
  /// `url` carries a digest and that file exists: recordings made before the rule changed.
  static func earlierName(of url: URL) -> URL? {
    let name = url.deletingPathExtension().lastPathComponent
    guard let marker = name.range(of: "--", options: .backwards),
      name[marker.upperBound...].count == 8,
      name[marker.upperBound...].allSatisfy(\.isHexDigit)
    else { return nil }
    let earlier = url.deletingLastPathComponent()
      .appendingPathComponent(String(name[..<marker.lowerBound]) + "." + url.pathExtension)
    return FileManager.default.fileExists(atPath: earlier.path) ? earlier : nil
  }

  /// FNV-1a of the UTF-8 bytes: stable across runs, processes and platforms, unlike `Hasher`.
  static func fnv1a(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x100_0000_01b3
    }
    return hash
  }

  /// The shell command that records the cassette of the test with these identifier components.
  static func recordCommand(testNameComponents: [String]) -> String {
    let filter = testNameComponents.map { component in
      component.split(separator: "(").first.map(String.init) ?? component
    }.joined(separator: "/")
    return "\(RecordMode.environmentVariable)=missing swift test --filter '\(filter)'"
  }
}
