import Foundation
import Understudy

/// The library's factories `understudy stub` may call, as `name(label:label:)`, each with a
/// witness that compiles only while the library has a factory of that signature, so the list
/// cannot drift from the library.
enum LibraryFactories {
  static var witnesses: [String: () -> Void] {
    let pattern = RequestPattern.any
    let response = StubResponse.ok
    return [
      "stub(_:_:)": { StubRegistry().stub(pattern, response) },
      "stub(_:sequence:)": { StubRegistry().stub(pattern, sequence: [response]) },
      "get(_:)": { _ = RequestPattern.get("https://a.test/") },
      "post(_:)": { _ = RequestPattern.post("https://a.test/") },
      "put(_:)": { _ = RequestPattern.put("https://a.test/") },
      "patch(_:)": { _ = RequestPattern.patch("https://a.test/") },
      "delete(_:)": { _ = RequestPattern.delete("https://a.test/") },
      "head(_:)": { _ = RequestPattern.head("https://a.test/") },
      "options(_:)": { _ = RequestPattern.options("https://a.test/") },
      "request(_:_:)": { _ = RequestPattern.request("PURGE", "https://a.test/") },
      "query(_:_:)": { _ = RequestPattern.query("a", "1") },
      "query(_:)": { _ = RequestPattern.query("a") },
      "jsonBody(_:)": { _ = RequestPattern.jsonBody(["a": 1]) },
      "formBody(_:)": { _ = RequestPattern.formBody(["a": "1"]) },
      "formField(_:)": { _ = RequestPattern.formField("a") },
      "jsonBody(subset:)": { _ = RequestPattern.jsonBody(subset: ["a": 1]) },
      "body(containing:)": { _ = RequestPattern.body(containing: "a") },
      "body(matching:)": { _ = RequestPattern.body(matching: "^a$") },
      "body(_:)": {
        _ = RequestPattern.body("text")
        _ = RequestPattern.body(Data())
      },
      "json(string:status:headers:)": {
        _ = StubResponse.json(string: "{}", status: 200, headers: ["a": "b"])
      },
      "text(_:status:headers:)": { _ = StubResponse.text("", status: 200, headers: ["a": "b"]) },
      "data(_:status:headers:)": {
        _ = StubResponse.data(Data(), status: 200, headers: ["a": "b"])
      },
      "StubResponse(status:headers:)": { _ = StubResponse(status: 204, headers: ["a": "b"]) },
      "Data(base64Encoded:)": { _ = Data(base64Encoded: "") },
      "HTTPHeaders(_:)": { _ = HTTPHeaders([HTTPHeaders.Field(name: "a", value: "b")]) },
      "init(name:value:)": { _ = HTTPHeaders.Field.init(name: "a", value: "b") },
    ]
  }
}

/// The calls in a piece of Swift source, as `name(label:_:)`: enough of a reader to check
/// generated code, which holds calls, literals and comments and nothing else.
enum SwiftCalls {
  private enum Token: Equatable {
    case identifier(String)
    case punctuation(Character)
    case literal
  }

  static func signatures(in source: String) -> [String] {
    let tokens = tokenize(Array(source))
    var signatures: [String] = []
    for index in tokens.indices.dropLast() {
      guard case .identifier(let name) = tokens[index], tokens[index + 1] == .punctuation("(")
      else { continue }
      var labels: [String] = []
      var depth = 0
      var position = index + 2
      var atArgumentStart = true
      while position < tokens.count {
        let token = tokens[position]
        if depth == 0, atArgumentStart, token != .punctuation(")") {
          if case .identifier(let label) = token, position + 1 < tokens.count,
            tokens[position + 1] == .punctuation(":")
          {
            labels.append(label)
          } else {
            labels.append("_")
          }
          atArgumentStart = false
        }
        switch token {
        case .punctuation("("), .punctuation("["), .punctuation("{"): depth += 1
        case .punctuation(")") where depth == 0: position = tokens.count
        case .punctuation(")"), .punctuation("]"), .punctuation("}"): depth -= 1
        case .punctuation(",") where depth == 0: atArgumentStart = true
        default: break
        }
        position += 1
      }
      signatures.append(name + "(" + labels.map { $0 + ":" }.joined() + ")")
    }
    return signatures
  }

  private static func tokenize(_ characters: [Character]) -> [Token] {
    var tokens: [Token] = []
    var index = 0
    while index < characters.count {
      let character = characters[index]
      if character == "/", index + 1 < characters.count, characters[index + 1] == "/" {
        while index < characters.count, characters[index] != "\n" { index += 1 }
      } else if character == "#" || character == "\"" {
        var hashes = 0
        while characters[index + hashes] == "#" { hashes += 1 }
        index += hashes + 1
        let closing = [Character("\"")] + Array(repeating: Character("#"), count: hashes)
        while index < characters.count {
          if hashes == 0, characters[index] == "\\" {
            index += 2
          } else if Array(characters[index..<min(index + closing.count, characters.count)])
            == closing
          {
            index += closing.count
            break
          } else {
            index += 1
          }
        }
        tokens.append(.literal)
      } else if character.isLetter || character == "_" {
        var name = ""
        while index < characters.count,
          characters[index].isLetter || characters[index].isNumber || characters[index] == "_"
        {
          name.append(characters[index])
          index += 1
        }
        tokens.append(.identifier(name))
      } else if character.isNumber {
        while index < characters.count, characters[index].isNumber || characters[index] == "." {
          index += 1
        }
        tokens.append(.literal)
      } else {
        if !character.isWhitespace { tokens.append(.punctuation(character)) }
        index += 1
      }
    }
    return tokens
  }
}
