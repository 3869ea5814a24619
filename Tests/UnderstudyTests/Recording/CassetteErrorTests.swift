import Foundation
import Testing

@testable import Understudy

extension RecordingTests {
  @Suite struct CassetteErrorTests {
    /// Loads a fixture from `malformed/` and returns the error it must produce.
    private func loadError(_ name: String) throws -> CassetteError {
      let url = HARFixtures.url("malformed/\(name)")
      let error = try #require(cassetteError { _ = try HAR.load(contentsOf: url) })
      #expect(error.file == url.path)
      #expect(error.description.hasPrefix(url.path))
      return error
    }

    @Test func notJSONSaysSoWithTheLineAndColumn() throws {
      let error = try loadError("not-json.har")
      #expect(error.kind == .malformedJSON)
      #expect(error.line == 1 && error.column == 1)
      #expect(error.description.contains("not-json.har:1:1: the file is not JSON"))
      #expect(error.description.contains("found `<!DOCTYPE`"))
      #expect(error.fix.contains("starting with {"))
    }

    @Test func truncatedFileSaysWhereTheUnclosedValueStarts() throws {
      let error = try loadError("truncated.har")
      #expect(error.kind == .malformedJSON)
      #expect(error.line == 33 && error.column == 17)
      #expect(error.problem == "the file ends inside the string that starts at line 33, column 11")
      #expect(error.fix.contains("cut short"))
    }

    @Test func missingCommaPointsAtTheNextMember() throws {
      let error = try loadError("missing-comma.har")
      #expect(error.kind == .malformedJSON)
      #expect(error.line == 12 && error.column == 9)
      #expect(
        error.problem
          == "expected \",\" or \"}\" after the value of \"time\" but found `\"request\":`")
    }

