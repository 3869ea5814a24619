import Foundation

extension HAR {
  /// Moves the body texts still held in a file's bytes into one buffer of just those bytes, so
  /// a model kept for a whole test run (a loaded cassette) holds its bodies, not its file.
  ///
  /// Read from a file, a body stays in the file's bytes until used; those bytes then keep the
  /// whole file alive: member names, indentation, headers and timings the model also holds
  /// decoded. A cassette of 10,000 entries with 1 KiB bodies is half bodies, so the copy halves
  /// what the loaded file costs. The texts stay as they were written (escapes and all), so they
  /// are still decoded only when used; the copy is one `memcpy` per body.
  mutating func keepBodyBytesOnly() {
    var total = 0
    forEachBodyText { text in
      switch text {
      case .file(_, let span): total += span.range.count
      // Decoded already: the text is all it needs, and the file's bytes can go.
      case .decoded(let decoded, _, _): text = .string(decoded)
      case .string: break
      }
    }
    guard total > 0 else { return }
    // Raw copies: `Data.append` cost more per 1 KiB body than reading the body did.
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: total, alignment: 1)
    var copied = 0
    forEachBodyText { text in
      guard case .file(let bytes, let span) = text else { return }
      bytes.withUnsafeBytes { file in
        let source = UnsafeRawBufferPointer(rebasing: file[span.range])
        if let start = source.baseAddress {
          (buffer + copied).copyMemory(from: start, byteCount: source.count)
        }
      }
      copied += span.range.count
    }
    let bodies = Data(
      bytesNoCopy: buffer, count: total, deallocator: .custom { start, _ in start.deallocate() })
    var offset = 0
    forEachBodyText { text in
      guard case .file(_, let span) = text else { return }
      let end = offset + span.range.count
      var moved = span
      moved.range = offset..<end
      text = .file(bodies, moved)
      offset = end
    }
  }

  /// Calls `visit` with every body text in place, in entry order.
  private mutating func forEachBodyText(_ visit: (inout HARTextStorage) -> Void) {
    // Through a buffer pointer, whose elements are changed in place without the array's
    // accessors per entry.
    log.entries.withUnsafeMutableBufferPointer { entries in
      for index in entries.indices {
        if entries[index].response.content.textStorage != nil {
          visit(&entries[index].response.content.textStorage!)
        }
        if entries[index].request.postData != nil {
          visit(&entries[index].request.postData!.textStorage)
        }
      }
    }
  }
}
