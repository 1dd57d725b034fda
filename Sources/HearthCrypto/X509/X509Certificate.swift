internal import COpenSSL
public import Foundation

#if canImport(Glibc)
internal import Glibc
#endif

/// X.509 certificates for publishing signing keys in the format Google's securetoken certificate endpoint uses.
///
/// Related OpenSSL documentation: <https://www.openssl.org/docs/man3.0/man3/X509_sign.html>
public enum X509Certificate {
    /// Creates a self-signed X.509 v3 certificate for `key`.
    ///
    /// The subject and issuer are both `CN=<commonName>`; the serial number is 16 random bytes made positive; the
    /// certificate carries `basicConstraints` (critical, `CA:FALSE`) and `keyUsage` (critical,
    /// `digitalSignature`), and is signed with SHA-256 and `key` (sha256WithRSAEncryption).
    ///
    /// - Parameters:
    ///   - key: the key whose public half is certified and that signs the certificate.
    ///   - commonName: the subject and issuer common name, 1 to 64 characters (RFC 5280 `ub-common-name`).
    ///   - notBefore: the start of the validity period; whole seconds are kept.
    ///   - notAfter: the end of the validity period; must be after `notBefore`.
    /// - Returns: the certificate as a PEM block (`-----BEGIN CERTIFICATE-----`).
    /// - Throws: ``CryptoError`` `.invalidArgument` for a bad common name or validity period; ``OpenSSLError`` when
    ///   OpenSSL fails.
    public static func selfSignedPEM(
        for key: RSAPrivateKey, commonName: String, notBefore: Date, notAfter: Date
    ) throws -> String {
        guard (1...64).contains(commonName.count), !commonName.utf8.contains(0) else {
            throw CryptoError(.invalidArgument, reason: "the common name must have 1 to 64 characters and no NUL")
        }
        let start = notBefore.timeIntervalSince1970.rounded(.down)
        let end = notAfter.timeIntervalSince1970.rounded(.down)
        guard start < end else {
            throw CryptoError(.invalidArgument, reason: "notAfter must be later than notBefore")
        }
        // ASN1_TIME can express years 0000–9999.
        let range = -62_167_219_200.0...253_402_300_799.0
        guard range.contains(start), range.contains(end) else {
            throw CryptoError(.invalidArgument, reason: "the validity period is outside the years 0–9999")
        }

        OpenSSLError.clearQueue()
        guard let certificate = X509_new() else {
            throw OpenSSLError.drainingQueue(operation: "X509_new")
        }
        defer { X509_free(certificate) }

        try key.withKey { privateKey in
            guard X509_set_version(certificate, Int(X509_VERSION_3)) == 1 else {
                throw OpenSSLError.drainingQueue(operation: "X509_set_version")
            }
            try setRandomSerial(of: certificate)
            guard ASN1_TIME_set(X509_getm_notBefore(certificate), time_t(start)) != nil,
                ASN1_TIME_set(X509_getm_notAfter(certificate), time_t(end)) != nil
            else {
                throw OpenSSLError.drainingQueue(operation: "ASN1_TIME_set")
            }
            let commonNameBytes = Array(commonName.utf8)
            guard let name = X509_get_subject_name(certificate),
                X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, commonNameBytes, Int32(commonNameBytes.count), -1, 0) == 1,
                X509_set_issuer_name(certificate, name) == 1
            else {
                throw OpenSSLError.drainingQueue(operation: "X509_NAME_add_entry_by_txt")
            }
            // X509_set_pubkey stores only the public half of the key pair.
            guard X509_set_pubkey(certificate, privateKey) == 1 else {
                throw OpenSSLError.drainingQueue(operation: "X509_set_pubkey")
            }
            try addExtension(NID_basic_constraints, "critical,CA:FALSE", to: certificate)
            try addExtension(NID_key_usage, "critical,digitalSignature", to: certificate)
            guard X509_sign(certificate, privateKey, EVP_sha256()) > 0 else {
                throw OpenSSLError.drainingQueue(operation: "X509_sign")
            }
        }
        return try MemoryBIO.writeText(operation: "PEM_write_bio_X509") { bio in
            PEM_write_bio_X509(bio, certificate) == 1
        }
    }

    private static func setRandomSerial(of certificate: OpaquePointer) throws {
        var serial = SecureRandom.bytes(count: 16)
        serial[0] &= 0x7F  // positive (RFC 5280 §4.1.2.2)
        serial[0] |= 0x40  // and never zero, with a fixed length of 16 bytes
        guard let number = BN_bin2bn(serial, Int32(serial.count), nil) else {
            throw OpenSSLError.drainingQueue(operation: "BN_bin2bn")
        }
        defer { BN_free(number) }
        guard BN_to_ASN1_INTEGER(number, X509_get_serialNumber(certificate)) != nil else {
            throw OpenSSLError.drainingQueue(operation: "BN_to_ASN1_INTEGER")
        }
    }

    private static func addExtension(_ nid: Int32, _ value: String, to certificate: OpaquePointer) throws {
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, certificate, certificate, nil, nil, 0)
        guard let ext = X509V3_EXT_nconf_nid(nil, &context, nid, value) else {
            throw OpenSSLError.drainingQueue(operation: "X509V3_EXT_nconf_nid")
        }
        defer { X509_EXTENSION_free(ext) }
        guard X509_add_ext(certificate, ext, -1) == 1 else {
            throw OpenSSLError.drainingQueue(operation: "X509_add_ext")
        }
    }
}

