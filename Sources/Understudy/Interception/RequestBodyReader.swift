/// Reads a request's body from wherever URLSession put it, once.
enum RequestBodyReader {
  static func body(of request: URLRequest, task: URLSessionTask?) -> Data? {
    if let body = request.httpBody { return body }
    // On Darwin every body arrives as a stream; streams are single-use, so the bytes read here are
    // what the journal, the matchers and the responder all share.
    if let stream = request.httpBodyStream { return drain(stream) }
    #if canImport(FoundationNetworking)
      // Upload tasks on Linux keep their body out of the request (platform notes, row 2a); the
      // task's private `knownBody` is the only place it can be read.
      if let task = task as? URLSessionUploadTask { return uploadBody(of: task) }
    #endif
    return nil
  }

  static func drain(_ stream: InputStream) -> Data {
    var data = Data()
    stream.open()
    defer { stream.close() }
    let capacity = 64 * 1024
    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    defer { buffer.deallocate() }
    while true {
      let count = stream.read(buffer, maxLength: capacity)
      if count <= 0 { break }
      data.append(buffer, count: count)
    }
    return data
  }

  #if canImport(FoundationNetworking)
    private static func uploadBody(of task: URLSessionTask) -> Data? {
      guard
        let known = PrivateField.value(named: "knownBody", in: task).flatMap(PrivateField.unwrap)
      else { return nil }
      guard let (label, payload) = PrivateField.enumCase(of: known) else { return nil }
      switch label {
      case "data":
        if let data = payload as? DispatchData { return Data(data) }
        return payload as? Data
      case "file":
        return (payload as? URL).flatMap { try? Data(contentsOf: $0) }
      case "stream":
        return (payload as? InputStream).map(drain)
      default:
        return nil
      }
    }
  #endif
}
