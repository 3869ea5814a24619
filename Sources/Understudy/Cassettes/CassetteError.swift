/// Why a cassette could not be read or written, with where and how to fix it.
///
/// The ``description`` is meant to be printed as is: it starts with `file:line:column:` (so
/// editors and CI logs link to the spot), then the JSON path of the member, what is wrong, and
/// what to do about it:
///
/// ```
/// Fixtures/users.har:23:21: log.entries[0].response.status: expected a whole number but found
/// the string "200". Write the number without quotes, for example "status": 200.
/// ```
public struct CassetteError: Error, CustomStringConvertible, Sendable, Hashable {
  /// The kinds of problem, for code that reacts to some of them (such as recording a cassette
  /// that is missing).
  #if hasAttribute(nonexhaustive)
    @nonexhaustive
  #endif
  public enum Kind: Sendable, Hashable, CaseIterable {
    /// No file at the path.
    case fileMissing
    /// The file exists but could not be read (permissions, a directory).
    case unreadable
    /// The file has no content.
    case empty
    /// The file is not JSON, or the JSON is cut short, has a syntax error or names a member twice
    /// in one object.
    case malformedJSON
    /// The file is JSON but not a HAR archive (no top-level `log` object).
    case notHAR
    /// A member has the wrong JSON type, such as a status written as a string.
    case wrongType
    /// A member the format requires is missing.
    case missingMember
    /// A member has the right type but a value that means nothing, such as a date that is not
    /// a date.
    case invalidValue
    /// A body marked as base64 does not decode.
    case invalidBase64
    /// A body uses an `encoding` other than base64.
    case unsupportedEncoding
    /// The cassette could not be written.
    case writeFailed
  }

  /// What went wrong.
  public var kind: Kind
  /// The cassette's path, or the source name given to ``HAR/decode(_:source:)``.
  package var file: String?
  /// Where in the document, such as `log.entries[3].response.status`.
  package var jsonPath: String?
  /// The 1-based line of the problem in the file.
  package var line: Int?
  /// The 1-based column of the problem, counted in characters.
  package var column: Int?
  /// What is wrong, as a clause starting in lower case (it follows the location).
  package var problem: String
  /// What to do about it, as one or more sentences.
  package var fix: String

  /// Creates an error.
  package init(
    kind: Kind, file: String? = nil, jsonPath: String? = nil, line: Int? = nil,
    column: Int? = nil, problem: String, fix: String
  ) {
    self.kind = kind
    self.file = file
    self.jsonPath = jsonPath
    self.line = line
    self.column = column
    self.problem = problem
    self.fix = fix
  }

  /// `file:line:column: json.path: problem. Fix.`, leaving out the parts that are unknown.
  ///
  /// Masked as reports are: a problem may quote the file, and test runners print a thrown
  /// error whole.
  public var description: String {
    var location: [String] = []
    if let file {
      location.append(
        [file, line.map(String.init), column.map(String.init)].compactMap { $0 }
          .joined(separator: ":"))
    }
    if let jsonPath { location.append(jsonPath) }
    let sentence = location.isEmpty ? problem.prefix(1).uppercased() + problem.dropFirst() : problem
    return LogRedaction.mask((location + [sentence]).joined(separator: ": ") + ". " + fix)
  }
}
