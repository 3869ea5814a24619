import Foundation
import Testing
import UnderstudyTestSupport

@testable import Understudy

extension RecordingTests {
  /// A private key in base64 DER is told by its structure, never by a name beside it: PKCS #8,
  /// PKCS #1, SEC 1 and PKCS #12 (`.pfx`, which holds keys) are refused wherever the scanner
  /// reads (a JSON body, a `\/`-escaped one, one wrapped, a header) and masked in what is printed;
  /// a certificate, a public key and a signature are public and are neither.
  @Suite struct DERPrivateKeyTests {
    static func randomBytes(_ count: Int, _ random: inout SplitMix) -> [UInt8] {
      (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    /// `0x30` (SEQUENCE) and `contents` with a DER length, or BER's indefinite one.
    static func sequence(_ contents: [UInt8], indefinite: Bool = false) -> [UInt8] {
      if indefinite { return [0x30, 0x80] + contents + [0, 0] }
      return [0x30] + length(contents.count) + contents
    }

    static func length(_ count: Int) -> [UInt8] {
      switch count {
      case 0..<0x80: return [UInt8(count)]
      case 0..<0x100: return [0x81, UInt8(count)]
      default: return [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
      }
    }

    /// The object identifier of PKCS #7 `data` (`1.2.840.113549.1.7.1`), or `last` in place of
    /// its final arc.
    static func pkcs7(_ last: UInt8 = 1) -> [UInt8] {
      [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, last]
    }

    /// A PKCS #12 file built by hand: version 3, an `authSafe` ContentInfo of PKCS #7 data
    /// (random contents of `size` bytes), and a MAC.
    static func pfx(size: Int, indefinite: Bool = false, _ random: inout SplitMix) -> [UInt8] {
      let content = [0x04] + length(size) + randomBytes(size, &random)
      let authSafe = sequence(pkcs7() + [0xA0] + length(content.count) + content)
      let mac = sequence(randomBytes(60, &random))
      return sequence([0x02, 0x01, 0x03] + authSafe + mac, indefinite: indefinite)
    }

    /// Private keys built by hand, so the test runs where `openssl` is absent.
    static func handBuiltKeys(_ random: inout SplitMix) -> [(String, [UInt8])] {
      let ed25519 =
        sequence(
          [0x02, 0x01, 0x00] + sequence([0x06, 0x03, 0x2B, 0x65, 0x70])
            + [0x04, 0x22, 0x04, 0x20] + randomBytes(32, &random))
      return [
        ("PKCS #12, 700 bytes", pfx(size: 700, &random)),
        ("PKCS #12, 2,600 bytes (MIIK…)", pfx(size: 2_600, &random)),
        ("PKCS #12, BER indefinite length", pfx(size: 900, indefinite: true, &random)),
        ("Ed25519 PKCS #8 (MC4…)", ed25519),
      ]
    }

    /// Public DER that must not be reported, built by hand.
    static func handBuiltPublic(_ random: inout SplitMix) -> [(String, [UInt8])] {
      let certificate = sequence(
        sequence([0xA0, 0x03, 0x02, 0x01, 0x02] + randomBytes(500, &random))
          + randomBytes(150, &random))
      let signedData = sequence(pkcs7(2) + [0xA0, 0x82, 0x02, 0x00] + randomBytes(512, &random))
      let ecPublic = sequence(
        sequence([0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01] + randomBytes(10, &random))
          + [0x03, 0x42, 0x00, 0x04] + randomBytes(64, &random))
      // Version 3 followed by anything but a PKCS #7 ContentInfo is no PKCS #12 file.
      let notPFX = sequence([0x02, 0x01, 0x03] + sequence(randomBytes(300, &random)))
      return [
        ("certificate", certificate), ("CMS signedData", signedData),
        ("EC public key", ecPublic), ("version 3, not PKCS #12", notPFX),
      ]
    }

    /// Keys, certificates and public keys made by `openssl`, when this machine has it: the
    /// structures as a real tool writes them. `nil` (and a recorded reason) otherwise.
    static func openSSLMaterial() async throws -> (
      keys: [(String, [UInt8])], public: [(String, [UInt8])]
    )? {
      guard
        let openssl = ["/usr/bin/openssl", "/opt/homebrew/bin/openssl", "/usr/local/bin/openssl"]
          .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
      else { return nil }
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("der-keys-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: directory) }
      // Waited for by suspending, never by blocking: a test blocks one of the cooperative
      // pool's threads (two on a two-core machine), and every other test waits with it.
      func run(_ arguments: String...) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try await ChildProcesses.runUntilExit(process)
        guard process.terminationStatus == 0 else {
          throw CocoaError(
            .fileWriteUnknown, userInfo: ["openssl": arguments.joined(separator: " ")])
        }
      }
      try await run(
        "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024", "-out", "rsa.pem")
      try await run(
        "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "ec.pem")
      try await run("genpkey", "-algorithm", "ED25519", "-out", "ed.pem")
      try await run(
        "pkcs8", "-topk8", "-nocrypt", "-in", "rsa.pem", "-outform", "DER", "-out", "rsa8.der")
      try await run("rsa", "-in", "rsa.pem", "-traditional", "-outform", "DER", "-out", "rsa1.der")
      try await run("ec", "-in", "ec.pem", "-outform", "DER", "-out", "sec1.der")
      try await run(
        "pkcs8", "-topk8", "-nocrypt", "-in", "ec.pem", "-outform", "DER", "-out", "ec8.der")
      try await run(
        "pkcs8", "-topk8", "-nocrypt", "-in", "ed.pem", "-outform", "DER", "-out", "ed8.der")
      try await run(
        "req", "-x509", "-key", "rsa.pem", "-subj", "/CN=t", "-days", "1", "-out", "cert.pem")
      try await run("x509", "-in", "cert.pem", "-outform", "DER", "-out", "cert.der")
      try await run(
        "pkcs12", "-export", "-inkey", "rsa.pem", "-in", "cert.pem", "-passout", "pass:test",
        "-out", "key.p12")
      try await run("pkey", "-in", "rsa.pem", "-pubout", "-outform", "DER", "-out", "rsapub.der")
      try await run(
        "rsa", "-in", "rsa.pem", "-RSAPublicKey_out", "-outform", "DER", "-out", "rsa1pub.der")
      try await run("pkey", "-in", "ec.pem", "-pubout", "-outform", "DER", "-out", "ecpub.der")
      try await run("pkey", "-in", "ed.pem", "-pubout", "-outform", "DER", "-out", "edpub.der")
      func read(_ name: String) throws -> (String, [UInt8]) {
        ("openssl " + name, Array(try Data(contentsOf: directory.appendingPathComponent(name))))
      }
      return (
        try ["rsa8.der", "rsa1.der", "sec1.der", "ec8.der", "ed8.der", "key.p12"].map(read),
        try ["cert.der", "rsapub.der", "rsa1pub.der", "ecpub.der", "edpub.der"].map(read)
      )
    }

    /// Made once for both tests: `openssl` runs fifteen times.
    private static let openSSL = Task { try await openSSLMaterial() }

    static func material() async throws -> (
      keys: [(String, [UInt8])], public: [(String, [UInt8])]
    ) {
      var random = SplitMix(seed: 12)
      var keys = handBuiltKeys(&random)
      var open = handBuiltPublic(&random)
      if let real = try await openSSL.value {
        keys += real.keys
        open += real.public
      } else {
        Issue.record(
          "openssl is not installed: only the hand-built DER was checked",
          severity: .warning)
      }
      return (keys, open)
    }

    /// The places a key is put: a Key Vault secret bundle as JSON (as written, and with `/`
    /// escaped as `\/`), the key wrapped at 64 columns in a request's JSON, a header.
    static func entry(_ base64: String) -> HAR.Entry {
      let bundle = #"{"value":""# + base64 + #"","contentType":"application/x-pkcs12"}"#
      let escaped = bundle.replacingOccurrences(of: "/", with: #"\/"#)
      let wrapped = stride(from: 0, to: base64.count, by: 64).map {
        String(Array(base64)[$0..<min(base64.count, $0 + 64)])
      }.joined(separator: #"\n"#)
      return .sample(
        method: "POST", url: "https://vault.test/secrets/x",
        requestHeaders: [HAR.Header(name: "X-Material", value: base64)],
        postData: HAR.PostData(
          mimeType: "application/json", text: #"{"pem":""# + wrapped + #""}"#),
        content: HAR.Content(body: Data(bundle.utf8), mimeType: "application/json")
      ).withResponseHeader("X-Escaped", escaped)
    }

    @Test func aPrivateKeyInDERIsRefusedWhereverTheScannerReads() async throws {
      let scanner = CredentialScanner()
      for (name, der) in try await Self.material().keys {
        let base64 = Data(der).base64EncodedString()
        let har = Redaction.default.redact(HAR(entries: [Self.entry(base64)]))
        let findings = scanner.scan(redacted: har).filter { $0.kind == .derPrivateKey }
        let paths = Set(findings.map(\.path))
        for path in [
          "log.entries[0].response.content.text", "log.entries[0].request.headers[0].value",
          "log.entries[0].request.postData.text", "log.entries[0].response.headers[0].value",
        ] {
          #expect(paths.contains(path), "\(name) not found at \(path): \(findings)")
        }
        #expect(
          findings.allSatisfy { $0.description.contains("private key (DER, base64)") },
          "\(findings)")
        // Log masking reads the same shape: the key is masked wherever it is printed.
        for text in [base64, #"{"value":""# + base64 + #""}"#, "material: " + base64] {
          let masked = LogRedaction.mask(text)
          #expect(!masked.contains(base64.dropFirst(8).prefix(24)), "\(name): \(masked)")
        }
      }
    }

    /// A JSON text's `\/` wherever it falls in the characters decoded to tell a key: a key whose
    /// escape's `\` ended the 24 (or, for PKCS #12, 48) characters read went unreported, one
    /// `openssl` key in about thirty. Built for every such position from seeded random keys.
    @Test func aSlashEscapeAnywhereInAKeysHeadIsReadAsTheSlash() {
      let scanner = CredentialScanner()
      var random = SplitMix(seed: 7)
      // PKCS #1 RSA (`MIICXAIBAAKBgQ…`): its modulus is random from the 11th byte on.
      let rsaHead: [UInt8] = [0x30, 0x82, 0x02, 0x5C, 0x02, 0x01, 0x00, 0x02, 0x81, 0x81, 0x00]
      var missed: [String] = []
      // The characters before 15 (RSA) and from 30 to 41 (PKCS #12's fixed head) are the same
      // in every key, and hold no `/`.
      for position in Array(15..<30) + Array(42..<50) {
        var found: String?
        for _ in 0..<5_000 where found == nil {
          let der =
            position < 30
            ? rsaHead + Self.randomBytes(600, &random)
            : Self.pfx(size: 700, &random)
          let escaped = Data(der).base64EncodedString().replacingOccurrences(
            of: "/", with: #"\/"#)
          if Array(escaped.utf8)[position] == UInt8(ascii: "\\") { found = escaped }
        }
        guard let escaped = found else {
          Issue.record("no key has its escape at \(position)")
          continue
        }
        let json = #"{"value":""# + escaped + #""}"#
        let findings = scanner.scan(json, at: "body")
        if !findings.contains(where: { $0.kind == .derPrivateKey }) {
          missed.append("\(position): \(findings.map(\.description))")
        }
      }
      #expect(
        missed.isEmpty, "keys whose `\\/` stands at these characters were not found: \(missed)")
    }

    @Test func aCertificateOrPublicKeyInDERIsNot() async throws {
      let scanner = CredentialScanner()
      for (name, der) in try await Self.material().public {
        let base64 = Data(der).base64EncodedString()
        // On one line: split by `\n` or `\/` escapes, its pieces can read as vendor tokens.
        let entry = HAR.Entry.sample(
          requestHeaders: [HAR.Header(name: "X-Certificate", value: base64)],
          content: HAR.Content(
            body: Data((#"{"value":""# + base64 + #""}"#).utf8), mimeType: "application/json"))
        let har = Redaction.default.redact(HAR(entries: [entry]))
        let findings = scanner.scan(redacted: har)
        #expect(findings.isEmpty, "\(name) (\(base64.prefix(16))…): \(findings)")
      }
    }
  }
}

extension HAR.Entry {
  fileprivate func withResponseHeader(_ name: String, _ value: String) -> HAR.Entry {
    var entry = self
    entry.response.headers.insert(HAR.Header(name: name, value: value), at: 0)
    return entry
  }
}
