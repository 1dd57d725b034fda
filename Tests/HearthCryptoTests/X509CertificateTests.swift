@testable import HearthCrypto
import Foundation
import Testing

@Suite("Self-signed X.509 certificates")
struct X509CertificateTests {
    let notBefore = Date(timeIntervalSince1970: 1_700_000_000.75)
    let notAfter = Date(timeIntervalSince1970: 1_700_000_000 + 14 * 86_400)

    @Test("the certificate parses back with the key, names, dates and a valid self-signature")
    func parsesBack() throws {
        let key = SharedKeys.primary
        let pem = try X509Certificate.selfSignedPEM(
            for: key, commonName: "securetoken.system.gserviceaccount.com", notBefore: notBefore, notAfter: notAfter)
        #expect(pem.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
        #expect(pem.hasSuffix("-----END CERTIFICATE-----\n"))

        let certificate = try X509Certificate.parse(pem: pem)
        #expect(certificate.version == 3)
        #expect(certificate.publicKey == key.publicKey)
        #expect(certificate.isSelfSignatureValid)
        #expect(certificate.subjectCommonName == "securetoken.system.gserviceaccount.com")
        #expect(certificate.issuerCommonName == certificate.subjectCommonName)
        #expect(certificate.notBefore == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(certificate.notAfter == notAfter)
        #expect(certificate.signatureAlgorithm == "sha256WithRSAEncryption")
        #expect(!certificate.serialIsNegative)
        #expect(certificate.serialNumber.count == 16)
        #expect(certificate.basicConstraintsCritical)
        #expect(!certificate.isCA)
    }

    @Test("isCertificate: a CERTIFICATE block whose DER parses; not a key, not garbage, not a damaged certificate")
    func isCertificate() throws {
        let pem = try X509Certificate.selfSignedPEM(
            for: SharedKeys.primary, commonName: "idp", notBefore: notBefore, notAfter: notAfter)
        #expect(X509Certificate.isCertificate(pem: pem))
        let lines = pem.split(separator: "\n").map(String.init)
        let damaged = ([lines[0], String(lines[1].dropFirst(8))] + lines.dropFirst(2)).joined(separator: "\n")
        for bad in [
            "", "not a certificate", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
            pem.replacingOccurrences(of: "CERTIFICATE", with: "PUBLIC KEY"), damaged,
        ] {
            #expect(!X509Certificate.isCertificate(pem: bad), "\(bad.prefix(40))")
        }
    }

    @Test("a certificate does not verify under another key")
    func otherKey() throws {
        let pem = try X509Certificate.selfSignedPEM(
            for: SharedKeys.primary, commonName: "a", notBefore: notBefore, notAfter: notAfter)
        let certificate = try X509Certificate.parse(pem: pem)
        #expect(certificate.publicKey != SharedKeys.other.publicKey)
    }

    @Test("serial numbers are random")
    func serials() throws {
        let first = try X509Certificate.parse(pem: X509Certificate.selfSignedPEM(
            for: SharedKeys.primary, commonName: "k", notBefore: notBefore, notAfter: notAfter))
        let second = try X509Certificate.parse(pem: X509Certificate.selfSignedPEM(
            for: SharedKeys.primary, commonName: "k", notBefore: notBefore, notAfter: notAfter))
        #expect(first.serialNumber != second.serialNumber)
    }

    @Test("dates after 2049 use GeneralizedTime and still round trip")
    func farFuture() throws {
        let end = Date(timeIntervalSince1970: 4_102_444_800)  // 2100-01-01
        let certificate = try X509Certificate.parse(pem: X509Certificate.selfSignedPEM(
            for: SharedKeys.primary, commonName: "long", notBefore: notBefore, notAfter: end))
        #expect(certificate.notAfter == end)
    }

    @Test("a UTF-8 common name round trips")
    func utf8Name() throws {
        let certificate = try X509Certificate.parse(pem: X509Certificate.selfSignedPEM(
            for: SharedKeys.primary, commonName: "Hearth – clé", notBefore: notBefore, notAfter: notAfter))
        #expect(certificate.subjectCommonName == "Hearth – clé")
    }

    @Test("bad arguments are refused")
    func badArguments() {
        let key = SharedKeys.primary
        #expect(throws: CryptoError(.invalidArgument, reason: "")) {
            try X509Certificate.selfSignedPEM(for: key, commonName: "", notBefore: notBefore, notAfter: notAfter)
        }
        #expect(throws: CryptoError(.invalidArgument, reason: "")) {
            try X509Certificate.selfSignedPEM(for: key, commonName: String(repeating: "x", count: 65), notBefore: notBefore, notAfter: notAfter)
        }
        #expect(throws: CryptoError(.invalidArgument, reason: "")) {
            try X509Certificate.selfSignedPEM(for: key, commonName: "k", notBefore: notAfter, notAfter: notBefore)
        }
        #expect(throws: CryptoError(.invalidArgument, reason: "")) {
            try X509Certificate.selfSignedPEM(for: key, commonName: "k", notBefore: notBefore, notAfter: notBefore)
        }
    }
}
