internal import COpenSSL

/// Which part of a key an OpenSSL operation needs.
enum KeyPart {
    case publicKey
    case keyPair

    var selection: Int32 {
        switch self {
        case .publicKey: hearth_openssl_selection_public_key()
        case .keyPair: hearth_openssl_selection_keypair()
        }
    }
}

/// Pointer-level helpers for keys of any type: decoding DER and reading parameters.
///
/// Every function here either returns an `EVP_PKEY *` the caller now owns, or only borrows the pointer it is given.
enum KeyMaterial {
    /// Decodes DER into an `EVP_PKEY`.
    ///
    /// - Parameters:
    ///   - der: the DER bytes.
    ///   - structure: the outer structure: ``CName/privateKeyInfo`` (PKCS#8), ``CName/subjectPublicKeyInfo`` or
    ///     ``CName/typeSpecific`` (PKCS#1 for RSA, SEC 1 for EC).
    ///   - keyType: the key type to decode as (``CName/ec``), or `nil` for any type the structure names itself.
    ///   - part: which part of the key to load.
    /// - Returns: a new `EVP_PKEY *` owned by the caller. Its type is not checked here.
    static func decode(
        der: [UInt8], structure: UnsafePointer<CChar>, keyType: UnsafePointer<CChar>? = nil, part: KeyPart
    ) throws(CryptoError) -> OpaquePointer {
        OpenSSLError.clearQueue()
        var key: OpaquePointer? = nil
        guard let decoder = OSSL_DECODER_CTX_new_for_pkey(&key, CName.der, structure, keyType, part.selection, nil, nil) else {
            OpenSSLError.clearQueue()
            throw CryptoError(.unsupportedFormat, reason: "no decoder for \(String(cString: structure))")
        }
        defer { OSSL_DECODER_CTX_free(decoder) }
        let decoded = der.withUnsafeBufferPointer { buffer -> Bool in
            var cursor = buffer.baseAddress
            var remaining = buffer.count
            return OSSL_DECODER_from_data(decoder, &cursor, &remaining) == 1
        }
        OpenSSLError.clearQueue()
        guard decoded, let key else {
            throw CryptoError(.unsupportedFormat, reason: "the DER is not a readable \(String(cString: structure)) key")
        }
        return key
    }

    /// Reads a public numeric parameter (RSA `n` or `e`, EC `qx` or `qy`) as big-endian bytes without leading zeros.
    static func publicParameter(_ name: UnsafePointer<CChar>, of key: OpaquePointer) -> [UInt8]? {
        var number: OpaquePointer? = nil
        guard EVP_PKEY_get_bn_param(key, name, &number) == 1, let number else {
            OpenSSLError.clearQueue()
            return nil
        }
        defer { BN_free(number) }
        return BigNumber.bytes(of: number)
    }

    /// `key` as an unencrypted PKCS#8 PEM block (`-----BEGIN PRIVATE KEY-----`).
    static func privateKeyPEM(_ key: OpaquePointer) -> String {
        pem(operation: "PEM_write_bio_PrivateKey") { bio in PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) == 1 }
    }

    /// `key` as an SPKI PEM block (`-----BEGIN PUBLIC KEY-----`).
    static func publicKeyPEM(_ key: OpaquePointer) -> String {
        pem(operation: "PEM_write_bio_PUBKEY") { bio in PEM_write_bio_PUBKEY(bio, key) == 1 }
    }

    private static func pem(operation: String, _ write: (OpaquePointer) -> Bool) -> String {
        do {
            return try MemoryBIO.writeText(operation: operation, write)
        } catch {
            // Encoding a valid in-memory key only fails when memory runs out.
            preconditionFailure("\(error)")
        }
    }

    /// Generates a key pair of `keyType`, with `configure` setting its parameters (size, curve) on the context.
    ///
    /// - Returns: a new `EVP_PKEY *` owned by the caller.
    static func generate(_ keyType: UnsafePointer<CChar>, configure: (OpaquePointer) -> Bool) throws(OpenSSLError) -> OpaquePointer {
        OpenSSLError.clearQueue()
        guard let context = EVP_PKEY_CTX_new_from_name(nil, keyType, nil) else {
            throw OpenSSLError.drainingQueue(operation: "EVP_PKEY_CTX_new_from_name")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer? = nil
        guard EVP_PKEY_keygen_init(context) == 1, configure(context), EVP_PKEY_generate(context, &key) == 1, let key else {
            throw OpenSSLError.drainingQueue(operation: "EVP_PKEY_generate")
        }
        return key
    }

    /// Reads an unencrypted PEM private key: PKCS#8 (`-----BEGIN PRIVATE KEY-----`) or the key type's own structure
    /// (`-----BEGIN <typeSpecificLabel>-----`). Encrypted keys are refused rather than prompting for a password; our
    /// copy of the secret DER is wiped once OpenSSL has decoded it.
    ///
    /// - Parameters:
    ///   - text: the PEM text; text before the first block is ignored, and only that block is read.
    ///   - typeSpecificLabel: `"RSA PRIVATE KEY"` (PKCS#1) or `"EC PRIVATE KEY"` (SEC 1).
    ///   - keyType: the key type to decode the type-specific structure as, or `nil` when it needs none.
    /// - Returns: a new `EVP_PKEY *` owned by the caller. Its type is not checked here.
    static func decodePrivateKeyPEM(
        _ text: String, typeSpecificLabel: String, keyType: UnsafePointer<CChar>?
    ) throws(CryptoError) -> OpaquePointer {
        var block = try MemoryBIO.readPEMBlock(text)
        defer { block.der.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress, $0.count) } }
        let structure: UnsafePointer<CChar>
        var decodeAs: UnsafePointer<CChar>? = nil
        switch block.label {
        case "PRIVATE KEY": structure = CName.privateKeyInfo
        case typeSpecificLabel: (structure, decodeAs) = (CName.typeSpecific, keyType)
        case "ENCRYPTED PRIVATE KEY":
            throw CryptoError(.unsupportedFormat, reason: "encrypted private keys are not supported")
        default:
            throw CryptoError(
                .unsupportedFormat, reason: "expected a PRIVATE KEY or \(typeSpecificLabel) PEM block, found \(block.label)")
        }
        guard !block.hasHeaders else {
            throw CryptoError(.unsupportedFormat, reason: "PEM headers (such as encryption) are not supported")
        }
        return try decode(der: block.der, structure: structure, keyType: decodeAs, part: .keyPair)
    }
}
