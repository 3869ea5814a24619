import Foundation

/// A multipart part sent with a `Content-Transfer-Encoding` of `base64` or `quoted-printable`
/// (a mail-minded client, a signed upload): its text is behind the encoding, where no rule
/// reads it. Redaction decodes it, reads it as a body of the part's type, and writes it back
/// in the same encoding.
enum TransferEncodedPart {
  enum Encoding {
    case base64
    case quotedPrintable
  }

  /// The part's transfer encoding, when it is one redaction reads through.
  static func encoding(of part: MultipartPart) -> Encoding? {
    switch part.headers["Content-Transfer-Encoding"]?.trimmingCharacters(in: .whitespaces)
      .lowercased()
    {
    case "base64": .base64
    case "quoted-printable": .quotedPrintable
    default: nil
    }
  }

  /// The text `data` encodes, or `nil` when it is not valid in `encoding` or not UTF-8 text.
  static func decoded(_ data: Data, _ encoding: Encoding) -> String? {
    switch encoding {
    case .base64:
      // Foundation's decoder: it keeps the last group before the padding, and MIME's line
      // breaks are the unknown characters it skips.
      return Data(base64Encoded: data, options: .ignoreUnknownCharacters).flatMap {
        String(data: $0, encoding: .utf8)
      }
    case .quotedPrintable:
      return String(validating: decodeQuotedPrintable([UInt8](data)), as: UTF8.self)
    }
  }

  /// `text` written back in `encoding`: base64 on one line (decoders skip line breaks);
  /// quoted-printable with `=` and every byte outside printable ASCII escaped, line breaks kept.
  static func encoded(_ text: String, _ encoding: Encoding) -> String {
    switch encoding {
    case .base64:
      return Data(text.utf8).base64EncodedString()
    case .quotedPrintable:
      var out: [UInt8] = []
      let digits = Array("0123456789ABCDEF".utf8)
      for byte in text.utf8 {
        switch byte {
        case 0x0A, 0x0D, 0x09, 0x20...0x3C, 0x3E...0x7E: out.append(byte)
        default: out += [UInt8(ascii: "="), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
        }
      }
      return String(decoding: out, as: UTF8.self)
    }
  }

  /// Quoted-printable decoded: `=XX` is a byte, `=` at a line's end a soft break.
  private static func decodeQuotedPrintable(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      guard byte == UInt8(ascii: "=") else {
        out.append(byte)
        index += 1
        continue
      }
      if index + 1 < bytes.count, bytes[index + 1] == 0x0A {
        index += 2
      } else if index + 2 < bytes.count, bytes[index + 1] == 0x0D, bytes[index + 2] == 0x0A {
        index += 3
      } else if index + 2 < bytes.count, let high = ASCIIByte.hexValue(bytes[index + 1]),
        let low = ASCIIByte.hexValue(bytes[index + 2])
      {
        out.append(high << 4 | low)
        index += 3
      } else {
        out.append(byte)
        index += 1
      }
    }
    return out
  }

}
