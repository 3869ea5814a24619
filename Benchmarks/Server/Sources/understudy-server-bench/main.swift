import Foundation
import NIOCore
import Understudy
import UnderstudyServer

// understudy-server-bench: Understudy's loopback server against a bare SwiftNIO HTTP/1.1 server
// (the floor) and pytest-httpserver, all answering GET /bench with the same 1 KiB body to the
// same SwiftNIO client, with 1 and 64 keep-alive connections. See Documentation/Performance.md.
// Run: swift run -c release --package-path Benchmarks/Server understudy-server-bench [--seconds S]

func progress(_ text: String) {
  FileHandle.standardError.write(Data((text + "\n").utf8))
}

var seconds = 1.5
var rounds = 5
var fixedWork: (server: String, requests: Int)?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
  switch argument {
  case "--seconds": seconds = Double(arguments.next() ?? "") ?? seconds
  case "--rounds": rounds = Int(arguments.next() ?? "") ?? rounds
  case "--requests":
    let server = arguments.next() ?? ""
    guard ["floor", "understudy"].contains(server), let count = Int(arguments.next() ?? "")
    else {
      print("usage: understudy-server-bench --requests floor|understudy N")
      exit(2)
    }
    fixedWork = (server, count)
  default:
    print(
      "usage: understudy-server-bench [--seconds S (1.5)] [--rounds N (5)]\n"
        + "       understudy-server-bench --requests floor|understudy N   (N requests on one "
        + "connection, then exit: run it under valgrind --tool=callgrind and compare counts)")
    exit(argument == "--help" ? 0 : 2)
  }
}

/// A registry with one stub answering the canned body, as a test would declare it.
func benchRegistry() -> StubRegistry {
  let registry = StubRegistry(journalCapacity: 0)
  registry.stub(.get("/bench"), .data(Data(Canned.body), contentType: "application/json"))
  return registry
}

func milliseconds(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }

if let fixedWork {
  let registry = benchRegistry()
  let port =
    fixedWork.server == "floor"
    ? try await FloorServer.start().port : try await registry.startServer().port
  try await LoadClient.send(requests: fixedWork.requests, port: port)
  print("\(fixedWork.server): \(fixedWork.requests) requests answered")
  exit(0)
}

// Cold starts first: the first server of a process also starts SwiftNIO's event loop threads.
let firstRegistry = benchRegistry()
var understudyServer: LoopbackServer?
let firstStart = try await LoadClient.coldStart {
  let server = try await firstRegistry.startServer()
  understudyServer = server
  return server.port
}
let laterRegistry = benchRegistry()
let laterStart = try await LoadClient.coldStart { try await laterRegistry.startServer().port }
await laterRegistry.server?.stop()
var floorChannel: (any Channel)?
let floorStart = try await LoadClient.coldStart {
  let floor = try await FloorServer.start()
  floorChannel = floor.channel
  return floor.port
}
var pytest: PytestHTTPServer?
let pytestStart = try? await LoadClient.coldStart {
  guard let started = try PytestHTTPServer.start() else {
    throw BenchError("pytest-httpserver is not installed: python3 -m pip install pytest-httpserver")
  }
  pytest = started
  return started.port
}
if pytest == nil { progress("pytest-httpserver is not installed; its rows are left out") }

let servers: [(name: String, port: Int)] =
  [
    ("floor (bare SwiftNIO)", floorChannel!.localAddress!.port!),
    ("Understudy LoopbackServer", understudyServer!.port),
  ]
  + (pytest.map { [("pytest-httpserver", $0.port)] } ?? [])

// Rounds alternate the servers, so drift in the machine's load hits each of them.
var samples: [String: [Double]] = [:]
for connections in [1, 64] {
  for round in 1...rounds {
    for server in servers {
      progress("  \(connections) connection(s), round \(round): \(server.name)…")
      let rate = try await LoadClient.throughput(
        port: server.port, connections: connections, warmUp: 0.5, seconds: seconds)
      samples["\(connections) \(server.name)", default: []].append(rate)
    }
  }
}
pytest?.stop()
await understudyServer?.stop()
try await floorChannel?.close().get()

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted[sorted.count / 2]
}

/// Each round's rate over the floor's in the same round, whose median is the ratio reported:
/// a neighbour's burst then spoils a round, not one side of the comparison.
@MainActor func ratios(_ connections: Int, _ name: String) -> [Double] {
  zip(samples["\(connections) \(name)"]!, samples["\(connections) \(servers[0].name)"]!)
    .map { $0 / $1 }
}

print(
  "| connections | server | requests/s (median of \(rounds) × \(seconds) s) | vs floor "
    + "(median of the rounds' ratios, min–max) |")
print("| --- | --- | --- | --- |")
for connections in [1, 64] {
  for server in servers {
    let rate = median(samples["\(connections) \(server.name)"]!)
    let each = ratios(connections, server.name)
    print(
      "| \(connections) | \(server.name) | \(Int(rate.rounded())) | "
        + String(format: "%.2fx (%.2f–%.2f)", median(each), each.min()!, each.max()!) + " |")
  }
}
print()
print("Cold start, from the start call to the first answered request:")
print("  Understudy, first server of the process: \(milliseconds(firstStart))")
print("  Understudy, a later server: \(milliseconds(laterStart))")
print("  floor: \(milliseconds(floorStart))")
if let pytestStart {
  print("  pytest-httpserver, from spawning python3: \(milliseconds(pytestStart))")
}
let one = median(ratios(1, "Understudy LoopbackServer"))
let many = median(ratios(64, "Understudy LoopbackServer"))
print(
  "Bar: Understudy ≥ 0.8x of the floor's throughput: "
    + String(format: "%.2fx with 1 connection, %.2fx with 64", one, many)
    + (min(one, many) >= 0.8 ? " (pass)" : " (not met)"))
print(
  "\(ProcessInfo.processInfo.activeProcessorCount) CPUs; load average "
    + "\((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "unknown") at the end"
)
