/// A block labelled with what it holds, as HCL writes one (Terraform's `variable "db_password"
/// { default = "…" }`, a `secret "api_key" { value = … }`): the label names the value that the
/// block's `default` or `value` attribute holds, as an assignment's name would; so does a
/// block that says it is `sensitive = true` (a `variable "api" { sensitive = true … }`, an
/// `output` marked so), whatever its label.
extension CompiledRedaction {
  /// The block and its label: group 1, the label; the match ends after the `{`.
  private static let labelledBlock = SharedRegex(
    literal: #"(?m)^[ \t]*[A-Za-z_][\w-]*[ \t]+"([^"\n]{1,200})" \{"#)
  /// An attribute that holds a block's value: group 1, its value in quotes or bare.
  private static let valueAttribute = SharedRegex(
    literal: #"(?m)^[ \t]*(?:default|value)[ \t]*=[ \t]*(?:"([^"\n]*)"|([^\s#}]+))"#)
  /// The attribute by which HCL marks a block's value as one never to print.
  private static let sensitiveFlag = SharedRegex(
    literal: #"(?m)^[ \t]*sensitive[ \t]*=[ \t]*true\b"#)

  /// The byte ranges of the values of blocks whose label is a credential's name, each with its
  /// placeholder.
  func labelledBlockReplacements(in text: String, echoes: inout RedactionEchoes)
    -> [(Range<Int>, String)]
  {
    // HCL writes `"label" {`; JSON writes `": {` and `":{`, so one search rules a JSON body
    // out, and the expression never reads it.
    guard !memberNames.isEmpty, text.contains(bytes: "\" {") else { return [] }
    var replacements: [(Range<Int>, String)] = []
    for block in Self.labelledBlock.matches(in: text) {
      guard let label = Range(block.range(at: 1), in: text),
        let open = Range(block.range, in: text)?.upperBound
      else { continue }
      // Its attributes stand before the first `}`: a nested block closes no sooner.
      let close = text[open...].firstIndex(of: "}") ?? text.endIndex
      guard
        let key = placeholderName(forMember: String(text[label]))
          ?? (Self.sensitiveFlag.matches(in: text, within: open..<close).isEmpty
            ? nil : RedactionPlaceholder.name(from: "sensitive"))
      else { continue }
      for attribute in Self.valueAttribute.matches(in: text, within: open..<close) {
        guard
          let value = Range(attribute.range(at: 1), in: text)
            ?? Range(attribute.range(at: 2), in: text), !value.isEmpty
        else { continue }
        let secret = String(text[value])
        guard !RedactionPlaceholder.isPresent(in: secret) else { continue }
        echoes.remember(memberValue: secret, as: key)
        replacements.append((Self.byteRange(of: value, in: text), RedactionPlaceholder.text(key)))
      }
    }
    return replacements
  }
}
