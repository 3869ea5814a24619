/// Why a Foundation file operation failed, in the system's words.
///
/// On Linux, Foundation describes a failed read or directory creation as "The operation could
/// not be completed. (NSCocoaErrorDomain error 512.)", which names no cause; the POSIX error it
/// wraps does ("Not a directory", "Input/output error"). Errors about cassettes and fixtures
/// quote this instead, with the path that failed when it is not the one the message names.
enum FileErrorReason {
  /// The reason for `error`, followed by the path it concerns unless that is `path` (the one
  /// the message names already).
  static func of(_ error: any Error, besides path: String? = nil) -> String {
    let error = error as NSError
    // On Linux the underlying error may be a Swift error that `as? NSError` does not bridge.
    let underlying = (error.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
    let posix = [error, underlying].lazy.compactMap { $0 }.first {
      $0.domain == NSPOSIXErrorDomain
    }
    let reason =
      posix.map { String(cString: strerror(Int32($0.code))) } ?? error.localizedDescription
    guard let failed = error.userInfo[NSFilePathErrorKey] as? String, failed != path else {
      return reason
    }
    return "\(reason): \(failed)"
  }
}
