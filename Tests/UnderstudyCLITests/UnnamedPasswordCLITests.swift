import Foundation
import Testing
import Understudy

/// Passwords no name stands beside (a program's option or argument, SQL, a call), names in
/// escapes (JavaScript's `\u{61}`, a multipart part's RFC 2047 name, a `Content-ID`) and names
/// held apart or split (YAML's `? key`, a continued `.properties` key, a pickle): `redact`,
/// `convert` and `stub` write none of them, and `scan` flags each entry that holds one (the
/// fourteenth blind attack).
@Suite struct UnnamedPasswordCLITests {
  static let boundary = "b0undary7"

  /// Each body with its type and the password it holds.
  static let bodies: [(body: String, mimeType: String, secret: String)] = [
    ("sqlcmd -S db.local -U sa -P Quillon2003! -Q \"SELECT 1\"", "text/plain", "Quillon2003!"),
    ("ssh-keygen -t ed25519 -f deploy_key -N \"Quokka1975*\"", "text/plain", "Quokka1975*"),
    ("rabbitmqctl add_user ada Riverbend2020*", "text/plain", "Riverbend2020*"),
    ("mysqladmin -u root password Yosemite1995$", "text/plain", "Yosemite1995$"),
    ("SET PASSWORD FOR 'ada'@'%' = 'Bluebird1995!';", "application/sql", "Bluebird1995!"),
    ("db.auth(\"ada\", \"Secret1995!\")", "text/javascript", "Secret1995!"),
    ("const cfg = {\"p\\u{61}ssword\": \"Gardenia1991!\"};", "text/javascript", "Gardenia1991!"),
    (
      "--\(boundary)\r\nContent-Disposition: form-data; name=\"=?UTF-8?B?cGFzc3dvcmQ=?=\"\r\n\r\n"
        + "Hollyhock1988!\r\n--\(boundary)--\r\n",
      "multipart/form-data; boundary=\(boundary)", "Hollyhock1988!"
    ),
    ("db:\n  ? password\n  : Xylophone1977.\n", "application/yaml", "Xylophone1977."),
    ("db.pass\\\n    word=Dolphin2023*\n", "text/x-java-properties", "Dolphin2023*"),
    (
      "(dp0\nS'user'\np1\nS'ada'\np2\nsS'password'\np3\nS'Buttercup2003!'\np4\ns.", "text/plain",
      "Buttercup2003!"
    ),
    (
      "--\(boundary)\r\nContent-Type: text/plain\r\nContent-ID: <password>\r\n\r\n"
        + "Hollyhock1990!\r\n--\(boundary)--\r\n",
      "multipart/related; boundary=\(boundary)", "Hollyhock1990!"
    ),
  ]

  private func export(in directory: URL) throws -> String {
    try HAR(
      entries: Self.bodies.enumerated().map { index, plant in
        .exchange(
          method: "POST", url: "https://api.example.com/run/\(index)",
          postData: HAR.PostData(mimeType: plant.mimeType, text: plant.body),
          body: plant.body, mimeType: plant.mimeType)
      }
    ).saved(as: "export.har", in: directory)
  }

  @Test(arguments: [["redact"], ["convert"], ["stub"], ["scan"]])
  func noCommandWritesThemAndScanFlagsEach(command: [String]) async throws {
    try await withTemporaryDirectory { directory in
      let path = try export(in: directory)
      let output = directory.appendingPathComponent("out.har").path
      let writes = command == ["redact"] || command == ["convert"]
      let result = try await understudy(command + [path] + (writes ? ["-o", output] : []))
      var texts = [result.output]
      if writes { texts.append(try String(contentsOfFile: output, encoding: .utf8)) }
      for text in texts {
        for plant in Self.bodies {
          #expect(!text.contains(plant.secret), "\(command) wrote \(plant.secret)")
        }
      }
      if command == ["scan"] {
        #expect(result.status == 1)
        for index in Self.bodies.indices {
          #expect(result.stdout.contains("log.entries[\(index)].request.postData.text"), "\(index)")
          #expect(result.stdout.contains("log.entries[\(index)].response.content.text"), "\(index)")
        }
      }
    }
  }
}
