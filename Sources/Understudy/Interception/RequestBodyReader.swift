/// Reads a request's body from wherever URLSession put it, once.
enum RequestBodyReader {
  /// Where a request's body is: bytes at hand, or a stream or a file, whose reading may block.
  enum Source {
    case bytes(Data?)
    case stream(InputStream)
    case file(URL)

    /// The bytes; a stream is read to its end, or until `going` says to stop (its request
    /// ended: a stream that never ends would fill the memory).
    func read(while going: () -> Bool) -> Read {
      switch self {
      case .bytes(let data): Read(body: data)
      case .stream(let stream): RequestBodyReader.drain(stream, while: going)
      case .file(let url): RequestBodyReader.read(url)
      }
    }

    /// Whether reading may block: a stream is the test's own code, and may wait for ever.
    var mayBlock: Bool {
      if case .bytes = self { false } else { true }
    }
  }

  /// A body as read: its bytes, and why it could not be read whole, if it could not.
  struct Read {
    var body: Data?
    /// What failed, completing "the body of REQUEST could not be read: …".
    var failure: String?
  }

  /// Where the body of `request` is; on Linux this reads the task's private fields, so it runs
  /// on the task's work queue.
  static func source(of request: URLRequest, task: URLSessionTask?) -> Source {
    if let body = request.httpBody { return .bytes(body) }
    // On Darwin every body arrives as a stream; streams are single-use, so the bytes read once
    // are what the journal, the matchers and the responder all share.
    if let stream = request.httpBodyStream { return .stream(stream) }
    #if canImport(FoundationNetworking)
      // Upload tasks on Linux keep their body out of the request (platform notes, row 2a); the
      // task's private `knownBody` is the only place it can be read.
      if let task = task as? URLSessionUploadTask { return uploadSource(of: task) }
    #endif
    return .bytes(nil)
  }

  /// An upload's body file. One that is gone or unreadable is a failure, not an empty body: a
  /// server would have received nothing, and a stub that matched would answer a request that
  /// was never sent.
  static func read(_ file: URL) -> Read {
    do {
      return Read(body: try Data(contentsOf: file))
    } catch {
      let reason = FileErrorReason.of(error, besides: file.path)
      return Read(body: nil, failure: "its file \(file.path) could not be read (\(reason))")
    }
  }

  static func drain(_ stream: InputStream, while going: () -> Bool) -> Read {
    var data = Data()
    stream.open()
    defer { stream.close() }
    let capacity = 64 * 1024
    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    defer { buffer.deallocate() }
    while going() {
      let count = stream.read(buffer, maxLength: capacity)
      if count < 0 {
        let error = stream.streamError.map { "\($0)" } ?? "a read returned \(count)"
        return Read(body: data, failure: "its stream failed after \(data.count) bytes (\(error))")
      }
      if count == 0 { break }
      data.append(buffer, count: count)
    }
    return Read(body: data)
  }

  #if canImport(FoundationNetworking)
    private static func uploadSource(of task: URLSessionTask) -> Source {
      guard
        let known = PrivateField.value(named: "knownBody", in: task).flatMap(PrivateField.unwrap),
        let (label, payload) = PrivateField.enumCase(of: known)
      else { return .bytes(nil) }
      switch label {
      case "data":
        if let data = payload as? DispatchData { return .bytes(Data(data)) }
        return .bytes(payload as? Data)
      case "file":
        return (payload as? URL).map(Source.file) ?? .bytes(nil)
      case "stream":
        return (payload as? InputStream).map(Source.stream) ?? .bytes(nil)
      default:
        return .bytes(nil)
      }
    }
  #endif
}
