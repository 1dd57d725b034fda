#if canImport(Security)
import Foundation
import Security

/// Apple platforms: RS256 with Security.framework. The token and key-set parsing is shared, Foundation-only code
/// (``CompactJWT``, ``JWKSDocument``, ``RSAPublicKeyDER``) that the Linux tests cover; only the two `SecKey` calls
/// are specific to this file.
enum SecuritySignatureCheck {
    static func verify(_ token: String, jwks: Data) throws(IDTokenSignatureError) -> Data {
        let jwt = try CompactJWT.parse(token)
        let key = try JWKSDocument.rsaKey(for: jwt, in: jwks)
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeRSA,
            kSecAttrKeyClass as String: kSecAttrKeyClassPublic,
        ]
        var error: Unmanaged<CFError>?
        let der = Data(RSAPublicKeyDER.pkcs1(modulus: key.modulus, exponent: key.exponent))
        guard let publicKey = SecKeyCreateWithData(der as CFData, attributes as CFDictionary, &error) else {
            error?.release()
            throw .invalid("key \(key.keyID) of the issuer's key set is not a usable RSA public key")
        }
        let verified = SecKeyVerifySignature(
            publicKey, .rsaSignatureMessagePKCS1v15SHA256, Data(jwt.signingInput.utf8) as CFData,
            jwt.signature as CFData, &error)
        error?.release()
        guard verified else { throw .invalid("the signature does not verify with key \(key.keyID)") }
        return jwt.payload
    }
}
#endif
