/// Where a stubbed response's body comes from.
///
/// Bytes in memory are delivered in one piece. A file is read when the request arrives, and
/// streamed in chunks to tasks that can observe chunks, so a large fixture never has to fit in
/// memory for them.
public struct ResponseBody: Sendable, Hashable {
  enum Storage: Sendable, Hashable {
    case data(Data)
    case file(URL)
    /// A fixture that could not be found when the stub was declared; serving it fails the request
    /// with this message rather than sending an empty body.
    case unavailable(String)
  }

  let storage: Storage
  /// How a file's `{{…}}` placeholders are filled in from each request; `nil` for bodies served
  /// as they are.
  var template: FixtureTemplate.Syntax? = nil

  /// No body.
  public static var empty: ResponseBody { ResponseBody(storage: .data(Data())) }

  /// The given bytes.
  public static func data(_ data: Data) -> ResponseBody { ResponseBody(storage: .data(data)) }

  /// The given text, encoded as UTF-8.
  public static func text(_ text: String) -> ResponseBody { .data(Data(text.utf8)) }

  /// The contents of the file at `url`, read when a request is answered.
  public static func file(_ url: URL) -> ResponseBody { ResponseBody(storage: .file(url)) }

  /// Why the body cannot be served, or `nil` when it can.
  ///
  /// A file is checked now, so a fixture deleted after the stub was declared is still caught.
  package var problem: String? {
    switch storage {
    case .data: return nil
    case .unavailable(let message): return message
    case .file(let url):
      // Following links, as opening the file would; a FIFO or a device would block the read,
      // or never end it, so only regular files are served.
      let type =
        try? FileManager.default.attributesOfItem(atPath: url.resolvingSymlinksInPath().path)[
          .type] as? FileAttributeType
      guard let type else { return "fixture file not found at \(url.path)" }
      if type == .typeDirectory { return "fixture path \(url.path) is a directory, not a file" }
      guard type == .typeRegular else {
        return "fixture path \(url.path) is not a regular file (it is a \(Self.kind(type))); "
          + "serve a regular file, or read what you need into memory and use .data(_:)"
      }
      guard FileManager.default.isReadableFile(atPath: url.path) else {
        return "fixture file at \(url.path) is not readable (check its permissions)"
      }
      guard let template else { return nil }
      // Parsing now puts an unknown placeholder at the stub's line, before any request.
      do {
        _ = try FixtureTemplate(contentsOf: url, syntax: template)
        return nil
      } catch {
        return error.description
      }
    }
  }

  /// Why a fixture file that passed its checks could not be opened when a request came for it
  /// (deleted or made unreadable since), as the request's error or the server's 500 says it.
  static func cannotOpen(_ url: URL, because error: any Error) -> String {
    let reason = FileErrorReason.of(error, besides: url.path)
    return "Understudy: cannot open fixture file \(url.path) (\(reason))"
  }

  private static func kind(_ type: FileAttributeType) -> String {
    switch type {
    case .typeCharacterSpecial: return "character device"
    case .typeBlockSpecial: return "block device"
    case .typeSocket: return "socket"
    case .typeSymbolicLink: return "symbolic link"
    default: return "named pipe (FIFO) or other special file"
    }
  }

  /// The bytes when they are in memory; `nil` for files.
  var inlineData: Data? {
    if case .data(let data) = storage { return data }
    return nil
  }
}
