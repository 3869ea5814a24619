import Understudy

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the commands write: results to standard output, problems to standard error.
///
/// Every line is masked as the library's reports are (`Authorization: Bearer ••••(42 chars)`):
/// the tool reads other tools' exports, whose credentials must not reach a terminal or CI log.
enum Console {
  /// Writes a line of results.
  static func print(_ text: String) {
    Swift.print(LogRedaction.mask(text))
  }

  /// Writes a line to standard error, after whatever results are still buffered so the two
  /// streams read in order in a terminal.
  static func error(_ text: String) {
    fflush(nil)
    FileHandle.standardError.write(Data((LogRedaction.mask(text) + "\n").utf8))
  }
}

/// A problem in a cassette, printed the way compilers print theirs so editors and CI logs link
/// to it: `file:line:column: error: json.path: problem. Fix.`
///
/// The location, path, problem and fix are the library's ``CassetteError`` members, so the
/// tool and the library describe a malformed file in the same words.
struct Diagnostic {
  enum Severity: String {
    /// The file cannot be replayed as it is.
    case error
    /// The file loads, but something in it is inconsistent.
    case warning
    /// Worth knowing; nothing to fix.
    case info
  }

  var error: CassetteError
  var severity: Severity

  init(_ error: CassetteError, severity: Severity) {
    self.error = error
    self.severity = severity
  }

  var rendered: String {
    var parts: [String] = []
    if let file = error.file {
      parts.append(
        ([file] + [error.line, error.column].compactMap { $0.map(String.init) })
          .joined(separator: ":"))
    }
    parts.append(severity.rawValue)
    if let jsonPath = error.jsonPath { parts.append(jsonPath) }
    parts.append(error.problem)
    return parts.joined(separator: ": ") + ". " + error.fix
  }
}

/// `1 error`, `2 errors`, `3 entries`.
func plural(_ count: Int, _ noun: String) -> String {
  guard count != 1 else { return "1 \(noun)" }
  if noun.hasSuffix("y"), let before = noun.dropLast().last, !"aeiou".contains(before) {
    return "\(count) \(noun.dropLast())ies"
  }
  return "\(count) \(noun)s"
}

extension String {
  /// The text with its first letter capitalised and a full stop at the end, unless it has one.
  var asSentence: String {
    let text = prefix(1).uppercased() + dropFirst()
    return text.hasSuffix(".") ? text : text + "."
  }

  func trimmingTrailingSpaces() -> String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
