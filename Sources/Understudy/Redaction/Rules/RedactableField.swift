/// The strings of an entry that can carry secrets, with what each one is, so redacting and
/// restoring walk the same fields and cannot drift apart.
enum RedactableField {
  /// A request URL or a response's `redirectURL`.
  case url
  /// A header value.
  case header(name: String)
  /// A cookie value from the request (`isRequest`) or the response.
  case cookie(isRequest: Bool)
  /// A value in the request's parsed `queryString`.
  case queryParameter(name: String)
  /// A posted form field's value.
  case formParameter(name: String)
  /// A request or response body, decoded when it was base64 text.
  case body(mimeType: String)
  /// Free text that can repeat a request: comments (where a report about the request may sit),
  /// a response's status text, a page's title (often its URL).
  case text
}

extension HAR.Entry {
  /// Replaces every redactable string with what `transform` returns for it.
  ///
  /// Bodies reach `transform` as text: base64 bodies are decoded first and encoded again after,
  /// and text in another charset is read and written in it. Binary bodies reach `binary`, when
  /// given, as their bytes (it returns `nil` to leave one as it is), and are skipped otherwise.
  /// A body that changes gets its new size.
  mutating func transformRedactableFields(
    binary: ((Data) -> Data?)? = nil, _ transform: (RedactableField, String) -> String
  ) {
    comment = comment.map { transform(.text, $0) }
    request.comment = request.comment.map { transform(.text, $0) }
    response.comment = response.comment.map { transform(.text, $0) }
    response.statusText = transform(.text, response.statusText)
    request.url = transform(.url, request.url)
    request.headers = request.headers.map {
      $0.with(value: transform(.header(name: $0.name), $0.value))
    }
    for index in request.cookies.indices {
      request.cookies[index].value = transform(
        .cookie(isRequest: true), request.cookies[index].value)
    }
    request.queryString = request.queryString.map {
      $0.with(value: transform(.queryParameter(name: $0.name), $0.value))
    }
    if var postData = request.postData {
      for index in postData.params.indices {
        postData.params[index].value = postData.params[index].value.map {
          transform(.formParameter(name: postData.params[index].name), $0)
        }
      }
      let field = RedactableField.body(mimeType: postData.mimeType)
      if let body = Self.transformBody(
        postData.text, postData.encoding, mimeType: postData.mimeType, binary: binary,
        { transform(field, $0) })
      {
        (postData.text, postData.encoding) = body
      }
      request.postData = postData
    }
    response.headers = response.headers.map {
      $0.with(value: transform(.header(name: $0.name), $0.value))
    }
    for index in response.cookies.indices {
      response.cookies[index].value = transform(
        .cookie(isRequest: false), response.cookies[index].value)
    }
    response.redirectURL = transform(.url, response.redirectURL)
    let field = RedactableField.body(mimeType: response.content.mimeType)
    if let text = response.content.text,
      let changed = Self.transformBody(
        text, response.content.encoding, mimeType: response.content.mimeType, binary: binary,
        { transform(field, $0) })
    {
      (response.content.text, response.content.encoding) = changed
      response.content.size = response.content.body?.count ?? response.content.size
    }
  }

  /// The body's `text` and `encoding` after `transform`, or `nil` when it is unchanged or
  /// cannot be read as text and `binary` is not given. A body that is not UTF-8 is read in the
  /// charset `mimeType` names (see ``BodyCharset``) and written back in it, so replay still
  /// sends that charset; one that is no text goes to `binary` as its bytes.
  private static func transformBody(
    _ text: String, _ encoding: String?, mimeType: String, binary: ((Data) -> Data?)?,
    _ transform: (String) -> String
  ) -> (text: String, encoding: String?)? {
    guard encoding != nil || BodyCharset.readsInCharset(mimeType, start: text.utf8) else {
      let result = transform(text)
      return result == text ? nil : (result, nil)
    }
    guard let data = try? HARBodyText.decode(text: text, encoding: encoding) else { return nil }
    guard let (decoded, charset) = BodyCharset.text(of: data, mimeType: mimeType) else {
      guard let changed = binary?(data) else { return nil }
      return (changed.base64EncodedString(), HARBodyText.base64)
    }
    let result = transform(decoded)
    guard result != decoded, let bytes = result.data(using: charset) else { return nil }
    // A body stored as itself stays so while its bytes are still UTF-8.
    let utf8 = String(decoding: bytes, as: UTF8.self)
    if encoding == nil, Data(utf8.utf8) == bytes { return (utf8, nil) }
    return (bytes.base64EncodedString(), HARBodyText.base64)
  }
}

extension HAR.Entry {
  /// Replaces every string of the entry that ``transformRedactableFields(binary:_:)`` does not
  /// reach with what `transform` returns for it: the names of headers, cookies and parameters,
  /// the comments of each part, cookie attributes, file names, media types, HTTP versions, the
  /// cache's, the connection and server address, and `pageref`. No rule reads these; echoes of
  /// the values the rules removed are replaced here. Only `content.encoding` is left, which
  /// says how to read the body.
  ///
  /// A property is written only when its text changes, so an entry without echoes keeps its
  /// storage as it was.
  mutating func transformOtherStrings(_ transform: (String) -> String) {
    func update(_ text: inout String) {
      let result = transform(text)
      if result != text { text = result }
    }
    func update(_ text: inout String?) {
      if let result = changed(text) { text = result }
    }
    // The optional strings kept in a shared box (`pageref`, the timings' comment) are set only
    // when they change: an `inout` access would set them, and copy the box, every time.
    func changed(_ text: String?) -> String? {
      guard let text else { return nil }
      let result = transform(text)
      return result == text ? nil : result
    }
    func update(_ fields: inout [HAR.NameValue]) {
      for index in fields.indices {
        update(&fields[index].name)
        update(&fields[index].comment)
      }
    }
    func update(_ cookies: inout [HAR.Cookie]) {
      for index in cookies.indices {
        update(&cookies[index].name)
        update(&cookies[index].path)
        update(&cookies[index].domain)
        update(&cookies[index].expires)
        update(&cookies[index].comment)
      }
    }
    func update(_ state: inout HAR.Cache.State) {
      guard case .present(var cached) = state else { return }
      let original = cached
      update(&cached.expires)
      update(&cached.lastAccess)
      update(&cached.eTag)
      update(&cached.comment)
      if cached != original { state = .present(cached) }
    }
    if let result = changed(pageref) { pageref = result }
    if let result = changed(serverIPAddress) { serverIPAddress = result }
    if let result = changed(connection) { connection = result }
    var cache = self.cache
    update(&cache.beforeRequest)
    update(&cache.afterRequest)
    update(&cache.comment)
    if cache != self.cache { self.cache = cache }
    if let result = changed(timings.comment) { timings.comment = result }

    update(&request.method)
    update(&request.httpVersion)
    update(&request.headers)
    update(&request.queryString)
    update(&request.cookies)
    if var postData = request.postData {
      let original = postData
      update(&postData.mimeType)
      update(&postData.comment)
      for index in postData.params.indices {
        update(&postData.params[index].name)
        update(&postData.params[index].fileName)
        update(&postData.params[index].contentType)
        update(&postData.params[index].comment)
      }
      if postData != original { request.postData = postData }
    }

    update(&response.httpVersion)
    update(&response.headers)
    update(&response.cookies)
    update(&response.content.mimeType)
    if let result = changed(response.content.comment) { response.content.comment = result }
  }
}

extension HAR.NameValue {
  fileprivate func with(value: String) -> HAR.NameValue {
    var copy = self
    copy.value = value
    return copy
  }
}
