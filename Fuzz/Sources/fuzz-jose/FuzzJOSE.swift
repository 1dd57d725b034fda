import Foundation
import FuzzSupport
import HearthCrypto
import JOSE

/// JOSE's compact parsing and signature verification, and JWKS import.
///
/// An input that starts with `{` is a JWKS document: it is decoded, imported into a key set (each key's thumbprint
/// taken) and used to verify a valid token, which must fail unless the set holds the token's key. Any other input
/// is a compact token, read without verifying and verified against the fixed session key. A token that verifies
/// must carry exactly the signature the key makes for its signing input (RS256 is deterministic), so any other
/// accepted signature is a forgery.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    if bytes.first == UInt8(ascii: "{") {
        checkKeySet(Data(bytes))
    } else {
        checkToken(String(decoding: bytes, as: UTF8.self))
    }
    return 0
}

private let sessionKeys = TestKeys.session.keySet

/// A valid token for the session key; only a key set with that key may accept it.
private let validToken: String = {
    do {
        return try TestKeys.session.signer.sign(payload: Data(#"{"sub":"fuzz"}"#.utf8))
    } catch {
        fatalError("signing the reference token failed: \(error)")
    }
}()

private func checkToken(_ token: String) {
    let unverified = try? InsecureJWT.decodeWithoutVerifying(token)
    guard let verified = try? sessionKeys.verify(token) else { return }

    require(verified.header.kid == TestKeys.session.keyID && verified.header.alg == "RS256", "accepted a foreign header")
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    require(parts.count == 3, "accepted a token without three segments")
    let signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
    let expected = try? TestKeys.session.privateKey.signSHA256(signingInput)
    require(expected != nil && Base64URL.decode(parts[2]) == expected, "accepted a signature the key did not make")
    if let unverified {
        require(unverified.header == verified.header && unverified.payload == verified.payload,
                "verified and unverified reads of one token differ")
    }
}

private func checkKeySet(_ document: Data) {
    guard let jwks = try? JSONDecoder().decode(JSONWebKeySet.self, from: document) else { return }
    for key in jwks.keys {
        _ = try? key.thumbprint()
    }
    let keys = JWTKeySet(jwks: jwks)
    require(keys.keyIDs.count <= jwks.keys.count, "imported more keys than the set has")
    if (try? keys.verify(validToken)) != nil {
        let publicKey = TestKeys.session.privateKey.publicKey
        let holdsKey = jwks.keys.contains { $0.kid == TestKeys.session.keyID && (try? $0.rsaPublicKey()) == publicKey }
        require(holdsKey, "a key set without the session key accepted its token")
    }
}