    /// Cookies written as one string are a cookie's value, a credential: the error says what
    /// kind of value it found, not what it holds.
    @Test func theDescriptionIsMaskedWhateverTheProblemQuotes() {
      // Test runners print a thrown error whole; a problem may quote what the file holds.
      let error = CassetteError(
        kind: .invalidValue, file: "api.har", jsonPath: "log.entries[0].request.url",
        problem: "the URL \"https://api.test/x?access_token=s3cr3t-quoted\" is not valid",
        fix: "Write a URL.")
      #expect(!error.description.contains("s3cr3t"))
      #expect(
        error.description.hasPrefix(
          "api.har: log.entries[0].request.url: the URL \"https://api.test/x?access_token=••••("))
      #expect(error.description.hasSuffix(" is not valid. Write a URL."))
    }

    @Test func aStringWhereCookiesBelongIsDescribedNotQuoted() throws {
      let secret = "SEKRETcookie" + String(UUID().uuidString.prefix(8))
      let json = #"""
        {"log": {"version": "1.2", "entries": [{"startedDateTime": "2024-05-01T12:00:00.000Z",
        "time": 1, "request": {"method": "GET", "url": "https://api.test/", "httpVersion": "HTTP/1.1",
        "headers": [], "queryString": [], "cookies": "sid=\#(secret)", "headersSize": -1,
        "bodySize": -1}, "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
        "headers": [], "cookies": [], "content": {"size": 0, "mimeType": "text/plain"},
        "redirectURL": "", "headersSize": -1, "bodySize": -1}, "cache": {}, "timings": {"send": 0,
        "wait": 0, "receive": 0}}]}}
        """#
      let error = try #require(
        cassetteError { _ = try HAR.decode(Data(json.utf8), source: "cookies.har") })
      #expect(error.kind == .wrongType)
      #expect(
        error.problem.contains(
          "expected an array but found a string of \(secret.count + 4) characters"))
      #expect(!error.description.contains(secret))
    }

    /// JSONDecoder keeps the first copy of a repeated member: a second `headers` (with the
    /// credential), `entries` or `log` would vanish without a word from replay, scan and redact.
    @Test(arguments: [
      (
        #"{"log":{"version":"1.2","creator":{"name":"x","version":"1"},"entries":[{"#
          + #""startedDateTime":"2024-01-01T00:00:00.000Z","time":1,"request":{"method":"GET","#
          + #""url":"https://a.example/1","httpVersion":"HTTP/1.1","cookies":[],"headers":[],"#
          + "\n\"headers\":[],\"queryString\":[],\"headersSize\":-1,\"bodySize\":0},"
          + #""response":{"status":200,"statusText":"OK","httpVersion":"HTTP/1.1","cookies":[],"#
          + #""headers":[],"content":{"size":0,"mimeType":"text/plain"},"redirectURL":"","#
          + #""headersSize":-1,"bodySize":-1},"cache":{},"timings":{"send":0,"wait":0,"receive":0}}]}}"#,
        "headers", "log.entries[0].request", 2, 1
      ),
      (
        #"{"log":{"version":"1.2","creator":{"name":"x","version":"1"},"entries":[],"#
          + "\n  \"entries\":[]}}",
        "entries", "log", 2, 3
      ),
      (#"{"log":{"entries":[]},"log":{"entries":[]}}"#, "log", nil, 1, 23),
    ])
    func aMemberNamedTwiceInOneObjectIsAnError(
      json: String, name: String, path: String?, line: Int, column: Int
    ) throws {
      let error = try #require(
        cassetteError { _ = try HAR.decode(Data(json.utf8), source: "dup.har") })
      #expect(error.kind == .malformedJSON)
      #expect(error.file == "dup.har")
      #expect(error.jsonPath == path)
      #expect(error.line == line && error.column == column)
      #expect(error.problem.hasSuffix("has the member \"\(name)\" twice"))
      #expect(error.fix.hasPrefix("Keep one and delete the other"))
    }

    @Test func emptyFileIsNamedAsEmpty() throws {
      let error = try loadError("empty.har")
      #expect(error.kind == .empty)
      #expect(
        error.description.hasSuffix(
          "empty.har: the file is empty. Delete it and record the cassette again, "
            + "or restore it from version control."))
    }

    @Test func statusWrittenAsAStringNamesThePathAndTheFix() throws {
      let error = try loadError("wrong-type-status.har")
      #expect(error.kind == .wrongType)
      #expect(error.jsonPath == "log.entries[1].response.status")
      #expect(error.line == 33 && error.column == 21)
      #expect(
        error.description == HARFixtures.url("malformed/wrong-type-status.har").path
          + ":33:21: log.entries[1].response.status: expected a whole number but found the "
          + "string \"200\". Write the number without quotes, for example \"status\": 200.")
    }

    @Test func objectWithoutLogIsNotAHARCassette() throws {
      let error = try loadError("missing-log.har")
      #expect(error.kind == .notHAR)
      #expect(error.problem.contains("expected a top-level object with \"log\""))
      #expect(error.problem.contains("\"version\", \"creator\", \"entries\""))
      #expect(error.fix.contains("wrap it as {\"log\": …}"))
    }

    @Test func topLevelArrayIsNotAHARCassette() throws {
      let error = try loadError("top-level-array.har")
      #expect(error.kind == .notHAR)
      #expect(
        error.problem
          == "the file is not a HAR cassette: expected a top-level object with \"log\" but found an array"
      )
    }

    @Test func entryWithoutRequestNamesTheEntry() throws {
      let error = try loadError("entry-missing-request.har")
      #expect(error.kind == .missingMember)
      #expect(error.jsonPath == "log.entries[3].request")
      #expect(error.line == 57 && error.column == 7)
      #expect(error.problem == "the required member \"request\" is missing")
      #expect(error.fix.contains("\"request\": {\"method\": \"GET\""))
    }

    @Test func responseWithoutStatusNamesTheResponse() throws {
      let error = try loadError("response-missing-status.har")
      #expect(error.kind == .missingMember)
      #expect(error.jsonPath == "log.entries[0].response.status")
      #expect(error.fix.contains("\"status\": 200"))
    }

    @Test func invalidBase64NamesTheContentText() throws {
      let error = try loadError("invalid-base64.har")
      #expect(error.kind == .invalidBase64)
      #expect(error.jsonPath == "log.entries[1].response.content.text")
      #expect(error.problem.contains("character 5 is \"!\""))
    }

    @Test func invalidDateNamesTheMember() throws {
      let error = try loadError("invalid-date.har")
      #expect(error.kind == .invalidValue)
      #expect(error.jsonPath == "log.entries[0].startedDateTime")
      #expect(error.problem == "\"yesterday at noon\" is not an ISO 8601 date and time")
    }

    @Test func missingFileNamesThePathItLookedIn() throws {
      try withTemporaryDirectory { directory in
        let url = directory.appendingPathComponent("users.har")
        let error = try #require(cassetteError { _ = try HAR.load(contentsOf: url) })
        #expect(error.kind == .fileMissing)
        #expect(error.file == url.path)
        #expect(error.description.contains("there is no cassette at this path"))
        #expect(error.fix.contains("recording enabled"))
      }
    }

    @Test func missingFileMentionsANameThatDiffersOnlyInCase() throws {
      try withTemporaryDirectory { directory in
        try Data("{}".utf8).write(to: directory.appendingPathComponent("Users.har"))
        let error = try #require(
          cassetteError {
            _ = try HAR.load(contentsOf: directory.appendingPathComponent("users.har"))
          })
        #expect(error.problem.contains("Users.har exists beside it"))
      }
    }

    @Test func missingDirectoryIsSaid() throws {
      try withTemporaryDirectory { directory in
        let url = directory.appendingPathComponent("nope/users.har")
        let error = try #require(cassetteError { _ = try HAR.load(contentsOf: url) })
        #expect(error.problem.contains("does not exist either"))
      }
    }

    @Test func directoryIsUnreadable() throws {
      try withTemporaryDirectory { directory in
        let error = try #require(cassetteError { _ = try HAR.load(contentsOf: directory) })
        #expect(error.kind == .unreadable)
        #expect(error.problem.contains("directory"))
      }
    }

    @Test(.enabled(if: getuid() != 0, "root reads files whatever their permissions"))
    func fileWithoutReadPermissionIsUnreadable() throws {
      try withTemporaryDirectory { directory in
        let url = directory.appendingPathComponent("secret.har")
        try Data("{}".utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: url.path)
        let error = try #require(cassetteError { _ = try HAR.load(contentsOf: url) })
        #expect(error.kind == .unreadable)
        #expect(error.fix.contains("chmod"))
      }
    }

    @Test func whitespaceAndByteOrderMarkAloneCountAsEmpty() {
      #expect(
        throws: CassetteError(
          kind: .empty, file: "x", problem: "the file contains only white space",
          fix: "Delete it and record the cassette again, or restore it from version control.")
      ) {
        try HAR.decode(Data([0xEF, 0xBB, 0xBF, 0x20, 0x0A]), source: "x")
      }
    }

    @Test func byteOrderMarkIsIgnored() throws {
      let json = Data([0xEF, 0xBB, 0xBF]) + Data("{\"log\": {\"entries\": []}}".utf8)
      #expect(try HAR.decode(json, source: "bom").log.entries.isEmpty)
    }

    @Test func conflictMarkersAreRecognised() throws {
      let json = "{\"log\": {\"entries\": [\n<<<<<<< HEAD\n]}}\n"
      let error = try #require(
        cassetteError { _ = try HAR.decode(Data(json.utf8), source: "merge.har") })
      #expect(
        error.description.hasPrefix(
          "merge.har:2:1: the file contains a version control conflict marker"))
    }

    @Test func gitLFSPointersAreRecognised() throws {
      let pointer = "version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 12\n"
      let error = try #require(
        cassetteError { _ = try HAR.decode(Data(pointer.utf8), source: "lfs.har") })
      #expect(error.fix == "Run `git lfs pull` to fetch the cassette.")
    }

    @Test func locatingGivesChecksTheLineAndColumnOfTheirJSONPath() {
      let json = """
        {"log": {"entries": [
          {"request": {"method": "GET", "url": "https://a.test/"},
           "response": {"status": -1, "odd key": "é", "x": 1}}
        ]}}
        """
      func error(_ path: String?) -> CassetteError {
        CassetteError(kind: .invalidValue, file: "c.har", jsonPath: path, problem: "p", fix: "F.")
      }
      let located = CassetteError.locating(
        [
          error("log.entries[0].response.status"), error("log.entries[0].response[\"odd key\"]"),
          error("log.entries[0].response.x"), error("log.entries[1]"), error("log.[0]"),
          error(nil),
        ], in: Data([0xEF, 0xBB, 0xBF]) + Data(json.utf8))
      #expect(located.map { $0.line } == [3, 3, 3, nil, nil, nil])
      #expect(located.map { $0.column } == [27, 42, 52, nil, nil, nil])
      #expect(located[0].description == "c.har:3:27: log.entries[0].response.status: p. F.")
      #expect(CassetteError.locating([error("log")], in: Data("{".utf8)) == [error("log")])
    }

    @Test func deepNestingIsAnErrorNotACrash() {
      let deep = "{\"log\": " + String(repeating: "[", count: 100_000)
      #expect(throws: CassetteError.self) { try HAR.decode(Data(deep.utf8), source: "deep") }
    }

    /// Every prefix of a valid cassette, and every single-byte corruption of it, must produce a
    /// located error (or a valid archive), never a crash.
    @Test func noPrefixOrCorruptionOfACassetteCrashes() throws {
      let valid = try HAR(entries: [
        .sample(postData: HAR.PostData(mimeType: "text/plain", text: "é"))
      ])
      .encoded()
      for length in 0..<valid.count {
        // The last prefix lacks only the trailing newline, and decodes.
        let error = cassetteError { _ = try HAR.decode(valid.prefix(length), source: "prefix") }
        #expect(error?.file == "prefix" || length == valid.count - 1)
      }
      var generator = SystemRandomNumberGenerator()
      for _ in 0..<300 {
        var corrupted = valid
        let index = Int.random(in: 0..<corrupted.count, using: &generator)
        corrupted[index] = UInt8.random(in: 0...255, using: &generator)
        // Some corruptions (a letter inside a string) still decode; the rest must say where.
        if let error = cassetteError({ _ = try HAR.decode(corrupted, source: "corrupted") }) {
          #expect(error.file == "corrupted")
        }
      }
    }
  }
}
