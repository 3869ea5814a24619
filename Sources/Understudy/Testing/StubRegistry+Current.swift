extension StubRegistry {
  /// The registry of the test running in this task tree, set by the ``Testing/Trait/stubs`` trait
  /// and by ``StubbedTestCase``.
  ///
  /// It follows structured concurrency (child tasks and `Task {}` see it), not detached tasks;
  /// sessions made from it keep answering from it wherever they are used. Only the test scopes
  /// set it, so a registry that is current is always verified when its test ends.
  public static var current: StubRegistry? { scoped }

  // Not public: binding it with `withValue` would make a registry current without a scope to
  // end it, so nothing would verify it.
  @TaskLocal static var scoped: StubRegistry?

  /// The current registry, or a reported failure naming the fix when there is none.
  public static func requireCurrent(
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    column: Int = #column
  ) -> StubRegistry {
    if let current { return current }
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    IssueReporter.report(
      "No stub registry is current here. Add the `.stubs` trait to the test or its suite "
        + "(Swift Testing), subclass StubbedTestCase or wrap the code in withStubs (XCTest). "
        + "A registry that answers nothing is used instead.",
      at: location)
    return StubRegistry(fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
