import Foundation
import Testing

@testable import Understudy

/// A line that names a credential holds its value (``CredentialLines``): a generated corpus of
/// credential names in line shapes no name rule reads (the value before the name, a column list,
/// an option, a here-string, a heredoc) and value spellings, each hidden from cassettes and logs;
/// everyday lines that hold a credential's name, or a random-looking run beside no such name,
/// kept byte for byte; and a seeded fuzz of both mixed. The fifth blind attack of 2026-12-06
/// carried values through these shapes, and the tenth through command lines that name no
/// credential (``CommandArguments``); the eleventh piped them into a command that reads a
/// password from standard input (`echo … | sudo -S`) and glued them to a short option (`7z a
/// -p…`).
@Suite struct CredentialLineTests {
  /// Names the judgement reads as a credential's, in the spellings code and tools write them.
  static let names = [
    "password", "passwd", "pwd", "DB_PASSWORD", "api_token", "X-Api-Key", "apiKey",
    "client_secret", "auth", "passphrase", "_authToken", "Stripe:SecretKey",
    "aws_secret_access_key", "access-token", "sessionToken",
  ]

  /// Lines where a name stands beside its value with no `=`, `:` or call that names it.
  static let shapes = namedShapes + commandShapes

  static let namedShapes: [(String, @Sendable (String, String) -> String)] =
    [
      (
        "value first",
        { name, value in "[request setValue:@\"\(value)\" forHTTPHeaderField:@\"\(name)\"];\n" }
      ),
      (
        "column list",
        { name, value in "INSERT INTO creds (user, \(name)) VALUES ('ada', '\(value)');\n" }
      ),
      ("option", { name, value in "deploy --profile ada --set \(name) \(value) --force\n" }),
      ("ANSI-C quoting", { name, value in "export \(name)=$'\(value)'\n" }),
      ("elvis default", { name, value in "val x = System.getenv(\"\(name)\") ?: \"\(value)\"\n" }),
      ("symbol key", { name, value in "knife[:\(name)] = \"\(value)\"\n" }),
      ("quoted pair", { name, value in "dotnet user-secrets set \"\(name)\" \"\(value)\"\n" }),
      ("here-string", { name, value in "tool login --\(name) <<< \(value)\n" }),
      ("PowerShell here-string", { name, value in "$\(name) = @\"\n\(value)\n\"@\n" }),
      ("PHP heredoc", { name, value in "<?php\n$\(name) = <<<EOT\n\(value)\nEOT;\n" }),
      ("shell heredoc", { name, value in "cat <<'EOF' > ~/.config/\(name)\n\(value)\nEOF\n" }),
    ]

  static let commandShapes: [(String, @Sendable (String, String) -> String)] = commands.map {
    command in
    (command, { @Sendable _, value in command.replacing("VALUE", with: value) })
  }

  /// Command lines that pass a password with no credential's name beside it: short options of
  /// many programs, `user%password`, Windows `/p:`, and commands that log in with a bare word.
  static let commands = [
    "openssl enc -aes-256-cbc -k VALUE -in a.txt -out a.enc\n",
    "zip -P VALUE backup.zip notes.txt\n",
    "sqlcmd -S db.local -U sa -P VALUE -Q \"SELECT 1\"\n",
    "redis-cli -h cache -a VALUE ping\n",
    "smbclient //files/share -U ada%VALUE\n",
    "net user ada VALUE /add\n",
    "net use Z: \\\\files\\share VALUE /user:ada\n",
    "$ vault login VALUE\n",
    "echo VALUE | docker login --username ada --password-stdin registry.test\n",
    "msdeploy -verb:sync /u:ada /p:VALUE\n",
    "tool --signing-blob=VALUE --verbose\n",
    "pgbench -U ada -W 'VALUE' app\n",
    // Written to a command that reads a password from standard input.
    "echo \"VALUE\" | sudo -S apt-get update\n",
    "printf '%s\\n' 'VALUE' | /usr/bin/sudo --stdin -k true\n",
    "echo VALUE | passwd --stdin ada\n",
    "echo 'ada:VALUE' | chpasswd\n",
    "echo -n VALUE|cryptsetup open /dev/sdb1 vault\n",
    "echo VALUE | openssl rsa -in key.pem -passin stdin -out plain.pem\n",
    "sudo -S apt-get install -y nginx <<< VALUE\n",
    "mysql -u ada -p app <<<'VALUE'\n",
    // Glued to a short option.
    "7z a -pVALUE -mhe=on backup.7z data/\n",
    "unrar x -pVALUE archive.rar\n",
    "zip -PVALUE backup.zip notes.txt\n",
    "openssl enc -aes-256-cbc -kVALUE -in a.txt -out a.enc\n",
  ]

