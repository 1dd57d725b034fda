import Foundation
import HearthCore
import HearthCrypto
import JOSE

extension DevIdentityProvider {
    /// A fresh PKCE verifier, its S256 challenge, and random `state` and `nonce` values, for a flow the
    /// server starts itself (the `/dev/google/try` page).
    public static func newFlowSecrets() -> (verifier: String, challenge: String, state: String, nonce: String) {
        let verifier = SecureRandom.token()
        return (verifier, Base64URL.encode(SHA256.hash(verifier)), SecureRandom.token(byteCount: 16), SecureRandom.token(byteCount: 16))
    }

    /// A JWT's payload as pretty-printed JSON, for display only (the signature is not checked here).
    public static func displayClaims(of token: String) -> String {
        guard let (_, payload) = try? InsecureJWT.decodeWithoutVerifying(token),
            let object = try? JSONSerialization.jsonObject(with: payload),
            let pretty = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        else { return "(unreadable)" }
        return String(decoding: pretty, as: UTF8.self)
    }
}
