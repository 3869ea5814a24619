#if Server
  import NIOCore
  import NIOHTTP1
  import Understudy

  /// What a keep-alive connection built for its last request and answer, reused when the next
  /// one is the same (a client polling an endpoint, a load test): parsing the request's URL and
  /// converting the answer's head and body into SwiftNIO's types cost more than deciding a canned
  /// answer does. Each check compares what it would otherwise rebuild; anything different simply
  /// replaces the entry.
  struct ConnectionCache {
    private var lastRequest:
      (
        uri: String, host: String?, method: NIOHTTP1.HTTPMethod, fields: NIOHTTP1.HTTPHeaders,
        request: InterceptedRequest
      )?
    private var lastHead:
      (
        status: Int, headers: Understudy.HTTPHeaders, version: HTTPVersion, keepAlive: Bool,
        head: HTTPResponseHead
      )?
    private var lastBody: (data: Data, buffer: ByteBuffer)?
    private var lastEncoded:
      (
        status: Int, headers: Understudy.HTTPHeaders, version: HTTPVersion, keepAlive: Bool,
        body: Data?, bytes: ByteBuffer?
      )?

    /// The request as the registry sees it (``ServerConnection/request(_:body:_:standingInFor:)``),
    /// or `nil` when its URL cannot be told.
    mutating func request(
      _ head: HTTPRequestHead, body: Data, origin: URL, standingInFor: URL?
    ) -> InterceptedRequest? {
      let host = head.headers.first(name: "Host")
      guard var request = lastRequest?.request, lastRequest?.uri == head.uri,
        lastRequest?.host == host
      else {
        let request = ServerConnection.request(
          head, body: body, origin, standingInFor: standingInFor)
        lastRequest = request.map { (head.uri, host, head.method, head.headers, $0) }
        return request
      }
      let bodyValue = body.isEmpty ? nil : body
      if lastRequest?.method == head.method, request.body == bodyValue,
        let fields = lastRequest?.fields, Self.same(fields, head.headers)
      {
        // The very same request again: the snapshot is immutable, so it is shared as it is.
        return request
      }
      // The URL and what is derived from it stay; the rest is this request's own.
      request.method = HTTPMethod(rawValue: head.method.rawValue)
      request.headers = ServerConnection.fields(of: head, standingInFor: standingInFor)
      request.body = bodyValue
      lastRequest = (head.uri, host, head.method, head.headers, request)
      return request
    }

    /// Whether two header lists hold the same fields in the same order, spelled the same: what
    /// the registry's copy of them would show. Cheaper than SwiftNIO's `==`, which ignores order
    /// and case and so builds sets of lower-cased names.
    private static func same(_ one: NIOHTTP1.HTTPHeaders, _ other: NIOHTTP1.HTTPHeaders) -> Bool {
      guard one.count == other.count else { return false }
      return zip(one, other).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    /// The head of `exchange`'s answer to `request`, in SwiftNIO's form.
    mutating func responseHead(for exchange: ServedExchange, answering request: HTTPRequestHead)
      -> HTTPResponseHead
    {
      let keepAlive = request.isKeepAlive
      if let last = lastHead, last.status == exchange.status, last.keepAlive == keepAlive,
        last.version == request.version, last.headers == exchange.headers
      {
        return last.head
      }
      let head = ResponseParts.responseHead(for: exchange, answering: request)
      lastHead = (exchange.status, exchange.headers, request.version, keepAlive, head)
      return head
    }

    /// `exchange`'s canned answer to `request` as it goes on the wire, for ``PreEncodedAnswers``:
    /// built when any part of it differs from the last one's, so a stub that changed, a reset
    /// registry or another answer never gets the last one's bytes. `nil` when SwiftNIO's encoder
    /// has to frame the body (chunked), when the body is large, or when the header validator
    /// would refuse the fields: the answer then goes the usual way.
    mutating func encoded(_ exchange: ServedExchange, answering request: HTTPRequestHead)
      -> ByteBuffer?
    {
      let keepAlive = request.isKeepAlive
      let body = exchange.cannedBody
      if let last = lastEncoded, last.status == exchange.status, last.keepAlive == keepAlive,
        last.version == request.version, last.headers == exchange.headers, last.body == body
      {
        return last.bytes
      }
      let bytes = Self.encode(exchange, answering: request)
      lastEncoded = (exchange.status, exchange.headers, request.version, keepAlive, body, bytes)
      return bytes
    }

    /// The answer as SwiftNIO's encoder would write it: framing fields a bodiless status must not
    /// have left out, `Transfer-Encoding` dropped beside a `Content-Length`.
    private static func encode(_ exchange: ServedExchange, answering request: HTTPRequestHead)
      -> ByteBuffer?
    {
      let body = exchange.cannedBody
      guard (body?.count ?? 0) <= 64 * 1024 else { return nil }
      var head = ResponseParts.responseHead(for: exchange, answering: request)
      if !head.status.mayHaveResponseBody {
        head.headers.remove(name: "Content-Length")
        head.headers.remove(name: "Transfer-Encoding")
      } else if head.headers.contains(name: "Content-Length") {
        head.headers.remove(name: "Transfer-Encoding")
      } else if head.version.major == 1 && head.version.minor >= 1 {
        // The encoder would chunk the body.
        return nil
      }
      return PreEncodedAnswers.encode(head, body: body)
    }

    /// `data` in a buffer SwiftNIO writes without copying it again.
    mutating func buffer(for data: Data) -> ByteBuffer {
      // A large body is not kept twice for the connection's life, nor compared byte by byte.
      guard data.count <= 64 * 1024 else { return ByteBuffer(bytes: data) }
      if let last = lastBody, last.data == data { return last.buffer }
      let buffer = ByteBuffer(bytes: data)
      lastBody = (data, buffer)
      return buffer
    }
  }
#endif
