import Testing

@testable import Understudy

/// A command line in text passes credentials as options: `-u user:password`, `--user`, httpie's
/// `-a`, and a credential header after `--header` or `-H`. Each is redacted in a body and masked
/// in a report.
@Suite struct CommandLineRedactionTests {
  static let secret = "s3cretPa55word"

  @Test(arguments: [
    "curl -u ada:\(secret) https://x.test/", "curl --user ada:\(secret) https://x.test/",
    "curl --user='ada:\(secret)' https://x.test/", "http -a ada:\(secret) x.test",
    "curl --proxy-user ada:\(secret) https://x.test/",
    "curl --header \"X-Api-Key: \(secret)\" https://x.test/",
    "curl --header='X-Client-Pwd: \(secret)' https://x.test/",
  ])
  func credentialOptionsAreRedactedAndMasked(line: String) {
    let redacted = RedactionPlacesTests.redactedBody(line, "text/plain")
    #expect(!redacted.contains(Self.secret), "\(redacted)")
    #expect(redacted.contains("<redacted:"))
    #expect(redacted.hasSuffix("x.test/") || redacted.hasSuffix("x.test"))
    #expect(!LogRedaction.mask(line).contains(Self.secret))
  }

  /// A password given to a short `-p`, glued or after a space, on a line that logs in (a user
  /// named before it, or a program whose `-p` is a password), and PowerShell's one-dash
  /// credential parameters.
  @Test(arguments: [
    "exec: mysql -h db -u root -p\(secret) app", "docker login -u ada -p \(secret) registry.local",
    "sshpass -p \(secret) ssh ada@host", "mysqldump -p\(secret) app",
    "PS> Connect-Db -Server db -Password '\(secret)'", "PS> Connect-Db -Token \(secret) -Verbose",
  ])
  func shortAndOneDashPasswordOptionsAreRedactedAndMasked(line: String) {
    let redacted = RedactionPlacesTests.redactedBody(line, "text/plain")
    #expect(!redacted.contains(Self.secret), "\(redacted)")
    #expect(redacted.contains("redacted"), "\(redacted)")
    #expect(!LogRedaction.mask(line).contains(Self.secret))
  }

  /// `-p` is a port and a switch too: without a login on its line, or with a port's digits,
  /// it is kept.
  @Test(arguments: [
    "ssh -p 2222 ada@host", "mkdir -p /var/lib/app", "docker run -p 8080:80 nginx",
    "psql -U ada -p 5432 app", "cp -p a b", "ls -la /tmp",
  ])
  func portsAndSwitchesAreKept(line: String) {
    #expect(RedactionPlacesTests.redactedBody(line, "text/plain") == line)
  }

  /// A `.netrc` line's password, and a `.properties` body's `key value` line, whatever the
  /// credential name.
  @Test func netrcAndSpaceSeparatedPropertiesAreRedacted() {
    let netrc =
      "machine api.local login ada password \(Self.secret)\nmachine b passwd \(Self.secret)x\n"
    let redactedNetrc = RedactionPlacesTests.redactedBody(netrc, "text/plain")
    #expect(
      redactedNetrc
        == "machine api.local login ada password <redacted:password>\nmachine b passwd <redacted:passwd>\n"
    )
    #expect(!LogRedaction.mask(netrc).contains(Self.secret))
    let properties = "db.host localhost\nid_token \(Self.secret)\n"
    #expect(
      RedactionPlacesTests.redactedBody(properties, "text/x-java-properties")
        == "db.host localhost\nid_token <redacted:id_token>\n")
    #expect(!LogRedaction.mask(properties).contains(Self.secret))
  }

  @Test func otherOptionsAndHeadersAreKept() {
    let line = "curl -H 'Accept: application/json' --user-agent ada:1 -v https://x.test/"
    #expect(RedactionPlacesTests.redactedBody(line, "text/plain") == line)
  }
}
