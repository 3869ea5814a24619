/// Where something was declared in a test file: a stub, a scope, or a cassette binding.
///
/// Captured from `#fileID`, `#filePath`, `#line` and `#column` so failures can point at the line
/// that declared the thing that went wrong.
package struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
  /// The `#fileID` of the declaration, such as `MyAppTests/UserTests.swift`.
  package var fileID: String
  /// The full path of the declaring file, used to find fixtures beside it.
  package var filePath: String
  /// The line of the declaration.
  package var line: Int
  /// The column of the declaration.
  package var column: Int

  /// Creates a location; the defaults capture the caller's position.
  package init(
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    column: Int = #column
  ) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  /// `file:line`, with the file as its `#fileID`.
  package var description: String { "\(fileID):\(line)" }
}
