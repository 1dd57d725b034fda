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
}
