import Foundation

/// Secret values known by value rather than found by a rule: those a test declares
/// (``Redaction/redactingValues(_:)``) and those in the environment of this process under a
/// credential's name (``Redaction/environmentValueNames``).
///
/// A known value is searched for in every byte a cassette, an attachment, a report or the
/// `understudy` tool writes or prints, in every spelling ``ValueSpellings`` lists, and replaced
/// by `<redacted:NAME>` (in a cassette) or masked (in a log). It is the one mechanism that does
/// not depend on where a value stands: a token in a URL path, in a header's name or in a file
/// name is found as surely as one in an `Authorization` header.
package enum KnownValues {
  /// The shortest environment value taken as a secret: shorter ones (`1`, `true`, `us-east-1`
  /// is 9) are settings more often than secrets, and would replace everyday text.
  static let minimumEnvironmentLength = 8

  /// Whether an environment variable named `name` holds a credential by the conventions
  /// services and CI systems name them with, read word by word (words split at `_`, `-` and
  /// `.`, in any case): a word holding `SECRET`, `PASSWORD`, `PASSWD`, `PASSPHRASE` or
  /// `CREDENTIAL`; a word `TOKEN` or `TOKENS`, `PAT`, `DSN`, `PASS`, `APIKEY` or `PRIVATEKEY`;
  /// `KEY` or `KEYS` as the last word (`STRIPE_KEY`, `AWS_SECRET_ACCESS_KEY`); and the connection URLs that carry a
  /// password (`DATABASE_URL`, `REDIS_URL`, `MONGODB_URI`, `AMQP_URL`, a `*_CONNECTION_STRING`,
  /// a `*_WEBHOOK_URL`); and any name the one judgement of names reads as a credential's
  /// (``CredentialWords``: `MYSQL_PWD`, `LDAP_BIND_PW`, `NPM_CONFIG__AUTH`). A name whose last
  /// word says where a secret is rather than what it is (`*_FILE`, `*_PATH`, `*_DIR`, `*_SOCK`,
  /// `*_ID`) is not one: `AWS_ACCESS_KEY_ID`, `GITHUB_TOKEN_FILE` and `SSH_AUTH_SOCK` hold no
  /// secret.
  static func isCredentialVariable(_ name: String) -> Bool {
    let words = name.uppercased().split { $0 == "_" || $0 == "-" || $0 == "." }.map(String.init)
    guard let last = words.last, !["FILE", "PATH", "DIR", "SOCK", "ID"].contains(last) else {
      return false
    }
    let containing = ["SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL"]
    if words.contains(where: { word in containing.contains { word.contains($0) } }) { return true }
    let whole: Set<String> = ["TOKEN", "TOKENS", "PAT", "DSN", "PASS", "APIKEY", "PRIVATEKEY"]
    if words.contains(where: whole.contains) || last == "KEY" || last == "KEYS" { return true }
    let urls: Set<String> = [
      "DATABASE_URL", "DB_URL", "REDIS_URL", "MONGODB_URI", "MONGO_URL", "AMQP_URL",
      "RABBITMQ_URL", "BROKER_URL", "CONNECTION_STRING", "WEBHOOK_URL",
    ]
    if words.count >= 2 && urls.contains(words.suffix(2).joined(separator: "_")) { return true }
    // The shell's working directories are paths, whatever their names read as.
    if name == "PWD" || name == "OLDPWD" { return false }
    return CredentialWords.isCredential(name, at: .jsonMember)
  }

  /// `value` as a secret is meant: without the white space and line break a shell or a file
  /// leaves around it (`$(cat token.txt)` keeps none, a `.env` line may), and without one pair
  /// of quotes around it (`docker --env-file` keeps `TOKEN="…"`'s quotes).
  package static func normalized(_ value: String) -> String {
    var text = value.trimmingCharacters(in: .whitespacesAndNewlines)
    if text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first {
      text = String(text.dropFirst().dropLast())
    }
    return text
  }

  /// The credential-named variables of `environment` with values long enough to be secrets,
  /// by name.
  static func credentials(in environment: [String: String]) -> [String: String] {
    environment.mapValues(normalized).filter { name, value in
      value.count >= minimumEnvironmentLength && isCredentialVariable(name)
        && !value.allSatisfy { $0 == "*" || $0 == "x" || $0 == "X" }
        // A number is a setting (`RANDOM_SEED=12345678`, a port, a count) far more often, and
        // an absolute path says where a secret is.
        && !value.allSatisfy(\.isNumber) && !value.hasPrefix("/")
    }
  }

  /// This process's credential variables, read once: the environment of a test run does not
  /// change while it runs, and reading it per cassette would cost a copy of it each time.
  static let environment: [String: String] = credentials(in: ProcessInfo.processInfo.environment)

  /// The environment's values, spelled once for every search that needs them.
  static let environmentEchoes: RedactionEchoes = echoes(for: environment)

  /// Values declared by the redaction of any cassette made in this process, with the
  /// environment's, so
  /// that every report and every line the library prints masks them, not only the cassette
  /// whose redaction declared them: a value secret in one test is secret in the log they share.
  private static let declared = Locked(Declared())

  private static let spelled = Locked([[String: String]: RedactionEchoes]())

  private struct Declared {
    var values: Set<String> = []
    /// Each declared value by its name, the first name it was declared under.
    var byName: [String: String] = [:]
    var echoes = KnownValues.environmentEchoes
    /// ``echoes`` and the values of every redaction compiled in this process.
    var names = KnownValues.environmentEchoes
    var valuesForNames: Set<String> = []
  }

  /// `values` and the secrets each holds apart (``parts(of:named:)``), each part under the name
  /// its placeholder takes; a name `values` has already keeps its own value.
  static func withParts(_ values: [String: String]) -> [String: String] {
    var all = values
    for (name, value) in values.sorted(by: { $0.key < $1.key }) {
      for part in parts(of: value, named: name) where all[part.name] == nil {
        all[part.name] = part.value
      }
    }
    return all
  }

  /// The secrets a known value holds that a service may hand back alone, each named after the
  /// value's name: a URL's password (`redis://:pw@cache:6379/0`, as written and decoded) as
  /// `NAME.password`, and each value of a URL's query, of a connection string
  /// (`Server=db;User Id=sa;Password=pw;`) or of a `key=value` list separated by spaces
  /// (`host=db password=pw`) whose key is a credential's name by the rules' judgement
  /// (``CredentialName/isCredential(_:at:)`` for a parameter), as `NAME.key`. Parts shorter
  /// than ``Redaction/minimumEchoLength`` are left out: they would replace everyday text.
  static func parts(of value: String, named name: String) -> [(name: String, value: String)] {
    guard value.contains("=") || value.contains("@") else { return [] }
    var found: [(name: String, value: String)] = []
    func add(_ part: Substring, as partName: some StringProtocol) {
      var text = part.trimmingCharacters(in: .whitespaces)
      if text.count >= 2, let first = text.first, first == "\"" || first == "'",
        text.last == first
      {
        text = String(text.dropFirst().dropLast())
      }
      let partName = "\(name).\(partName.trimmingCharacters(in: .whitespaces))"
      // Decoded: its percent-encoded form is one of its spellings.
      let form = text.removingPercentEncoding ?? text
      if form.count >= Redaction.minimumEchoLength, form != value,
        !found.contains(where: { $0.value == form || $0.name == partName })
      {
        found.append((partName, form))
      }
    }
    var rest = Substring(value)
    if let scheme = value.range(of: "://") {
      let afterScheme = value[scheme.upperBound...]
      let authority = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
      if let at = authority.lastIndex(of: "@") {
        let userinfo = authority[..<at]
        if let colon = userinfo.firstIndex(of: ":") {
          add(userinfo[userinfo.index(after: colon)...], as: "password")
        }
      }
      // The query's pairs; a path holds none.
      guard let query = afterScheme.firstIndex(of: "?") else { return found }
      rest = afterScheme[afterScheme.index(after: query)...].prefix { $0 != "#" }
    }
    for segment in rest.split(whereSeparator: { $0 == ";" || $0 == "&" }) {
      // `host=db password=pw`: pairs apart at spaces when a segment holds more than one.
      let pairs =
        segment.filter { $0 == "=" }.count > 1 ? segment.split(separator: " ") : [segment]
      for pair in pairs {
        guard let equals = pair.firstIndex(of: "=") else { continue }
        let key = pair[..<equals].trimmingCharacters(in: .whitespaces)
        let decodedKey = key.removingPercentEncoding ?? key
        guard !key.isEmpty, CredentialName.isCredential(decodedKey, at: .parameter) else {
          continue
        }
        add(pair[pair.index(after: equals)...], as: decodedKey)
      }
    }
    return found
  }

  /// Adds `values` to those every report masks.
  package static func declare(_ values: [String: String]) {
    guard !values.isEmpty else { return }
    let values = withParts(values)
    declared.withLock { declared in
      for (name, value) in values.sorted(by: { $0.key < $1.key })
      where declared.values.insert(value).inserted {
        let placeholder = RedactionPlaceholder.cleanedName(from: name)
        declared.echoes.remember(value, as: placeholder, minimumLength: 1, everyEscape: true)
        if declared.byName[name] == nil { declared.byName[name] = value }
        if declared.valuesForNames.insert(value).inserted {
          declared.names.remember(value, as: placeholder, minimumLength: 1, everyEscape: true)
        }
      }
    }
  }

  /// Adds `values`, a redaction's own, to those no placeholder name may hold, without masking
  /// them in reports: a redaction used with no cassette (``Redaction/redact(_:)-(HAR)``, the
  /// `understudy` tool) still keeps its values out of the names it derives.
  static func keepOutOfNames(_ values: [String: String]) {
    guard !values.isEmpty else { return }
    let values = withParts(values)
    declared.withLock { declared in
      for (name, value) in values.sorted(by: { $0.key < $1.key })
      where declared.valuesForNames.insert(value).inserted {
        declared.names.remember(
          value, as: RedactionPlaceholder.cleanedName(from: name), minimumLength: 1,
          everyEscape: true)
      }
    }
  }

  /// Every known value, spelled, for masking a log: the environment's and every declared one.
  static var forLogs: RedactionEchoes { declared.withLock { $0.echoes } }

  /// Every value declared by a cassette's redaction in this process, by name: what a report
  /// redacted with other rules (a traffic attachment, ``HAR/init(journal:name:redaction:)``)
  /// replaces too.
  static var declaredByName: [String: String] { declared.withLock { $0.byName } }

  /// Every value no placeholder name may hold (``PlaceholderNameGate``): ``forLogs`` and the
  /// values of every redaction compiled in this process.
  static var forNames: RedactionEchoes { declared.withLock { $0.names } }

  /// `values`, name to value, remembered under their names. Spelled once for each set of
  /// values: replay redacts each live request with the cassette's rules.
  static func echoes(for values: [String: String]) -> RedactionEchoes {
    if let cached = spelled.withLock({ $0[values] }) { return cached }
    var echoes = RedactionEchoes()
    defer {
      spelled.withLock { cache in
        // Tests declare a few sets each; the bound only keeps a generated set per call in check.
        if cache.count >= 256 { cache.removeAll() }
        cache[values] = echoes
      }
    }
    // In a fixed order, so a value two names share takes the same name every run; a value's
    // parts after every whole value, so a whole one found where it stands is replaced whole.
    for (name, value) in values.sorted(by: { $0.key < $1.key })
      + withParts(values).filter({ values[$0.key] == nil }).sorted(by: { $0.key < $1.key })
    {
      echoes.remember(
        value, as: RedactionPlaceholder.cleanedName(from: name), minimumLength: 1, everyEscape: true
      )
    }
    return echoes
  }

  /// The values replay puts back in a cassette at `file`: `explicit` (``CassetteOptions/restoring``)
  /// and each known value whose placeholder the file holds, which this process's value (its
  /// environment's or the one its test declares) replaces. Looked for in the file's bytes, so a
  /// cassette without one is not walked entry by entry.
  static func restorable(_ known: [String: String], in file: URL, explicit: [String: String])
    -> [String: String]
  {
    guard !known.isEmpty, let data = try? Data(contentsOf: file, options: .mappedIfSafe) else {
      return explicit
    }
    var values = explicit
    data.withUnsafeBytes { bytes in
      for (name, value) in known where values[name] == nil {
        if ByteSearch.contains(Array("redacted:\(name)".utf8), in: bytes) { values[name] = value }
      }
    }
    return values
  }
}
