import Testing

@testable import Understudy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Mocker's tests build one configuration and pass it on (`protocolClasses = [MockingURLProtocol]`
/// set twice never lists the class twice): a configuration that goes through a registry again
/// keeps one Understudy class.
@Suite struct SessionConfigurationReuseTests {
  @Test func passingAConfigurationThroughTwiceLeavesOneProtocolClass() async throws {
    let registry = StubRegistry()
    registry.stub(.get("https://api.test/twice"), .text("once"))
    let once = registry.makeSessionConfiguration()
    let twice = registry.makeSessionConfiguration(from: once)
    let classes = (twice.protocolClasses ?? []).map(ObjectIdentifier.init)
    #expect(classes.filter { $0 == ObjectIdentifier(registry.protocolClass) }.count == 1)
    #expect(classes == (once.protocolClasses ?? []).map(ObjectIdentifier.init))
    let (data, _) = try await URLSession(configuration: twice).data(
      from: URL(string: "https://api.test/twice")!)
    #expect(String(decoding: data, as: UTF8.self) == "once")
  }

  @Test func anotherRegistrysConfigurationIsAnsweredByTheNewRegistryAlone() async throws {
    let first = StubRegistry()
    let second = StubRegistry()
    second.stub(.get("https://api.test/who"), .text("second"))
    let configuration = second.makeSessionConfiguration(from: first.makeSessionConfiguration())
    let classes = (configuration.protocolClasses ?? []).map(ObjectIdentifier.init)
    #expect(classes.first == ObjectIdentifier(second.protocolClass))
    #expect(!classes.contains(ObjectIdentifier(first.protocolClass)))
    let (data, _) = try await URLSession(configuration: configuration).data(
      from: URL(string: "https://api.test/who")!)
    #expect(String(decoding: data, as: UTF8.self) == "second")
  }
}
