import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends `requests` requests and checks every answer; what one timed run does.
typealias Workload = (_ requests: Int) async throws -> Void

/// An answer that was not the one the scenario expects: a benchmark that measures wrong answers
/// measures nothing.
struct WrongAnswer: Error, CustomStringConvertible {
  let description: String
}

enum Workloads {
  /// One request at a time, `await session.data(for:)` after the other, as the peer libraries
  /// were measured.
  static func sequential(_ session: URLSession, _ request: URLRequest, expecting body: Data)
    -> Workload
  {
    { count in
      for _ in 0..<count {
        let (data, response) = try await session.data(for: request)
        try check(data, response, body)
      }
    }
  }

  /// `width` requests in flight at all times, spread round-robin over `lanes`; each lane is a
  /// session, the request it sends and the body it must get back.
  static func inFlight(
    _ lanes: [(session: URLSession, request: URLRequest, body: Data)], width: Int
  ) -> Workload {
    { count in
      try await withThrowingTaskGroup(of: Void.self) { group in
        var next = 0
        func add() {
          let lane = lanes[next % lanes.count]
          next += 1
          group.addTask {
            let (data, response) = try await lane.session.data(for: lane.request)
            try check(data, response, lane.body)
          }
        }
        for _ in 0..<min(width, count) { add() }
        while try await group.next() != nil {
          if next < count { add() }
        }
      }
    }
  }

  static func check(_ data: Data, _ response: URLResponse, _ body: Data) throws {
    guard (response as? HTTPURLResponse)?.statusCode == 200, data == body else {
      throw WrongAnswer(
        description: "expected 200 with the scenario's \(body.count)-byte body, got "
          + "\((response as? HTTPURLResponse)?.statusCode ?? -1) with \(data.count) bytes "
          + String(decoding: data.prefix(60), as: UTF8.self))
    }
  }
}
