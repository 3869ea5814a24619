/// A password given to a command line's short `-p` option, glued or after a space: `mysql -u
/// root -pVALUE`, `docker login -u ada -p VALUE`, `sshpass -p VALUE ssh …`. `-p` is also a
/// port (`ssh -p 22`, `docker run -p 8080:80`) and a switch (`mkdir -p dir`), so it counts only
/// on a line that logs in: one naming a user (`-u`, `--user`, `--username`) before it, or run by
/// a program whose `-p` is always a password (`sshpass`, `mysql`, `mysqldump`, `mariadb`);
/// and a value of digits (a port) or `N:N` (a port mapping) is never one.
enum ShortPasswordOption {
  /// The byte ranges of the passwords in `bytes`, found from each `-p` by `memmem`.
  static func ranges(in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
    var found: [Range<Int>] = []
    for hit in ByteSearch.ranges(of: Array(" -p".utf8), in: UnsafeRawBufferPointer(bytes)) {
      let dash = hit.lowerBound + 1
      var start = dash + 2
      guard start < bytes.count else { continue }
      if bytes[start] == 0x20 || bytes[start] == 0x09 {
        while start < bytes.count, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
      }
      var end = start
      while end < bytes.count, !isBlank(bytes[end]) { end += 1 }
      guard end > start, isValue(bytes[start..<end]), logsIn(bytes, before: dash) else { continue }
      found.append(start..<end)
    }
    return found
  }

  private static func isBlank(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  /// Whether `word` can be a password: not another option, a redirection or a variable's
  /// expansion, not a quote that closes a string, and not a port.
  private static func isValue(_ word: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
    switch word.first {
    case UInt8(ascii: "-"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "|"),
      UInt8(ascii: "&"), UInt8(ascii: ";"), UInt8(ascii: "$"), UInt8(ascii: "("), nil:
      return false
    default:
      break
    }
    // A quote that closes a string (`"note":"mysql -p","n":1`) ends an empty value.
    if word.first == UInt8(ascii: "\"") || word.first == UInt8(ascii: "'") {
      let next = word.dropFirst().first
      if next == nil || next.map({ ",:;)]}\"'\\".utf8.contains($0) }) == true { return false }
    }
    var isPort = true
    for byte in word where !(ASCIIByte.isDigit(byte) || byte == UInt8(ascii: ":")) {
      isPort = false
      break
    }
    return !isPort
  }

  /// Whether the line holding `dash`, before it, names a user or a program whose `-p` is a
  /// password.
  private static func logsIn(_ bytes: UnsafeBufferPointer<UInt8>, before dash: Int) -> Bool {
    var lineStart = dash
    while lineStart > 0, bytes[lineStart - 1] != 0x0A, dash - lineStart < 1024 { lineStart -= 1 }
    let line = String(decoding: bytes[lineStart..<dash], as: UTF8.self)
    for marker in [" -u", " --user", "sshpass ", "mysql ", "mysqldump ", "mariadb ", "mysqladmin "]
    where line.contains(marker) || line.hasPrefix(String(marker.drop { $0 == " " })) {
      return true
    }
    return false
  }
}
