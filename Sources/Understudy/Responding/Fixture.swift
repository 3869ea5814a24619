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
  ///
  /// With `templated: true`, `{{…}}` placeholders in the file are filled in from each request
  /// (see <doc:Responses>): `{{request.path.id}}`, `{{request.query.page}}`,
  /// `{{request.json.user.name}}`, `{{request.headers.X-Trace}}`, `{{now}}`, `{{counter}}`. The
  /// file is then read whole for every request (up to 8 MiB), off URLSession's work queue, and
  /// an unknown placeholder is reported where the stub is declared, naming the file, line and
  /// column.
  ///
  /// The path must stay inside the package: an absolute path, or one whose `..` components lead
  /// out of the folder holding the test target's `Package.swift` (the nearest one above the test
  /// file), is refused the same way, so a test never depends on a file that other checkouts do
  /// not have. `../Fixtures/user.json` is fine; `../../../../etc/passwd` is not. The check is on
  /// the path as written; symbolic links inside the package are followed. Use
  /// ``fixture(at:status:headers:)`` for a file elsewhere on purpose.
  public static func fixture(
    _ path: String, status: Int = 200, headers: HTTPHeaders = [:], templated: Bool = false,
    filePath: String = #filePath
  ) -> StubResponse {
    let folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
    let url = folder.appendingPathComponent(path)
    guard let refusal = FixturePath.refusal(of: path, resolvedTo: url, from: folder) else {
      return fixture(at: url, status: status, headers: headers, templated: templated)
    }
    let contentType = MediaType.guess(forPathExtension: url.pathExtension)
    return StubResponse(
      status: status, headers: headers.withDefault("Content-Type", contentType),
      body: ResponseBody(storage: .unavailable(refusal)))
  }

  /// A body read from the file at `url`, for example a bundle resource:
  /// `.fixture(at: Bundle.module.url(forResource: "user", withExtension: "json")!)`.
  ///
  /// With `templated: true`, `{{…}}` placeholders are filled in from each request, as
  /// ``fixture(_:status:headers:templated:filePath:)`` describes.
  public static func fixture(
    at url: URL, status: Int = 200, headers: HTTPHeaders = [:], templated: Bool = false
  ) -> StubResponse {
    let headers = headers.withDefault(
      "Content-Type", MediaType.guess(forPathExtension: url.pathExtension))
    let syntax = templated ? FixtureTemplate.Syntax(contentType: headers["Content-Type"]) : nil
    return StubResponse(
      status: status, headers: headers,
      body: ResponseBody(storage: .file(url.standardizedFileURL), template: syntax))
  }
}

/// The rule that keeps `.fixture(_:)` paths inside the package.
enum FixturePath {
  /// Why `path` may not be used, or `nil` when it may.
  static func refusal(of path: String, resolvedTo url: URL, from folder: URL) -> String? {
    if path.hasPrefix("/") {
      return "fixture path \(path) is absolute; .fixture(_:) takes a path relative to the test "
        + "file's folder \(folder.path), so use .fixture(at:) for a file elsewhere"
    }
    guard let package = packageRoot(above: folder) else { return nil }
    let resolved = normalized(url.path)
    guard resolved != package, !resolved.hasPrefix(package + "/") else { return nil }
    return "fixture path \(path) leads to \(resolved), outside the package at \(package); keep "
      + "fixtures inside the package so every checkout has them, or use .fixture(at:) for a "
      + "file elsewhere"
  }

  /// The nearest folder at or above `folder` that holds a `Package.swift`.
  private static func packageRoot(above folder: URL) -> String? {
    var candidate = normalized(folder.path)
    while true {
      if FileManager.default.fileExists(atPath: candidate + "/Package.swift") { return candidate }
      guard candidate != "/" else { return nil }
      candidate = normalized(candidate + "/..")
    }
  }

  /// `path` with `.` and `..` components resolved as text, without touching the file system.
  private static func normalized(_ path: String) -> String {
    var components: [Substring] = []
    for component in path.split(separator: "/") {
      switch component {
      case ".": continue
      case "..": _ = components.popLast()
      default: components.append(component)
      }
    }
    return "/" + components.joined(separator: "/")
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
