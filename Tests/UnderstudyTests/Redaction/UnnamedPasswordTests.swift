import Foundation
import Testing

@testable import Understudy

/// Passwords written where no credential's name stands beside them, and that read as words a
/// person chose (`Quillon2003!`), so no random token's shape finds them either: a program's
/// short option or positional argument, SQL's `IDENTIFIED BY` and `SET PASSWORD`, a well-known
/// call's password argument (the fourteenth blind attack found each in the cassette, the
/// traffic attachment, `understudy redact`, `convert` and `stub` output and reports).
@Suite struct UnnamedPasswordTests {
  /// Command lines, each with `{}` where its password stands.
  static let commandLines = [
    "sqlcmd -S db.local -U sa -P {} -Q \"SELECT 1\"",
    "bcp dbo.users out users.dat -S db.local -U sa -P{}",
    "ssh-keygen -t ed25519 -f deploy_key -N \"{}\"",
    "ssh-keygen -p -f deploy_key -P '{}' -N ''",
    "rabbitmqctl add_user ada {}",
    "rabbitmqctl -n rabbit@mq change_password ada '{}'",
    "mysqladmin -u root password {}",
    "mysql -h db.local -u root -p{} app",
    "htpasswd -b -c /etc/nginx/.htpasswd ada {}",
    "htpasswd -nb ada {}",
    "redis-cli -h cache.local -a {} ping",
    "podman login -u ada -p {} registry.local",
    "openssl pkcs12 -export -in c.pem -passout pass:{} -out c.p12",
    "openssl rsa -in k.pem -passin 'pass:{}' -out plain.pem",
    "zip -P {} secret.zip notes.txt",
    "7z a -p{} backup.7z notes.txt",
    "smbclient //files/share -U ada%{}",
    "sudo useradd -m -p {} ada",
    "echo 'ada:{}' | sudo chpasswd",
    "chpasswd <<< \"ada:{}\"",
    "mongosh -u ada -p {} --authenticationDatabase admin",
    "net user ada {} /add",
    "NET.EXE USER ada {} /ADD",
    "ldapsearch -x -D cn=admin,dc=example -w {} -b dc=example",
    "ipmitool -I lanplus -H 10.0.0.5 -U admin -P {} chassis status",
    "mosquitto_pub -h mq.local -u ada -P {} -t t -m hi",
    "lftp -u ada,{} sftp://files.local",
    "sqlplus -s scott/{}@orcl",
    "wpa_passphrase HomeNet {}",
    "nmcli dev wifi connect HomeNet password {}",
    "/usr/local/bin/sqlcmd -U sa -P {}",
  ]

  /// SQL statements, each with `{}` where its password stands.
  static let statements = [
    "SET PASSWORD FOR 'ada'@'%' = '{}';",
    "set password = password('{}');",
    "ALTER USER 'ada'@'localhost' IDENTIFIED BY '{}';",
    "CREATE USER ada IDENTIFIED WITH mysql_native_password BY '{}';",
    "GRANT ALL ON app.* TO 'ada'@'%' IDENTIFIED BY '{}';",
    "CREATE USER scott IDENTIFIED BY {} DEFAULT TABLESPACE users;",
    "alter user scott identified by {};",
    "CREATE ROLE ada WITH LOGIN PASSWORD '{}';",
    "ALTER ROLE ada ENCRYPTED PASSWORD '{}';",
    "CREATE LOGIN ada WITH PASSWORD = '{}';",
  ]

  /// Calls whose argument is a password, each with `{}` where it stands.
  static let calls = [
    "db.auth(\"ada\", \"{}\")", "db.auth('ada','{}')",
    "db.getSiblingDB('admin').auth('ada', '{}')",
    "db.changeUserPassword(\"ada\", \"{}\")",
    "$link = mysqli_connect(\"db.local\", \"ada\", \"{}\", \"app\");",
    "$pdo = new PDO($dsn, 'ada', '{}');",
    "Connection c = DriverManager.getConnection(url, \"ada\", \"{}\");",
    "smtp.login(\"ada@example.test\", \"{}\")",
  ]

