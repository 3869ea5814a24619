/// Passwords that well-known programs take where no credential's name stands beside them, and
/// that read as words a person chose (`Quillon2003!`), so the shape of a random token
/// (``CommandArguments``) does not find them either: a short option (`sqlcmd -P …`,
/// `ssh-keygen -N …`, `redis-cli -a …`, `7z a -p…`), the part of an option's argument after a
/// prefix or a separator (`openssl … -passout pass:…`, `smbclient -U ada%…`), a word at its
/// place after a subcommand (`rabbitmqctl add_user ada …`, `mysqladmin password …`, `net user
/// ada …`), the password half of `user:password` written to `chpasswd`, and the password
/// argument of a well-known call (`db.auth("ada", "…")`, `mysqli_connect(host, user, "…")`).
///
/// Each program says in ``programs`` where its password goes, from its manual. A command is
/// found from each ` -` that starts one of the table's options (the program is the nearest
/// word before it on its line that the table names) and from each place a program that takes
/// its password as a word is named, both by `memmem`/`memchr`: the bytes between are never
/// read here. Options whose own name says what they take (`--password …`, `-storepass …`) are
/// read by name, for any program (``TextAssignments``).
enum ProgramPasswords {
  /// Which part of an argument is the password.
  enum Part: Equatable {
    case whole
    /// After this prefix, and only when the argument starts with it (`pass:` in openssl's
    /// `-passin pass:…`; `env:NAME` and `file:path` name no password).
    case afterPrefix(String)
    /// After the first of this byte, and only when the argument holds it (`ada%…`).
    case afterSeparator(UInt8)
    /// Between the first `/` and the last `@` or the end (`sqlplus ada/…@db`).
    case userSlashPassword
  }

  /// An option that takes a password: after a blank (`-P …`), glued to it (`-p…`), or both.
  struct Option {
    var name: String
    var spaced = true
    var glued = false
    var part = Part.whole
  }

  /// A word that is a password: the `index`th word (from 1) that is no option after the word
  /// `after` (after the program when `nil`), when the command's short options hold every
  /// letter of `needsFlags` and none of `lacksFlags` (htpasswd's `-b`, batch mode, and `-n`).
  struct Word {
    var after: String?
    var index: Int
    var part = Part.whole
    var needsFlags = ""
    var lacksFlags = ""
  }

  /// A program (any of `names`, lower-cased, without a directory or `.exe`) and where it
  /// takes its password. `requires` is a word the command must hold for its options to
  /// count (`docker login -p …`; `docker run -p 80:80` maps a port). `windowsSwitches`: a word
  /// that starts with `/` is a switch, not an argument (`net user ada … /add`).
  struct Program {
    var names: [String]
    var options: [Option] = []
    var words: [Word] = []
    var requires: String?
    var windowsSwitches = false
    /// Whether the program reads `user:password` lines from standard input (`chpasswd`).
    var readsPairs = false
  }

