/// The text a Wi-Fi QR code holds (`WIFI:T:WPA;S:Home;P:…;;`, the format phones read) names its
/// password by its `P:` field, where no name a rule reads stands: the field is replaced.
extension CompiledRedaction {
  /// The byte ranges of the `P:` values of each `WIFI:` code in `text`, each with its
  /// placeholder. Codes are found by `memmem`; a field runs to its first `;` that no `\`
  /// escapes.
  func wiFiNetworkCodeReplacements(in text: String, echoes: inout RedactionEchoes)
    -> [(Range<Int>, String)]
  {
    guard !memberNames.isEmpty, text.contains(bytes: "WIFI:") else { return [] }
    var replacements: [(Range<Int>, String)] = []
    var text = text
    text.withUTF8 { bytes in
      let raw = UnsafeRawBufferPointer(bytes)
      for code in ByteSearch.ranges(of: Array("WIFI:".utf8), in: raw) {
        var field = code.upperBound
        // Fields end at `;`, the code at `;;` or the line's end.
        while field < bytes.count, bytes[field] != 0x0A, bytes[field] != UInt8(ascii: ";") {
          var end = field
          while end < bytes.count, bytes[end] != UInt8(ascii: ";"), bytes[end] != 0x0A {
            end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
          }
          end = min(end, bytes.count)
          if end - field > 2, bytes[field] == UInt8(ascii: "P"),
            bytes[field + 1] == UInt8(ascii: ":")
          {
            let value = (field + 2)..<end
            let secret = String(
              decoding: UnsafeBufferPointer(rebasing: bytes[value]), as: UTF8.self)
            if !RedactionPlaceholder.isPresent(in: secret) {
              echoes.remember(memberValue: secret, as: "password")
              replacements.append((value, RedactionPlaceholder.text("password")))
            }
          }
          field = end + 1
        }
      }
    }
    return replacements
  }
}
