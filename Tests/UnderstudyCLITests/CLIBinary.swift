import Foundation

/// Where the built `understudy` executable is: beside the test bundle in SwiftPM's build folder.
enum CLIBinary {
  static var url: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("understudy")
  }
}