  /// The programs, from their manuals: where each takes a password on its command line.
  static let programs: [Program] = [
    Program(names: ["sqlcmd", "bcp", "osql"], options: [Option(name: "-P", glued: true)]),
    Program(
      names: ["ssh-keygen"],
      options: [Option(name: "-N", glued: true), Option(name: "-P", glued: true)]),
    Program(
      names: [
        "mysql", "mysqldump", "mariadb", "mariadb-dump", "mysqlimport", "mysqlcheck",
        "mysqlshow", "mysqlpump", "mysqlslap",
      ],
      options: [Option(name: "-p", spaced: false, glued: true)]),
    Program(
      names: ["mysqladmin", "mariadb-admin"],
      options: [Option(name: "-p", spaced: false, glued: true)],
      words: [Word(after: "password", index: 1)]),
    Program(
      names: ["rabbitmqctl"],
      words: [
        Word(after: "add_user", index: 2), Word(after: "change_password", index: 2),
        Word(after: "authenticate_user", index: 2),
      ]),
    Program(
      names: ["htpasswd"],
      words: [
        Word(after: nil, index: 3, needsFlags: "b", lacksFlags: "n"),
        Word(after: nil, index: 2, needsFlags: "bn"),
      ]),
    Program(names: ["sshpass"], options: [Option(name: "-p", glued: true)]),
    Program(names: ["redis-cli"], options: [Option(name: "-a")]),
    Program(
      names: ["docker", "podman", "buildah", "nerdctl", "helm", "az"],
      options: [Option(name: "-p")], requires: "login"),
    Program(
      names: ["openssl"],
      options: [
        Option(name: "-passin", part: .afterPrefix("pass:")),
        Option(name: "-passout", part: .afterPrefix("pass:")),
        Option(name: "-pass", part: .afterPrefix("pass:")),
        Option(name: "-password", part: .afterPrefix("pass:")),
        Option(name: "-k"),
      ]),
    Program(names: ["zip", "unzip", "zipcloak"], options: [Option(name: "-P", glued: true)]),
    Program(
      names: ["7z", "7za", "7zr", "rar", "unrar"],
      options: [Option(name: "-p", spaced: false, glued: true)]),
    Program(
      names: ["smbclient", "rpcclient", "smbget", "smbcacls", "smbmap", "smbpasswd"],
      options: [
        Option(name: "-U", glued: true, part: .afterSeparator(UInt8(ascii: "%"))),
        Option(
          name: "--user=", spaced: false, glued: true, part: .afterSeparator(UInt8(ascii: "%"))),
      ]),
    Program(names: ["useradd", "usermod"], options: [Option(name: "-p")]),
    Program(names: ["chpasswd"], readsPairs: true),
    Program(
      names: [
        "mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport",
        "mongostat", "mongotop", "mongofiles",
      ],
      options: [Option(name: "-p")]),
    Program(
      names: [
        "ldapsearch", "ldapadd", "ldapmodify", "ldapdelete", "ldapmodrdn", "ldapcompare",
        "ldapwhoami", "ldappasswd", "ldapexop",
      ],
      options: [Option(name: "-w", glued: true)]),
    Program(names: ["ipmitool"], options: [Option(name: "-P")]),
    Program(
      names: ["mosquitto_pub", "mosquitto_sub", "mosquitto_rr"], options: [Option(name: "-P")]),
    Program(
      names: ["lftp"], options: [Option(name: "-u", part: .afterSeparator(UInt8(ascii: ",")))]),
    Program(names: ["sqlplus"], words: [Word(after: nil, index: 1, part: .userSlashPassword)]),
    Program(names: ["wpa_passphrase"], words: [Word(after: nil, index: 2)]),
    Program(names: ["nmcli"], words: [Word(after: "password", index: 1)]),
    Program(names: ["net"], words: [Word(after: "user", index: 2)], windowsSwitches: true),
  ]

  /// Each table program by name.
  private static let programsByName: [String: Program] = {
    var byName: [String: Program] = [:]
    for program in programs {
      for name in program.names { byName[name] = program }
    }
    return byName
  }()

  /// The letters that start a table option after its dash (`P` of `-P`, `p` of `-passin`).
  private static let optionInitials: Set<UInt8> = Set(
    programs.flatMap { $0.options.compactMap { $0.name.utf8.first { $0 != UInt8(ascii: "-") } } }
  )

  /// Pieces of the names of the programs that take a password as a word or read pairs, as
  /// searched for: these commands may hold no option at all (`rabbitmqctl add_user ada …`). A
  /// piece stands for every name that holds it (`admin` for `mysqladmin` and `mariadb-admin`,
  /// `passwd` for `htpasswd` and `chpasswd`; `net` with the blank after it), so a large body is
  /// read eleven times rather than once a name; the word holding a hit is looked up whole.
  private static let namedAnchors: [[UInt8]] = [
    "admin", "passwd", "rabbitmq", "sqlplus", "wpa_pass", "nmcli", "net ", "NET ", "Net ",
    "et.exe ", "ET.EXE ",
  ].map { Array($0.utf8) }

