import Foundation
import Testing

@testable import Understudy

extension RecordingTests {
  /// `HAR.encoded()` writes the bytes itself (`HARWriter`); `JSONEncoder` with the options
  /// cassettes have always been written with is the reference it must match byte for byte, so
  /// committed cassettes do not change, and the reader must read back what it wrote.
  @Suite struct HARWriterTests {
    /// What `JSONEncoder` writes for `har`: the format before the writer, and the scanner's.
    static func reference(_ har: HAR) throws -> Data {
      var data = try HAR.makeEncoder().encode(HARReference(har))
      data.append(UInt8(ascii: "\n"))
      return data
    }

    /// Every character class the escaping treats differently: quotes, backslashes, slashes,
    /// each control character, DEL, non-ASCII in two, three and four bytes, the line and
    /// paragraph separators, a byte order mark and a combining accent.
    static let awkward =
      "quote \" backslash \\ slash / "
      + String(String.UnicodeScalarView((0..<0x20).map { Unicode.Scalar(UInt8($0)) }))
      + " del \u{7F} é € 😀 \u{2028}\u{2029} \u{FEFF} e\u{301} \"\"\\\\"

    /// An archive that uses every member, with awkward text in each kind of string member, a
    /// base64 body, chunks, each cache state, and members left out or empty.
    static let varied: HAR = {
      var har = HARModelTests.complete
      var entry = har.log.entries[0]
      entry.request.headers.append(HAR.Header(name: "X-Awkward", value: awkward))
      entry.request.postData = HAR.PostData(
        body: Data([0x00, 0xFF, 0xFE, 0x80, 0x22, 0x5C]), mimeType: "application/octet-stream")
      entry.response.content = HAR.Content(
        body: Data("{\"text\":\"\(awkward)\"}".utf8), mimeType: "application/json")
      entry.response.content.chunks = [
        .init(size: 3, time: 0), .init(size: 4, time: 1.5), .init(size: 1, time: 1e-7),
      ]
      entry.cache = HAR.Cache(beforeRequest: .unknown, afterRequest: .absent)
      entry.comment = awkward
      var bare = HAR.Entry.sample(content: HAR.Content(size: 12, mimeType: "image/png"))
      bare.time = 1e21
      bare.timings = HAR.Timings(send: -0.0, wait: 0.1, receive: 123_456_789.123)
      bare.response.cookies = [HAR.Cookie(name: "c", value: "")]
      har.log.entries = [entry, bare, .sample(postData: HAR.PostData(mimeType: "", text: ""))]
      har.log.browser = nil
      har.log.comment = nil
      return har
    }()

    @Test func writesWhatJSONEncoderWrites() throws {
      for har in [Self.varied, HARModelTests.complete, HAR(entries: []), HAR(entries: [.sample()])]
      {
        let written = try har.encoded()
        #expect(
          String(decoding: written, as: UTF8.self)
            == String(decoding: try Self.reference(har), as: UTF8.self))
      }
    }

