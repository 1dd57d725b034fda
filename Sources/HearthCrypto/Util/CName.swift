#if canImport(Glibc)
import Glibc
#endif

/// Names passed to OpenSSL calls that may keep the `const char *` instead of copying it.
///
/// Several OpenSSL 3 functions store the name pointer they are given and read it later: `OSSL_PARAM_BLD_push_*`
/// (until `OSSL_PARAM_BLD_to_param`, and the resulting `OSSL_PARAM`s point at it too), `EVP_PKEY_CTX_new_from_name`
/// (its key type) and `OSSL_DECODER_CTX_new_for_pkey` (its input type and structure). A Swift `String` passed to a C
/// parameter only lives for the duration of the call, so those calls get these permanent copies instead.
enum CName {
    // nonisolated(unsafe): each pointer is set once, at first use, to a string that is never written or freed;
    // reading it from any thread is safe.
    nonisolated(unsafe) static let rsa = permanent("RSA")
    nonisolated(unsafe) static let ec = permanent("EC")
    nonisolated(unsafe) static let der = permanent("DER")
    nonisolated(unsafe) static let privateKeyInfo = permanent("PrivateKeyInfo")
    nonisolated(unsafe) static let subjectPublicKeyInfo = permanent("SubjectPublicKeyInfo")
    nonisolated(unsafe) static let typeSpecific = permanent("type-specific")

    // RSA key parameters (core_names.h, OSSL_PKEY_PARAM_RSA_*).
    nonisolated(unsafe) static let modulus = permanent("n")
    nonisolated(unsafe) static let publicExponent = permanent("e")
    nonisolated(unsafe) static let privateExponent = permanent("d")
    nonisolated(unsafe) static let prime1 = permanent("rsa-factor1")
    nonisolated(unsafe) static let prime2 = permanent("rsa-factor2")
    nonisolated(unsafe) static let exponent1 = permanent("rsa-exponent1")
    nonisolated(unsafe) static let exponent2 = permanent("rsa-exponent2")
    nonisolated(unsafe) static let coefficient = permanent("rsa-coefficient1")

    // EC key parameters (core_names.h, OSSL_PKEY_PARAM_GROUP_NAME, _EC_ENCODING, _PUB_KEY, _EC_PUB_X/Y) and
    // P-256's group name.
    nonisolated(unsafe) static let groupName = permanent("group")
    nonisolated(unsafe) static let encoding = permanent("encoding")
    nonisolated(unsafe) static let encodedPublicKey = permanent("pub")
    nonisolated(unsafe) static let publicX = permanent("qx")
    nonisolated(unsafe) static let publicY = permanent("qy")
    nonisolated(unsafe) static let p256 = permanent("prime256v1")

    private static func permanent(_ name: String) -> UnsafePointer<CChar> {
        guard let copy = strdup(name) else { preconditionFailure("out of memory") }
        return UnsafePointer(copy)
    }
}
