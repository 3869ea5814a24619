import Foundation

// understudy-bench: Understudy against a trivial URLProtocol (the floor), in one process, with
// ratios. See Documentation/Performance.md for how to read the output.

// The run is an async function started from a synchronous main that waits for it: with
// top-level `await`, the main thread hands itself to the concurrency runtime, and valgrind 3.19
// (the instruction-count mode, Tools/instruction-ratios.py) then crashes creating URLSession's
// threads.
let finished = DispatchSemaphore(value: 0)
Task.detached {
  do {
    try await BenchmarkRun.main()
  } catch {
    BenchmarkRun.progress("understudy-bench: \(error)")
    exit(1)
  }
  finished.signal()
}
finished.wait()