    @Test func whatItWritesReadsBackAsTheSameModel() throws {
      let written = try Self.varied.encoded()
      let read = try HAR.decode(written, source: "memory")
      #expect(read == Self.varied)
      #expect(
        read.log.entries[0].request.postData?.body == Data([0x00, 0xFF, 0xFE, 0x80, 0x22, 0x5C]))
      #expect(read.log.entries[0].request.headers.last?.value == Self.awkward)
      #expect(read.log.entries[1].response.content.text == nil)
      #expect(read.log.entries[1].response.content.omittedSize == 12)
      #expect(try read.encoded() == written)
    }

    /// Strings of every length around a word (8 bytes), with special bytes at every position,
    /// so the word-at-a-time paths meet each boundary.
    @Test func everyLengthAndPositionOfASpecialByteMatches() throws {
      var generator = SplitMix(seed: 15)
      let alphabet = Array("ab\"\\/\n\t\u{01}\u{1F}é😀".unicodeScalars)
      var texts: [String] = []
      for length in 0..<40 {
        for _ in 0..<4 {
          texts.append(
            String(
              String.UnicodeScalarView(
                (0..<length).map { _ in
                  // Mostly plain letters, so runs of whole words occur too.
                  alphabet[
                    generator.next() % 3 == 0 ? Int(generator.next() % UInt64(alphabet.count)) : 0]
                })))
        }
      }
      let har = HAR(
        entries: texts.map {
          .sample(
            requestHeaders: [HAR.Header(name: "X", value: $0)],
            content: HAR.Content(mimeType: "text/plain", text: $0))
        })
      #expect(try har.encoded() == Self.reference(har))
      #expect(try HAR.decode(try har.encoded(), source: "memory") == har)
    }

    /// In a debug build (what `swift test` runs) a string of 4 KiB or more (a body) is escaped
    /// by `JSONEncoder` rather than by the writer's own loop: at the lengths around that switch,
    /// with every awkward character in it, the bytes are the reference's and read back as the
    /// same text.
    @Test func longStringsAroundTheEncoderSwitchMatch() throws {
      var texts: [String] = []
      for length in [4_094, 4_095, 4_096, 4_097, 20_000] {
        var text = String(repeating: Self.awkward, count: length / Self.awkward.utf8.count + 1)
        while text.utf8.count > length { text.removeLast() }
        texts.append(text)
        texts.append(String(repeating: "\"{}\"", count: length / 4))
      }
      let har = HAR(
        entries: texts.map {
          .sample(
            requestHeaders: [HAR.Header(name: "X", value: $0)],
            content: HAR.Content(mimeType: "application/json", text: $0))
        })
      #expect(try har.encoded() == Self.reference(har))
      #expect(try HAR.decode(try har.encoded(), source: "memory") == har)
    }

    /// A body read from a file stays in the file's bytes; written again, its escapes are
    /// rewritten the way the writer writes them, and the result is what the decoded text gives.
    @Test func aBodyReadFromAFileIsWrittenAsItsDecodedText() throws {
      let escapes = [
        #"plain text, no escape at all"#,
        #"\/slash \u00e9 \u0022q\u0022 \u005C \ud83d\ude00 \u001f \u0000 \b\f\n\r\t \"\\ \u20AC"#,
        #"\u0041\u0042\u0043\u0044\u0045\u0046\u0047\u0048\u0049 many \\\\\\\\\\ in a row"#,
        "",
        // Only the escapes the writer writes: copied as they are.
        #"{\"id\":1,\"q\":\"a\\\\b\"}\b\f\n\r\t é 😀 \"\"\\\\"#,
        // One escape the writer writes otherwise, after many it writes the same.
        #"\"\"\"\"\"\"\"\"\"\"\"\"\"\" then \/"#,
        #"\"\"\"\"\"\"\"\"\"\"\"\"\"\" then \u0041"#,
      ]
      for text in escapes {
        let json = """
          {"log": {"entries": [{"startedDateTime": "2024-01-01T00:00:00.000Z",
            "request": {"method": "POST", "url": "https://example.com/",
              "postData": {"mimeType": "text/plain", "text": "\(text)"}},
            "response": {"status": 200, "content": {"size": 1, "mimeType": "text/plain",
              "text": "\(text)"}}}]}}
          """
        let read = try HAR.decode(Data(json.utf8), source: "inline")
        guard case .file = try #require(read.log.entries[0].response.content.textStorage) else {
          Issue.record(
            "the body was decoded at load time, so this test no longer reaches the file path")
          return
        }
        var decoded = read
        decoded.log.entries[0].response.content.text = read.log.entries[0].response.content.text
        decoded.log.entries[0].request.postData?.text =
          read.log.entries[0].request.postData?.text ?? ""
        #expect(try read.encoded() == decoded.encoded())
        #expect(try read.encoded() == Self.reference(decoded))
        // Decoded by redaction, the body keeps its file bytes, which are written instead.
        var redacted = read
        redacted.log.entries[0].response.content.textStorage?.decode()
        redacted.log.entries[0].request.postData?.textStorage.decode()
        guard case .decoded = try #require(redacted.log.entries[0].response.content.textStorage)
        else {
          Issue.record("decode() no longer keeps the file's bytes, so this test misses that path")
          return
        }
        #expect(try redacted.encoded() == Self.reference(decoded))
      }
    }

    /// Contents are copied as they are only when every escape is one the writer writes.
    @Test func theScannerTellsEscapesTheWriterWritesFromOthers() throws {
      let cases: [(String, Bool)] = [
        (#"plain"#, true), (#"a\"b\\c\bd\fe\nf\rg\t"#, true), (#"a\/b"#, false),
        (#"\u0041"#, false), (#"\u001f"#, false), (#"\"\"\"\"\"\"\"\"\"\"\/"#, false),
        (#"\ud83d\ude00"#, false),
      ]
      for (contents, asWritten) in cases {
        let bytes = Array("\"\(contents)\"".utf8)
        let span = bytes.withUnsafeBytes { raw in
          var scanner = JSONScanner(raw)
          return scanner.scanString()
        }
        #expect(span?.escapesAsWritten == asWritten, "\(contents)")
      }
    }

    @Test func aNumberJSONCannotHoldIsAnErrorAtItsPath() throws {
      for value in [Double.nan, .infinity, -.infinity] {
        var chunked = HAR.Entry.sample()
        chunked.response.content.chunks = [.init(size: 1, time: 0), .init(size: 1, time: value)]
        var timed = HAR.Entry.sample()
        timed.timings.receive = value
        let error = try #require(cassetteError { _ = try HAR(entries: [chunked]).encoded() })
        #expect(error.kind == .invalidValue)
        #expect(error.jsonPath == "log.entries[0].response.content._chunks[1].time")
        #expect(error.problem == "\(value) cannot be written to JSON")
        let other = try #require(
          cassetteError { _ = try HAR(entries: [.sample(), timed]).encoded() })
        #expect(other.jsonPath == "log.entries[1].timings.receive")
      }
    }

    @Test func textsInAFileCompareWithoutDecodingAndStillCompareAsText() throws {
      // Longer than the piece the comparison unescapes at a time, differing only at the end.
      let long = String(repeating: #"{\"k\":\"v\"} "#, count: 20_000)
      let decodedLong = String(repeating: #"{"k":"v"} "#, count: 20_000)
      let json = Data(#"["\#(long)x", "caf\u00e9", "plain"]"#.utf8)
      let spans = json.withUnsafeBytes { bytes -> [JSONScanner.StringSpan] in
        var scanner = JSONScanner(bytes, index: 1)
        var spans: [JSONScanner.StringSpan] = []
        while let span = scanner.scanString() {
          spans.append(span)
          _ = scanner.consume(UInt8(ascii: ","))
          scanner.skipWhitespace()
        }
        return spans
      }
      try #require(spans.count == 3)
      let file = spans.map { HARTextStorage.file(json, $0) }
      #expect(file[0] == .string(decodedLong + "x"))
      #expect(file[0] != .string(decodedLong + "y"))
      #expect(file[0] != .string(decodedLong))
      #expect(HARTextStorage.string(decodedLong + "x") == file[0])
      #expect(file[1] == .string("café"))
      #expect(file[1] != .string("cafe"))
      #expect(file[2] == .string("plain"))
      #expect(file[2] != .string("plain!"))
      #expect(file[0] == file[0])
      #expect(file[1] != file[2])
      // The same text escaped differently in another file.
      let other = Data(#"["café"]"#.utf8)
      let otherSpan = try #require(
        other.withUnsafeBytes { bytes in
          var scanner = JSONScanner(bytes, index: 1)
          return scanner.scanString()
        })
      #expect(file[1] == .file(other, otherSpan))
    }
  }
}
