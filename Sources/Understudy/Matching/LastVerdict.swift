/// The last text a regular-expression condition judged, and its verdict.
///
/// A test sends the same header value (its `Authorization`, say) on every request, and every
/// request is tried against every stub on its route; ICU's match through `NSRegularExpression`
/// costs about 7,000 instructions on Linux, comparing the value with the last one a few dozen.
/// The verdict depends on nothing but the text, so remembering it changes no answer.
final class LastVerdict: Sendable {
  // Guards the last text judged and its verdict.
  private let last = Locked<(text: String, verdict: Bool)?>(nil)

  /// `judge(text)`, or the verdict it gave last time when `text` is the text it judged then.
  func verdict(on text: String, _ judge: (String) -> Bool) -> Bool {
    if let last = last.current, last.text == text { return last.verdict }
    let verdict = judge(text)
    last.withLock { $0 = (text, verdict) }
    return verdict
  }
}