  /// Values in the spellings a credential takes: letters and digits, base64, hex, URL-safe.
  static func values(seed: UInt64) -> [String] {
    var generator = SplitMix(seed: seed)
    func run(_ alphabet: String, _ count: Int) -> String {
      let characters = Array(alphabet)
      return String((0..<count).map { _ in characters.randomElement(using: &generator)! })
    }
    let alphanumeric = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"
    return [
      "Xq7" + run(alphanumeric, Int.random(in: 17...37, using: &generator)),
      "Rb4" + run(alphanumeric + "+/", 25) + "==",
      "9f" + run("0123456789abcdef", 38),
      "Zk2" + run(alphanumeric + "-_", 29),
    ]
  }

  @Test func aValueBesideACredentialsNameIsHiddenInEveryShape() throws {
    var seed: UInt64 = 40
    for name in Self.names {
      for (shape, line) in Self.shapes {
        seed += 1
        for value in Self.values(seed: seed) {
          let text = line(name, value)
          try SpelledSecretChecks.expectHidden(text, mimeType: "text/plain", secrets: [value])
          #expect(
            !LogRedaction.mask(text).contains(value), "\(shape): masking kept \(value) in \(text)")
        }
      }
    }
  }

  /// Every one-line shape read where a line of text stands in a header no rule names (a
  /// service's debug header, a command it passes along), in the cassette and in reports.
  @Test func aLineIsReadInAHeaderNoRuleNames() throws {
    var seed: UInt64 = 400
    for name in ["api_token", "X-Api-Key", "passwd"] {
      for (shape, line) in Self.shapes {
        seed += 1
        let value = Self.values(seed: seed)[Int(seed % 4)]
        let header = line(name, value).trimmingCharacters(in: .newlines)
        guard !header.contains("\n") else { continue }
        let entry = HAR.Entry.sample(responseHeaders: [HAR.Header(name: "X-Debug", value: header)])
        let written = try Redaction.default.redact(HAR(entries: [entry])).encodedText
        #expect(!written.contains(value), "\(shape): a header kept \(value) in \(written)")
        let masked = LogRedaction.mask(traffic: "X-Debug: \(header)")
        #expect(!masked.contains(value), "\(shape): masking a header kept \(value) in \(masked)")
      }
    }
  }

  /// An object's printed form in a JSON string, with no blank (Kotlin's `Creds(token=…)`,
  /// Lombok's `User{password=…}`, `[apiKey=…]`), at any field (`Creds(user=ada,apiKey=…)`), and
  /// a signed token's fields after `~` (`exp=…~acl=/*~hmac=…`): a name is read wherever it
  /// stands.
  @Test func aFieldInAnObjectsPrintedFormInsideAJSONStringIsRead() throws {
    let value = "pfYtAuLnOvwLj0OuWdgaKZS4"
    for printed in [
      "Creds(token=\(value))", "User{password=\(value)}", "[apiKey=\(value)]",
      "Creds(user=ada,apiKey=\(value))", "Creds(user=ada,apiKey=\(value),id=7)",
      "Conn{host=db|pwd=\(value)}", "exp=1999999999~acl=/*~hmac=\(value)",
      "User(id=7,secret=\(value),role=admin)",
    ] {
      let body = #"{"msg":"\#(printed)"}"#
      let entry = HAR.Entry.sample(
        content: HAR.Content(body: Data(body.utf8), mimeType: "application/json"))
      let written = try Redaction.default.redact(HAR(entries: [entry])).encodedText
      #expect(!written.contains(value), "\(printed): \(written)")
    }
  }

  /// Every shape, and prose that names a credential beside its value, as a JSON string's text
  /// (a note, a support ticket's body, a chat message), at depth: a JSON document is one line
  /// of members to the line rule, so each string that may hold such prose is read on its own.
  /// Everyday lines there are kept byte for byte.
  @Test func aLineInsideAJSONStringIsRead() throws {
    let prose: [(String, @Sendable (String, String) -> String)] = [
      ("is", { name, value in "your \(name) is \(value)" }),
      ("use … to", { name, value in "use \(name) \(value) to log in" }),
      ("the … works", { name, value in "the \(name) \(value) works until Friday" }),
    ]
    var seed: UInt64 = 4_000
    for name in Self.names {
      for (shape, line) in prose + Self.shapes {
        seed += 1
        let value = Self.values(seed: seed)[Int(seed % 4)]
        let string = String(decoding: try JSONEncoder().encode(line(name, value)), as: UTF8.self)
        let text = #"{"id":7,"thread":[{"author":"ada","note":\#(string)}]}"#
        try SpelledSecretChecks.expectHidden(
          text, mimeType: "application/json", secrets: [value])
        #expect(!LogRedaction.mask(text).contains(value), "\(shape): masking kept it in \(text)")
      }
    }
    for line in Self.everyday + ["Order 12345 shipped on 2026-12-07 by courier 42"] {
      let string = String(decoding: try JSONEncoder().encode(line), as: UTF8.self)
      let text = #"{"items":[{"note":\#(string),"n":12}]}"#
      #expect(TextRuleShapesTests.redacted(text, "application/json") == text)
    }
  }

  /// A name of several words that none names alone (`Mot de passe`), before or after the value,
  /// within a longer label (`Mot de passe du compte:`).
  @Test(arguments: ["Mot de passe", "Mot de passe du compte", "Client Secret", "mot de passe"])
  func aNameOfSeveralWordsNamesTheValue(phrase: String) throws {
    for (index, value) in Self.values(seed: UInt64(phrase.utf8.count)).enumerated() {
      for text in ["\(phrase): \(value)\n", "\(value) (\(phrase))\n", "\(phrase) \(value)\n"] {
        try SpelledSecretChecks.expectHidden(text, mimeType: "text/plain", secrets: [value])
        #expect(!LogRedaction.mask(text).contains(value), "\(index): \(text)")
      }
    }
  }

  /// A here-string names its value over the line break; the value is on the line after it.
  @Test func theValueTakesTheNamesPlaceholder() {
    let value = Self.values(seed: 7)[0]
    #expect(
      TextRuleShapesTests.redacted("[r setValue:@\"\(value)\" forHTTPHeaderField:@\"X-Api-Key\"];")
        == "[r setValue:@\"<redacted:x-api-key>\" forHTTPHeaderField:@\"X-Api-Key\"];")
    #expect(
      TextRuleShapesTests.redacted("security add-generic-password -a ada -w \(value)\n")
        == "security add-generic-password -a ada -w %3Credacted:add-generic-password%3E\n")
    #expect(
      TextRuleShapesTests.redacted("<?php\n$key = <<<EOT\n\(value)\nEOT;\n")
        == "<?php\n$key = <<<EOT\n%3Credacted:key%3E\nEOT;\n")
  }

  /// Lines that hold a credential's name and no random value, or a random-looking run beside no
  /// credential's name (`keyboard` and `monkey` are other words), or a version, a date, a path.
  static let everyday = [
    "Forgot your password? Reset it at https://example.test/reset",
    "password must be 12 characters long",
    "token_type: bearer",
    "The token expires in 3600 seconds; refresh it at /oauth/token.",
    "Your passphrase should be at least 4 words, e.g. correct-horse-battery-staple.",
    "session started at 2026-12-06T10:15:30Z for user ada",
    "secret santa list updated 2026-12-06, version v1.2.3",
    "api key rotation is documented in docs/security/key-rotation-v2.md",
    "the auth settings live in src/main/java/com/example/AuthConfig2.java, line 42",
    "Set the header X-Api-Key to your key (see settings).",
    "<input type=\"password\" name=\"password\" autocomplete=\"current-password\">",
    "release 2.14.3-rc.1+build.20261206 of the client",
    "commit 3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a merged",
    "keyboard layout Xq7Kp2Lm9Nb4Vc8Zx3Qw",
    "monkey 4f9aK8b7c6Xd5e4f3a2b1c",
    "pin 1234",
    "ssh -p 2222 -i ~/.ssh/id_ed25519 ada@build-host-01",
    "docker run -p 8080:80 -e MODE=dev nginx:1.25.3-alpine",
    "tar -xzf release-2026.12.06.tar.gz -C /opt/app",
    "kubectl get pods -n kube-system -o wide",
    "python3 -m http.server 8000 --bind 127.0.0.1",
    "npm install --save-dev typescript@5.3.2",
    "curl -o out.json -H 'Accept: application/json' https://example.test/v2/items",
    "docker login registry.example.test",
    "net user ada /delete",
    "git log -n 20 --format=%H origin/main",
    "The user Xq7Kp2Lm9Nb4Vc8Zx3Qw was created by the -k option's default.",
    "mysql -h db.local -p",
    "grep -P '\\d+' access.log",
    "tar -xzf backup.tar.gz",
    "gcc -O2 -Wall -o app main.c",
    "ls -la /var/log",
    "7z a -t7z x.7z dir",
    "echo done | sudo -S true",
    "echo 3f9a8b7c6d5e4f3a2b1c | tee -a build.log",
    "cat release-2026.12.06.tar.gz | sudo tar -xzf - -C /opt",
  ]

  @Test func everydayLinesAreKeptByteForByte() {
    for line in Self.everyday {
      for text in [line, line + "\n"] {
        #expect(TextRuleShapesTests.redacted(text) == text)
        #expect(LogRedaction.mask(text) == text)
        #expect(LogRedaction.mask(traffic: text) == text)
      }
    }
  }

  /// Random lines around: a planted value is never kept, an everyday line never touched.
  @Test func seededFuzz() throws {
    var generator = SplitMix(seed: 20_261_206)
    for round in 0..<60 {
      let values = Self.values(seed: UInt64(1_000 + round))
      let value = values.randomElement(using: &generator)!
      let name = Self.names.randomElement(using: &generator)!
      let (shape, line) = Self.shapes.randomElement(using: &generator)!
      var lines = (0..<Int.random(in: 1...6, using: &generator)).map { _ in
        Self.everyday.randomElement(using: &generator)! + "\n"
      }
      let planted = line(name, value)
      lines.insert(planted, at: Int.random(in: 0...lines.count, using: &generator))
      let text = lines.joined()
      let redacted = TextRuleShapesTests.redacted(text)
      #expect(!redacted.contains(value), "\(shape) (\(name)) kept in \(redacted)")
      #expect(!LogRedaction.mask(traffic: text).contains(value), "\(shape) (\(name)) masked")
      var rest = redacted[...]
      for kept in lines where kept != planted {
        guard let found = rest.range(of: kept) else {
          Issue.record("\(kept) was changed in \(redacted)")
          break
        }
        rest = rest[found.upperBound...]
      }
    }
  }
}