  /// The calls whose argument at `index` (from 1) is a password when it is a string literal:
  /// MongoDB's shell (`db.auth(user, password)`, any database's `.auth`, as superagent's
  /// `.auth(user, password)` too), PHP's and Java's database connections, LDAP binds, and the
  /// `login` of Python's `smtplib`, `ftplib` and `imaplib`.
  static let calls: [(callee: String, index: Int)] = [
    (".auth(", 2), ("changeUserPassword(", 2), ("mysqli_connect(", 3), ("mysql_connect(", 3),
    ("new mysqli(", 3), ("new PDO(", 3), ("getConnection(", 3), ("ldap_bind(", 3),
    (".login(", 2),
  ]

  private static let spaceDash: [UInt8] = [0x20, 0x2D]  // " -"

  /// ``calls`` as the bytes searched for.
  private static let callNeedles = calls.map { (Array($0.callee.dropLast().utf8), $0.index) }

  /// The byte ranges of the passwords in `bytes`: commands' only when `readingCommands`, calls'
  /// always.
  static func ranges(in bytes: UnsafeBufferPointer<UInt8>, readingCommands: Bool = true)
    -> [Range<Int>]
  {
    let raw = UnsafeRawBufferPointer(bytes)
    var starts: Set<Int> = []
    for hit in readingCommands ? ByteSearch.ranges(of: spaceDash, in: raw) : [] {
      let dash = hit.lowerBound + 1
      var letter = dash + 1
      if letter < bytes.count, bytes[letter] == UInt8(ascii: "-") { letter += 1 }
      guard letter < bytes.count, optionInitials.contains(bytes[letter]),
        let start = programStart(before: dash, in: bytes)
      else { continue }
      starts.insert(start)
    }
    for anchor in readingCommands ? namedAnchors : [] {
      for hit in ByteSearch.rangesIfAny(of: anchor, in: raw) {
        var start = hit.lowerBound
        while start > 0, hit.lowerBound - start < 32, isProgramByte(bytes[start - 1]) {
          start -= 1
        }
        if programsByName[
          programName(
            CommandWord(
              written: start..<wordEnd(start, in: bytes),
              inner: start..<wordEnd(start, in: bytes)), in: bytes)] != nil
        {
          starts.insert(start)
        }
      }
    }
    var found: [Range<Int>] = []
    for start in starts.sorted() {
      found += passwords(inCommandAt: start, in: bytes)
    }
    // Each call from its `(`, found by `memchr`: the callee is what stands before it.
    var from = 0
    while let open = bytes.index(of: UInt8(ascii: "("), in: from..<bytes.count) {
      from = open + 1
      for (callee, index) in callNeedles where callee.count <= open {
        let start = open - callee.count
        guard
          callee.withUnsafeBytes({ memcmp(bytes.baseAddress! + start, $0.baseAddress!, $0.count) })
            == 0
        else { continue }
        if let argument = stringArgument(index, after: from, in: bytes) {
          found.append(argument)
        }
        break
      }
    }
    return found
  }

