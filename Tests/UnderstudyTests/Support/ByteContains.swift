@testable import Understudy

extension String {
  /// Whether `other` occurs in this text byte for byte (UTF-8), found with `memmem`.
  ///
  /// The suite asks this hundreds of thousands of times: every spelling of every planted secret
  /// against every artifact a run leaves. Foundation's `contains(_:)` copies both texts to UTF-16
  /// on Linux and compares them through generic code, and those checks were about 44% of the
  /// suite's CPU time in the debug build `swift test` makes; `memmem` is precompiled and runs at
  /// full speed there. Byte for byte is also what a leak is: the bytes of a secret in a file. An
  /// empty `other` occurs everywhere.
  func contains(_ other: String) -> Bool {
    var text = self
    var other = other
    return text.withUTF8 { haystack in
      other.withUTF8 { needle in
        needle.isEmpty
          || ByteSearch.occurs(
            UnsafeRawBufferPointer(needle), inShort: UnsafeRawBufferPointer(haystack))
      }
    }
  }
}
