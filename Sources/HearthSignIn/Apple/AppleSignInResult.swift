public import Foundation

/// What Sign in with Apple returned: pass ``idToken``, ``rawNonce`` and ``fullName`` to HearthAuth's
/// `OAuthProvider.appleCredential(withIDToken:rawNonce:fullName:)`, and keep ``authorizationCode`` only as long as
/// needed (it is single-use and expires after five minutes; `Auth.revokeToken(withAuthorizationCode:)` takes one).
public struct AppleSignInResult: Sendable, CustomStringConvertible {
    /// Apple's ID token, verified (signature against the issuer's `/auth/keys`, `iss`, `aud`, `exp`, `iat`, `nonce`).
    public var idToken: String
    /// Apple's authorization code.
    public var authorizationCode: String
    /// The raw nonce whose lowercase hex SHA-256 the ID token's `nonce` claim carries.
    public var rawNonce: String
    /// The name from Apple's `user` JSON. Apple sends it on the first authorization of the app only.
    public var fullName: PersonNameComponents?
    /// The user's stable ID at Apple (`sub`).
    public var userID: String
    /// The email in the ID token, which may be a private relay address (`…@privaterelay.appleid.com`).
    public var email: String?

    public var description: String {
        "AppleSignInResult(userID: \(userID), email: \(email ?? "-"), tokens: <redacted>)"
    }
}
