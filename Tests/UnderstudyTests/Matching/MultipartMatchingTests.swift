import Testing

@testable import Understudy

/// A `multipart/form-data` upload as URLSession clients build one.
struct MultipartUpload {
  var boundary = "Boundary-7MA4YWxkTrZu0gW"
  var lineBreak = "\r\n"
  var parts: [(headers: [String], content: Data)] = []

  mutating func field(_ name: String, _ value: String) {
    parts.append((["Content-Disposition: form-data; name=\"\(name)\""], Data(value.utf8)))
  }

  mutating func file(_ name: String, filename: String, type: String, _ content: Data) {
    parts.append(
      (
        [
          "Content-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"",
          "Content-Type: \(type)",
        ], content
      ))
  }

  var contentType: String { "multipart/form-data; boundary=\(boundary)" }

  var body: Data {
    var data = Data()
    for part in parts {
      data += Data("--\(boundary)\(lineBreak)".utf8)
      for header in part.headers { data += Data("\(header)\(lineBreak)".utf8) }
      data += Data(lineBreak.utf8) + part.content + Data(lineBreak.utf8)
    }
    return data + Data("--\(boundary)--\(lineBreak)".utf8)
  }

  func request(contentType: String? = nil) -> InterceptedRequest {
    InterceptedRequest(
      method: "POST", url: URL(string: "https://api.test/upload")!,
      headers: ["Content-Type": contentType ?? self.contentType], body: body)
  }
}