  static let words = [
    "Quillon", "Quokka", "Riverbend", "Yosemite", "Bluebird", "Marigold", "Lantern", "Juniper",
    "Cobalt", "Walnut", "Hummingbird", "Pelican",
  ]

  /// A password of words a person would choose, different for each plant.
  static func password(_ index: Int) -> String {
    "\(words[index % words.count])\(1960 + index)\(["!", "*", "$", "."][index % 4])"
  }

  /// Each line placed where traffic carries such text: alone in a text body, after a prompt with
  /// lines around it, and inside a JSON string.
  static func placements(of line: String) -> [(body: String, mimeType: String)] {
    let escaped = line.replacingOccurrences(of: "\\", with: "\\\\")
      .replacingOccurrences(of: "\"", with: "\\\"")
    return [
      (line, "text/plain"),
      ("# provision\n$ \(line)\n$ echo done\n", "text/markdown"),
      ("{\"step\": \"provision\", \"run\": \"\(escaped)\", \"n\": 1}", "application/json"),
    ]
  }

  @Test(arguments: ["commands", "statements", "calls"])
  func aPasswordWithoutANameIsHiddenInEveryOutput(kind: String) throws {
    let lines =
      kind == "commands" ? Self.commandLines : kind == "statements" ? Self.statements : Self.calls
    for (index, template) in lines.enumerated() {
      let secret = Self.password(index + (kind == "commands" ? 0 : kind == "statements" ? 40 : 60))
      let line = template.replacingOccurrences(of: "{}", with: secret)
      for (body, mimeType) in Self.placements(of: line) {
        try SpelledSecretChecks.expectHidden(body, mimeType: mimeType, secrets: [secret])
        #expect(!LogRedaction.mask(body).contains(secret), "report: \(body)")
      }
      let request = InterceptedRequest(
        method: .post, url: URL(string: "https://api.test/run")!,
        headers: ["Content-Type": "text/plain"], body: Data(line.utf8))
      let registry = StubRegistry()
      registry.stub(.post("https://api.test/run") && .body(containing: line + "x"), .ok)
      let report = NearMissReport(request: request, stubs: registry.stubs).description
      #expect(!report.contains(secret), "near miss: \(report)")
    }
  }

  /// Everyday command lines, SQL and prose that hold these programs' options or words without
  /// a password are kept byte for byte, in the cassette and in reports.
  @Test(arguments: [
    "ssh -p 2222 ada@host", "docker run -p 8080:80 nginx", "zip -r notes.zip notes",
    "7z a -t7z backup.7z notes", "openssl genrsa -passout env:KEY_PASS -out k.pem 2048",
    "redis-cli -h cache.local -p 6379 ping", "net user ada /add", "net user ada * /add",
    "rabbitmqctl list_users", "htpasswd -c /etc/nginx/.htpasswd ada", "sqlcmd -S db -E -Q x",
    "useradd -m ada", "echo done | chpasswd", "ssh-keygen -t ed25519 -N \"\" -f key",
    "ssh-keygen -N \"$PASSPHRASE\" -f key", "docker login -u ada --password-stdin",
    "mongosh -u ada -p --authenticationDatabase admin", "db.auth(user, pw)",
    "server.login(user, password)", "sqlplus / as sysdba", "git log -p", "tar -cpf a.tar dir",
    "Users are identified by their e-mail address.", "Reset your password here",
    "See password_policy for the rules.", "The role is identified by 'ada' in the logs.",
    "Remember to set password rules = 'strict' later", "mosquitto_pub -t topic -m hello",
    "Use zip -P to set a password on the archive.", "The net user count is 5 today.",
  ])
  func everydayLinesAreKept(line: String) {
    #expect(RedactionPlacesTests.redactedBody(line, "text/plain") == line)
    #expect(LogRedaction.mask(line) == line)
  }
}
