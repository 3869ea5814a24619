import Understudy

/// Reading and writing cassettes for the commands, through the library's loader and atomic
/// writer so errors read exactly as they do in a test.
enum CassetteFile {
  /// The archive at `path`.
  ///
  /// - Throws: The library's error, rendered, with exit code 3 when the file is missing or
  ///   unreadable and 1 when it is malformed.
  static func load(_ path: String) throws(CLIError) -> HAR {
    try loadWithBytes(path).har
  }

  /// The archive at `path` and the bytes it was read from, read once, for a command that also
  /// reads what the model does not keep. Errors as ``load(_:)``.
  static func loadWithBytes(_ path: String) throws(CLIError) -> (har: HAR, bytes: Data) {
    let url = URL(fileURLWithPath: path)
    do {
      let bytes = try HAR.contents(of: url)
      return (try HAR.decode(bytes, source: url.path), bytes)
    } catch {
      throw CLIError(asTyped(error, url: url, path: path))
    }
  }

  /// The error naming the file as the user typed it rather than as an absolute path.
  static func asTyped(_ error: CassetteError, url: URL, path: String) -> CassetteError {
    var error = error
    if error.file == url.path { error.file = path }
    return error
  }

  /// Writes `har` to `path` atomically: a reader sees the old file or the new one, never a mix.
  static func write(_ har: HAR, to path: String) throws(CLIError) {
    let url = URL(fileURLWithPath: path)
    do {
      try har.write(to: url)
    } catch {
      throw CLIError(asTyped(error, url: url, path: path))
    }
  }

  /// Whether `a` and `b` name the same file, following symbolic links and `..`.
  static func isSameFile(_ a: String, _ b: String) -> Bool {
    func canonical(_ path: String) -> String {
      URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
    return canonical(a) == canonical(b)
  }
}
