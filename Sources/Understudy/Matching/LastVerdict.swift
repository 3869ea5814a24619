/// The last text a regular-expression condition judged, and its verdict.
///
/// A test sends the same header value (its `Authorization`, say) on every request, and every
/// request is tried against every stub on its route; ICU's match through `NSRegularExpression`
/// costs about 7,000 instructions on Linux, comparing the value with the last one a few dozen.
/// The verdict depends on nothing but the text, so remembering it changes no answer.
///
/// The lock and the remembered pair live in memory of their own rather than in a `Locked`: a
/// debug build (what `swift test` compiles) paid about 800 instructions a look through that
/// generic type, and a header matcher looks once for every stub it belongs to.
final class LastVerdict: @unchecked Sendable {
  private struct Last {
    var text: String?
    var verdict = false
  }

  // `last` is read and written only with `lock` held.
  private let lock = UnsafeMutablePointer<PlatformLock.Primitive>.allocate(capacity: 1)
  private let last = UnsafeMutablePointer<Last>.allocate(capacity: 1)

  init() {
    PlatformLock.initialize(lock)
    last.initialize(to: Last())
  }

  deinit {
    last.deinitialize(count: 1)
    last.deallocate()
    PlatformLock.destroy(lock)
    lock.deallocate()
  }

  /// `judge(text)`, or the verdict it gave last time when `text` is the text it judged then.
  func verdict(on text: String, _ judge: (String) -> Bool) -> Bool {
    PlatformLock.lock(lock)
    if let known = last.pointee.text, known == text {
      let verdict = last.pointee.verdict
      PlatformLock.unlock(lock)
      return verdict
    }
    PlatformLock.unlock(lock)
    let verdict = judge(text)
    PlatformLock.lock(lock)
    last.pointee = Last(text: text, verdict: verdict)
    PlatformLock.unlock(lock)
    return verdict
  }
}
