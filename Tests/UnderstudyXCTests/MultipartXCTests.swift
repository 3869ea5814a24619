import Understudy
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Multipart part matchers in XCTest: an upload through URLSession, and parts that do not match.
final class MultipartXCTests: XCTestCase {
  private let boundary = "xctest-boundary"

  private func upload(_ parts: [(name: String, filename: String?, content: String)]) -> URLRequest {
    var body = ""
    for part in parts {
      body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\""
      if let filename = part.filename {
        body += "; filename=\"\(filename)\"\r\nContent-Type: text/csv"
      }
      body += "\r\n\r\n\(part.content)\r\n"
    }
    body += "--\(boundary)--\r\n"
    var request = URLRequest(url: URL(string: "https://api.test/import")!)
    request.httpMethod = "POST"
    request.setValue(
      "multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(body.utf8)
    return request
  }

  func testAnUploadMatchesByPartNameFileNameTypeAndText() async throws {
    let registry = StubRegistry()
    let stub = registry.stub(
      .post("/import")
        && .multipartPart(
          "sheet", filename: "rows.csv", contentType: "text/csv", content: .text("a,b"))
        && .multipartPart("meta", content: .jsonSubset(["dryRun": true])),
      .status(202))
    let request = upload([
      ("meta", nil, #"{"dryRun":true,"by":"ann"}"#), ("sheet", "rows.csv", "a,b"),
    ])
    let (_, response) = try await registry.makeSession().data(for: request)
    XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 202)
    XCTAssertEqual(stub.callCount, 1)
    XCTAssertEqual(stub.requests.first?.multipartParts?.map(\.name), ["meta", "sheet"])
  }

  func testAWrongPartNameFileNameOrContentDoesNotMatch() throws {
    let request = InterceptedRequest(upload([("sheet", "rows.csv", "a,b")]))
    XCTAssertNotNil(RequestPattern.multipartPart("sheet").match(request))
    XCTAssertNil(RequestPattern.multipartPart("file").match(request))
    XCTAssertNil(RequestPattern.multipartPart("sheet", filename: "other.csv").match(request))
    XCTAssertNil(RequestPattern.multipartPart("sheet", content: .text("a,c")).match(request))
    let mismatch = try XCTUnwrap(
      RequestPattern.multipartPart("file").explain(request).mismatches.first)
    XCTAssertEqual(
      mismatch.description, #"part file: expected present, got absent; parts: "sheet""#)
  }
}