  /// A byte of a program's word as a line writes it: letters, digits, `_-.`, and a path's `/`
  /// or `\`.
  private static func isProgramByte(_ byte: UInt8) -> Bool {
    ASCIIByte.isAlphanumeric(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
      || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\")
  }

  /// Where the word starting at `start` ends: at a blank, a quote or a line's end.
  private static func wordEnd(_ start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var end = start
    while end < bytes.count, end - start < 64, isProgramByte(bytes[end]) { end += 1 }
    return end
  }

  // MARK: Commands

  /// A word of a command: its bytes as written, and inside its quotes when quoted.
  struct CommandWord {
    var written: Range<Int>
    var inner: Range<Int>
  }

  /// The passwords the command whose program word starts at `start` passes.
  private static func passwords(inCommandAt start: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> [Range<Int>]
  {
    guard startsCommand(start, in: bytes) else { return [] }
    let words = commandWords(from: start, in: bytes)
    guard let first = words.first, let program = programsByName[programName(first, in: bytes)]
    else { return [] }
    func text(_ word: CommandWord) -> String {
      String(decoding: UnsafeBufferPointer(rebasing: bytes[word.written]), as: UTF8.self)
    }
    var found: [Range<Int>] = []
    let arguments = Array(words.dropFirst())
    let texts = arguments.map(text)
    let required = program.requires.map { word in texts.contains { $0.lowercased() == word } }
    if required ?? true {
      for (index, word) in texts.enumerated() where word.hasPrefix("-") {
        for option in program.options {
          if option.spaced, word == option.name, index + 1 < arguments.count {
            let value = arguments[index + 1]
            // Another option: this one prompts (`mongosh -u ada -p --quiet`).
            guard !texts[index + 1].hasPrefix("-"), isValue(value.inner, in: bytes) else {
              continue
            }
            if let part = part(option.part, of: value.inner, in: bytes) { found.append(part) }
          } else if option.glued, word.hasPrefix(option.name),
            word.utf8.count > option.name.utf8.count
          {
            let written = arguments[index].written
            let value = unquoted(
              (written.lowerBound + option.name.utf8.count)..<written.upperBound, in: bytes)
            guard isValue(value, in: bytes) else { continue }
            if let part = part(option.part, of: value, in: bytes) { found.append(part) }
          }
        }
      }
    }
    // Short options' letters (`-bc` is `-b -c`), for the word slots that depend on them.
    let flags = Set(
      texts.filter { $0.hasPrefix("-") && !$0.hasPrefix("--") }.flatMap { $0.utf8.dropFirst() })
    for slot in program.words
    where slot.needsFlags.utf8.allSatisfy(flags.contains)
      && !slot.lacksFlags.utf8.contains(where: flags.contains)
    {
      var from = 0
      if let after = slot.after {
        guard let subcommand = texts.firstIndex(where: { $0.lowercased() == after }) else {
          continue
        }
        from = subcommand + 1
      }
      let positional = arguments[from...].indices.filter { index in
        let word = texts[index]
        // Inside a JSON string, `/` may be written `\/`.
        return !word.hasPrefix("-")
          && !(program.windowsSwitches && (word.hasPrefix("/") || word.hasPrefix("\\/")))
      }
      guard slot.index <= positional.count else { continue }
      let value = arguments[positional[slot.index - 1]].inner
      guard isValue(value, in: bytes), let part = part(slot.part, of: value, in: bytes) else {
        continue
      }
      found.append(part)
    }
    if program.readsPairs, let pair = pairWritten(to: start, after: words, in: bytes) {
      found.append(pair)
    }
    return found
  }

  /// The password of the `user:password` line written to the command at `start`: the
  /// argument of an `echo` or `printf` piped into it, or a here-string after it (`<<< …`).
  private static func pairWritten(
    to start: Int, after words: [CommandWord], in bytes: UnsafeBufferPointer<UInt8>
  ) -> Range<Int>? {
    var line: CommandWord?
    if let hereString = words.firstIndex(where: {
      UnsafeBufferPointer(rebasing: bytes[$0.written]).holds("<<<", at: 0)
    }) {
      let word = words[hereString]
      line =
        word.written.count > 3
        ? CommandWord(
          written: (word.written.lowerBound + 3)..<word.written.upperBound,
          inner: unquoted((word.written.lowerBound + 3)..<word.written.upperBound, in: bytes))
        : (hereString + 1 < words.count ? words[hereString + 1] : nil)
    } else {
      // Back over blanks and `sudo` to the `|`.
      var index = start
      while index > 0, bytes[index - 1] == 0x20 || bytes[index - 1] == 0x09 { index -= 1 }
      if index >= 4, UnsafeBufferPointer(rebasing: bytes[(index - 4)..<index]).holds("sudo", at: 0)
      {
        index -= 4
        while index > 0, bytes[index - 1] == 0x20 || bytes[index - 1] == 0x09 { index -= 1 }
      }
      guard index > 0, bytes[index - 1] == UInt8(ascii: "|"),
        index < 2 || bytes[index - 2] != UInt8(ascii: "|")
      else { return nil }
      let pipe = index - 1
      guard let writer = programStart(before: pipe, in: bytes, named: ["echo", "printf"]) else {
        return nil
      }
      let written = commandWords(from: writer, in: bytes).dropFirst()
        .filter { !bytes[$0.written.lowerBound].isDash }
      line = written.last
    }
    guard let line, let colon = bytes.index(of: UInt8(ascii: ":"), in: line.inner) else {
      return nil
    }
    var end = colon + 1
    // To the end of the first line (`\n` written in a `printf` argument ends it).
    while end < line.inner.upperBound, bytes[end] != UInt8(ascii: "\\"), bytes[end] != 0x0A {
      end += 1
    }
    let value = (colon + 1)..<end
    return isValue(value, in: bytes) ? value : nil
  }

  /// The words of the command whose first word starts at `start`, up to the end of its line,
  /// a `|`, `;` or `&`, a quote that closes the string the command is written in, or a `\n`
  /// written in one. A word in quotes (`"…"`, `'…'`, or `\"…\"` inside a JSON string) runs to
  /// its closing quote; a bare word ends at a blank or a quote.
  static func commandWords(from start: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> [CommandWord]
  {
    var words: [CommandWord] = []
    var index = start
    let limit = min(bytes.count, start + 1024)
    func endsCommand(_ at: Int) -> Bool {
      let byte = bytes[at]
      if byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: "|") || byte == UInt8(ascii: ";")
        || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "`") || byte == UInt8(ascii: ")")
      {
        return true
      }
      // `\n` or `\r` written in a string.
      return byte == UInt8(ascii: "\\") && at + 1 < limit
        && (bytes[at + 1] == UInt8(ascii: "n") || bytes[at + 1] == UInt8(ascii: "r"))
    }
    while index < limit, words.count < 64 {
      while index < limit, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
      guard index < limit, !endsCommand(index) else { break }
      let wordStart = index
      // A quoted word, `\"…\"` included.
      let escaped =
        bytes[index] == UInt8(ascii: "\\") && index + 1 < limit
        && (bytes[index + 1] == UInt8(ascii: "\"") || bytes[index + 1] == UInt8(ascii: "'"))
      let opening = escaped ? index + 1 : index
      if bytes[opening] == UInt8(ascii: "\"") || bytes[opening] == UInt8(ascii: "'") {
        let quote = bytes[opening]
        var close = opening + 1
        while close < limit, bytes[close] != quote, bytes[close] != 0x0A { close += 1 }
        let innerEnd = escaped ? close - 1 : close
        // Closed, and the closing quote ends the word: else the quote closes the string the
        // command is written in.
        guard close < limit, bytes[close] == quote,
          !escaped || bytes[innerEnd] == UInt8(ascii: "\\"),
          innerEnd >= opening + 1,
          close + 1 >= limit || endsQuotedWord(bytes[close + 1])
        else { break }
        words.append(CommandWord(written: wordStart..<(close + 1), inner: (opening + 1)..<innerEnd))
        index = close + 1
        continue
      }
      while index < limit, !isWordEnd(bytes[index]), bytes[index] != UInt8(ascii: "\""),
        bytes[index] != UInt8(ascii: "'"),
        !(bytes[index] == UInt8(ascii: "\\") && index + 1 < limit
          && "\"'nrt".utf8.contains(bytes[index + 1]))
      {
        index += 1
      }
      // A quote glued inside a word (`-P"…"`, `pass:'…'`): the word runs to its closing quote.
      if index < limit, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'"),
        index > wordStart
      {
        let quote = bytes[index]
        var close = index + 1
        while close < limit, bytes[close] != quote, bytes[close] != 0x0A { close += 1 }
        if close < limit, bytes[close] == quote,
          close + 1 >= limit || endsQuotedWord(bytes[close + 1])
        {
          index = close + 1
        }
      }
      guard index > wordStart else { break }
      words.append(CommandWord(written: wordStart..<index, inner: wordStart..<index))
      if index < limit, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
        break
      }
    }
    return words
  }

