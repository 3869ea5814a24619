/// Where a test's cassette lives and what it is called.
public enum CassetteLocation: Sendable, Hashable {
  /// `__Cassettes__/<TestFile>/<name>.har` in the folder of the test file (found via
  /// `#filePath`), so cassettes sit beside the tests that use them.
  case besideTestFile
  /// This exact file (for example a bundle resource's URL).
  case file(URL)
  /// `<name>.har` in this folder.
  case folder(URL)

  /// The file for a cassette called `name` declared in the file at `testFilePath`.
  public func url(forCassetteNamed name: String, testFilePath: String) -> URL {
    switch self {
    case .file(let url):
      return url
    case .folder(let folder):
      return folder.appendingPathComponent(CassetteName.sanitized(name) + ".har")
    case .besideTestFile:
      let testFile = URL(fileURLWithPath: testFilePath)
      return testFile.deletingLastPathComponent()
        .appendingPathComponent("__Cassettes__")
        .appendingPathComponent(testFile.deletingPathExtension().lastPathComponent)
        .appendingPathComponent(CassetteName.sanitized(name) + ".har")
    }
  }
}

/// Names derived from tests, safe as file names.
enum CassetteName {
  /// Letters, digits, `-`, `_` and `.`; everything else becomes `-`, runs collapsed.
  static func sanitized(_ raw: String) -> String {
    var result = ""
    for character in raw {
      if character.isLetter || character.isNumber || "-_.".contains(character) {
        result.append(character)
      } else if result.last != "-" {
        result.append("-")
      }
    }
    let trimmed = result.trimmingCharacters(in: CharacterSet(charactersIn: "-."))
    return trimmed.isEmpty ? "cassette" : String(trimmed.prefix(120))
  }

  /// `loadsUser` for `loadsUser()`, `greets-Ada` for case `"Ada"` of `greets(name:)`.
  static func forTest(named name: String, arguments: [String]) -> String {
    let base = name.split(separator: "(").first.map(String.init) ?? name
    return sanitized(([base] + arguments).joined(separator: "-"))
  }

  /// The shell command that records the cassette of the test with these identifier components.
  static func recordCommand(testNameComponents: [String]) -> String {
    let filter = testNameComponents.map { component in
      component.split(separator: "(").first.map(String.init) ?? component
    }.joined(separator: "/")
    return "\(RecordMode.environmentVariable)=missing swift test --filter '\(filter)'"
  }
}
