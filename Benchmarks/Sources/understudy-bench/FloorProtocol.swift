import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The floor: the least any `URLProtocol` can do to answer a request, so a ratio against it is
/// the cost Understudy adds on top of URLSession itself.
///
/// Like Understudy's immediate stubs it claims every http(s) request, answers synchronously inside
/// `startLoading` (the task's work queue), builds an `HTTPURLResponse` per request with the same
/// header fields, and sends the body in one `didLoad`.
final class FloorProtocol: URLProtocol {
  override class func canInit(with request: URLRequest) -> Bool {
    let scheme = request.url?.scheme
    return scheme == "https" || scheme == "http"
  }

  override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

  override func startLoading() {
    guard let client, let url = request.url else { return }
    let response = HTTPURLResponse(
      url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: CannedResponse.headers)!
    client.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
    client.urlProtocol(self, didLoad: CannedResponse.floorBody)
    client.urlProtocolDidFinishLoading(self)
  }

  override func stopLoading() {}

  /// A session configured exactly as `StubRegistry.makeSession()` configures its own: ephemeral,
  /// no URL cache, the protocol first, and a serial delegate queue on a labelled dispatch queue.
  static func makeSession() -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.protocolClasses = [FloorProtocol.self] + (configuration.protocolClasses ?? [])
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    return URLSession(configuration: configuration, delegate: nil, delegateQueue: DelegateQueue())
  }

  /// The kind of delegate queue Understudy gives its sessions, so the two sides differ only in
  /// their protocol (callgrind counted the same instructions a request with either queue).
  private final class DelegateQueue: OperationQueue, @unchecked Sendable {
    private let queue = DispatchQueue(label: "floor session delegate queue")

    override init() {
      super.init()
      maxConcurrentOperationCount = 1
      underlyingQueue = queue
    }
  }
}
