import Understudy

/// libFuzzer's entry point: the bytes are a cassette file.
///
/// Whatever the bytes are, decoding must either fail with a `CassetteError` that names the
/// source, or give an archive that survives a trip through its own encoding unchanged. Redaction,
/// restoring and the credential scanner must then run without crashing, and redaction must not
/// make a cassette that can be written unwritable.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCassette(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  checkCassette(Data(bytes: start, count: count))
  return 0
}

private let source = "fuzz.har"

private func checkCassette(_ data: Data) {
  let har: HAR
  do {
    har = try HAR.decode(data, source: source)
  } catch {
    require(error.description.hasPrefix(source), "not led by the source: \(error)")
    return
  }

  let encoded: Data
  do {
    encoded = try har.encoded()
  } catch {
    fail("a cassette that decodes cannot be encoded: \(error)")
  }
  let again: HAR
  do {
    again = try HAR.decode(encoded, source: source)
  } catch {
    fail("the encoding of a decoded cassette does not decode: \(error)\n\(text(encoded))")
  }
  require(again == har, "the round trip changed the cassette:\n\(text(encoded))")
  require((try? again.encoded()) == encoded, "encoding is not deterministic:\n\(text(encoded))")

  let redaction = Redaction.default.redactingBodies(bodyPattern)
  let redacted = redaction.redact(har)
  require(redacted.log.entries.count == har.log.entries.count, "redaction dropped entries")
  let redactedBytes: Data
  do {
    redactedBytes = try redacted.encoded()
  } catch {
    fail("redaction made the cassette unwritable: \(error)")
  }
  do {
    _ = try HAR.decode(redactedBytes, source: source)
  } catch {
    fail("the redacted cassette does not decode: \(error)\n\(text(redactedBytes))")
  }
  require(redaction.redact(redacted) == redacted, "redaction is not idempotent")

  let restored = redaction.restoring(redacted, values: ["authorization": "Bearer x", "token": "y"])
  require(restored.log.entries.count == har.log.entries.count, "restoring dropped entries")

  for finding in scanner.scan(har) + scanner.scan(redacted) {
    require(!finding.path.isEmpty, "a finding has no path: \(finding)")
  }
}

private let bodyPattern = try! Redaction.BodyPattern(
  name: "ssn", pattern: #"\b\d{3}-\d{2}-(\d{4})\b"#)
private let scanner = CredentialScanner(allowing: [.value("sk_test_fixture000000")])

private func text(_ data: Data) -> String {
  String(decoding: data.prefix(4000), as: UTF8.self)
}

private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fail(message()) }
}

/// Stops the process so libFuzzer saves the input: a trap is a "deadly signal" to it.
private func fail(_ message: String) -> Never {
  fatalError("FuzzCassette invariant failed: \(message)")
}
