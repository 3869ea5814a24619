#if canImport(FoundationNetworking)
  /// Reads FoundationNetworking's private stored properties through reflection.
  ///
  /// Used only where the platform notes show no public route exists on Linux: upload bodies
  /// (`knownBody`) and whether a task's consumer sees body chunks (the session's task
  /// registry). Every use degrades to the safe behaviour when a field is not found, so a future
  /// toolchain that renames one loses a convenience, not correctness.
  enum PrivateField {
    static func value(named name: String, in subject: Any) -> Any? {
      var mirror: Mirror? = Mirror(reflecting: subject)
      while let current = mirror {
        if let child = current.children.first(where: { $0.label == name }) { return child.value }
        mirror = current.superclassMirror
      }
      return nil
    }

    /// Unwraps an `Optional` seen as `Any`; `nil` for `.none`.
    static func unwrap(_ value: Any) -> Any? {
      let mirror = Mirror(reflecting: value)
      guard mirror.displayStyle == .optional else { return value }
      return mirror.children.first?.value
    }

    /// The case name and payload of an enum value with an associated value.
    static func enumCase(of value: Any) -> (String, Any)? {
      let mirror = Mirror(reflecting: value)
      guard mirror.displayStyle == .enum, let child = mirror.children.first, let label = child.label
      else { return nil }
      return (label, child.value)
    }

    /// Whether the task's session has been invalidated (`invalidateAndCancel()` or
    /// `finishTasksAndInvalidate()`). Must run on the task's work queue, where the flag is written.
    static func sessionIsInvalidated(_ task: URLSessionTask) -> Bool {
      guard let session = value(named: "session", in: task).flatMap(unwrap) else { return false }
      return value(named: "invalidated", in: session) as? Bool ?? false
    }

    /// Whether the task's events go to a session delegate, which is the only consumer that sees
    /// each `didLoad` chunk on Linux (platform notes, rows 1b–1d). Must run on the task's work
    /// queue, where the session's task registry lives.
    static func deliversChunks(_ task: URLSessionTask) -> Bool {
      guard let session = value(named: "session", in: task).flatMap(unwrap),
        let registry = value(named: "taskRegistry", in: session),
        let behaviours = value(named: "behaviours", in: registry) as? [Int: Any],
        let behaviour = behaviours[task.taskIdentifier]
      else { return false }
      return "\(behaviour)" == "callDelegate"
    }
  }
#endif
