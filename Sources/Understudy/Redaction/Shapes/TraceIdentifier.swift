/// A trace identifier in one of the documented formats of distributed tracing: random by
/// design, and public by design too, since every service a request passes through logs it.
/// Their structure, not a header's name, tells them, so they are kept wherever they appear (a
/// header, `Server-Timing`, a JSON member, a log line):
///
/// - W3C Trace Context `traceparent` (OpenTelemetry): `00-<32 hex>-<16 hex>-<2 hex>`, a later
///   version possibly with more fields after;
/// - AWS X-Ray (`X-Amzn-Trace-Id: Root=…`, `Self=…`): `1-<8 hex>-<24 hex>`.
///
/// The other formats need no rule here: B3's single header and `sentry-trace` are hex ids
/// joined by `-`, each a hex digest to ``VendorToken`` already; Datadog's ids are decimal.
enum TraceIdentifier {
  /// Whether `bytes[run]` is a trace identifier in one of the formats above, whole.
  static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ run: Range<Int>) -> Bool {
    guard run.count >= 35, run.count <= 120 else { return false }
    // The lengths of the hex fields between `-`.
    var lengths: [Int] = []
    var fieldStart = run.lowerBound
    for index in run.lowerBound...run.upperBound {
      if index == run.upperBound || bytes[index] == UInt8(ascii: "-") {
        lengths.append(index - fieldStart)
        fieldStart = index + 1
        if lengths.count > 6 { return false }
      } else if !ASCIIByte.isHexDigit(bytes[index]) {
        return false
      }
    }
    // W3C: version, trace id, parent id, flags; a version other than `ff` may add fields.
    if lengths.count >= 4, lengths[0...3] == [2, 32, 16, 2] {
      return
        !(bytes[run.lowerBound] | 0x20 == UInt8(ascii: "f")
        && bytes[run.lowerBound + 1] | 0x20 == UInt8(ascii: "f"))
    }
    // X-Ray: version 1, the epoch time in 8 hex digits, 96 random bits.
    return lengths == [1, 8, 24] && bytes[run.lowerBound] == UInt8(ascii: "1")
  }
}
