#if canImport(Testing)
  import Testing

  /// The argument values of a parameterized test case, as text, for naming its cassette.
  ///
  /// Swift Testing keeps them out of its public API, so they are read by reflection; if that
  /// layout changes, a stable digest of the case's description names it instead, so each case
  /// still gets its own cassette.
  enum TestCaseArguments {
    static func describe(_ testCase: Test.Case?) -> [String] {
      guard let testCase, testCase.isParameterized else { return [] }
      if let values = reflectedArguments(testCase), !values.isEmpty {
        // A file name is as public as the file: an argument that is a credential (by its
        // shape, or a known value) is named by its digest instead, as the file name's own
        // gate (``CassetteName/withoutCredentials(_:)``) names what it masks.
        return values.map { LogRedaction.mask($0) == $0 ? $0 : CassetteName.digest($0) }
      }
      return [CassetteName.digest(String(describing: testCase))]
    }

    private static func reflectedArguments(_ testCase: Test.Case) -> [String]? {
      guard let kind = Mirror(reflecting: testCase).children.first(where: { $0.label == "_kind" })
      else { return nil }
      guard let payload = Mirror(reflecting: kind.value).children.first?.value else { return nil }
      let fields = Mirror(reflecting: payload).children
      guard
        let arguments = fields.first(where: { $0.label == "arguments" })?.value
          ?? fields.first?.value
      else { return nil }
      return Mirror(reflecting: arguments).children.compactMap { argument in
        Mirror(reflecting: argument.value).children.first { $0.label == "value" }
          .map { String(describing: $0.value) }
      }
    }
  }
#endif
