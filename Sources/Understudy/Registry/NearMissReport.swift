import Foundation

/// Why a request matched no stub: the request, and the stubs that came closest with the fields
/// that differed.
///
/// Its ``description`` is the text of the `URLError` the request fails with and of the test issue
/// recorded for it.
public struct NearMissReport: Sendable, CustomStringConvertible {
  /// A stub that came close.
  public struct Candidate: Sendable {
    /// The stub.
    public let stub: Stub
    /// The fields that differed; empty when the stub matched but was used up.
    public let mismatches: [FieldMismatch]
    /// The share of fields that matched, from 0 to 1.
    package let score: Double
    /// Whether the stub matched but had answered as many requests as its limit allows.
    package let isExhausted: Bool
  }

  /// The request nothing matched.
  public let request: InterceptedRequest
  /// The closest stubs, best first (at most three).
  public let candidates: [Candidate]
  /// How many stubs the registry held.
  package let stubCount: Int
  /// Why the registry's cassette could not answer either, with the command that records it.
  package let cassetteNote: String?
  /// Why the request was refused outright (a scheme only stubs may answer), if it was.
  let refusal: String?

  /// How many stubs a report lists.
  package static let maximumCandidates = 3

  /// What the registry's cassette redacts, masked in the report's text as well.
  let naming: NamedSecrets?
  private let redaction: Redaction?

  init(
    request: InterceptedRequest, stubs: [Stub], scenarioStates: [String: String] = [:],
    cassetteNote: String? = nil, refusal: String? = nil, redaction: Redaction? = nil
  ) {
    self.request = request
    self.naming = redaction.map(NamedSecrets.init)
    self.redaction = redaction
    self.stubCount = stubs.count
    self.cassetteNote = cassetteNote
    self.refusal = refusal
    let ranked = stubs.map { stub -> Candidate in
      var explanation = stub.pattern.explain(request)
      if let step = stub.scenario, let required = step.requiredState {
        let current = scenarioStates[step.scenario] ?? ScenarioStep.initialState
        if current != required {
          explanation.mismatches.append(
            FieldMismatch(
              field: "scenario \"\(step.scenario)\"", expected: "state \"\(required)\"",
              actual: "state \"\(current)\""))
        } else {
          explanation.matchedFields.append("scenario")
        }
      }
      return Candidate(
        stub: stub, mismatches: explanation.mismatches,
        score: explanation.isMatch ? 2 : explanation.score,
        isExhausted: explanation.isMatch && stub.isExhausted)
    }
    // Best score first; among equals, the stub that would take precedence first.
    self.candidates = Array(
      ranked.sorted { ($0.score, $0.stub.order) > ($1.score, $1.stub.order) }
        .prefix(Self.maximumCandidates))
  }

  /// The report's first line: which request matched nothing.
  package var headline: String {
    "Understudy: no stub matched \(request.method.shown) "
      + LogRedaction.mask(url: request.url.absoluteString, naming: naming)
  }

  /// The full report, several lines.
  public var description: String {
    let echoes = requestSecrets
    if let cassetteNote, candidates.isEmpty {
      return LogRedaction.mask(cassetteNote, noting: true, naming: naming, echoes: echoes)
    }
    var lines = [headline]
    if let refusal { lines.append(refusal) }
    if let cassetteNote { lines.append(cassetteNote) }
    for field in request.headers {
      lines.append(
        "  \(field.name): \(LogRedaction.mask(header: field.name, value: field.value, naming: naming))"
      )
    }
    if let body = request.body, !body.isEmpty {
      if let parts = request.multipartParts {
        // Raw multipart text would print a credential part's value on the line after its name.
        lines.append("  body (\(body.count) bytes, multipart/form-data, \(parts.count) parts):")
        lines += parts.map { "    " + $0.summary(naming: naming) }
      } else {
        lines.append(
          "  body (\(body.count) bytes): "
            + Self.excerpt(of: body, headers: request.headers, naming: naming, echoes: echoes)
        )
      }
    }
    if candidates.isEmpty {
      lines.append("No stubs are registered. Declare one for this request, for example:")
      let method = request.method.shown
      let factory =
        method == request.methodName
        ? ".\(method.lowercased())(" : ".request(\"\(method)\", "
      lines.append("  registry.stub(\(factory)\"\(request.path)\"), .ok)")
      return LogRedaction.mask(
        lines.joined(separator: "\n"), noting: true, naming: naming, echoes: echoes)
    }
    lines.append(
      "Closest stubs (\(candidates.count) of \(stubCount)), best first:")
    for (index, candidate) in candidates.enumerated() {
      lines.append("  \(index + 1). \(candidate.stub.pattern.description(naming: naming))")
      lines.append("     declared at \(candidate.stub.location)")
      if candidate.isExhausted {
        lines.append(
          "     matched, but it is used up: limit \(candidate.stub.limit), answered \(candidate.stub.callCount)"
        )
      }
      for mismatch in candidate.mismatches {
        lines.append("     " + mismatch.reportLine(naming: naming))
      }
    }
    return LogRedaction.mask(
      lines.joined(separator: "\n"), noting: true, naming: naming, echoes: echoes)
  }

  /// The request's credentials, masked wherever else the report shows them (its path, a pair
  /// whose name says nothing, its body).
  private var requestSecrets: [String] { RequestSecrets.values(of: request, redaction: redaction) }

  /// The start of `body` on one line, masked before it is cut so a credential that straddles
  /// the cut is still recognised whole.
  ///
  /// The body is read as the cassette's redaction reads it, in the charset its `Content-Type`
  /// names (see ``BodyCharset``); one no rule can read (``UnreadableBody``) is not shown.
  static func excerpt(
    of body: Data, headers: HTTPHeaders = [:], limit: Int = 200, naming: NamedSecrets? = nil,
    echoes: [String] = []
  ) -> String {
    let mimeType = headers["Content-Type"] ?? ""
    let fields = headers.map { HAR.Header(name: $0.name, value: $0.value) }
    if let problem = UnreadableBody.problem(of: body, headers: fields, mimeType: mimeType) {
      return "<\(body.count) bytes, not shown: \(problem)>"
    }
    let shown: String
    if BodyCharset.readsInCharset(mimeType, start: body.prefix(4)) {
      guard let (text, _) = BodyCharset.text(of: body, mimeType: mimeType) else {
        return "<\(body.count) bytes, not text>"
      }
      shown = String(text.prefix(limit * 20))
    } else {
      guard String(data: body.prefix(limit), encoding: .utf8) != nil else {
        return "<\(body.count) bytes, not UTF-8>"
      }
      shown = String(decoding: body.prefix(limit * 20), as: UTF8.self)
    }
    let text = LogRedaction.mask(shown, naming: naming, echoes: echoes, asTraffic: true)
    let flat = text.clipped(to: limit + 1).replacingOccurrences(of: "\n", with: "\\n")
    return body.count > limit ? flat.hasSuffix("…") ? flat : flat + "…" : flat
  }
}

/// The error inside the `URLError` of a request that matched no stub, under
/// `NSUnderlyingErrorKey`.
///
/// The `URLError`'s own `localizedDescription` is the report's text, so this error is not a
/// `LocalizedError`: it is read for its ``report``.
public struct UnmatchedRequestError: Error, Sendable, CustomStringConvertible {
  /// The near-miss report.
  public let report: NearMissReport
  /// The report's text.
  public var description: String { report.description }
}
