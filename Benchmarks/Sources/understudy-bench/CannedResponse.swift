import Foundation

/// The response every scenario serves, floor and Understudy alike: 1 KiB of JSON, 200, with
/// Content-Type and Content-Length, so the two sides hand URLSession identical work.
enum CannedResponse {
  static let size = 1024

  /// A JSON document padded to exactly `size` bytes; `tag` makes bodies of different stubs
  /// differ, so a scenario can check which stub answered.
  static func body(tag: String = "canned") -> Data {
    let head = #"{"tag":""# + tag + #"","padding":""#
    let tail = #""}"#
    let padding = String(repeating: "x", count: size - head.utf8.count - tail.utf8.count)
    return Data((head + padding + tail).utf8)
  }

  static let floorBody = body()

  static let headers = ["Content-Type": "application/json", "Content-Length": String(size)]

  /// The API the scenarios pretend to call.
  static let origin = "https://api.example.com"
}
