import Foundation

/// CPU time of the calling thread: what the scan and cassette-load rows report, since on a
/// shared machine the wall clock mostly measures the neighbours. The work measured must run on
/// one thread, synchronously.
enum ThreadCPU {
  /// CPU seconds the calling thread has used so far.
  static var seconds: Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
