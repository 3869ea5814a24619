import Foundation

/// How redaction, the scanner and reports read a body as text: in the charset its
/// `Content-Type` names, or as UTF-8.
///
/// A form or JSON body in ISO-8859-1, Windows-1252, UTF-16, UTF-32, Shift_JIS, GB2312, EBCDIC or
/// another charset of ``names`` travels in a HAR as base64, yet holds the same fields and members
/// as a UTF-8 one. A text type that names no charset is read as UTF-8, or else as ISO-8859-1,
/// which reads every byte and writes it back the same. A body whose declared charset cannot be
/// read (a name Understudy does not know, or bytes that are not in it) is ``Reading/unreadable(charset:)``:
/// what it holds is unknown, and nothing writes it (see ``UnreadableBody``). A body that is
/// neither UTF-8 nor of a text type (an image, `octet-stream`) is not read as text.
package enum BodyCharset {
  /// What a body is, read by its type and charset.
  package enum Reading: Equatable {
    /// Text, and the encoding that writes the text back to the same bytes.
    case text(String, String.Encoding)
    /// Bytes that are not text (an image, `octet-stream`).
    case binary
    /// Text in a charset that cannot be read: the name its `Content-Type` gives.
    case unreadable(charset: String)
  }

  /// `data` as text and the encoding that writes the text back to the same bytes, or `nil`
  /// when it is not text or cannot be read.
  package static func text(
    of data: Data, mimeType: String
  ) -> (text: String, encoding: String.Encoding)? {
    guard case .text(let text, let encoding) = read(data, mimeType: mimeType) else { return nil }
    return (text, encoding)
  }

  /// `data` read by `mimeType`'s type and charset.
  package static func read(_ data: Data, mimeType: String) -> Reading {
    let parameters = mimeType.lowercased().split(separator: ";").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    let type = parameters.first ?? ""
    let name = charset(in: parameters)
    let declared = name.flatMap { encoding(named: $0, for: data) }
    // Text in a charset other than Latin-1's family can also be UTF-8 (UTF-16 or UTF-32 of
    // ASCII, ISO-2022-JP and UTF-7, which write every character in ASCII) but not the text it
    // holds: it is read in its charset first.
    if let declared, !latin1Family.contains(declared), let text = text(of: data, in: declared) {
      return .text(text, declared)
    }
    let utf8 = String(decoding: data, as: UTF8.self)
    let isUTF8 = Data(utf8.utf8) == data
    if let name, declared.map({ !latin1Family.contains($0) }) ?? true {
      // A charset named but not read: UTF-8 text without a NUL (which no ASCII-based charset
      // writes inside text) holds what it shows; anything else is unknown text.
      if isUTF8 && data.firstIndex(of: 0) == nil { return .text(utf8, .utf8) }
      return declared != nil || isText(type) ? .unreadable(charset: name) : .binary
    }
    if isUTF8 {
      // UTF-16 or UTF-32 of ASCII without a byte order mark is valid UTF-8 too, with a NUL
      // beside every character, which no UTF-8 text holds: read by where its first four bytes
      // are NUL, as RFC 4627 told JSON's encoding, when its type is text and it names no
      // charset.
      if name == nil, isText(type), let unmarked = unicode(byNULsOf: data),
        let text = text(of: data, in: unmarked)
      {
        return .text(text, unmarked)
      }
      return .text(utf8, .utf8)
    }
    guard declared != nil || isText(type) else { return .binary }
    for encoding in [declared, unicode(byMarkOf: data), .isoLatin1] {
      if let encoding, let text = text(of: data, in: encoding) { return .text(text, encoding) }
    }
    return .binary
  }

  /// Whether `mimeType` names a charset other than UTF-8 and Latin-1's family, whose text can
  /// be stored as itself (UTF-16 or UTF-32 of ASCII, ISO-2022-JP and UTF-7 are also UTF-8) and
  /// still need reading in its charset.
  static func declaresCharset(_ mimeType: String) -> Bool {
    guard mimeType.lowercased().contains("charset") else { return false }
    let parameters = mimeType.lowercased().split(separator: ";").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    guard let name = charset(in: parameters) else { return false }
    return encoding(named: name, for: Data()).map { !latin1Family.contains($0) } ?? true
  }

  /// Whether a body of `mimeType` that starts with `start` is read in a charset, not as the
  /// UTF-8 it may also be: its type names one (``declaresCharset(_:)``), or it is UTF-16 or
  /// UTF-32 of ASCII without a byte order mark, a NUL beside each character (see
  /// ``read(_:mimeType:)``).
  static func readsInCharset(_ mimeType: String, start: some Collection<UInt8>) -> Bool {
    if declaresCharset(mimeType) { return true }
    guard unicode(byNULsOf: start.prefix(4)) != nil else { return false }
    let type = mimeType.lowercased().prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
    return isText(type)
  }

  /// The charset the parameters after the type name, lowercased, unquoted; `nil` for none and
  /// for UTF-8, which every body is read as first.
  private static func charset(in parameters: [String]) -> String? {
    guard
      let name = parameters.dropFirst().first(where: { $0.hasPrefix("charset=") }).map({
        $0.dropFirst("charset=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"' "))
      }), name != "utf-8", name != "utf8"
    else { return nil }
    return name
  }

  /// `data` in `encoding`, when writing the text back gives the same bytes.
  private static func text(of data: Data, in encoding: String.Encoding) -> String? {
    guard let text = String(data: data, encoding: encoding), text.data(using: encoding) == data
    else { return nil }
    return text
  }

  /// Whether `mimeType` names a binary format (an image, `octet-stream`, protobuf), whose
  /// bytes can frame their contents by length even when they happen to be UTF-8.
  static func isBinaryType(_ mimeType: String) -> Bool {
    let type = mimeType.lowercased().prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
    guard !isText(type) else { return false }
    return ["image/", "audio/", "video/", "font/"].contains { type.hasPrefix($0) }
      || ["octet-stream", "protobuf", "grpc", "msgpack", "cbor", "zip", "pdf"].contains {
        type.contains($0)
      }
  }

  private static func isText(_ type: String) -> Bool {
    type.hasPrefix("text/") || type.hasPrefix("multipart/") || type.hasSuffix("+json")
      || type.hasSuffix("+xml") || type.hasSuffix("/json") || type.hasSuffix("/xml")
      || type.hasSuffix("/x-www-form-urlencoded") || type.hasSuffix("/javascript")
      || type.hasSuffix("/graphql")
  }

  /// The charsets servers label as Latin-1 while sending UTF-8: a body that is UTF-8 is read
  /// as UTF-8 whatever they say.
  private static let latin1Family: Set<String.Encoding> = [.isoLatin1, .windowsCP1252]

  /// An encoding Foundation names by its CoreFoundation number only (the same on Linux and on
  /// Darwin).
  private static func foundation(_ number: UInt) -> String.Encoding {
    String.Encoding(rawValue: 0x8000_0000 | number)
  }

  /// The charsets read, by their IANA names and common aliases, lowercased
  /// (`BodyCharsetTests.everyNamedCharsetIsRead` reads each on this platform).
  package static let names: [String: String.Encoding] = {
    var names: [String: String.Encoding] = [:]
    func add(_ encoding: String.Encoding, _ aliases: String...) {
      for alias in aliases { names[alias] = encoding }
    }
    add(.isoLatin1, "iso-8859-1", "latin1", "latin-1", "l1", "us-ascii", "ascii")
    add(.windowsCP1252, "windows-1252", "cp1252")
    add(.utf16LittleEndian, "utf-16le")
    add(.utf16BigEndian, "utf-16be")
    add(.utf32LittleEndian, "utf-32le")
    add(.utf32BigEndian, "utf-32be")
    add(foundation(0x0400_0100), "utf-7")
    add(.shiftJIS, "shift_jis", "shift-jis", "sjis", "x-sjis", "ms_kanji", "csshiftjis")
    add(foundation(0x0420), "windows-31j", "cp932")
    add(.iso2022JP, "iso-2022-jp", "csiso2022jp")
    add(foundation(0x0930), "gb2312", "euc-cn", "x-euc-cn", "csgb2312")
    add(foundation(0x0421), "gbk", "cp936", "windows-936", "ms936")
    add(foundation(0x0632), "gb18030")
    add(foundation(0x0A05), "hz-gb-2312")
    add(foundation(0x0A03), "big5", "csbig5")
    add(foundation(0x0A06), "big5-hkscs")
    add(foundation(0x0940), "euc-kr", "cseuckr")
    add(foundation(0x0422), "ks_c_5601-1987", "cp949", "windows-949")
    add(foundation(0x0840), "iso-2022-kr")
    add(foundation(0x0A02), "koi8-r")
    add(foundation(0x0A08), "koi8-u")
    add(foundation(0x0C02), "ibm037", "cp037", "ebcdic-cp-us", "ebcdic-cp-ca", "csibm037")
    add(.windowsCP1250, "windows-1250", "cp1250")
    add(.windowsCP1251, "windows-1251", "cp1251")
    add(.windowsCP1253, "windows-1253", "cp1253")
    add(.windowsCP1254, "windows-1254", "cp1254")
    for (number, page) in zip(0x0505...0x0508, 1255...1258) {
      add(foundation(UInt(number)), "windows-\(page)", "cp\(page)")
    }
    add(.isoLatin2, "iso-8859-2", "latin2")
    for part in [3, 4, 5, 6, 7, 8, 9, 10, 13, 14, 15, 16] {
      add(foundation(UInt(0x0200 + part)), "iso-8859-\(part)")
    }
    add(.macOSRoman, "macintosh", "x-mac-roman")
    return names
  }()

  /// Whether `charset` (lowercased) is one Understudy reads.
  static func knows(_ charset: String) -> Bool { encoding(named: charset, for: Data()) != nil }

  private static func encoding(named charset: String, for data: Data) -> String.Encoding? {
    // `iso8859-1` and `iso_8859-1` are `iso-8859-1`.
    var name = charset
    for spelling in ["iso8859-", "iso_8859-"] where name.hasPrefix(spelling) {
      name = "iso-8859-" + name.dropFirst(spelling.count)
    }
    switch name {
    case "utf-16": return unicode(byMarkOf: data, width: 2) ?? .utf16BigEndian
    case "utf-32": return unicode(byMarkOf: data, width: 4) ?? .utf32BigEndian
    default: return names[name]
    }
  }

  /// UTF-16 or UTF-32 without a mark, by which of `data`'s first four bytes are NUL (two
  /// characters of ASCII, or one): `x 0 x 0` is UTF-16LE, `0 x 0 x` UTF-16BE, `x 0 0 0`
  /// UTF-32LE, `0 0 0 x` UTF-32BE. Whether the rest decodes in it is ``text(of:in:)``'s to say.
  private static func unicode(byNULsOf data: some Collection<UInt8>) -> String.Encoding? {
    let nul = data.prefix(4).map { $0 == 0 }
    guard nul.count == 4 else { return nil }
    switch (nul[0], nul[1], nul[2], nul[3]) {
    case (false, true, false, true): return .utf16LittleEndian
    case (true, false, true, false): return .utf16BigEndian
    case (false, true, true, true): return .utf32LittleEndian
    case (true, true, true, false): return .utf32BigEndian
    default: return nil
    }
  }

  /// UTF-32 or UTF-16 in the byte order its byte order mark names (`width` 4 or 2 reads only
  /// that one). The mark stays in the text as U+FEFF, so writing the text back writes the mark
  /// again.
  private static func unicode(byMarkOf data: Data, width: Int? = nil) -> String.Encoding? {
    let mark = [UInt8](data.prefix(4))
    if width != 2 {
      if mark == [0xFF, 0xFE, 0, 0] { return .utf32LittleEndian }
      if mark == [0, 0, 0xFE, 0xFF] { return .utf32BigEndian }
    }
    guard width != 4 else { return nil }
    if mark.starts(with: [0xFF, 0xFE]) { return .utf16LittleEndian }
    if mark.starts(with: [0xFE, 0xFF]) { return .utf16BigEndian }
    return nil
  }
}
