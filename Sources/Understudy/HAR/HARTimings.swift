extension HAR {
  /// The phases of an exchange in milliseconds; `-1` marks a phase that did not apply.
  package struct Timings: Codable, Sendable, Hashable {
    /// Time spent queued before a connection was available.
    package var blocked: Double
    /// Time spent resolving the host name.
    package var dns: Double
    /// Time spent opening the TCP connection, including ``ssl``.
    package var connect: Double
    /// Time spent sending the request.
    package var send: Double
    /// Time spent waiting for the first byte of the response.
    package var wait: Double
    /// Time spent reading the response.
    package var receive: Double
    /// Time spent on the TLS handshake.
    package var ssl: Double
    /// A comment from the user or the application.
    package var comment: String?

    /// Creates timings. The spec requires `send`, `wait` and `receive`; the others default to
    /// `-1`, "did not apply", which is what a replayed or stubbed exchange honestly has.
    package init(
      blocked: Double = -1, dns: Double = -1, connect: Double = -1, send: Double = 0,
      wait: Double = 0, receive: Double = 0, ssl: Double = -1, comment: String? = nil
    ) {
      self.blocked = blocked
      self.dns = dns
      self.connect = connect
      self.send = send
      self.wait = wait
      self.receive = receive
      self.ssl = ssl
      self.comment = comment
    }

    /// Decodes timings, giving absent phases the same defaults as ``init(blocked:dns:connect:send:wait:receive:ssl:comment:)``.
    package init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      blocked = try container.decode(.blocked, or: -1)
      dns = try container.decode(.dns, or: -1)
      connect = try container.decode(.connect, or: -1)
      send = try container.decode(.send, or: 0)
      wait = try container.decode(.wait, or: 0)
      receive = try container.decode(.receive, or: 0)
      ssl = try container.decode(.ssl, or: -1)
      comment = try container.decodeIfPresent(String.self, forKey: .comment)
    }
  }
}
