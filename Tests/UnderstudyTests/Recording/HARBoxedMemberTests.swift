import Foundation
import Testing

@testable import Understudy

extension RecordingTests {
  /// The members a loaded cassette keeps boxed (an entry's page, server, connection and
  /// comment; a request's post data) behave as stored members: value semantics, equality by
  /// value, and encoding.
  @Suite struct HARBoxedMemberTests {
    static func entry() -> HAR.Entry {
      HAR.Entry(
        startedDateTime: Date(timeIntervalSince1970: 1_700_000_000), time: 3,
        request: HAR.Request(method: "GET", url: "https://api.test/items/1"),
        response: HAR.Response(status: 200))
    }

    @Test func aMemberSetAndClearedLeavesTheEntryEqualToOneNeverSet() {
      let plain = Self.entry()
      var changed = plain
      changed.comment = "note"
      changed.pageref = "page_1"
      #expect(changed != plain)
      changed.comment = nil
      changed.pageref = nil
      #expect(changed == plain)
    }

    @Test func changingACopyLeavesTheOriginal() {
      var original = Self.entry()
      original.serverIPAddress = "192.0.2.1"
      original.request.postData = HAR.PostData(mimeType: "text/plain", text: "one")
      var copy = original
      copy.serverIPAddress = "192.0.2.2"
      copy.connection = "443"
      copy.request.postData?.text = "two"
      #expect(original.serverIPAddress == "192.0.2.1")
      #expect(original.connection == nil)
      #expect(original.request.postData?.text == "one")
      #expect(copy.serverIPAddress == "192.0.2.2")
      #expect(copy.connection == "443")
      #expect(copy.request.postData?.text == "two")
    }

    @Test func equalBoxedMembersInDifferentBoxesCompareEqual() {
      var first = Self.entry()
      var second = Self.entry()
      first.comment = "note"
      second.comment = "note"
      first.request.postData = HAR.PostData(mimeType: "text/plain", text: "same")
      second.request.postData = HAR.PostData(mimeType: "text/plain", text: "same")
      #expect(first == second)
      second.request.postData?.text = "other"
      #expect(first != second)
    }

    @Test func aRequestEncodesItsPostDataOnlyWhenItHasOne() throws {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      var request = HAR.Request(method: "POST", url: "https://api.test/form")
      let without = String(decoding: try encoder.encode(HARReference(request)), as: UTF8.self)
      #expect(!without.contains("postData"))
      request.postData = HAR.PostData(mimeType: "text/plain", text: "body")
      let with = String(decoding: try encoder.encode(HARReference(request)), as: UTF8.self)
      #expect(with.contains(#""postData":{"mimeType":"text/plain","params":[],"text":"body"}"#))
      #expect(
        try JSONDecoder().decode(HARReference<HAR.Request>.self, from: Data(with.utf8)).value
          == request)
    }

    @Test func timingsThatFollowedTheTimeKeepTheirValueWhenTheTimeChanges() {
      var entry = Self.entry()
      #expect(entry.timings == HAR.Timings(wait: 3))
      entry.time = 10
      #expect(entry.timings == HAR.Timings(wait: 3))
      entry.timings = HAR.Timings(wait: 10)
      #expect(
        entry
          == HAR.Entry(
            startedDateTime: entry.startedDateTime, time: 10, request: entry.request,
            response: entry.response))
    }

    @Test func timingsAndCacheOfEveryShapeRoundTripByteForByte() throws {
      var entry = Self.entry()
      entry.timings = HAR.Timings(send: 0, wait: -0.0, receive: 0)
      entry.cache.comment = "cache note"
      var unknown = Self.entry()
      unknown.cache = HAR.Cache(beforeRequest: .absent)
      unknown.cache = HAR.Cache()
      #expect(unknown == Self.entry())
      let written = try HAR(entries: [entry, unknown, Self.entry()]).encoded()
      let read = try HAR.decode(written, source: "memory")
      #expect(read.log.entries[0].cache.comment == "cache note")
      #expect(read.log.entries[0].timings.wait.sign == .minus)
      #expect(read.log.entries[2].timings == HAR.Timings(wait: 3))
      #expect(try read.encoded() == written)
    }
  }
}
