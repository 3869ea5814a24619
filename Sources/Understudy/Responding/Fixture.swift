extension StubResponse {
  /// A body read from a fixture file beside the calling test file.
  ///
  /// `path` is relative to the folder of the file that calls this (found through `#filePath`), so
  /// `.fixture("Fixtures/user.json")` in `Tests/AppTests/UserTests.swift` reads
  /// `Tests/AppTests/Fixtures/user.json`. The Content-Type is guessed from the extension unless
  /// `headers` sets one. The file is read when a request is answered, and streamed to
  /// delegate-based tasks, so large fixtures stay out of memory.
  ///
  /// A missing file is reported where the stub is declared, and requests it would answer fail
  /// with an error naming the path it looked in.
  public static func fixture(
    _ path: String, status: Int = 200, headers: HTTPHeaders = [:], filePath: String = #filePath
  ) -> StubResponse {
    let folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
    return fixture(at: folder.appendingPathComponent(path), status: status, headers: headers)
  }

  /// A body read from the file at `url`, for example a bundle resource:
  /// `.fixture(at: Bundle.module.url(forResource: "user", withExtension: "json")!)`.
  public static func fixture(at url: URL, status: Int = 200, headers: HTTPHeaders = [:])
    -> StubResponse
  {
    let contentType = MediaType.guess(forPathExtension: url.pathExtension)
    return StubResponse(
      status: status, headers: headers.withDefault("Content-Type", contentType),
      body: .file(url.standardizedFileURL))
  }
}

enum MediaType {
  static func guess(forPathExtension pathExtension: String) -> String {
    switch pathExtension.lowercased() {
    case "json", "har": return "application/json"
    case "txt": return "text/plain; charset=utf-8"
    case "html", "htm": return "text/html; charset=utf-8"
    case "xml": return "application/xml"
    case "csv": return "text/csv"
    case "png": return "image/png"
    case "jpg", "jpeg": return "image/jpeg"
    case "gif": return "image/gif"
    case "svg": return "image/svg+xml"
    case "pdf": return "application/pdf"
    case "js": return "application/javascript"
    case "css": return "text/css"
    default: return "application/octet-stream"
    }
  }
}
