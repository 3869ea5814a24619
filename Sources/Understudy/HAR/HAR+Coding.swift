extension HAR {
  /// The cassette as bytes: pretty-printed JSON with sorted keys, unescaped slashes, dates in
  /// UTC to the millisecond, and a trailing newline.
  ///
  /// The same model always gives the same bytes, so re-recording an unchanged exchange leaves
  /// the file untouched and a changed one shows as a readable diff. Array order (entries,
  /// headers) is kept as in the model; sort headers with `sortedByName()` first
  /// when their order should not matter.
  ///
  /// - Throws: ``CassetteError`` naming the JSON path of a number that is NaN or infinite, which
  ///   JSON cannot hold, or of a date outside the years 0000 to 9999.
  public func encoded() throws(CassetteError) -> Data {
    try HARWriter.encode(self)
  }

  /// An encoder that writes what ``encoded()`` writes, for the scanner, which must also read an
  /// archive a file cannot hold (a number that is not finite).
  static func makeEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  /// Reads a cassette from bytes, naming `source` in any error.
  ///
  /// - Parameters:
  ///   - data: The JSON, optionally starting with a UTF-8 byte order mark.
  ///   - source: What the bytes are, usually the file's path; errors start with it.
  /// - Throws: ``CassetteError`` with the JSON path, and the line and column, of the problem.
  public static func decode(_ data: Data, source: String) throws(CassetteError) -> HAR {
    // Slicing keeps a large cassette from being copied; the bytes are copied into an array only
    // when an error needs positions.
    let json = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data
    guard json.contains(where: { !ASCIIByte.isJSONWhitespace($0) }) else {
      throw CassetteError(
        kind: .empty, file: source,
        problem: data.isEmpty ? "the file is empty" : "the file contains only white space",
        fix: "Delete it and record the cassette again, or restore it from version control.")
    }
    if let har = HARReader.read(json) { return har }
    // The one-pass reader refuses a repeated member; JSONDecoder would keep the first copy and
    // drop the rest (a second `headers`, `entries` or `log`) without a word.
    if let repeated = json.withUnsafeBytes({
      JSONNode.firstRepeatedMember(in: $0.bindMemory(to: UInt8.self))
    }) {
      throw CassetteError.repeatedMember(
        repeated.name, at: repeated.offset, in: json, source: source)
    }
    // What the one-pass reader does not take on (a malformed file, an unusual one) goes to
    // JSONDecoder, the reference, whose errors are turned into located messages.
    do {
      return try JSONDecoder().decode(HARReference<HAR>.self, from: json).value
    } catch {
      throw CassetteError.decoding(error, bytes: [UInt8](json), source: source)
    }
  }

  /// Reads the cassette at `url`.
  ///
  /// - Throws: ``CassetteError``: ``CassetteError/Kind/fileMissing`` naming the path looked in,
  ///   ``CassetteError/Kind/unreadable``, or any problem ``decode(_:source:)`` reports.
  public static func load(contentsOf url: URL) throws(CassetteError) -> HAR {
    try decode(try contents(of: url), source: url.path)
  }

  /// The bytes of the file at `url`, read with the checks and errors of ``load(contentsOf:)``,
  /// for a reader that needs the bytes as well as the model (the command-line scan reads
  /// members the model does not keep).
  package static func contents(of url: URL) throws(CassetteError) -> Data {
    let path = url.path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw missingFileError(at: url)
    }
    if isDirectory.boolValue {
      throw CassetteError(
        kind: .unreadable, file: path, problem: "this is a directory, not a cassette file",
        fix: "Name the .har file inside it.")
    }
    guard FileManager.default.isReadableFile(atPath: path) else {
      throw CassetteError(
        kind: .unreadable, file: path, problem: "the file exists but cannot be read",
        fix: "Give the user running the tests read permission, for example `chmod a+r \(path)`.")
    }
    do {
      // Read, not mapped: the loaded model keeps body texts in these bytes, and a mapped file
      // cut short by another process would crash the reader of a page past its new end.
      return try Data(contentsOf: url)
    } catch {
      throw CassetteError(
        kind: .unreadable, file: path,
        problem: "the file could not be read (\(FileErrorReason.of(error, besides: path)))",
        fix: "Check the file's permissions and that the disk is available.")
    }
  }

  /// Writes the cassette to `url` so that a reader sees either the old file or the new one,
  /// never a mix: the bytes go to a temporary file beside it, which is then renamed over it.
  ///
  /// Intermediate directories are created. A process killed mid-write leaves the previous
  /// cassette intact; a failed write removes its temporary file.
  ///
  /// - Throws: ``CassetteError`` of kind ``CassetteError/Kind/writeFailed`` with the reason.
  public func write(to url: URL) throws(CassetteError) {
    try AtomicFile.replaceContents(of: url, with: try encoded())
  }

  private static func missingFileError(at url: URL) -> CassetteError {
    let directory = url.deletingLastPathComponent()
    var problem = "there is no cassette at this path"
    let siblings = (try? FileManager.default.contentsOfDirectory(atPath: directory.path))
    if siblings == nil {
      problem += " (the directory \(directory.path) does not exist either)"
    } else if let sibling = siblings?.first(where: {
      $0 != url.lastPathComponent && $0.lowercased() == url.lastPathComponent.lowercased()
    }) {
      problem += "; \(sibling) exists beside it, and file names are case-sensitive on Linux"
    }
    return CassetteError(
      kind: .fileMissing, file: url.path, problem: problem,
      fix: "Record the cassette by running the test with recording enabled, "
        + "or correct the path.")
  }
}
