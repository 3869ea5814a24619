import Foundation
import Testing

@testable import Understudy

extension RecordingTests {
  /// The one-pass cassette reader: the same model `JSONDecoder` builds, body texts left in the
  /// file's bytes, and anything it is not sure of left to `JSONDecoder`.
  @Suite struct HARReaderTests {
    private static var root: URL { HARFixtures.directory.deletingLastPathComponent() }

    /// Every cassette file the repository holds outside `malformed`: exports and fuzz seeds.
    private static var cassetteFiles: [URL] {
      let folders = ["HAR", "Fuzz/cassette"].map { root.appendingPathComponent($0) }
      return folders.flatMap { folder in
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
          .filter { $0.hasSuffix(".har") }.sorted().map { folder.appendingPathComponent($0) }
      }
    }

    @Test func buildsWhatJSONDecoderBuildsForEveryFixture() throws {
      let files = Self.cassetteFiles
      #expect(files.count >= 8)
      for file in files {
        var data = try Data(contentsOf: file)
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data = data.dropFirst(3) }
        // A seed JSONDecoder refuses (a date before the year 0) must be refused here too.
        guard let reference = try? JSONDecoder().decode(HARReference<HAR>.self, from: data).value
        else {
          #expect(HARReader.read(data) == nil, "\(file.lastPathComponent)")
          continue
        }
        guard let read = HARReader.read(data) else {
          // A fuzz seed may hold what only JSONDecoder judges (bytes that are not UTF-8 in an
          // unknown member's name); the loader hands such a file to it, so the model is its.
          #expect(
            file.pathComponents.contains("Fuzz"), "the reader refused \(file.lastPathComponent)")
          #expect(try HAR.decode(data, source: file.lastPathComponent) == reference)
          continue
        }
        #expect(read == reference, "\(file.lastPathComponent)")
        #expect(try read.encoded() == reference.encoded(), "\(file.lastPathComponent)")
      }
    }

    /// What the fuzzer found stays found: every seed either decodes or is refused with an error
    /// that names its file (an error's excerpt once cut a string inside a character).
    @Test func everySeedDecodesOrIsRefusedWithItsName() throws {
      for file in Self.cassetteFiles {
        let data = try Data(contentsOf: file)
        do {
          _ = try HAR.decode(data, source: file.lastPathComponent)
        } catch {
          #expect(error.description.hasPrefix(file.lastPathComponent))
        }
      }
    }

    private func cassette(body: String, postData: String = #""text": "a=1""#) -> Data {
      Data(
        """
        {"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [{
          "startedDateTime": "2024-05-01T12:00:00.000Z", "time": 5,
          "request": {"method": "POST", "url": "https://example.com/a?b=c", "headers": [],
            "postData": {"mimeType": "text/plain", \(postData)}},
          "response": {"status": 200, "headers": [{"name": "A", "value": "b"}],
            "content": {"size": 3, "mimeType": "application/json", "text": \(body)}}
        }]}}
        """.utf8)
    }

    @Test(arguments: [
      #""plain""#, #""{\"quoted\": \"json\", \"slash\": \"a\/b\"}""#,
      #""\u00e9 é \ud83d\ude00 😀 \n\t\u0000""#, #""""#,
    ])
    func leavesBodyTextInTheFileUntilUsed(body: String) throws {
      let data = cassette(body: body)
      let read = try #require(HARReader.read(data))
      let reference = try JSONDecoder().decode(HARReference<HAR>.self, from: data).value
      let content = read.log.entries[0].response.content
      guard case .file = content.textStorage else {
        Issue.record("the text was decoded at load: \(String(describing: content.textStorage))")
        return
      }
      #expect(content.text == reference.log.entries[0].response.content.text)
      #expect(content.body == reference.log.entries[0].response.content.body)
      #expect(read.log.entries[0].request.postData?.body == Data("a=1".utf8))
      #expect(read == reference)
    }

    /// Redaction decodes a body read from a file and keeps the bytes with it: an unchanged
    /// body then compares equal to the file's without being decoded again, writes the same
    /// bytes, and a different text in the same span of other bytes is still told apart.
    @Test func aDecodedBodyComparesWithTheBytesItCameFrom() throws {
      let read = try #require(HARReader.read(cassette(body: #""{\"id\": \"a\/b\"}""#)))
      let redacted = Redaction.default.redact(read)
      guard case .decoded = redacted.log.entries[0].response.content.textStorage else {
        Issue.record("redaction did not keep the decoded text with its bytes")
        return
      }
      #expect(redacted == read)
      #expect(try redacted.encoded() == read.encoded())

      // The same length and the same span, another text.
      let other = try #require(HARReader.read(cassette(body: #""{\"id\": \"a\/c\"}""#)))
      var decoded = try #require(other.log.entries[0].response.content.textStorage)
      decoded.decode()
      let original = try #require(read.log.entries[0].response.content.textStorage)
      #expect(decoded != original)
      #expect(original != decoded)
      #expect(decoded == other.log.entries[0].response.content.textStorage)
      #expect(decoded == .string(#"{"id": "a/c"}"#))

      let changed = Redaction.default.redactingJSONMembers("id").redact(read)
      #expect(changed != read)
      #expect(changed.log.entries[0].response.content.text == #"{"id": "<redacted:id>"}"#)
    }

    /// The reader keeps each request's URL parse for replay: what replay matches on is what it
    /// would be for the same file decoded by `JSONDecoder`, for URLs with JSON escapes, ports,
    /// percent-escapes and a fragment, escaped header values, a base64 body and missing members.
    @Test func aReadRequestIsTheRequestADecodedOneIs() throws {
      let data = Data(
        #"""
        {"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [{
          "startedDateTime": "2024-05-01T12:00:00.000Z", "time": 5,
          "request": {"method": "put", "httpVersion": "HTTP/2",
            "url": "https:\/\/Example.COM:8443\/a%20b\/c%C3%A9?q=1&r=%C3%A9&q=2#part",
            "headers": [{"name": "X-Name", "value": "caf\u00e9 \ud83d\ude00 \"q\""}],
            "postData": {"mimeType": "application/octet-stream", "text": "AAEC/w==",
              "encoding": "base64"}},
          "response": {"status": 200, "content": {"mimeType": "text/plain", "text": "x"}}
        }, {
          "startedDateTime": "2024-05-01T12:00:01+02:00",
          "request": {"method": "GET", "url": "http://localhost/"},
          "response": {"status": 204}
        }]}}
        """#.utf8)
      let read = try #require(HARReader.read(data))
      let decoded = try JSONDecoder().decode(HARReference<HAR>.self, from: data).value
      #expect(read == decoded)
      for (mine, reference) in zip(read.log.entries, decoded.log.entries) {
        #expect(mine.request.parsedURL.url != nil, "the reader parsed \(mine.request.url)")
        let replayed = try mine.request.interceptedRequest()
        let expected = try reference.request.interceptedRequest()
        #expect(replayed.url == expected.url)
        #expect(replayed.url.absoluteString == URL(string: reference.request.url)?.absoluteString)
        #expect(replayed.methodName == expected.methodName)
        #expect(replayed.path == expected.path && replayed.host == expected.host)
        #expect(replayed.queryItems == expected.queryItems)
        #expect(replayed.headers == expected.headers)
        #expect(replayed.body == expected.body)
      }
      let first = try read.log.entries[0].request.interceptedRequest()
      #expect(first.body == Data([0, 1, 2, 255]))
      #expect(first.headers["X-Name"] == "café 😀 \"q\"")
      #expect(first.path == "/a b/cé" && first.host == "example.com")
    }

    @Test func aURLSetLaterReplacesTheKeptParse() throws {
      let kept = try #require(HARReader.read(cassette(body: #""x""#))).log.entries[0].request
      #expect(kept.parsedURL.url?.host == "example.com")
      // The same text without the parse: the parse is not part of the value.
      var same = kept
      same.url = kept.url
      #expect(same.parsedURL.url == nil)
      #expect(same == kept)
      var moved = kept
      moved.url = "https://other.example.com/b"
      #expect(moved.parsedURL.url == nil)
      #expect(try moved.interceptedRequest().host == "other.example.com")
    }

    @Test func aTextSetLaterReplacesTheFileBytes() throws {
      var read = try #require(HARReader.read(cassette(body: #""before""#)))
      read.log.entries[0].response.content.text = "after"
      #expect(read.log.entries[0].response.content.body == Data("after".utf8))
      #expect(String(decoding: try read.encoded(), as: UTF8.self).contains(#""text" : "after""#))
    }

    /// What a loaded cassette keeps: its body texts copied out of the file, still undecoded,
    /// and nothing else of the file; the model and the bytes it writes do not change.
    @Test func keepsOnlyTheBodyBytesOfTheFile() throws {
      for file in Self.cassetteFiles {
        var data = try Data(contentsOf: file)
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data = data.dropFirst(3) }
        guard let read = HARReader.read(data) else { continue }
        var kept = read
        kept.keepBodyBytesOnly()
        #expect(kept == read, "\(file.lastPathComponent)")
        #expect(try kept.encoded() == read.encoded(), "\(file.lastPathComponent)")
        let texts = kept.log.entries.flatMap { entry in
          [entry.response.content.textStorage, entry.request.postData?.textStorage]
        }
        var bodyBytes = 0
        for case .file(let bytes, let span)? in texts {
          bodyBytes += span.range.count
          #expect(bytes.count < data.count, "\(file.lastPathComponent) still keeps the file")
        }
        for case .file(let bytes, _)? in texts { #expect(bytes.count == bodyBytes) }
      }
      // Escapes stay written out, and decode as before.
      var read = try #require(
        HARReader.read(cassette(body: #""{\"a\": \"\u00e9\ud83d\ude00\"}""#)))
      read.keepBodyBytesOnly()
      guard case .file(_, let span)? = read.log.entries[0].response.content.textStorage else {
        Issue.record("the text was decoded")
        return
      }
      #expect(span.hasEscapes)
      #expect(read.log.entries[0].response.content.text == #"{"a": "é😀"}"#)
      #expect(read.log.entries[0].request.postData?.body == Data("a=1".utf8))

      // A text decoded already keeps its string and lets the file go.
      var decoded = try #require(HARReader.read(cassette(body: #""plain""#)))
      decoded.log.entries[0].response.content.textStorage?.decode()
      decoded.keepBodyBytesOnly()
      // A pattern, not `==`, which compares a decoded text and a string as texts.
      guard case .string("plain")? = decoded.log.entries[0].response.content.textStorage else {
        Issue.record("still held with the file's bytes")
        return
      }
    }
    /// Files the reader leaves to JSONDecoder: the loader's answer for them is unchanged, and
    /// its errors keep their words and positions (checked by CassetteErrorTests).
    @Test(arguments: [
      #""a", "text": "b""#,  // a member twice
      #""x",}"#,  // a trailing comma
      #""\ud83d""#,  // half a surrogate pair
    ])
    func leavesWhatItIsNotSureOfToJSONDecoder(body: String) {
      #expect(HARReader.read(cassette(body: body)) == nil)
    }

    @Test func leavesMalformedFixturesToJSONDecoder() throws {
      let folder = HARFixtures.url("malformed")
      for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
        let data = try Data(contentsOf: folder.appendingPathComponent(name))
        #expect(HARReader.read(data) == nil, "\(name)")
      }
    }

    /// Whatever the reader accepts, JSONDecoder accepts and builds the same: checked on mutants
    /// of the exports (bytes replaced, inserted, removed), from a fixed seed.
    @Test func neverAcceptsWhatJSONDecoderRefusesOrReadsItDifferently() throws {
      var generator = SplitMix(seed: 17)
      let alphabet = Array(#"{}[]",:0123456789.-eE\u"abcdefnrtlsx /é"#.utf8) + [0x80, 0x0A]
      var accepted = 0
      for name in ["chrome-export.har", "firefox-export.har", "mitmproxy-export.har"] {
        let original = try [UInt8](Data(contentsOf: HARFixtures.url(name)))
        for _ in 0..<300 {
          var bytes = original
          for _ in 0...Int(generator.next() % 3) {
            let at = Int(generator.next() % UInt64(bytes.count))
            let byte = alphabet[Int(generator.next() % UInt64(alphabet.count))]
            switch generator.next() % 3 {
            case 0: bytes[at] = byte
            case 1: bytes.insert(byte, at: at)
            default: bytes.remove(at: at)
            }
          }
          let data = Data(bytes)
          guard let read = HARReader.read(data) else { continue }
          accepted += 1
          let reference = try? JSONDecoder().decode(HARReference<HAR>.self, from: data).value
          #expect(read == reference, "\(name): \(String(decoding: bytes, as: UTF8.self))")
        }
      }
      #expect(accepted > 100)
    }

    @Test func checksBase64BodiesWhenReading() {
      let valid = cassette(body: #""aGk=", "encoding": "base64""#)
      #expect(HARReader.read(valid)?.log.entries[0].response.content.body == Data("hi".utf8))
      #expect(HARReader.read(cassette(body: #""not base64!", "encoding": "base64""#)) == nil)
      #expect(
        HARReader.read(cassette(body: #""x""#, postData: #""text": "%%", "encoding": "base64""#))
          == nil)
    }
  }
}