  private static func isQuote(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
  }

  private static func isWordEnd(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ";")
      || byte == UInt8(ascii: "|") || byte == UInt8(ascii: "&")
  }

  /// Whether `byte` may follow a closing quote that ends a word: a word's end, another quote,
  /// a backslash (`\"` closing a JSON string), or what closes a list or a call.
  private static func endsQuotedWord(_ byte: UInt8) -> Bool {
    isWordEnd(byte) || isQuote(byte) || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: ",")
      || byte == UInt8(ascii: ")") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
  }

  /// The start of the nearest word before `dash` on its line (and in its command: not before a
  /// `|` or `;`) that names a table program, or one of `named`.
  private static func programStart(
    before dash: Int, in bytes: UnsafeBufferPointer<UInt8>, named: Set<String>? = nil
  ) -> Int? {
    var segmentStart = dash
    while segmentStart > 0, dash - segmentStart < 1024 {
      let byte = bytes[segmentStart - 1]
      if byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: "|") || byte == UInt8(ascii: ";") {
        break
      }
      segmentStart -= 1
    }
    var best: Int?
    var index = segmentStart
    while index < dash {
      while index < dash, isBlankOrQuote(bytes[index]) { index += 1 }
      let start = index
      while index < dash, !isBlankOrQuote(bytes[index]) { index += 1 }
      guard index > start else { continue }
      let word = CommandWord(written: start..<index, inner: start..<index)
      let name = programName(word, in: bytes)
      if named.map({ $0.contains(name) }) ?? (programsByName[name] != nil) {
        best = programNameStart(word, in: bytes)
      }
    }
    return best
  }

  private static func isBlankOrQuote(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
      || byte == UInt8(ascii: "(") || byte == UInt8(ascii: "`")
  }

  /// Where the program's name in `word` starts: after a `$(`, a quote or a backslash-quote.
  private static func programNameStart(_ word: CommandWord, in bytes: UnsafeBufferPointer<UInt8>)
    -> Int
  {
    var start = word.written.lowerBound
    while start < word.written.upperBound,
      "\\\"'($`".utf8.contains(bytes[start])
    {
      start += 1
    }
    return start
  }

  /// A word's program name: without a directory, a `.exe`, quotes before it, lower-cased.
  private static func programName(_ word: CommandWord, in bytes: UnsafeBufferPointer<UInt8>)
    -> String
  {
    let start = programNameStart(word, in: bytes)
    guard start < word.written.upperBound, word.written.upperBound - start <= 40 else {
      return ""
    }
    var name = String(
      decoding: UnsafeBufferPointer(rebasing: bytes[start..<word.written.upperBound]),
      as: UTF8.self
    ).lowercased()
    if let slash = name.lastIndex(where: { $0 == "/" || $0 == "\\" }) {
      name = String(name[name.index(after: slash)...])
    }
    if name.hasSuffix(".exe") { name.removeLast(4) }
    return name
  }

  /// Whether the program word at `start` (its directory included) starts a command: it starts
  /// its line, or follows a prompt or a label (`$`, `#`, `>`, `:`), a quote, a backtick, `(`,
  /// `|`, `;`, `&`, a `\n` written in a string, or a word that runs a command (`sudo`, `exec`,
  /// `env`, `nohup`, `time`, `doas`). A sentence that names the program (`use zip -P to set
  /// one`, `net user growth`) runs none.
  private static func startsCommand(_ start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = start
    while index > 0, start - index < 256, !isCommandBoundary(bytes[index - 1]),
      bytes[index - 1] != 0x20, bytes[index - 1] != 0x09
    {
      index -= 1
    }
    while index > 0, bytes[index - 1] == 0x20 || bytes[index - 1] == 0x09 { index -= 1 }
    guard index > 0 else { return true }
    let before = bytes[index - 1]
    if isCommandBoundary(before) || "$#>:".utf8.contains(before) { return true }
    if before == UInt8(ascii: "n"), index >= 2, bytes[index - 2] == UInt8(ascii: "\\") {
      return true
    }
    var wordStart = index - 1
    while wordStart > 0, index - wordStart < 8, ASCIIByte.isLetter(bytes[wordStart - 1]) {
      wordStart -= 1
    }
    let word = String(
      decoding: UnsafeBufferPointer(rebasing: bytes[wordStart..<index]), as: UTF8.self)
    return launchers.contains(word) && startsCommand(wordStart, in: bytes)
  }

  private static let launchers: Set<String> = ["sudo", "exec", "env", "nohup", "time", "doas"]

  private static func isCommandBoundary(_ byte: UInt8) -> Bool {
    byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
      || byte == UInt8(ascii: "`") || byte == UInt8(ascii: "(") || byte == UInt8(ascii: "|")
      || byte == UInt8(ascii: ";") || byte == UInt8(ascii: "&")
  }

  /// `range` inside its quotes, when quoted whole (`"…"`, `'…'`).
  private static func unquoted(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>)
    -> Range<Int>
  {
    guard range.count >= 2 else { return range }
    let first = bytes[range.lowerBound]
    let last = bytes[range.upperBound - 1]
    guard first == last, first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") else {
      return range
    }
    return (range.lowerBound + 1)..<(range.upperBound - 1)
  }

  /// Whether `value` can be a password written on a command line: not empty, not a variable's
  /// expansion (`$PW`, `%PW%`), a redirection, a prompt's `*` or a placeholder.
  private static func isValue(_ value: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = value.first.map({ bytes[$0] }) else { return false }
    if "$<>*".utf8.contains(first), value.count == 1 || first != UInt8(ascii: "*") {
      return false
    }
    if first == UInt8(ascii: "%"), bytes[value.upperBound - 1] == UInt8(ascii: "%") {
      return false
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[value]), as: UTF8.self)
    return !RedactionPlaceholder.isPresent(in: text) && !text.contains("redacted")
  }

  /// The part of `value` that `part` says is the password, or `nil` when it holds none.
  private static func part(
    _ part: Part, of value: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>
  ) -> Range<Int>? {
    let result: Range<Int>
    switch part {
    case .whole:
      result = value
    case .afterPrefix(let prefix):
      let count = prefix.utf8.count
      guard value.count > count,
        String(
          decoding: UnsafeBufferPointer(
            rebasing: bytes[value.lowerBound..<(value.lowerBound + count)]),
          as: UTF8.self
        ).lowercased() == prefix
      else { return nil }
      result = (value.lowerBound + count)..<value.upperBound
    case .afterSeparator(let separator):
      guard let at = bytes.index(of: separator, in: value) else { return nil }
      result = (at + 1)..<value.upperBound
    case .userSlashPassword:
      guard let slash = bytes.index(of: UInt8(ascii: "/"), in: value) else { return nil }
      var end = value.upperBound
      while end > slash + 1, bytes[end - 1] != UInt8(ascii: "@") { end -= 1 }
      if end == slash + 1 { end = value.upperBound } else { end -= 1 }
      result = (slash + 1)..<end
    }
    return result.isEmpty ? nil : unquoted(result, in: bytes)
  }

  // MARK: Calls

  /// The string literal that is the call's `index`th argument (from 1), inside its quotes,
  /// when every argument up to it is a string literal or a bare word (a variable) and it is
  /// one; `nil` otherwise.
  private static func stringArgument(
    _ index: Int, after open: Int, in bytes: UnsafeBufferPointer<UInt8>
  ) -> Range<Int>? {
    var position = open
    let limit = min(bytes.count, open + 512)
    for argument in 1...index {
      while position < limit, bytes[position] == 0x20 || bytes[position] == 0x09 {
        position += 1
      }
      guard position < limit else { return nil }
      let escaped = bytes[position] == UInt8(ascii: "\\") && position + 1 < limit
      let opening = escaped ? position + 1 : position
      let quote = bytes[opening]
      if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
        var close = opening + 1
        while close < limit, bytes[close] != quote, bytes[close] != 0x0A {
          if bytes[close] == UInt8(ascii: "\\"), !escaped { close += 1 }
          close += 1
        }
        guard close < limit, bytes[close] == quote else { return nil }
        let inner = (opening + 1)..<(escaped ? close - 1 : close)
        if argument == index {
          return inner.isEmpty || !isValue(inner, in: bytes) ? nil : inner
        }
        position = close + 1
      } else {
        // A variable or an expression: to the next comma.
        guard argument < index else { return nil }
        while position < limit, bytes[position] != UInt8(ascii: ","),
          bytes[position] != UInt8(ascii: ")"), bytes[position] != 0x0A
        {
          position += 1
        }
      }
      while position < limit, bytes[position] == 0x20 || bytes[position] == 0x09 {
        position += 1
      }
      guard position < limit, bytes[position] == UInt8(ascii: ",") else { return nil }
      position += 1
    }
    return nil
  }
}

extension UInt8 {
  fileprivate var isDash: Bool { self == UInt8(ascii: "-") }
}
