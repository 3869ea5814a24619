import Understudy
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Templated fixtures in XCTest: values from the request, and an unknown placeholder's report.
final class TemplatedFixtureXCTests: XCTestCase {
  func testPlaceholdersAreFilledInFromEachRequest() async throws {
    let registry = StubRegistry()
    registry.stub(
      .get("/greet/{who}"),
      .fixture("../UnderstudyTests/Fixtures/Templates/greeting.txt", templated: true))
    let session = registry.makeSession()
    let (first, _) = try await session.data(
      from: URL(string: "https://api.test/greet/ann?name=Ann")!)
    XCTAssertEqual(
      String(decoding: first, as: UTF8.self), "Hello Ann, this is answer 1 to /greet/ann.\n")
    let (second, _) = try await session.data(
      from: URL(string: "https://api.test/greet/bo?name=Bo")!)
    XCTAssertEqual(
      String(decoding: second, as: UTF8.self), "Hello Bo, this is answer 2 to /greet/bo.\n")
  }

  func testAnUnknownPlaceholderNamesTheFileLineAndColumn() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "understudy-template-\(UUID().uuidString).json")
    try Data("{\n  \"id\": {{request.path.id}},\n  \"x\": \"{{request.cookie}}\"\n}\n".utf8)
      .write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let problem = try XCTUnwrap(StubResponse.fixture(at: file, templated: true).problem)
    XCTAssertTrue(
      problem.hasPrefix("\(file.path):3:9: unknown placeholder {{request.cookie}}"), problem)
    XCTAssertNil(StubResponse.fixture(at: file).problem)
  }
}
