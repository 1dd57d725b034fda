/// Proof of an identity at a provider, to pass to `Auth.signIn(with:)` or `User.link(with:)`.
///
/// Make one with a provider's factory, e.g. `GoogleAuthProvider.credential(withIDToken:accessToken:)`.
/// The tokens inside are secrets: they are kept internal and print as `<redacted>`.
public struct AuthCredential: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The provider ID, e.g. `google.com`.
    public let provider: String

    /// The provider's ID token (`id_token` in `postBody`).
    let idToken: String?
    /// The provider's access token (`access_token`).
    let accessToken: String?
    /// The raw nonce whose hash is in the ID token (`nonce`).
    let rawNonce: String?
    /// A pending token from an earlier verifyAssertion response, replayed instead of the tokens.
    let pendingToken: String?

    init(provider: String, idToken: String?, accessToken: String?, rawNonce: String? = nil, pendingToken: String? = nil) {
        self.provider = provider
        self.idToken = idToken
        self.accessToken = accessToken
        self.rawNonce = rawNonce
        self.pendingToken = pendingToken
    }

    public var description: String { "AuthCredential(provider: \(provider), tokens: <redacted>)" }
    public var debugDescription: String { description }
}

extension AuthCredential: CustomReflectable {
    /// `dump()` and debuggers see the provider only.
    public var customMirror: Mirror { Mirror(self, children: ["provider": provider, "tokens": "<redacted>"]) }
}

/// Credentials for Google, from the tokens Google Sign-In (or `HearthSignIn`) returned.
///
/// ```swift
/// let credential = GoogleAuthProvider.credential(withIDToken: googleIDToken, accessToken: googleAccessToken)
/// let result = try await Auth.auth().signIn(with: credential)
/// ```
public enum GoogleAuthProvider {
    /// `google.com`.
    public static let id = "google.com"

    /// A credential from a Google ID token and access token.
    public static func credential(withIDToken idToken: String, accessToken: String) -> AuthCredential {
        AuthCredential(provider: id, idToken: idToken, accessToken: accessToken)
    }
}

/// Credentials for any OpenID Connect provider, including Google with a nonce.
public enum OAuthProvider {
    /// A credential from a provider's ID token, the raw nonce whose SHA-256 the ID token carries, and
    /// optionally an access token.
    public static func credential(
        providerID: String, idToken: String, rawNonce: String?, accessToken: String? = nil
    ) -> AuthCredential {
        AuthCredential(provider: providerID, idToken: idToken, accessToken: accessToken, rawNonce: rawNonce)
    }
}