@Suite struct MultipartMatchingTests {
  /// Binary content with a CR, an LF, a NUL and a byte that is not UTF-8.
  static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF])

  static var upload: MultipartUpload {
    var upload = MultipartUpload()
    upload.field("note", "hello\r\nworld")
    upload.file("avatar", filename: "me.png", type: "image/png", png)
    upload.file(
      "meta", filename: "meta.json", type: "application/json",
      Data(#"{"user":{"name":"ann","id":7},"tags":["a"]}"#.utf8))
    return upload
  }

  @Test func partsAreReadByteForByte() throws {
    let parts = try #require(Self.upload.request().multipartParts)
    #expect(parts.map(\.name) == ["note", "avatar", "meta"])
    #expect(parts.map(\.filename) == [nil, "me.png", "meta.json"])
    #expect(parts.map(\.contentType) == [nil, "image/png", "application/json"])
    #expect(parts[0].text == "hello\r\nworld")
    #expect(parts[1].data == Self.png)
    // Bare LF line breaks, and no boundary in the Content-Type: the first line names it.
    var lf = Self.upload
    lf.lineBreak = "\n"
    #expect(lf.request(contentType: "multipart/form-data").multipartParts?[1].data == Self.png)
    #expect(InterceptedRequest(url: URL(string: "https://a.test")!).multipartParts == nil)
    #expect(request("https://a.test", text: #"{"a":1}"#).multipartParts == nil)
  }

  @Test func matchesByNameFilenameTypeAndContent() {
    let request = Self.upload.request()
    expectMatch(.multipartPart("note"), request)
    expectMatch(.multipartPart("note", content: .text("hello\r\nworld")), request)
    expectMatch(
      .multipartPart(
        "avatar", filename: "me.png", contentType: "IMAGE/PNG", content: .data(Self.png)),
      request)
    expectMatch(.multipartPart("meta", content: .jsonSubset(["user": ["name": "ann"]])), request)
    expectMatch(.multipartPart("note", contentType: "text/plain"), request)
  }

  @Test func aMismatchSaysWhichPartAndWhy() {
    let request = Self.upload.request()
    expectMismatch(
      .multipartPart("photo"), request, field: "part photo", expected: "present",
      actual: #"absent; parts: "note", "avatar", "meta""#)
    expectMismatch(
      .multipartPart("avatar", filename: "other.png"), request, field: "part avatar",
      expected: #"filename "other.png""#, actual: #"filename "me.png""#)
    expectMismatch(
      .multipartPart("note", filename: "note.txt"), request, field: "part note",
      expected: #"filename "note.txt""#, actual: "no filename (a field)")
    expectMismatch(
      .multipartPart("avatar", contentType: "image/jpeg"), request, field: "part avatar",
      expected: "Content-Type image/jpeg", actual: "Content-Type image/png")
    expectMismatch(
      .multipartPart("avatar", content: .data(Self.png.prefix(9) + Data([0xFE]))), request,
      field: "part avatar", expected: "10 bytes", actual: "10 bytes, first difference at offset 9")
    expectMismatch(
      .multipartPart("note", content: .text("hello")), request, field: "part note",
      expected: #"text "hello""#, actual: #""hello\#r\#nworld", first difference at character 5"#)
    expectMismatch(
      .multipartPart("meta", content: .jsonSubset(["user": ["name": "bob"]])), request,
      field: "part meta", expected: #"JSON subset {"user":{"name":"bob"}}"#,
      actual: #"JSON at $.user.name: expected "bob", got "ann""#)
    expectMismatch(
      .multipartPart("avatar", content: .jsonSubset(["a": 1])), request, field: "part avatar",
      expected: #"JSON subset {"a":1}"#, actual: "content is not JSON (10 bytes, not UTF-8)")
    expectMismatch(
      .multipartPart("note", content: .jsonSubset(["a": 1])), request, field: "part note",
      expected: #"JSON subset {"a":1}"#, actual: #"content is not JSON: it starts "hello\r\nworld""#
    )
  }

  @Test func aBodyThatIsNotMultipartIsSaidSo() {
    expectMismatch(
      .multipartPart("a"), request("https://a.test", text: "a=1"), field: "part a",
      expected: "present", actual: "not multipart/form-data (Content-Type none)")
    expectMismatch(
      .multipartPart("a"), request("POST", "https://a.test"), field: "part a",
      expected: "present", actual: "no body")
  }

  @Test func oneOfSeveralPartsWithTheNameMayMatch() {
    var upload = MultipartUpload()
    upload.file("files[]", filename: "a.txt", type: "text/plain", Data("a".utf8))
    upload.file("files[]", filename: "b.txt", type: "text/plain", Data("b".utf8))
    expectMatch(.multipartPart("files[]", filename: "b.txt", content: .text("b")), upload.request())
    #expect(
      RequestPattern.multipartPart("files[]", filename: "c.txt").match(upload.request()) == nil)
  }

  @Test func nearMissReportsListPartsAndMaskSecretsInThem() async throws {
    var upload = Self.upload
    upload.field("password", "hunter2-multipart")
    upload.field("profile", #"{"user":"ann","access_token":"json-part-secret-77"}"#)
    let registry = StubRegistry()
    registry.stub(.post("/upload") && .multipartPart("password", content: .text("other")), .ok)
    var urlRequest = URLRequest(url: URL(string: "https://api.test/upload")!)
    urlRequest.httpMethod = "POST"
    urlRequest.setValue(upload.contentType, forHTTPHeaderField: "Content-Type")
    urlRequest.httpBody = upload.body
    _ = try? await registry.makeSession().data(for: urlRequest)
    let text = try #require(registry.unmatchedReports.first).description
    #expect(!text.contains("hunter2"), "\(text)")
    #expect(!text.contains("json-part-secret"), "\(text)")
    #expect(text.contains(#"part "profile" (51 bytes): "{"user":"ann","access_token":"••••("#))
    #expect(text.contains("multipart/form-data, 5 parts):"), "\(text)")
    #expect(text.contains(#"part "note" (12 bytes): "hello\r\nworld""#), "\(text)")
    #expect(text.contains(#"part "avatar", file "me.png" (image/png, 10 bytes)"#), "\(text)")
    #expect(text.contains(#"part "password" (17 bytes): ••••(17 chars)"#), "\(text)")
    #expect(text.contains(#"✗ part password: expected text ••••(7 chars), got ••••("#), "\(text)")
    #expect(text.contains(#"part password text ••••(7 chars)"#), "\(text)")
  }

  @Test func verificationListsTheClosestUploadsWithTheirPartsMasked() async throws {
    var upload = Self.upload
    upload.field("api_key", "key-in-a-part-123")
    let registry = StubRegistry()
    registry.stub(.any, .ok)
    var urlRequest = URLRequest(url: URL(string: "https://api.test/upload")!)
    urlRequest.httpMethod = "POST"
    urlRequest.setValue(upload.contentType, forHTTPHeaderField: "Content-Type")
    urlRequest.httpBody = upload.body
    _ = try await registry.makeSession().data(for: urlRequest)
    withKnownIssue {
      registry.verify(.post("/upload") && .multipartPart("avatar", filename: "you.png"), .once)
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains(#"part "avatar", file "me.png" (image/png, 10 bytes)"#)
        && text.contains(#"part "api_key" (17 bytes): ••••(17 chars)"#)
        && text.contains(#"✗ part avatar: expected filename "you.png", got filename "me.png""#)
        && !text.contains("key-in-a-part")
    }
  }

  @Test func aStubMatchesAnUploadSentThroughURLSession() async throws {
    let registry = StubRegistry()
    registry.stub(.multipartPart("avatar", filename: "me.png"), .text("stored"))
    let upload = Self.upload
    var urlRequest = URLRequest(url: URL(string: "https://api.test/upload")!)
    urlRequest.httpMethod = "POST"
    urlRequest.setValue(upload.contentType, forHTTPHeaderField: "Content-Type")
    let (data, _) = try await registry.makeSession().upload(for: urlRequest, from: upload.body)
    #expect(String(decoding: data, as: UTF8.self) == "stored")
    #expect(registry.journal.first?.request.multipartParts?.count == 3)
  }
}
