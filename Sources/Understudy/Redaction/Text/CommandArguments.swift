/// A random-looking value that a command line passes where programs take passwords, with no
/// credential's name beside it: an option's argument (`openssl enc -k …`, `zip -P …`,
/// `redis-cli -a …`, `sqlcmd -U sa -P …`, `smbclient -U ada%…`, `/p:…`, `--anything=…`), or a
/// word of a command that logs in (`net user ada … /add`, `vault login …`, `net use Z:
/// \\srv\share … /user:ada`), or written to a command that reads a password from standard
/// input (`echo … | sudo -S …`, `echo … | docker login --password-stdin`, `sudo -S … <<< …`);
/// glued to a short option too (`7z a -p…`, ``gluedValue(in:in:)``).
///
/// Built from the shape of a command line, not from a list of programs: every program spells
/// its password option its own way, and the next one will too. The value must read as random
/// (``CredentialLines/looksRandom(_:in:)``), so a file name, a port, a host or a word after an
/// option is never taken; what is taken is an opaque token in an argument, which a cassette
/// need not keep (a pod's or a commit's id after an option is, and is documented so).
enum CommandArguments {
  /// The placeholder name for `value` on `line`, when the line passes it as a command's
  /// argument (see the type's description); nil when it does not.
  static func name(
    of value: Range<Int>, on line: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>
  ) -> String? {
    let token = self.token(around: value, on: line, in: bytes)
    // Glued to an option: `/p:…`, `/password:…`, `--flag=…`.
    if token.lowerBound < value.lowerBound {
      let prefix = token.lowerBound..<value.lowerBound
      if let option = gluedOption(prefix, in: bytes) { return option }
    }
    // After an option, as its argument: `-k …`, `-U ada%…`, `--stream …`.
    var end = token.lowerBound
    while end > line.lowerBound, isBlank(bytes[end - 1]) { end -= 1 }
    if end < token.lowerBound, end > line.lowerBound {
      var start = end
      while start > line.lowerBound, !isBlank(bytes[start - 1]) { start -= 1 }
      if let option = optionName(start..<end, in: bytes) { return option }
    }
    return logsIn(line, besides: token, in: bytes)
      || readsFromStandardInput(token, on: line, in: bytes) ? "password" : nil
  }

  /// The value glued to a short password option in `piece` (`-pVALUE`, `-PVALUE`, `-kVALUE`,
  /// `-aVALUE`): `piece` starts with the option's letter, just after a `-` that starts a word,
  /// and the rest reads as random (``CredentialLines/looksRandom(_:in:)``). Whether the line
  /// is a command is for ``isCommand(_:holding:in:)`` to say. `-O2`, `-la` and `-t7z` are no
  /// password option's, and hold no random run.
  static func gluedValue(in piece: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>)
    -> Range<Int>?
  {
    let dash = piece.lowerBound - 1
    guard dash >= 0, bytes[dash] == UInt8(ascii: "-"),
      "pPka".utf8.contains(bytes[piece.lowerBound]),
      dash == 0 || isBlank(bytes[dash - 1]) || isQuote(bytes[dash - 1])
        || bytes[dash - 1] == 0x0A
    else { return nil }
    let value = (piece.lowerBound + 1)..<piece.upperBound
    guard value.count >= CredentialLines.minimumLength,
      CredentialLines.looksRandom(value, in: bytes)
    else { return nil }
    return value
  }

  /// Whether `line` is a command (its first word, after a prompt or a label, a program's
  /// name) that holds `piece` in a later word: a value that only looks like an option
  /// (`X-Context: -JYdPMrNcz5…`, a Firebase push id) is no command's.
  static func isCommand(
    _ line: Range<Int>, holding piece: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    var words: [Range<Int>] = []
    var index = line.lowerBound
    while index < line.upperBound, words.count < 3 {
      while index < line.upperBound, isBlank(bytes[index]) { index += 1 }
      let start = index
      while index < line.upperBound, !isBlank(bytes[index]) { index += 1 }
      if index > start { words.append(start..<index) }
    }
    let token = (piece.lowerBound - 1)..<piece.upperBound
    dropPrompt(&words, besides: token, in: bytes)
    guard let program = words.first, !program.overlaps(token) else { return false }
    return isProgram(program, in: bytes)
  }

