internal import COpenSSL

/// Shared, pointer-level helpers for building and inspecting RSA `EVP_PKEY`s.
///
/// Every function here either returns an `EVP_PKEY *` the caller now owns, or only borrows the pointer it is given.
enum RSAKeyMaterial {
    /// Builds an RSA `EVP_PKEY` from big-endian components with `EVP_PKEY_fromdata`.
    ///
    /// - Parameters:
    ///   - components: parameter name and big-endian value pairs.
    ///   - part: whether the result is a public key or a key pair.
    /// - Returns: a new `EVP_PKEY *` owned by the caller.
    static func build(from components: [(name: UnsafePointer<CChar>, value: [UInt8])], part: KeyPart) throws -> OpaquePointer {
        OpenSSLError.clearQueue()
        guard let builder = OSSL_PARAM_BLD_new() else {
            throw OpenSSLError.drainingQueue(operation: "OSSL_PARAM_BLD_new")
        }
        defer { OSSL_PARAM_BLD_free(builder) }

        // The BIGNUMs must outlive OSSL_PARAM_BLD_to_param, which copies them. The name pointers are kept by the
        // builder and the resulting OSSL_PARAMs, which is why they are permanent CName strings.
        var numbers: [OpaquePointer] = []
        defer { numbers.forEach { BN_clear_free($0) } }
        for component in components {
            let value = BigNumber.trimmed(component.value)
            guard !value.isEmpty else {
                throw CryptoError(.invalidKey, reason: "RSA component \(String(cString: component.name)) is zero or empty")
            }
            guard value.count <= Int(Int32.max) else {
                throw CryptoError(.invalidKey, reason: "RSA component \(String(cString: component.name)) is too long")
            }
            // Private components go into BIGNUMs flagged secure, so OpenSSL wipes every copy it makes.
            let isPublic = component.name == CName.modulus || component.name == CName.publicExponent
            guard let number = isPublic ? BN_new() : BN_secure_new() else {
                throw OpenSSLError.drainingQueue(operation: "BN_new")
            }
            numbers.append(number)
            guard BN_bin2bn(value, Int32(value.count), number) != nil,
                OSSL_PARAM_BLD_push_BN(builder, component.name, number) == 1
            else {
                throw OpenSSLError.drainingQueue(operation: "OSSL_PARAM_BLD_push_BN")
            }
        }
        guard let parameters = OSSL_PARAM_BLD_to_param(builder) else {
            throw OpenSSLError.drainingQueue(operation: "OSSL_PARAM_BLD_to_param")
        }
        defer { OSSL_PARAM_free(parameters) }

        guard let context = EVP_PKEY_CTX_new_from_name(nil, CName.rsa, nil) else {
            throw OpenSSLError.drainingQueue(operation: "EVP_PKEY_CTX_new_from_name")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer? = nil
        guard EVP_PKEY_fromdata_init(context) == 1,
            EVP_PKEY_fromdata(context, &key, part.selection, parameters) == 1,
            let key
        else {
            throw OpenSSLError.drainingQueue(operation: "EVP_PKEY_fromdata")
        }
        return key
    }

    /// Whether `key` is a plain RSA key (not RSA-PSS, EC, Ed25519, …).
    static func isRSA(_ key: OpaquePointer) -> Bool {
        EVP_PKEY_is_a(key, CName.rsa) == 1
    }

    /// Whether `key` holds a private exponent.
    static func hasPrivateExponent(_ key: OpaquePointer) -> Bool {
        var number: OpaquePointer? = nil
        guard EVP_PKEY_get_bn_param(key, CName.privateExponent, &number) == 1, let number else {
            OpenSSLError.clearQueue()
            return false
        }
        BN_clear_free(number)
        return true
    }

    /// Checks the public numbers against HearthCrypto's RSA policy.
    ///
    /// - Parameters:
    ///   - modulus: big-endian, without leading zeros.
    ///   - exponent: big-endian, without leading zeros.
    /// - Returns: the modulus length in bits.
    static func validatePublicNumbers(modulus: [UInt8], exponent: [UInt8]) throws(CryptoError) -> Int {
        guard let top = modulus.first else {
            throw CryptoError(.invalidKey, reason: "the RSA modulus is empty")
        }
        let bits = (modulus.count - 1) * 8 + (8 - top.leadingZeroBitCount)
        guard bits >= RSAPublicKey.minimumBitCount else {
            throw CryptoError(.keyTooSmall, reason: "the RSA modulus has \(bits) bits; at least \(RSAPublicKey.minimumBitCount) are required")
        }
        guard bits <= RSAPublicKey.maximumBitCount else {
            throw CryptoError(.keyTooLarge, reason: "the RSA modulus has \(bits) bits; at most \(RSAPublicKey.maximumBitCount) are allowed")
        }
        guard modulus.last! & 1 == 1 else {
            throw CryptoError(.invalidKey, reason: "the RSA modulus is even")
        }
        // OpenSSL refuses public exponents over 64 bits for large moduli (OPENSSL_RSA_MAX_PUBEXP_BITS); apply it always.
        guard let last = exponent.last, exponent.count <= 8, last & 1 == 1, exponent != [1] else {
            throw CryptoError(.invalidKey, reason: "the RSA public exponent must be an odd number between 3 and 2^64")
        }
        return bits
    }
}
