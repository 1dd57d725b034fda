import Foundation
import HearthProtocol

/// A compact JWS split into its parts, signature not checked. Foundation-only: the Apple RS256 path verifies
/// ``signingInput`` and ``signature`` with Security.framework.
struct CompactJWT: Sendable {
    var header: [String: JSONValue]
    var payload: Data
    /// `<header>.<payload>` as sent: the bytes the signature covers.
    var signingInput: String
    var signature: Data

    var algorithm: String? { header["alg"]?.stringValue }
    var keyID: String? { header["kid"]?.stringValue }

    /// Splits and decodes the token; requires `alg` `RS256`, a `kid`, no `crit`, and a non-empty signature.
    static func parse(_ token: String) throws(IDTokenSignatureError) -> CompactJWT {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty else {
            throw .invalid("the ID token is not a compact JWS")
        }
        guard let headerData = Base64URLText.decode(parts[0]), let payload = Base64URLText.decode(parts[1]),
            let signature = Base64URLText.decode(parts[2])
        else { throw .invalid("the ID token is not base64url") }
        guard let header = (try? JSONValue(parsing: headerData))?.objectValue else {
            throw .invalid("the ID token's header is not a JSON object")
        }
        let jwt = CompactJWT(
            header: header, payload: payload, signingInput: "\(parts[0]).\(parts[1])", signature: signature)
        guard jwt.algorithm == "RS256" else { throw .invalid("the ID token's alg is not RS256") }
        guard header["crit"] == nil else { throw .invalid("the ID token's header uses crit") }
        guard let kid = jwt.keyID, !kid.isEmpty else { throw .invalid("the ID token's header has no kid") }
        return jwt
    }
}

/// The RSA signing keys of a JWKS document (RFC 7517 §5), Foundation-only.
enum JWKSDocument {
    struct RSAKey: Sendable, Equatable {
        var keyID: String
        var modulus: [UInt8]
        var exponent: [UInt8]
    }

    /// The key for `jwt`'s `kid`: `kty` `RSA`, `use` absent or `sig`, `alg` absent or `RS256`, modulus of at least
    /// 2048 bits.
    static func rsaKey(for jwt: CompactJWT, in jwks: Data) throws(IDTokenSignatureError) -> RSAKey {
        guard let keys = (try? JSONValue(parsing: jwks))?["keys"]?.arrayValue else {
            throw .invalid("the issuer's key set is not a JSON Web Key Set")
        }
        let kid = jwt.keyID ?? ""
        guard let jwk = keys.first(where: { $0["kid"]?.stringValue == kid })?.objectValue else {
            throw .unknownKeyID("no key has kid \"\(kid)\"")
        }
        guard jwk["kty"]?.stringValue == "RSA", (jwk["use"]?.stringValue ?? "sig") == "sig",
            (jwk["alg"]?.stringValue ?? "RS256") == "RS256"
        else { throw .invalid("key \(kid) is not an RS256 signing key") }
        guard let n = jwk["n"]?.stringValue.flatMap(Base64URLText.decode),
            let e = jwk["e"]?.stringValue.flatMap(Base64URLText.decode)
        else { throw .invalid("key \(kid) has no valid n and e") }
        let modulus = Array(n.drop(while: { $0 == 0 }))
        guard modulus.count * 8 >= 2048, modulus.count <= 2048 else {
            throw .invalid("key \(kid) is shorter than 2048 bits or too long")
        }
        return RSAKey(keyID: kid, modulus: modulus, exponent: Array(e.drop(while: { $0 == 0 })))
    }
}

/// DER of a PKCS #1 `RSAPublicKey` (RFC 8017 §A.1.1): `SEQUENCE { INTEGER n, INTEGER e }`, the form
/// `SecKeyCreateWithData` takes for RSA public keys.
enum RSAPublicKeyDER {
    static func pkcs1(modulus: [UInt8], exponent: [UInt8]) -> [UInt8] {
        element(tag: 0x30, content: integer(modulus) + integer(exponent))
    }

    /// A non-negative INTEGER: minimal big-endian bytes, with a leading zero when the top bit is set.
    private static func integer(_ magnitude: [UInt8]) -> [UInt8] {
        var bytes = Array(magnitude.drop(while: { $0 == 0 }))
        if bytes.isEmpty { bytes = [0] }
        if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return element(tag: 0x02, content: bytes)
    }

    private static func element(tag: UInt8, content: [UInt8]) -> [UInt8] {
        [tag] + length(content.count) + content
    }

    /// Short form below 128, else long form: 0x80 | byte count, then the big-endian count.
    private static func length(_ count: Int) -> [UInt8] {
        guard count >= 0x80 else { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var remaining = count
        while remaining > 0 {
            bytes.insert(UInt8(remaining & 0xFF), at: 0)
            remaining >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }
}
