internal import COpenSSL

/// Pointer-level helpers for building, loading and inspecting P-256 (secp256r1, prime256v1) `EVP_PKEY`s.
///
/// Every function here either returns an `EVP_PKEY *` the caller now owns, or only borrows the pointer it is given.
enum P256KeyMaterial {
    /// The length of a coordinate, a private scalar, and each of a signature's r and s.
    static let scalarByteCount = 32

    /// The order n of the curve's base point, big-endian (SEC 2 §2.4.2).
    static let order: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
    ]

    /// The DER `SubjectPublicKeyInfo` of every P-256 key up to its point: SEQUENCE { SEQUENCE { id-ecPublicKey,
    /// prime256v1 }, BIT STRING (66 bytes, no unused bits) … }, followed by the 65-byte uncompressed point.
    static let subjectPublicKeyInfoPrefix: [UInt8] = [
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01,
        0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
    ]

    /// Whether `value` (exactly ``scalarByteCount`` big-endian bytes) lies in [1, n − 1].
    static func isInScalarRange(_ value: ArraySlice<UInt8>) -> Bool {
        value.count == scalarByteCount && value.contains { $0 != 0 } && value.lexicographicallyPrecedes(order)
    }

    /// The DER of a SEC 1 `ECPrivateKey` (RFC 5915) on P-256 holding only the private scalar: version 1, the
    /// 32-byte key, and the named-curve parameters. OpenSSL computes the public point when it decodes it.
    static func sec1PrivateKeyDER(scalar: [UInt8]) -> [UInt8] {
        precondition(scalar.count == scalarByteCount)
        // SEQUENCE (49 bytes) { INTEGER 1, OCTET STRING (32 bytes) … }
        let head: [UInt8] = [0x30, 0x31, 0x02, 0x01, 0x01, 0x04, 0x20]
        // [0] { OBJECT IDENTIFIER 1.2.840.10045.3.1.7 (prime256v1) }
        let parameters: [UInt8] = [0xA0, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
        return head + scalar + parameters
    }

    /// Builds a public-key `EVP_PKEY` from affine coordinates with `EVP_PKEY_fromdata`.
    ///
    /// - Returns: a new `EVP_PKEY *` owned by the caller.
    /// - Throws: ``CryptoError`` `.invalidKey` when (x, y) is not a point on P-256; ``OpenSSLError`` when OpenSSL fails.
    static func buildPublicKey(x: [UInt8], y: [UInt8]) throws -> OpaquePointer {
        precondition(x.count == scalarByteCount && y.count == scalarByteCount)
        OpenSSLError.clearQueue()
        guard let builder = OSSL_PARAM_BLD_new() else {
            throw OpenSSLError.drainingQueue(operation: "OSSL_PARAM_BLD_new")
        }
        defer { OSSL_PARAM_BLD_free(builder) }
        // SEC 1 §2.3.3 uncompressed point: 0x04 ‖ x ‖ y. The builder keeps the pointer it is given and copies the
        // bytes only in `OSSL_PARAM_BLD_to_param`, so the buffer must outlive both calls (an implicitly bridged
        // array would be freed after the push: a use-after-free the fuzz smoke run found).
        let point = [0x04] + x + y
        let parameters = try point.withUnsafeBytes { bytes -> UnsafeMutablePointer<OSSL_PARAM> in
            guard OSSL_PARAM_BLD_push_utf8_string(builder, CName.groupName, CName.p256, 0) == 1,
                OSSL_PARAM_BLD_push_octet_string(builder, CName.encodedPublicKey, bytes.baseAddress, bytes.count) == 1
            else {
                throw OpenSSLError.drainingQueue(operation: "OSSL_PARAM_BLD_push")
            }
            guard let parameters = OSSL_PARAM_BLD_to_param(builder) else {
                throw OpenSSLError.drainingQueue(operation: "OSSL_PARAM_BLD_to_param")
            }
            return parameters
        }
        defer { OSSL_PARAM_free(parameters) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, CName.ec, nil) else {
            throw OpenSSLError.drainingQueue(operation: "EVP_PKEY_CTX_new_from_name")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_fromdata_init(context) == 1 else {
            throw OpenSSLError.drainingQueue(operation: "EVP_PKEY_fromdata_init")
        }
        var key: OpaquePointer? = nil
        guard EVP_PKEY_fromdata(context, &key, KeyPart.publicKey.selection, parameters) == 1, let key else {
            // OpenSSL refuses a point that is not on the curve while importing it.
            OpenSSLError.clearQueue()
            throw CryptoError(.invalidKey, reason: "(x, y) is not a point on P-256")
        }
        return key
    }

    /// Refuses keys that are not EC keys on P-256, and keys that spell the curve out as explicit parameters instead
    /// of naming it (RFC 5480 §2.1.1 requires the name).
    static func checkIsP256(_ key: OpaquePointer) throws(CryptoError) {
        guard EVP_PKEY_is_a(key, CName.ec) == 1 else {
            throw CryptoError(.unsupportedKeyType, reason: "the key is not an EC key")
        }
        let encoding = stringParameter(CName.encoding, of: key)
        let group = stringParameter(CName.groupName, of: key)
        guard encoding == "named_curve", let group else {
            throw CryptoError(.unsupportedKeyType, reason: "the EC key does not name its curve; only P-256 is supported")
        }
        guard group == "prime256v1" else {
            throw CryptoError(.unsupportedKeyType, reason: "the EC key is on curve \(group); only P-256 is supported")
        }
    }

    private static func stringParameter(_ name: UnsafePointer<CChar>, of key: OpaquePointer) -> String? {
        let value = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer -> String? in
            var length = 0
            guard EVP_PKEY_get_utf8_string_param(key, name, buffer.baseAddress, buffer.count, &length) == 1 else { return nil }
            return String(cString: buffer.baseAddress!)
        }
        OpenSSLError.clearQueue()
        return value
    }

    /// Runs OpenSSL's key check: for a public key, that the point is on the curve, in the prime-order subgroup and
    /// not the point at infinity; for a key pair also that the private scalar is in range and matches the point.
    static func check(_ key: OpaquePointer, part: KeyPart) throws {
        OpenSSLError.clearQueue()
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else {
            throw OpenSSLError.drainingQueue(operation: "EVP_PKEY_CTX_new_from_pkey")
        }
        defer { EVP_PKEY_CTX_free(context) }
        let status = switch part {
        case .publicKey: EVP_PKEY_public_check(context)
        case .keyPair: EVP_PKEY_check(context)
        }
        guard status == 1 else {
            let detail = OpenSSLError.drainingQueue(operation: "EVP_PKEY_check")
            throw CryptoError(.invalidKey, reason: "the P-256 key is invalid (\(detail.entries.joined(separator: "; ")))")
        }
    }

    /// The public point's affine coordinates, each exactly ``scalarByteCount`` bytes.
    static func coordinates(of key: OpaquePointer) throws(CryptoError) -> (x: [UInt8], y: [UInt8]) {
        guard let x = KeyMaterial.publicParameter(CName.publicX, of: key),
            let y = KeyMaterial.publicParameter(CName.publicY, of: key),
            x.count <= scalarByteCount, y.count <= scalarByteCount
        else {
            throw CryptoError(.invalidKey, reason: "the key has no P-256 public point")
        }
        func padded(_ bytes: [UInt8]) -> [UInt8] { [UInt8](repeating: 0, count: scalarByteCount - bytes.count) + bytes }
        return (padded(x), padded(y))
    }
}
