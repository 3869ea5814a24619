import Testing

@testable import Understudy

/// Default cassette names for parameterized tests: distinct cases never share a file, and names
/// that already said exactly what the case was do not change.
@Suite struct CassetteNamingTests {
  @Test(arguments: ["a b", "a-b", "a/b"])
  func argumentsThatSlugAlikeGetTheirOwnFile(argument: String) throws {
    let arguments = TestCaseArguments.describe(Test.Case.current)
    #expect(arguments == [argument])
    let name = CassetteName.forTest(named: "loads(path:)", arguments: arguments)
    let others = ["a b", "a-b", "a/b"].filter { $0 != argument }.map {
      CassetteName.forTest(named: "loads(path:)", arguments: [$0])
    }
    #expect(!others.contains(name))
    #expect(name.hasPrefix("loads-a-b--"))
    let url = CassetteLocation.besideTestFile.url(
      forCassetteNamed: name, testFilePath: "/p/Tests/AppTests/PathTests.swift")
    #expect(url.lastPathComponent == name + ".har")
  }

  @Test func exactNamesKeepTheirFile() {
    #expect(CassetteName.forTest(named: "loadsUser()", arguments: []) == "loadsUser")
    #expect(
      CassetteName.forTest(named: "loadsEachUser(id:)", arguments: ["42"]) == "loadsEachUser-42")
    #expect(CassetteName.forTest(named: "greets(name:)", arguments: ["Ada"]) == "greets-Ada")
    #expect(CassetteName.forTest(named: "sums(a:b:)", arguments: ["1.5", "2"]) == "sums-1.5-2")
  }

  @Test func theDigestIsStableAcrossRuns() {
    // Fixed here, and in the guides, because a name that changes between runs orphans every
    // recorded cassette.
    let names = ["a b", "a-b", "a/b"].map {
      CassetteName.forTest(named: "loads(path:)", arguments: [$0])
    }
    #expect(names == ["loads-a-b--af976d1a", "loads-a-b--aff7ec1b", "loads-a-b--affb64e1"])
    #expect(
      CassetteName.forTest(named: "greets(name:)", arguments: ["Ada Lovelace"])
        == "greets-Ada-Lovelace--c6279b23")
  }

  @Test func noTwoArgumentListsShareAName() {
    let long = String(repeating: "x", count: 130)
    let cases: [[String]] = [
      ["a b"], ["a-b"], ["a/b"], ["a_b"], ["a  b"], ["a--b"], ["a.b"], ["a b."], [""], [" "],
      ["-"], ["--"], ["a", "b-c"], ["a-b", "c"], ["a", "b c"], ["a b", "c"], ["a", "b", "c"],
      ["ab"], ["Ada"], ["Ada "], ["(Ada)"], ["Zoë"], [long + "1"], [long + "2"],
      ["loads"], ["loads-af976d1a"],
    ]
    let names = cases.map { CassetteName.forTest(named: "loads(path:)", arguments: $0) }
    #expect(Set(names).count == cases.count, "\(names)")
    for name in names {
      #expect(CassetteName.sanitized(name) == name, "\(name) is not a safe file name")
    }
  }
}

extension CassetteNamingTests {
  @Test func aMissingCassetteNamesTheFileTheEarlierRuleUsed() throws {
    try withTemporaryDirectory { directory throws in
      let name = CassetteName.forTest(named: "greets(name:)", arguments: ["Grace Hopper"])
      let url = CassetteLocation.folder(directory).url(forCassetteNamed: name, testFilePath: "")
      try HAR(entries: []).write(to: directory.appendingPathComponent("greets-Grace-Hopper.har"))
      let problem = try #require(Cassette(at: url).problem)
      #expect(problem.kind == .fileMissing)
      #expect(problem.problem.contains("greets-Grace-Hopper.har beside it was recorded under"))
      #expect(problem.problem.contains("rename it to \(name).har"))
      // Without the earlier file there is nothing to point at.
      let other = CassetteName.forTest(named: "greets(name:)", arguments: ["Ada Lovelace"])
      let alone = CassetteLocation.folder(directory).url(forCassetteNamed: other, testFilePath: "")
      #expect(Cassette(at: alone).problem?.problem == "the cassette does not exist (mode never)")
    }
  }
}
