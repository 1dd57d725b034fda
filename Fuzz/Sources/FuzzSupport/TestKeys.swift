import Foundation
public import HearthCrypto
public import JOSE

/// The fixed RSA keys the fuzz targets sign and verify with (`Fuzz/Keys/*.pem`), so that the seed corpora can hold
/// real, valid tokens (`Fuzz/make-seed-tokens` signs them with the same files).
///
/// These keys were made for fuzzing and protect nothing; they are not secrets.
public enum TestKeys {
    /// Hearth's own ID tokens (the session signing key).
    public static let session = TestKey(keyID: "fuzz-session", file: "session.pem")

    /// The Google look-alike issuer's ID tokens. Its key ID has the dev IdP's `devidp-` prefix, so a Hearth store
    /// can hold it as the dev IdP's key.
    public static let issuer = TestKey(keyID: "devidp-fuzz", file: "issuer.pem")
    /// The dev Apple's key (the issuer's key under the dev Apple's key id prefix).
    public static let devApple = TestKey(keyID: "devapple-fuzz", file: "issuer.pem")
}

/// One fixed RSA key with its key ID.
public struct TestKey: Sendable {
    public let keyID: String
    /// The private key in PKCS #8 PEM, as Hearth's store keeps signing keys.
    public let pem: String
    public let privateKey: RSAPrivateKey

    init(keyID: String, file: String) {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Keys").appendingPathComponent(file)
        do {
            pem = try String(contentsOf: url, encoding: .utf8)
            privateKey = try RSAPrivateKey(pemRepresentation: pem)
        } catch {
            fatalError("the fuzzing key \(url.path) does not load: \(error)")
        }
        self.keyID = keyID
    }

    /// Signs tokens with this key and key ID (RS256).
    public var signer: JWTSigner { JWTSigner(privateKey: privateKey, keyID: keyID) }

    /// A key set holding only this key's public half.
    public var keySet: JWTKeySet {
        var keys = JWTKeySet()
        keys.add(privateKey.publicKey, keyID: keyID)
        return keys
    }

    /// The public key as an issuer publishes it.
    public var jwks: JSONWebKeySet { JSONWebKeySet(keys: [JSONWebKey(publicKey: privateKey.publicKey, keyID: keyID)]) }
}
