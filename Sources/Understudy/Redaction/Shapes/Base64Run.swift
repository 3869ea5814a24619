/// Base64 inside a text, decoded where the scanner meets it: a JWT's header, a DER key's first
/// bytes, a wrapper around text that may hold a credential.
enum Base64Run {
  /// The bytes `bytes[range]` decode to, in the standard or URL-safe alphabet, padding
  /// optional; line breaks (real, or a JSON string's `\n`) and indentation are skipped, and `\/`
  /// is read as `/`. A trailing group too short to decode is dropped. `nil` when another byte stands in it.
  static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> [UInt8]? {
    var output: [UInt8] = []
    output.reserveCapacity(range.count * 3 / 4)
    var buffer: UInt32 = 0
    var filled = 0
    var index = range.lowerBound
    reading: while index < range.upperBound {
      let byte = bytes[index]
      index += 1
      let value: UInt8
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = byte - 0x41
      case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - 0x61 + 26
      case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - 0x30 + 52
      case UInt8(ascii: "+"), UInt8(ascii: "-"): value = 62
      case UInt8(ascii: "/"), UInt8(ascii: "_"): value = 63
      // Padding ends the text; the group before it still holds bytes.
      case UInt8(ascii: "="): break reading
      case 0x0A, 0x0D, 0x20, 0x09: continue
      case UInt8(ascii: "\\"):
        guard index < range.upperBound else { return nil }
        // A JSON text's `\/` is the `/` it escapes, read next.
        if bytes[index] == UInt8(ascii: "/") { continue }
        guard bytes[index] == UInt8(ascii: "n") || bytes[index] == UInt8(ascii: "r")
        else { return nil }
        index += 1
        continue
      default: return nil
      }
      buffer = buffer << 6 | UInt32(value)
      filled += 1
      if filled == 4 {
        output.append(UInt8(truncatingIfNeeded: buffer >> 16))
        output.append(UInt8(truncatingIfNeeded: buffer >> 8))
        output.append(UInt8(truncatingIfNeeded: buffer))
        buffer = 0
        filled = 0
      }
    }
    if filled == 3 {
      output.append(UInt8(truncatingIfNeeded: buffer >> 10))
      output.append(UInt8(truncatingIfNeeded: buffer >> 2))
    } else if filled == 2 {
      output.append(UInt8(truncatingIfNeeded: buffer >> 4))
    }
    return output
  }

  /// Whether decoded bytes read as text: nine in ten printable ASCII or white space. Random
  /// bytes (a key, a token) are about four in ten.
  static func isText(_ decoded: [UInt8]) -> Bool {
    guard decoded.count >= 12 else { return false }
    let printable = decoded.reduce(0) { count, byte in
      count
        + ((byte >= 0x20 && byte < 0x7F) || byte == 0x0A || byte == 0x0D || byte == 0x09 ? 1 : 0)
    }
    return printable * 10 >= decoded.count * 9
  }
}