/// What ``X509Certificate/parse(pem:)`` reads back from a certificate. Internal: only tests and diagnostics use it.
struct ParsedCertificate {
    var version: Int
    var serialNumber: [UInt8]
    var serialIsNegative: Bool
    var subjectCommonName: String?
    var issuerCommonName: String?
    var notBefore: Date
    var notAfter: Date
    var publicKey: RSAPublicKey
    /// Whether the certificate's signature verifies under its own public key.
    var isSelfSignatureValid: Bool
    var signatureAlgorithm: String
    var basicConstraintsCritical: Bool
    var isCA: Bool
}

extension X509Certificate {
    /// Whether `pem` is one X.509 certificate (a `CERTIFICATE` PEM block whose DER parses), trusted or not: how a
    /// SAML identity provider's certificate is checked when it is configured.
    public static func isCertificate(pem: String) -> Bool {
        guard let block = try? MemoryBIO.readPEMBlock(pem), block.label == "CERTIFICATE", !block.der.isEmpty else {
            return false
        }
        OpenSSLError.clearQueue()
        let parsed: OpaquePointer? = block.der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_X509(nil, &cursor, buffer.count)
        }
        OpenSSLError.clearQueue()
        guard let parsed else { return false }
        X509_free(parsed)
        return true
    }
}

extension X509Certificate {
    /// Reads a PEM certificate. It does not check any trust: only that the structure parses and what it says.
    static func parse(pem: String) throws -> ParsedCertificate {
        let block = try MemoryBIO.readPEMBlock(pem)
        guard block.label == "CERTIFICATE" else {
            throw CryptoError(.unsupportedFormat, reason: "expected a CERTIFICATE PEM block, found \(block.label)")
        }
        OpenSSLError.clearQueue()
        let parsed: OpaquePointer? = block.der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_X509(nil, &cursor, buffer.count)
        }
        guard let certificate = parsed else {
            throw OpenSSLError.drainingQueue(operation: "d2i_X509")
        }
        defer { X509_free(certificate) }

        guard let embedded = X509_get_pubkey(certificate) else {  // returns a new reference, adopted below
            throw OpenSSLError.drainingQueue(operation: "X509_get_pubkey")
        }
        let publicKey = try RSAPublicKey(adopting: embedded)
        let selfSignatureValid = publicKey.withKey { X509_verify(certificate, $0) == 1 }
        OpenSSLError.clearQueue()

        var serialNegative = false
        var serialBytes: [UInt8] = []
        if let serial = X509_get0_serialNumber(certificate), let number = ASN1_INTEGER_to_BN(serial, nil) {
            serialNegative = BN_is_negative(number) == 1
            serialBytes = BigNumber.bytes(of: number)
            BN_free(number)
        }

        var criticality: Int32 = -1
        var isCA = false
        if let constraints = X509_get_ext_d2i(certificate, NID_basic_constraints, &criticality, nil) {
            let typed = constraints.assumingMemoryBound(to: BASIC_CONSTRAINTS.self)
            isCA = typed.pointee.ca != 0
            BASIC_CONSTRAINTS_free(typed)
        }

        let nid = X509_get_signature_nid(certificate)
        return ParsedCertificate(
            version: Int(X509_get_version(certificate)) + 1,
            serialNumber: serialBytes,
            serialIsNegative: serialNegative,
            subjectCommonName: commonName(of: X509_get_subject_name(certificate)),
            issuerCommonName: commonName(of: X509_get_issuer_name(certificate)),
            notBefore: try date(X509_get0_notBefore(certificate)),
            notAfter: try date(X509_get0_notAfter(certificate)),
            publicKey: publicKey,
            isSelfSignatureValid: selfSignatureValid,
            signatureAlgorithm: String(cString: OBJ_nid2ln(nid)),
            basicConstraintsCritical: criticality == 1,
            isCA: isCA)
    }

    private static func commonName(of name: OpaquePointer?) -> String? {
        guard let name else { return nil }
        let index = X509_NAME_get_index_by_NID(name, NID_commonName, -1)
        guard index >= 0, let entry = X509_NAME_get_entry(name, index), let data = X509_NAME_ENTRY_get_data(entry) else {
            return nil
        }
        var utf8: UnsafeMutablePointer<UInt8>? = nil
        let length = ASN1_STRING_to_UTF8(&utf8, data)
        guard length >= 0, let utf8 else { return nil }
        defer { hearth_openssl_free(utf8) }
        return String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self)
    }

    private static func date(_ time: UnsafePointer<ASN1_TIME>?) throws -> Date {
        var parts = tm()
        guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else {
            throw OpenSSLError.drainingQueue(operation: "ASN1_TIME_to_tm")
        }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }
}
