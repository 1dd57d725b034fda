public import Foundation
public import HearthCore
public import HearthCrypto
import JOSE
import Synchronization

/// Sign in with Apple's client secret: an ES256 JWT signed with the team's `.p8` key, which Hearth sends as
/// `client_secret` to Apple's token and revocation endpoints.
///
/// Header `{"alg":"ES256","kid":<key ID>,"typ":"JWT"}`; claims `iss` = team ID, `iat` = now, `exp` = now + lifetime,
/// `aud` = `https://appleid.apple.com`, `sub` = the client ID (bundle ID or services ID). One secret is kept per
/// client ID and made again once half its lifetime has passed, so a secret handed out always has at least half its
/// lifetime left. Safe to use from many threads.
///
/// ```swift
/// let secrets = try AppleClientSecret(
///     teamID: "ABCDE12345", keyID: "KEY1234567",
///     privateKey: try P256PrivateKey(pemRepresentation: String(contentsOfFile: "AuthKey_KEY1234567.p8")),
///     time: SystemTimeSource())
/// let secret = try secrets.secret(clientID: "com.example.app")
/// ```
public final class AppleClientSecret: Sendable {
    /// The `aud` Apple requires.
    public static let audience = "https://appleid.apple.com"
    /// The longest lifetime allowed: 180 days (Apple refuses secrets that expire more than six months after `iat`).
    public static let maximumLifetime: TimeInterval = 180 * 24 * 3600
    /// The lifetime used when none is given: one hour.
    public static let defaultLifetime: TimeInterval = 3600

    /// The claims of a client secret.
    struct Claims: Codable, Equatable {
        var iss: String
        var iat: Int64
        var exp: Int64
        var aud: String
        var sub: String
    }

    private struct Made {
        var secret: String
        var issuedAt: Int64
    }

    /// The team ID (`iss`).
    public let teamID: String
    /// The key ID (`kid`).
    public let keyID: String
    /// Seconds from `iat` to `exp`, whole.
    public let lifetime: Int64
    private let signer: JWTSigner
    private let time: any TimeSource
    private let made = Mutex<[String: Made]>([:])

    /// - Parameters:
    ///   - teamID: the Apple developer team ID (ten characters, as on the Apple developer site).
    ///   - keyID: the ID of the Sign in with Apple key (the `KEYID` in `AuthKey_KEYID.p8`).
    ///   - privateKey: that key.
    ///   - lifetime: seconds each secret is valid, from 60 to ``maximumLifetime``; one hour by default.
    ///   - time: the clock for `iat` and `exp`.
    /// - Throws: ``AppleClientError`` `.invalidConfiguration` for an empty team or key ID or a lifetime out of range.
    public init(
        teamID: String, keyID: String, privateKey: P256PrivateKey, lifetime: TimeInterval = defaultLifetime,
        time: any TimeSource
    ) throws(AppleClientError) {
        guard !teamID.isEmpty, !keyID.isEmpty else {
            throw AppleClientError(.invalidConfiguration, reason: "Apple's client secret needs a team ID and a key ID")
        }
        guard lifetime >= 60, lifetime <= Self.maximumLifetime else {
            throw AppleClientError(
                .invalidConfiguration, reason: "a client secret's lifetime must be 60 seconds to 180 days, not \(lifetime) seconds")
        }
        self.teamID = teamID
        self.keyID = keyID
        self.lifetime = Int64(lifetime)
        self.signer = JWTSigner(privateKey: privateKey, keyID: keyID)
        self.time = time
    }

    /// The client secret for `clientID`: the one made before while at least half its lifetime is left, else a new one.
    ///
    /// - Throws: ``AppleClientError`` `.invalidConfiguration` for an empty client ID, `.signingFailed` when OpenSSL
    ///   fails.
    public func secret(clientID: String) throws(AppleClientError) -> String {
        guard !clientID.isEmpty else {
            throw AppleClientError(.invalidConfiguration, reason: "Apple's client secret needs a client ID")
        }
        let now = time.nowSeconds
        if let current = made.withLock({ $0[clientID] }), now >= current.issuedAt, now - current.issuedAt < lifetime / 2 {
            return current.secret
        }
        let claims = Claims(iss: teamID, iat: now, exp: now + lifetime, aud: Self.audience, sub: clientID)
        let secret: String
        do {
            secret = try signer.sign(claims)
        } catch {
            throw AppleClientError(.signingFailed, reason: "the client secret could not be signed: \(error)")
        }
        made.withLock { $0[clientID] = Made(secret: secret, issuedAt: now) }
        return secret
    }
}
