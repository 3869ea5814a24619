/// A trace or span identifier in one of the documented formats of distributed tracing: random
/// by design, and public by design too, since every service a request passes through logs it.
/// Their structure, not a header's name, tells them, so they are kept wherever they appear (a
/// header, `Server-Timing`, a JSON member, a log line):
///
/// - W3C Trace Context `traceparent` (OpenTelemetry): `00-<32 hex>-<16 hex>-<2 hex>`, a later
///   version possibly with more fields after;
/// - AWS X-Ray (`X-Amzn-Trace-Id: Root=…`, `Self=…`): `1-<8 hex>-<24 hex>`;
/// - B3 single header (Zipkin) and `sentry-trace`: `<16 or 32 hex>-<16 hex>`, then the sampling
///   decision (`0`, `1`, `d`) and B3's parent span id.
///
/// Datadog's ids are decimal, and lone hex ids (`X-B3-TraceId`, a JSON `traceId`) are hex
/// digests to ``VendorToken`` already.
enum TraceIdentifier {
  /// Whether `bytes[run]` is a trace identifier in one of the formats above, whole.
  static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ run: Range<Int>) -> Bool {
    guard run.count >= 35, run.count <= 120 else { return false }
    // The fields between `-`, each hex but for B3's sampling flag `d`.
    var lengths: [Int] = []
    var fieldStart = run.lowerBound
    for index in run.lowerBound...run.upperBound {
      if index == run.upperBound || bytes[index] == UInt8(ascii: "-") {
        lengths.append(index - fieldStart)
        fieldStart = index + 1
        if lengths.count > 6 { return false }
      } else if !ASCIIByte.isHexDigit(bytes[index]) {
        let isFlag =
          index == fieldStart && (bytes[index] | 0x20) == UInt8(ascii: "d")
          && (index + 1 == run.upperBound || bytes[index + 1] == UInt8(ascii: "-"))
        guard isFlag else { return false }
      }
    }
    // W3C: version, trace id, parent id, flags; a version other than `ff` may add fields.
    if lengths.count >= 4, lengths[0...3] == [2, 32, 16, 2] {
      return
        !(bytes[run.lowerBound] | 0x20 == UInt8(ascii: "f")
        && bytes[run.lowerBound + 1] | 0x20 == UInt8(ascii: "f"))
    }
    // X-Ray: version 1, the epoch time in 8 hex digits, 96 random bits.
    if lengths == [1, 8, 24] { return bytes[run.lowerBound] == UInt8(ascii: "1") }
    // B3 and sentry-trace: trace id, span id, then a one-character sampling decision, then
    // B3's parent span id.
    guard lengths.count >= 2, lengths[0] == 16 || lengths[0] == 32, lengths[1] == 16 else {
      return false
    }
    switch lengths.count {
    case 2: return true
    case 3: return lengths[2] == 1
    case 4: return lengths[2] == 1 && lengths[3] == 16
    default: return false
    }
  }
}
