import Foundation
import Testing
import Understudy

/// A request method that is not an HTTP token (RFC 9110 `tchar`, at most 32 of them) is no
/// method a client sends, and a crafted file can carry anything in it: `scan` reports it,
/// `redact` and `convert` refuse to write, and no command prints it. A method that is a token,
/// however unusual, is written as before.
@Suite struct MalformedMethodCLITests {
  static let secret = "OHNk7lvWci4jEzgTFDOJ"

  /// Methods no client sends, each holding the secret: after a space, a quote, a tab, a
  /// control character, a colon, and a token too long to be a method.
  static let methods = [
    "GET \(secret)", "GET\"\(secret)", "GET\t\(secret)", "GET\u{1}\(secret)",
    "GET:\(secret)", "PURGE\(secret)\(secret)",
  ]

  static let commands = [
    "scan", "validate", "inspect", "inspect --json", "stub", "redact", "convert",
  ]

  @Test(arguments: methods)
  func aMethodThatIsNoTokenIsRefusedAndNeverPrinted(method: String) async throws {
    try await withTemporaryDirectory { directory in
      let input = try HAR(entries: [.exchange(method: method, url: "https://api.test/items")])
        .saved(as: "export.har", in: directory)
      let output = directory.appendingPathComponent("out.har").path
      for command in Self.commands {
        var arguments = command.split(separator: " ").map(String.init) + [input]
        if ["redact", "convert"].contains(arguments[0]) { arguments += ["-o", output] }
        let result = try await understudy(arguments)
        let context = "\(command) on method \(method.debugDescription)"
        #expect(!result.output.contains(Self.secret.prefix(8)), "\(context): \(result.output)")
        switch arguments[0] {
        case "scan":
          #expect(result.status == 1, "\(context): \(result.output)")
          #expect(
            result.output.contains("request.method: method is not an HTTP token"),
            "\(context): \(result.output)")
        case "validate":
          #expect(result.status == 1, "\(context): \(result.output)")
        case "redact", "convert":
          #expect(result.status == 1, "\(context): \(result.output)")
          #expect(result.stderr.contains("no client can send"), "\(context): \(result.stderr)")
          #expect(
            !FileManager.default.fileExists(atPath: output), "\(context): \(output) written")
        default:
          break
        }
      }
    }
  }

  /// Extension methods are tokens: recorded, converted and redacted as any other.
  @Test func aCustomMethodThatIsATokenIsWritten() async throws {
    try await withTemporaryDirectory { directory in
      let methods = ["PURGE", "MKCOL", "X_CUSTOM2", "UPDATEREDIRECTREF"]
      let input = try HAR(
        entries: methods.map { .exchange(method: $0, url: "https://api.test/\($0)") }
      ).saved(as: "export.har", in: directory)
      let scan = try await understudy("scan", input)
      #expect(scan.status == 0, "\(scan.output)")
      for command in ["redact", "convert"] {
        let output = directory.appendingPathComponent("\(command).har")
        let result = try await understudy(command, input, "-o", output.path)
        #expect(result.status == 0, "\(command): \(result.output)")
        let written = try HAR.load(contentsOf: output)
        #expect(written.log.entries.map(\.request.method) == methods, "\(command)")
      }
    }
  }
}
