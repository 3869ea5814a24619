/// A cassette a test scope binds to each test (the `.cassette` trait, or XCTest's
/// `withCassette`): everything but the test it belongs to.
struct CassetteSpec: Sendable {
  var name: String?
  var mode: RecordMode
  var location: CassetteLocation
  var options: CassetteOptions

  /// The cassette for one test: named `name`, or `defaultName` (from the test) when unset;
  /// failures are reported at `location`.
  func makeCassette(defaultName: String, recordCommand: String, location source: SourceLocation)
    -> Cassette
  {
    // Before the file is named, so a value this cassette declares is kept out of its file name.
    KnownValues.declare(options.redaction.knownValues)
    return Cassette(
      at: location.url(forCassetteNamed: name ?? defaultName, testFilePath: source.filePath),
      mode: mode, options: options, recordCommand: recordCommand, fileID: source.fileID,
      filePath: source.filePath, line: source.line, column: source.column)
  }
}
