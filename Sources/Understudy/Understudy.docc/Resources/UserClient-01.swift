// The code under test in the guides' examples: a small API client that is handed its session.

import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

struct User: Codable, Equatable, Sendable {
  var id: Int
  var name: String
}

struct APIError: Error, Equatable {
  var status: Int
}

struct UserClient: Sendable {
  var baseURL = URL(string: "https://api.example.com")!
  var session: URLSession

  func user(id: Int) async throws -> User {
    let (data, response) = try await session.data(from: baseURL.appending(path: "users/\(id)"))
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    guard status == 200 else { throw APIError(status: status) }
    return try JSONDecoder().decode(User.self, from: data)
  }
}
