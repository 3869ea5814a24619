import Foundation

/// The storage of Understudy's `URLError`s: prints its message once.
///
/// `NSError` prints the localized description and then the user info, which holds the same
/// description again (and the underlying error's, a third copy of a near-miss report). Test
/// runners print a caught error that way (Swift Testing's "Caught error: …"), so a one-line
/// problem filled the log three times.
final class DescribedURLError: NSError, @unchecked Sendable {
  override var description: String {
    "Error Domain=\(domain) Code=\(code) \"\(localizedDescription)\""
  }
}
