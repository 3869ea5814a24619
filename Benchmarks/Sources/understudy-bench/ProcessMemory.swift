import Foundation

/// Resident memory of this process, read from `/proc/self/status` (Linux only; `nil` elsewhere).
enum ProcessMemory {
  /// Current resident set size, in bytes.
  static var residentBytes: Int? { field("VmRSS") }

  /// Bytes the allocator has handed out and not had back, in all its arenas (glibc's
  /// `malloc_info`: memory taken from the system, less the free chunks and each arena's free top,
  /// plus the blocks it mapped for large requests).
  ///
  /// Unlike the growth of resident memory, this does not depend on what the allocator kept from
  /// earlier work: memory freed at the top of a thread's arena stays resident even after
  /// `malloc_trim`, and a later allocation reuses it without the resident size moving, so the
  /// same load read 5 to 39 MiB of resident growth depending on what ran before it.
  static var allocatedBytes: Int? {
    #if os(Linux)
      typealias Info = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_info") else {
        return nil
      }
      var buffer: UnsafeMutablePointer<CChar>?
      var size = 0
      guard let stream = open_memstream(&buffer, &size) else { return nil }
      let status = unsafeBitCast(symbol, to: Info.self)(0, stream)
      fclose(stream)
      defer { free(buffer) }
      guard status == 0, let buffer else { return nil }
      // The totals over all arenas come last, after each arena's own.
      let report = String(cString: buffer)
      func last(_ tag: String) -> Int? {
        guard let start = report.range(of: tag, options: .backwards),
          let value = report[start.upperBound...].range(of: #"size=""#)
        else { return nil }
        return Int(report[value.upperBound...].prefix { $0.isNumber })
      }
      guard let system = last(#"<system type="current""#),
        let fast = last(#"<total type="fast""#), let rest = last(#"<total type="rest""#),
        let mapped = last(#"<total type="mmap""#)
      else { return nil }
      return system - fast - rest + mapped
    #else
      return nil
    #endif
  }

  /// Highest resident set size since start or since the last ``resetPeak()``, in bytes.
  static var peakResidentBytes: Int? { field("VmHWM") }

  /// Resets the high-water mark to the current RSS (Linux 4.0+: `5` to `/proc/self/clear_refs`),
  /// so a scenario's peak is not hidden by an earlier scenario's. Returns whether it worked.
  @discardableResult
  static func resetPeak() -> Bool {
    guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
    defer { try? handle.close() }
    return (try? handle.write(contentsOf: Data("5".utf8))) != nil
  }

  /// Hands the allocator's free memory back to the system (glibc's `malloc_trim`, looked up at
  /// run time since the `Glibc` module does not declare it), so a measured growth of RSS is
  /// what was allocated rather than what happened to be free already. Does nothing elsewhere.
  static func releaseFreeMemory() {
    #if os(Linux)
      typealias Trim = @convention(c) (Int) -> Int32
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else {
        return
      }
      _ = unsafeBitCast(symbol, to: Trim.self)(0)
    #endif
  }

  private static func field(_ name: String) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return nil
    }
    for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
      // "VmRSS:	   35120 kB"
      let kilobytes = line.split(separator: " ", omittingEmptySubsequences: true)
        .compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.first
      return kilobytes.map { $0 * 1024 }
    }
    return nil
  }

  /// The 1-, 5- and 15-minute load averages, which say how busy the shared machine was.
  static var loadAverage: String? {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else {
      return nil
    }
    return text.split(separator: " ").prefix(3).joined(separator: " ")
  }
}

extension Int {
  var mebibytes: Double { Double(self) / 1_048_576 }
}
