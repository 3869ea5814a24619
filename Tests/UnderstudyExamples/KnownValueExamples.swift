import Foundation
import Testing
import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The examples of Documentation/Secrets.md, "Known values".
@Suite struct KnownValueExamples {
  @Test func declaringASecretValue() throws {
    let token = "f3a9c2e1d4b5a6978877665544332211"
    let request = InterceptedRequest(
      url: URL(string: "https://files.example.com/d/\(token)/report.pdf")!)
    let echo = Data(#"{"link":"https:\/\/files.example.com\/d\/\#(token)"}"#.utf8)
    let entry = HAR.Entry(
      request: request,
      response: HAR.Response(
        status: 200, headers: ["Content-Type": "application/json"], body: echo),
      startedDateTime: Date(), duration: .milliseconds(5))

    let redaction = Redaction.default.redactingValues(["download": token])
    let redacted = redaction.redact(entry)

    #expect(
      redacted.request.url == "https://files.example.com/d/%3Credacted:download%3E/report.pdf")
    #expect(redacted.response.content.text?.contains(token) == false)
    #expect(redacted.response.content.text?.contains("<redacted:download>") == true)
  }

  @Test func theEnvironmentsValues() {
    // The variables whose values recording replaces, by name; never their values.
    let names = Redaction.environmentValueNames
    let withoutEnvironment = Redaction.default.redactingEnvironmentValues(false)

    #expect(names == names.sorted())
    #expect(withoutEnvironment.readsNamesAsWords)  // the rest of the default stays
  }
}
