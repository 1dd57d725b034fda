import Foundation
import HearthCrypto
package import HearthProtocol
import JOSE
import Synchronization

/// A JWT that a live service account signed with its key: the JWT-bearer grant's assertion, or a custom
/// token. The account is found by the header's `kid` (its `private_key_id`), or by `iss` for signers that
/// send no `kid` (firebase-admin for Node); either way `iss` must be the account's email and the signature
/// must verify with its stored public key. Claims other than `iss` are the caller's to check.
struct ServiceAccountAssertion {
    let account: ServiceAccountRecord
    let claims: [String: JSONValue]

    /// - Parameter refusal: the error to throw, given a detail that names no value from the token, when the
    ///   token is malformed, its signer no live account, or its signature wrong.
    static func verify(_ token: String, store: any HearthStore, refusal: (String) -> any Error) throws
        -> ServiceAccountAssertion
    {
        guard let (header, payload) = try? InsecureJWT.decodeWithoutVerifying(token),
            case .object(let unverified)? = try? JSONValue(parsing: payload),
            let issuer = unverified["iss"]?.stringValue, !issuer.isEmpty
        else { throw refusal("The token is not a signed JWT with a JSON object payload.") }
        let found = try store.read { reader in
            if let keyID = header.kid, !keyID.isEmpty { return try reader.serviceAccount(keyID: keyID) }
            return try reader.serviceAccount(email: issuer)
        }
        guard let account = found, account.revokedAt == nil, account.email == issuer.lowercased() else {
            throw refusal("The token's signer is not a live service account of this project.")
        }
        var keys = JWTKeySet()
        guard let publicKey = parsedKeys.key(pem: account.publicKeyPEM) else {
            throw StoreError(.corrupt, "service account \(account.keyID) has an unreadable public key")
        }
        keys.add(publicKey, keyID: account.keyID, algorithm: .rs256)
        guard let verified = try? keys.verify(token, keyID: account.keyID),
            case .object(let claims)? = try? JSONValue(parsing: verified.payload)
        else { throw refusal("Invalid JWT signature.") }
        return ServiceAccountAssertion(account: account, claims: claims)
    }
}

/// Service accounts' public keys, parsed once: OpenSSL's PEM decoder costs more than the signature check it
/// serves (about a third of a custom-token sign-in). Keyed by the PEM text itself, so a key is never taken for
/// another; bounded, since every service account's key could be presented.
private let parsedKeys = ParsedPublicKeys(capacity: 256)

final class ParsedPublicKeys: Sendable {
    private let keys = Mutex<[String: RSAPublicKey]>([:])
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// The key `pem` holds, or nil when it is not an RSA public key.
    func key(pem: String) -> RSAPublicKey? {
        if let known = keys.withLock({ $0[pem] }) { return known }
        guard let parsed = try? RSAPublicKey(pemRepresentation: pem) else { return nil }
        keys.withLock { keys in
            if keys.count >= capacity { keys.removeAll() }
            keys[pem] = parsed
        }
        return parsed
    }
}

/// The lifetime checks of a signed assertion (a JWT-bearer grant's assertion, a custom token, an Apple client secret),
/// as a ``ClaimsPolicy``: numeric `iat` and `exp`, issued no later than now and not yet expired (each within the
/// allowed skew), `nbf` (when present) reached, and valid for at most `maximumLifetime` seconds. Its signer and
/// audience are the caller's to check.
package enum AssertionLifetime {
    /// A detail for the refusal, or nil when `claims` pass.
    package static func problem(_ claims: [String: JSONValue], now: Int64, skew: Int64, maximumLifetime: Int64 = 3600)
        -> String?
    {
        let policy = ClaimsPolicy(
            leeway: TimeInterval(skew), required: [.issuedAt, .expiresAt], maximumLifetime: maximumLifetime)
        do {
            try policy.check(claims, now: now)
            return nil
        } catch {
            return detail(error, maximumLifetime: maximumLifetime)
        }
    }

    private static func detail(_ violation: ClaimsViolation, maximumLifetime: Int64) -> String {
        switch violation {
        case .missing, .wrongIssuer, .wrongAudience: "The token must have numeric iat and exp claims."
        case .issuedInFuture: "The token's iat is in the future."
        case .expired: "The token has expired."
        case .authenticatedInFuture, .notYetValid: "The token is not valid yet."
        case .lifetimeTooLong: "The token's lifetime (exp - iat) must be at most \(maximumLifetime) seconds."
        }
    }
}