  /// The commands that read a password from standard input, each as its program (any when
  /// `nil`) and the words that say so (none when empty): `echo … | sudo -S …`, `… | passwd
  /// --stdin ada`, `… | chpasswd`, `… | docker login --password-stdin`, `openssl … -passin
  /// stdin`, `… | cryptsetup open …`, `mysql -p … <<< …`.
  private static let passwordReaders: [(program: String?, words: [String])] = [
    ("sudo", ["-S"]), ("sudo", ["--stdin"]), ("passwd", ["--stdin"]), ("chpasswd", []),
    ("cryptsetup", []), ("mysql", ["-p"]), ("mariadb", ["-p"]), ("smbpasswd", ["-s"]),
    (nil, ["--password-stdin"]), (nil, ["-passin", "stdin"]), (nil, ["-passin", "fd:0"]),
    (nil, ["--passphrase-fd", "0"]),
  ]

  /// Whether `token` is written to a command that reads a password from standard input
  /// (``passwordReaders``): an argument of `echo` or `printf` piped into it (`echo … | sudo -S
  /// …`), or a here-string after it (`sudo -S … <<< …`).
  private static func readsFromStandardInput(
    _ token: Range<Int>, on line: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    // The line's commands, split at `|`, `;`, `&&` and `||`, each a list of words.
    var commands: [[Range<Int>]] = [[]]
    var pipes: [Bool] = []
    var index = line.lowerBound
    while index < line.upperBound {
      let byte = bytes[index]
      if isBlank(byte) {
        index += 1
        continue
      }
      if byte == UInt8(ascii: "|") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: "&") {
        let doubled = index + 1 < line.upperBound && bytes[index + 1] == byte
        if byte != UInt8(ascii: "&") || doubled {
          pipes.append(byte == UInt8(ascii: "|") && !doubled)
          commands.append([])
          index += doubled ? 2 : 1
          continue
        }
      }
      let start = index
      while index < line.upperBound, !isBlank(bytes[index]), bytes[index] != UInt8(ascii: "|"),
        bytes[index] != UInt8(ascii: ";")
      {
        index += 1
      }
      commands[commands.count - 1].append(start..<index)
    }
    dropPrompt(&commands[0], besides: token, in: bytes)
    guard
      let holder = commands.firstIndex(where: { command in
        command.contains { $0.overlaps(token) }
      })
    else { return false }
    let command = commands[holder]
    // A here-string: `<<<` before the value, glued or a word apart.
    if let hereString = command.firstIndex(where: {
      UnsafeBufferPointer(rebasing: bytes[$0]).holds("<<<", at: 0)
    }), command[hereString].upperBound <= token.lowerBound || command[hereString].overlaps(token) {
      return readsPassword(Array(command[..<hereString]), in: bytes)
    }
    // An argument of `echo` or `printf`, piped into the next command.
    guard let program = command.first, !program.overlaps(token),
      ["echo", "printf"].contains(self.program(program, in: bytes)),
      holder < pipes.count, pipes[holder]
    else { return false }
    return readsPassword(commands[holder + 1], in: bytes)
  }

  /// Whether `command` is one of ``passwordReaders``.
  private static func readsPassword(_ command: [Range<Int>], in bytes: UnsafeBufferPointer<UInt8>)
    -> Bool
  {
    guard let first = command.first else { return false }
    let words = command.map {
      String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self)
    }
    let program = self.program(first, in: bytes)
    return passwordReaders.contains { reader in
      guard reader.program == nil || reader.program == program else { return false }
      guard !reader.words.isEmpty else { return true }
      return words.indices.contains { start in
        words[start...].starts(with: reader.words)
      }
    }
  }

  /// A program's name without its directory (`/usr/bin/sudo` is `sudo`), lower-cased.
  private static func program(_ word: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> String {
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[word]), as: UTF8.self)
    return String(text.split(separator: "/").last ?? "").lowercased()
  }

  /// The blank-separated word of `line` that holds `value`, without quotes around it.
  private static func token(
    around value: Range<Int>, on line: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>
  ) -> Range<Int> {
    var start = value.lowerBound
    while start > line.lowerBound, !isBlank(bytes[start - 1]) { start -= 1 }
    var end = value.upperBound
    while end < line.upperBound, !isBlank(bytes[end]) { end += 1 }
    while start < value.lowerBound, isQuote(bytes[start]) { start += 1 }
    return start..<end
  }

  /// An option spelled `-k`, `--log-stream`, `-storepass` or `/p`: dashes or a slash, then a
  /// letter, then letters, digits and dashes. A lone `-`, `--` or a negative number is none. A
  /// short option is a password's (`-k`, `-P`, `-a`); a long one names what it takes.
  private static func optionName(_ word: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>)
    -> String?
  {
    var index = word.lowerBound
    let slash = index < word.upperBound && bytes[index] == UInt8(ascii: "/")
    if slash {
      index += 1
    } else {
      while index < word.upperBound, index - word.lowerBound < 2,
        bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard index > word.lowerBound else { return nil }
    }
    guard index < word.upperBound, ASCIIByte.isLetter(bytes[index]) else { return nil }
    let nameStart = index
    while index < word.upperBound,
      ASCIIByte.isAlphanumeric(bytes[index]) || bytes[index] == UInt8(ascii: "-")
    {
      index += 1
    }
    guard index == word.upperBound else { return nil }
    guard index - nameStart > 1, !slash else { return "password" }
    return RedactionPlaceholder.name(
      from: String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<index]), as: UTF8.self)
        .lowercased())
  }

  /// An option that holds its value after `:` or `=` (`/p:`, `/password:`, `--flag=`), or a
  /// user before `%` (`ada%`, which `-U` takes as `user%password`).
  private static func gluedOption(_ prefix: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>)
    -> String?
  {
    guard let last = prefix.last else { return nil }
    switch bytes[last] {
    case UInt8(ascii: ":"), UInt8(ascii: "="):
      let option = prefix.lowerBound..<last
      guard !option.isEmpty,
        bytes[option.lowerBound] == UInt8(ascii: "/")
          || bytes[option.lowerBound] == UInt8(ascii: "-")
      else { return nil }
      return optionName(option, in: bytes)
    default:
      return nil
    }
  }

  /// Whether `line` is a command (its first word a program's name: lower case, a path, or
  /// after a prompt `$`, `#`, `>` or `%` or a label such as `X-Debug:`) with a word that logs in somewhere other than at
  /// `token`: `login`, `logon`, `user`, `passwd`, `auth`, or an option
  /// that names a user (`-u`, `-U`, `--user`, `--username`, `/user:…`, `/u:…`).
  private static func logsIn(
    _ line: Range<Int>, besides token: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    var words: [Range<Int>] = []
    var index = line.lowerBound
    while index < line.upperBound {
      while index < line.upperBound, isBlank(bytes[index]) { index += 1 }
      let start = index
      while index < line.upperBound, !isBlank(bytes[index]) { index += 1 }
      if index > start { words.append(start..<index) }
    }
    dropPrompt(&words, besides: token, in: bytes)
    guard let program = words.first, program != token, isProgram(program, in: bytes) else {
      return false
    }
    for word in words.dropFirst() where word != token {
      // Inside a JSON string, `/` may be written `\/`.
      let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[word]), as: UTF8.self)
        .replacing("\\/", with: "/")
      let lowered = text.lowercased()
      if loginWords.contains(lowered) || lowered.hasPrefix("/user:") || lowered.hasPrefix("/u:") {
        return true
      }
    }
    return false
  }

  /// Drops a prompt, or a label before the command (`X-Debug: `, `Run: `), from `words`.
  private static func dropPrompt(
    _ words: inout [Range<Int>], besides token: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>
  ) {
    while let first = words.first,
      first.count == 1 && "$#>%".utf8.contains(bytes[first.lowerBound])
        || bytes[first.upperBound - 1] == UInt8(ascii: ":") && first != token
    {
      words.removeFirst()
    }
  }

  private static let loginWords: Set<String> = [
    "login", "logon", "user", "passwd", "auth", "-u", "--user", "--username",
  ]

  /// A program's name as a shell line starts with it: lower-case letters, digits and `._-`, a
  /// letter among them (`7z`, not a date), or a path (`./deploy.sh`, `/usr/bin/mysql`,
  /// `~/bin/tool`).
  private static func isProgram(_ word: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let first = bytes[word.lowerBound]
    guard
      ASCIIByte.isLetter(first) && !ASCIIByte.isUpper(first) || "./~".utf8.contains(first)
        || ASCIIByte.isDigit(first) && word.contains(where: { ASCIIByte.isLetter(bytes[$0]) })
    else { return false }
    return word.allSatisfy { index in
      let byte = bytes[index]
      return ASCIIByte.isDigit(byte) || ASCIIByte.isLetter(byte) && !ASCIIByte.isUpper(byte)
        || "._-/~".utf8.contains(byte)
    }
  }

  private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

  private static func isQuote(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
  }
}
