import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension BodySender {
  /// Why a response's body cannot be sent, as the request's error says it.
  struct Unsendable: Error {
    /// The `URLError` code a session's request fails with.
    let code: URLError.Code
    let message: String
  }
}

extension BodySender.Source {
  /// Where `body` is sent from, and its length when known: the bytes, or a fixture file opened
  /// now, with its size when the file system gives it.
  ///
  /// Throws when the fixture was found unusable since its declaration, or passed its checks but
  /// cannot be opened now (deleted or made unreadable since). The session's protocol and the
  /// loopback server both start a body here, so they fail for the same reasons in the same words.
  static func opening(_ body: ResponseBody) throws(BodySender.Unsendable) -> (
    Self, length: Int?
  ) {
    switch body.storage {
    case .data(let data):
      return (.data(data, offset: 0), data.count)
    case .unavailable(let message):
      throw BodySender.Unsendable(code: .fileDoesNotExist, message: message)
    case .file(let url):
      let handle: FileHandle
      do {
        handle = try FileHandle(forReadingFrom: url)
      } catch {
        throw BodySender.Unsendable(
          code: .noPermissionsToReadFile, message: ResponseBody.cannotOpen(url, because: error))
      }
      let size = try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int
      return (.file(handle), size ?? nil)
    }
  }
}
