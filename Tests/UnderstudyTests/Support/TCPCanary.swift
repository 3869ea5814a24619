import Foundation

@testable import Understudy

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A TCP listener on 127.0.0.1 that only counts the connections it accepts, whatever protocol
/// they speak, so a test can prove that no request of any scheme opened one. Call ``stop()``.
final class TCPCanary: Sendable {
  let port: Int
  private let descriptor: Int32
  private struct Counts {
    var others = 0
    /// Local ports of our own probing connections, and whether each was accepted yet.
    var probes: [Int: Bool] = [:]
  }
  private let counts = Locked(Counts())

  init() throws {
    descriptor = socket(AF_INET, Self.stream, 0)
    var address = Self.loopback(port: 0)
    guard descriptor >= 0, Self.bindLoopback(descriptor, &address), listen(descriptor, 64) == 0
    else {
      throw CocoaError(.fileWriteUnknown)
    }
    port = Int(UInt16(bigEndian: address.sin_port))
    let canary = Unchecked(self)
    Thread.detachNewThread { canary.value.acceptLoop() }
  }

  /// Closes the listener, which ends its thread.
  func stop() {
    shutdown(descriptor, Int32(SHUT_RDWR))
  }

  /// The connections others opened so far. Connections are accepted in arrival order, so once a
  /// probing connection of our own is accepted, every earlier one has been counted.
  func connections() async throws -> Int {
    let probe = socket(AF_INET, Self.stream, 0)
    defer { close(probe) }
    var local = Self.loopback(port: 0)
    guard probe >= 0, Self.bindLoopback(probe, &local) else { throw CocoaError(.fileReadUnknown) }
    let probePort = Int(UInt16(bigEndian: local.sin_port))
    counts.withLock { $0.probes[probePort] = false }
    var target = Self.loopback(port: port)
    let connected = withUnsafePointer(to: &target) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw CocoaError(.fileReadUnknown) }
    while counts.withLock({ $0.probes[probePort] != true }) {
      try await Task.sleep(for: .milliseconds(5))
    }
    return counts.withLock { $0.others }
  }

  private func acceptLoop() {
    while true {
      var peer = sockaddr_in()
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let connection = withUnsafeMutablePointer(to: &peer) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(descriptor, $0, &length) }
      }
      if connection < 0 {
        if errno == EINTR { continue }
        close(descriptor)
        return
      }
      close(connection)
      let peerPort = Int(UInt16(bigEndian: peer.sin_port))
      counts.withLock { counts in
        if counts.probes[peerPort] == false {
          counts.probes[peerPort] = true
        } else {
          counts.others += 1
        }
      }
    }
  }

  private static var stream: Int32 {
    #if canImport(Glibc)
      Int32(SOCK_STREAM.rawValue)
    #else
      SOCK_STREAM
    #endif
  }

  private static func loopback(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return address
  }

  /// Binds `socket` to `address` and reads back the port the system chose.
  private static func bindLoopback(_ socket: Int32, _ address: inout sockaddr_in) -> Bool {
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    return withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
      }
    }
  }
}
