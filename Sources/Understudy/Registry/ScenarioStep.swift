/// Ties a stub to a named scenario's state, for stateful conversations such as "the cart is empty
/// until an item is added".
///
/// Every scenario starts in the state `"started"`. A stub with a required state answers only while its
/// scenario is in that state; a stub with a next state moves the scenario there when it answers.
///
/// ```swift
/// registry.stub(.get("/cart"), .json(empty), scenario: .init("cart", when: "started"))
/// registry.stub(.post("/cart"), .status(201), scenario: .init("cart", when: "started", then: "filled"))
/// registry.stub(.get("/cart"), .json(filled), scenario: .init("cart", when: "filled"))
/// ```
public struct ScenarioStep: Sendable, Hashable {
  /// The state every scenario is in before any stub moves it.
  package static let initialState = "started"

  /// The scenario's name; stubs naming the same scenario share its state.
  package var scenario: String
  /// The state the scenario must be in for the stub to answer, or `nil` for any state.
  package var requiredState: String?
  /// The state the scenario moves to when the stub answers, or `nil` to stay.
  package var nextState: String?

  /// Creates a step of `scenario`.
  public init(_ scenario: String, when requiredState: String? = nil, then nextState: String? = nil)
  {
    self.scenario = scenario
    self.requiredState = requiredState
    self.nextState = nextState
  }
}
