#if Server
  import Foundation
  import NIOCore
  import NIOPosix
  import Testing
  import Understudy
  import UnderstudyServer

  /// Canned answers go out as bytes the connection encoded once and reuses (PreEncodedAnswers),
  /// past SwiftNIO's encoder. These read the raw bytes a client receives: the same status line,
  /// fields and framing the encoder wrote, in the order the requests came, and never the bytes
  /// of an answer the registry no longer gives.
  @Suite struct PreEncodedAnswerTests {
    static let textHead =
      "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 5"

    @Test(
      .timeLimit(.minutes(1)),
      .servedStubs {
        $0.stub(.get("/a"), .text("first"))
        $0.stub(.head("/a"), .text("first"))
        // Written from a task, through SwiftNIO's encoder: the answers after it wait for it.
        $0.stub(.get("/slow"), .text("later").bodyDelayed(by: 0.02))
        $0.stub(.delete("/c"), .status(204))
      })
    func pipelinedAnswersKeepTheirOrderFieldsAndLengths() async throws {
      let server = try #require(LoopbackServer.current)
      let requests = [
        ("GET", "/a", ""), ("GET", "/slow", ""), ("HEAD", "/a", ""), ("DELETE", "/c", ""),
        ("GET", "/a", ""), ("GET", "/a", "Connection: close\r\n"),
      ]
      let answers = try await Self.exchange(on: server.port) { inbound, outbound in
        // All in one write: the server reads them together and must answer them in order.
        try await outbound.write(
          ByteBuffer(
            string: requests.map { "\($0) \($1) HTTP/1.1\r\nHost: 127.0.0.1\r\n\($2)\r\n" }
              .joined()))
        var answers: [Answer] = []
        for (method, _, _) in requests {
          answers.append(try await inbound.next(bodiless: method == "HEAD"))
        }
        #expect(
          try await inbound.next(bodiless: false) == Answer(head: "", body: ""),
          "the server closes the connection after the answer to Connection: close")
        return answers
      }
      #expect(
        answers == [
          Answer(head: Self.textHead, body: "first"),
          Answer(head: Self.textHead, body: "later"),
          // The length of the body an answer to HEAD leaves out.
          Answer(head: Self.textHead, body: ""),
          // No framing fields on a status that has no body, as SwiftNIO's encoder leaves them.
          Answer(head: "HTTP/1.1 204 No Content", body: ""),
          Answer(head: Self.textHead, body: "first"),
          Answer(head: Self.textHead + "\r\nConnection: close", body: "first"),
        ])
      // Every request is matched and journaled, not only the first of a run of equal ones.
      #expect(
        server.registry.journal.map { "\($0.request.method.rawValue) \($0.request.url.path)" }
          == requests.map { "\($0.0) \($0.1)" })
      #expect(server.registry.journal.map(\.response?.status) == [200, 200, 200, 204, 200, 200])
    }

    @Test(.timeLimit(.minutes(1)), .servedStubs { $0.stub(.get("/item"), .text("one")) })
    func anAnswerThatChangedBetweenRequestsNeverGoesOutWithTheOldBytes() async throws {
      let server = try #require(LoopbackServer.current)
      let registry = server.registry
      let request = ByteBuffer(string: "GET /item HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
      let answers = try await Self.exchange(on: server.port) { inbound, outbound in
        var answers: [Answer] = []
        func send() async throws {
          try await outbound.write(request)
          answers.append(try await inbound.next(bodiless: false))
        }
        try await send()
        try await send()
        // Each change keeps everything else as it was: the body alone (same length), the
        // status alone, the fields alone.
        registry.stub(.get("/item"), .text("two"))
        try await send()
        registry.stub(.get("/item"), .text("two", status: 201))
        try await send()
        registry.removeAllStubs()
        registry.stub(.get("/item"), .text("two", status: 201, headers: ["X-Kind": "new"]))
        try await send()
        return answers
      }
      let plain = "Content-Type: text/plain; charset=utf-8\r\nContent-Length: 3"
      #expect(
        answers == [
          Answer(head: "HTTP/1.1 200 OK\r\n" + plain, body: "one"),
          Answer(head: "HTTP/1.1 200 OK\r\n" + plain, body: "one"),
          Answer(head: "HTTP/1.1 200 OK\r\n" + plain, body: "two"),
          Answer(head: "HTTP/1.1 201 Created\r\n" + plain, body: "two"),
          Answer(
            head: "HTTP/1.1 201 Created\r\nX-Kind: new\r\n" + plain, body: "two"),
        ])
      #expect(registry.journal.count == 5)
    }

    struct Answer: Equatable, CustomStringConvertible {
      /// The status line and the fields, without the blank line that ends them.
      var head: String
      var body: String

      var description: String { "\(head.debugDescription) + \(body.debugDescription)" }
    }

    /// Reads answers from a connection's raw bytes, framed by their `Content-Length`.
    struct AnswerReader {
      var bytes: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
      var pending: [UInt8] = []

      /// The next answer; an empty one when the server closed the connection first.
      mutating func next(bodiless: Bool) async throws -> Answer {
        let blankLine = Array("\r\n\r\n".utf8)
        var end: Int? { pending.indices.first { pending[$0...].starts(with: blankLine) } }
        while end == nil {
          guard let more = try await bytes.next() else { return Answer(head: "", body: "") }
          pending += Array(buffer: more)
        }
        let head = String(decoding: pending[..<end!], as: UTF8.self)
        pending.removeFirst(end! + blankLine.count)
        let length =
          bodiless
          ? 0
          : head.split(separator: "\r\n").lazy.compactMap { field -> Int? in
            guard field.lowercased().hasPrefix("content-length:") else { return nil }
            return Int(
              field.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
          }.first ?? 0
        while pending.count < length {
          guard let more = try await bytes.next() else { break }
          pending += Array(buffer: more)
        }
        let body = String(decoding: pending.prefix(length), as: UTF8.self)
        pending.removeFirst(min(length, pending.count))
        return Answer(head: head, body: body)
      }
    }

    /// Opens a connection to `port` and hands `body` its raw bytes, both ways.
    static func exchange<Result: Sendable>(
      on port: Int,
      _ body: (inout AnswerReader, NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws -> Result
    ) async throws -> Result {
      let client = try await ClientBootstrap(group: NIOSingletons.posixEventLoopGroup)
        .connect(host: "127.0.0.1", port: port) { channel in
          channel.eventLoop.makeCompletedFuture {
            try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
          }
        }
      return try await client.executeThenClose { inbound, outbound in
        var reader = AnswerReader(bytes: inbound.makeAsyncIterator())
        return try await body(&reader, outbound)
      }
    }
  }
#endif
