import Foundation
import Understudy

/// Bodies a HAR file holds that nothing here can read (still compressed, or in a charset
/// Understudy does not read; see `UnreadableBody`): a secret inside them would survive
/// `redact` and `convert` and be printed by `stub`. `scan` reports them and every command that
/// writes refuses them, naming the entry.
enum UnreadableBodies {
  /// The unreadable bodies in `entries`, numbered by `indexes` (the entries' positions in the
  /// file they came from) when given.
  static func find(in entries: [HAR.Entry], indexes: [Int]? = nil) -> [UnreadableBody.Found] {
    UnreadableBody.find(in: entries, indexes: indexes)
  }

  /// The message `redact`, `convert` and `stub` stop with, refusing to write `output`.
  static func refusal(_ bodies: [UnreadableBody.Found], in input: String, output: String)
    -> CLIError
  {
    CLIError(
      exitCode: .findings,
      message: "Refusing to write \(output): \(input) holds "
        + "\(bodies.count == 1 ? "a body" : "\(bodies.count) bodies") it cannot read "
        + "that may hide a credential:\n"
        + bodies.map { "  \(input): \($0.path): \($0.problem)." }.joined(separator: "\n"))
  }
}

/// Request methods a HAR file holds that are not HTTP tokens (a space, a quote, a control
/// character, more than 32 characters): no client sends one, and a crafted file can carry a
/// secret there. `scan` reports them and `redact` and `convert` refuse them, describing each
/// by its length.
enum MalformedMethods {
  /// The message `redact` and `convert` stop with when `entries` hold such a method, numbered by
  /// `indexes` when given; `nil` when they hold none.
  static func refusal(
    in entries: [HAR.Entry], indexes: [Int]? = nil, input: String, output: String
  ) -> CLIError? {
    let found = CredentialScanner.malformedMethods(in: entries, indexes: indexes)
    guard !found.isEmpty else { return nil }
    return CLIError(
      exitCode: .findings,
      message: "Refusing to write \(output): \(input) holds "
        + "\(found.count == 1 ? "a method" : "\(found.count) methods") no client can send:\n"
        + found.map { "  \(input): \($0)" }.joined(separator: "\n")
        + "\nWrite each method as the token the request sent, such as GET or POST.")
  }
}
