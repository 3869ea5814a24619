import Foundation

/// One way a live answer departed from the recorded one in a drift check, described only when
/// the check ends: a body's difference quotes a value cut short, so the values of every live
/// request (a token the next request sends as a bearer) are masked in the whole body first.
struct Drift: Sendable {
  /// The request and the entry it was compared with, or what kept it from comparison.
  var heading: String
  /// Each difference; an empty one stands where the bodies' difference goes.
  var differences: [String] = []
  /// The recorded body and the live one, when they differ.
  var bodies: (recorded: Data, live: Data)?

  /// The line, with each of `secrets` masked in the live body before it is compared.
  func described(hiding secrets: [String]) -> String {
    guard !differences.isEmpty else { return heading }
    let shown = differences.map { difference -> String in
      guard difference.isEmpty, let bodies else { return difference }
      var live = bodies.live
      if !secrets.isEmpty, let text = String(data: live, encoding: .utf8) {
        live = Data(LogRedaction.mask(text, naming: nil, echoes: secrets).utf8)
      }
      return BodyDifference.describe(recorded: bodies.recorded, live: live)
    }
    return heading + ": " + shown.joined(separator: "; ")
  }
}
