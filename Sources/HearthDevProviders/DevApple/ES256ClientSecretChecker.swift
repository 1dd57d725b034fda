import HearthCore
public import HearthCrypto
import JOSE

/// Checks the ES256 signature of the client secrets the dev Apple receives, with the P-256 public keys of the
/// teams' keys by key ID (in `--dev`, `HEARTHDEVKY` → the public half of `dev-apple-client-key.p8`). Each key
/// verifies ES256 only.
public struct ES256ClientSecretChecker: AppleClientSecretChecking {
    private let keys: JWTKeySet

    public init(keys: [String: P256PublicKey]) {
        var set = JWTKeySet()
        for (keyID, key) in keys { set.add(key, keyID: keyID) }
        self.keys = set
    }

    public func signatureIsValid(_ jwt: String, keyID: String) -> Bool {
        (try? keys.verify(jwt, keyID: keyID)) != nil
    }
}
